"""The built-in bots: named with parameters, they play every shipped pack to the end by the rules.

Strength is measured by ``benchmarks/bench_bots.py``, not here.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulekit.bots.evaluation import Evaluation, outcome
from rulekit.bots.heuristic import HeuristicAgent
from rulekit.bots.ismcts import IsmctsAgent
from rulekit.bots.registry import load_agent, parse_agents
from rulekit.engine.game import Game
from rulekit.errors import PackErrors, UsageError
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game
from tests.helpers_cli import runner


def test_built_in_agents_are_named_with_parameters() -> None:
    agent = load_agent("ismcts:iterations=400")
    assert isinstance(agent, IsmctsAgent) and agent.iterations == 400
    agent = load_agent("ismcts:seconds=0.5:depth=10")
    assert isinstance(agent, IsmctsAgent) and agent.seconds == 0.5 and agent.depth == 10
    assert isinstance(load_agent("heuristic"), HeuristicAgent)
    assert parse_agents("law=ismcts:iterations=300,fugitive=heuristic") == {
        "law": "ismcts:iterations=300", "fugitive": "heuristic"}


@pytest.mark.parametrize(("spec", "message", "hint"), [
    ("ismcts:iteratons=3", "unknown parameter 'iteratons'", "iterations"),
    ("ismcts:iterations=many", "iterations must be a whole number, not 'many'", None),
    ("ismcts:iterations=0", "iterations must be from 1 to 1,000,000", None),
    ("ismcts:iterations=" + "9" * 30, "iterations must be from 1 to 1,000,000", None),
    ("ismcts:seconds=nan", "seconds must be more than 0 and at most 3,600", None),
    ("ismcts:seconds=inf", "seconds must be more than 0 and at most 3,600", None),
    ("ismcts:seconds=0", "seconds must be more than 0 and at most 3,600", None),
    ("ismcts:depth=-1", "depth must be from 0 to 10,000", None),
    ("ismcts:exploration=nan", "exploration must be from 0 to 100", None),
    ("ismcts:public=1.5", "public must be from 0 to 1", None),
    ("ismcts:public=nan", "public must be from 0 to 1", None),
    ("heuristic:samples=100000", "samples must be from 1 to 10,000", None),
    ("ismcts:depth", "expected ismcts:KEY=VALUE", None),
    ("heuristic:depth=2", "unknown parameter 'depth'", "samples"),
])
def test_bad_agent_parameters_are_clear_messages(spec: str, message: str,
                                                 hint: str | None) -> None:
    with pytest.raises(UsageError) as caught:
        load_agent(spec)
    assert message in caught.value.message
    if hint:
        assert hint in (caught.value.hint or "")


def test_a_module_path_is_still_a_module_path() -> None:
    with pytest.raises(UsageError, match="no module named 'nosuchmodule'"):
        load_agent("nosuchmodule:Agent")


@pytest.mark.slow
@pytest.mark.parametrize("pack", ["carchase", "rednotice"])
def test_ismcts_seats_play_shipped_packs_to_the_end(pack: str) -> None:
    """Short games (3 turns; a goal of one Check) end by the rules, with the default depth in
    one seat and rollouts in the other."""
    params = {"turns": 3} if pack == "carchase" else {"goal": 100000}
    game = load_pack(pack, params).game
    seats = [{game.roles[0]: IsmctsAgent(iterations=3)},
             {game.roles[1]: IsmctsAgent(iterations=3, depth=4)}]
    for seed, seat in enumerate(seats):
        record = play_game(game, seed, seat, max_rounds=12)
        assert record.decisions > 0
        assert not record.capped and record.winner in game.roles, record


def test_ismcts_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    game = load_pack("carchase", {"turns": 2}).game
    runs = [play_game(game, 5, {"law": IsmctsAgent(iterations=4, depth=6),
                                "fugitive": HeuristicAgent(samples=1)})
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_a_seat_whose_belief_is_lost_answers_as_rollouts_do(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no state to search on, the bots play the rollout policy (a largest subset most of
    the time), not a uniform answer."""
    from rulekit.bots.agent import View
    from rulekit.bots.rollout import rollout_choice

    game = load_pack("carchase").game
    state = game.new_game(1)
    decision = game.decision_for(state, "law")
    assert decision is not None and decision.kind == "subset"

    class Lost:
        lost = True

    monkeypatch.setattr(View, "belief", property(lambda view: Lost()))
    for agent in (IsmctsAgent(iterations=2), HeuristicAgent()):
        for seed in range(12):
            view = View.of(game, "law", random.Random(seed), state)
            assert agent.choose(view, decision) == rollout_choice(decision, random.Random(seed))


def test_an_anytime_action_is_taken_only_if_it_scores_better_by_a_margin() -> None:
    """An anytime action that gains nothing the evaluation sees (it leads to a question that
    may go back) is not taken: taking it again and again stalled games."""
    from rulekit.bots.anytime import MARGIN, unless_idle

    game = load_pack("rednotice").game
    state, rng = game.new_game(0), random.Random(0)
    while not any(d.extras for d in game.pending(state)):
        game.apply(state, {d.player: d.sample(rng) for d in game.pending(state)}, in_place=True)
    decision = next(d for d in game.pending(state) if d.extras)
    tried = decision.options()
    extra, own = decision.extras[0], [o for o in tried if o not in decision.extras]
    values = {o.id: 0.5 for o in tried}
    values[own[1].id] = 0.6
    for gain, chosen in [(0.0, own[1]), (MARGIN / 2, own[1]), (2 * MARGIN, extra)]:
        values[extra.id] = 0.6 + gain
        assert unless_idle(extra, tried, decision, lambda o: values[o.id]) == chosen
    assert unless_idle(own[0], tried, decision, lambda o: values[o.id]) == own[0]


def _detour_state() -> tuple[Game, dict[str, Any]]:
    """A Red Notice state where a player is offered an anytime action (random play)."""
    game = load_pack("rednotice").game
    state, rng = game.new_game(0), random.Random(0)
    while not any(d.extras for d in game.pending(state)):
        game.apply(state, {d.player: d.sample(rng) for d in game.pending(state)}, in_place=True)
    return game, state


@pytest.mark.parametrize("make", [lambda e: IsmctsAgent(iterations=20, evaluate=e),
                                  lambda e: HeuristicAgent(samples=2, evaluate=e)])
def test_a_seat_back_where_it_took_an_anytime_action_does_not_take_it_again(
        make: Callable[[Evaluation], IsmctsAgent | HeuristicAgent]) -> None:
    """An evaluation that likes being inside the anytime action's own question makes the seat
    take it; declined there, the seat is back at the same question with nothing new and
    answers it (Angela once went round that loop for minutes)."""
    from rulekit.bots.agent import View

    game, state = _detour_state()
    decision = next(d for d in game.pending(state) if d.extras)
    role, prompt = decision.player, decision.prompt

    def inside(game: Game, state: dict[str, Any], role: str) -> float:
        asked = game.decision_for(state, role)
        return 0.9 if asked is not None and not asked.extras else 0.1

    agent, seat = make(inside), random.Random(1)
    first = agent.choose(View.of(game, role, seat, state), decision)
    assert first.id in {o.id for o in decision.extras}
    game.apply(state, {role: first.id}, in_place=True)
    game.apply(state, {role: "none"}, in_place=True)  # declined inside its own question
    again = game.decision_for(state, role)
    assert again is not None and again.prompt == prompt
    answer = agent.choose(View.of(game, role, seat, state), again)
    assert answer.id not in {o.id for o in again.extras}


def test_the_heuristic_agent_takes_a_winning_move_with_an_evaluation() -> None:
    """With an evaluation that prefers fewer cards in the Law's hand, the agent discards."""
    game = load_pack("carchase", {"turns": 1}).game
    state = game.new_game(1)

    def fewer_cards(game: object, state: dict[str, object], role: str) -> float:
        zones = state["zones"]
        assert isinstance(zones, dict)
        return -float(len(zones["discard"]) == 0)

    from rulekit.bots.agent import View

    agent = HeuristicAgent(samples=1, evaluate=fewer_cards)
    decision = game.decision_for(state, "law")
    assert decision is not None
    chosen = agent.choose(View.of(game, "law", random.Random(0), state), decision)
    assert chosen.id != "none"
    assert outcome(game, state, "law") == 0.5


def test_simulate_takes_built_in_agents_with_parameters(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = runner(capsys)("simulate", "carchase", "-n", "1", "--param", "turns=1",
                             "--agents", "law=ismcts:iterations=3:depth=3,fugitive=heuristic")
    assert code == 0, err
    assert "law=ismcts:iterations=3:depth=3" in out


def test_a_pack_declares_its_evaluation_per_role(tmp_path: Path) -> None:
    from rulekit.bots.evaluation import pack_evaluation

    game = load_pack("carchase").game
    state = game.new_game(3)
    evaluate = pack_evaluation(game)
    cards = game.symbols.cards

    def power(role: str, types: str) -> int:
        return sum(cards[c]["score"] for c in state["zones"][f"hand.{role}"]
                   if cards[c]["type"] in types)

    # at the Draw of turn 1 every card that may be played this turn counts
    law = (power("law", "ICPL") - power("fugitive", "FCEL")) // 3 - 6
    assert state["phase"] == "draw" and state["round"] == 1
    assert evaluate(game, state, "law") == pytest.approx(
        0.05 + 0.9 * (law / (10 + abs(law)) + 1) / 2)
    assert 0.05 < evaluate(game, state, "fugitive") < 0.95

    folder = tmp_path / "carchase"
    shutil.copytree(load_pack("carchase").folder, folder)
    flow = folder / "flow.yaml"
    flow.write_text(flow.read_text().replace("    law: >-", "    lawe: >-"))
    with pytest.raises(PackErrors) as caught:
        load_pack(folder)
    text = str(caught.value)
    assert "unknown role 'lawe'" in text and "flow.yaml:" in text and "law" in text



@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_with_an_ismcts_seat_counts_each_game_and_any_workers_agree(
        workers: int) -> None:
    from rulekit.sim.simulation import simulate

    agents = {"law": "ismcts:iterations=2:depth=2"}
    seen: list[int] = []
    result = simulate("carchase", {"turns": 2}, games=4, seed=3, agents=agents,
                      workers=workers, progress=seen.append)
    assert seen == [1, 1, 1, 1]  # the progress moves with each game, not with each chunk
    alone = simulate("carchase", {"turns": 2}, games=4, seed=3, agents=agents, workers=1)
    assert (result.wins, result.mean_rounds, result.decisions) == (
        alone.wins, alone.mean_rounds, alone.decisions)


def test_the_levels_are_ismcts_budgets_that_a_named_budget_replaces() -> None:
    easy, normal, hard = (load_agent(name) for name in ("easy", "normal", "hard"))
    assert isinstance(easy, IsmctsAgent) and easy.iterations == 100 and easy.seconds is None
    assert isinstance(normal, IsmctsAgent) and normal.seconds == 1.0
    assert isinstance(hard, IsmctsAgent) and hard.seconds == 3.0
    fixed = load_agent("normal:iterations=50:depth=2")
    assert isinstance(fixed, IsmctsAgent) and (fixed.iterations, fixed.seconds, fixed.depth) \
        == (50, None, 2)
    assert (easy.public, normal.public, hard.public, fixed.public) == (0, 0.5, 0.5, 0.5)
    with pytest.raises(UsageError) as caught:
        load_agent("hard:iteratons=5")
    assert "unknown parameter 'iteratons'" in caught.value.message


def test_play_help_names_the_levels_and_seats_normal(
        capsys: pytest.CaptureFixture[str]) -> None:
    from rulekit.play.seats import parse_seats

    with pytest.raises(SystemExit):
        runner(capsys)("play", "--help")
    out = " ".join(capsys.readouterr().out.split())
    assert "easy: instant; normal: about 1 s a move; hard: about 3 s" in out
    assert parse_seats([], ["law", "fugitive"]) == {"law": "human", "fugitive": "normal"}


@pytest.mark.parametrize(("rule", "answers"), [
    ("if r >= b { points[red] += 1 }", 1),  # 3 is never worse: always played
    ("if r == b { points[red] += 1 }", 2),  # a guess: the answer varies
])
def test_at_a_simultaneous_choice_the_answer_is_drawn_among_the_best(
        make_pack: Callable[..., Path], rule: str, answers: int) -> None:
    from rulekit.bots.agent import View

    folder = make_pack(replace={"game.yaml": ("if r > b { points[red] += 1 }", rule),
                                "pack.yaml": ("default: 3", "default: 1")})
    game = load_pack(folder).game
    state = game.new_game(0)
    [decision] = [d for d in game.pending(state) if d.player == "red"]
    agent = IsmctsAgent(iterations=300, depth=5)  # (rollouts to the end: no evaluation)
    seen = {agent.choose(View.of(game, "red", random.Random(seed), state), decision).id
            for seed in range(24)}
    assert seen == {"3"} if answers == 1 else len(seen) >= answers
