"""Any pack as a PettingZoo environment (``rulekit.env``): PettingZoo's own checks, the answers
it gives the engine, its rewards and errors, its games, and what it shows each role."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers_leak import alter, any_card, by_type_and_owner, reask
from pettingzoo.test import api_test, parallel_api_test, seed_test

from rulekit import IllegalActionError, UsageError, load_pack, simulate
from rulekit.env import RulekitEnv, make, parallel_env
from rulekit.errors import GameRuntimeError

DOCS = Path(__file__).resolve().parent.parent / "docs"
PACKS = ["carchase", pytest.param("rednotice", marks=pytest.mark.slow),
         str(DOCS / "examples" / "hideout")]


@pytest.fixture(autouse=True)
def _quiet_advice() -> Any:
    """PettingZoo's checks also give advice (agent names like ``player_0``...) as warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("pack", PACKS)
def test_pettingzoo_api_and_seed_tests_pass(pack: str, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    api_test(make(pack, seed=3), num_cycles=1000)
    seed_test(lambda: make(pack, seed=3))
    parallel_api_test(parallel_env(pack, seed=3), num_cycles=1000)
    assert capsys.readouterr().out.count("Passed") == 2


def _random_game(env: RulekitEnv) -> dict[str, float]:
    """The next game, played by a random policy (``sample`` with the mask): each agent's final
    reward."""
    env.reset()
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, ended, cut, _ = env.last()
        if ended or cut:
            rewards[agent] = reward
            env.step(None)
        else:
            env.step(env.action_space(agent).sample(obs["action_mask"]))
    return rewards


@pytest.mark.slow
def test_a_random_policy_wins_as_often_as_rulekit_simulate() -> None:
    """1,000 Car Chase games: the environment's run of seed 0 plays the games of `rulekit
    simulate --seed 0`."""
    env = make("carchase", seed=0)
    for agent in env.possible_agents:
        env.action_space(agent).seed(1)
    games = 1000
    law = sum(_random_game(env)["law"] > 0 for _ in range(games))
    result = simulate("carchase", games=games, seed=0)
    low, high = result.ci95["law"]
    assert low <= law / games <= high, (law, result.wins)


def test_rewards_are_one_for_the_winner_and_zero_for_a_draw(duel_pack: Path) -> None:
    env = make(duel_pack, seed=1)
    env.reset()
    for answer in (1, 1, 1):  # Red and Blue pick the same number each round: a draw
        for agent in ("red", "blue"):
            assert env.agent_selection == agent
            index = env.actions.first_value + answer
            assert env.observe(agent)["action_mask"][index] == 1
            env.step(index)
    assert env.terminations == {"red": True, "blue": True}
    assert env.rewards == {"red": 0.0, "blue": 0.0}
    env.reset()
    for answer in ("red", 2), ("blue", 0), ("red", 2), ("blue", 0), ("red", 0), ("blue", 0):
        env.step(env.actions.first_value + answer[1])
    assert env.rewards == {"red": 1.0, "blue": -1.0}
    assert env.observation("red")["result"]["winner"] == "red"


def test_an_illegal_action_is_refused_with_the_legal_ones(duel_pack: Path) -> None:
    env = make(duel_pack, seed=1)
    env.reset()
    with pytest.raises(IllegalActionError) as caught:
        env.step(0)
    first = env.actions.first_value
    assert caught.value.message == (f"action 0 is illegal for red; legal actions: {first} "
                                    f"(value 1), {first + 1} (value 2), {first + 2} (value 3)")
    assert env.agent_selection == "red"  # nothing happened
    with pytest.raises(IllegalActionError, match=r"action 2\.5 is illegal"):
        env.step(2.5)  # type: ignore[arg-type]


def test_a_subset_is_answered_item_by_item() -> None:
    """Car Chase's exchange: take the first five cards of the hand; the others may only be
    left, as five is the most (discard_limit)."""
    env = make("carchase", seed=5)
    env.reset()
    decision = env.answers["law"].decision
    assert decision.kind == "subset" and len(decision.items) == 10
    hand = list(decision.items)
    for k in range(10):
        legal = np.flatnonzero(env.observe("law")["action_mask"])
        item = env.actions.index[hand[k]]
        assert list(legal) == ([0, item] if k < 5 else [0])
        env.step(item if k < 5 else 0)
    assert env.agent_selection == "fugitive"
    discard = env.observation("law")["zones"]["discard"]["cards"]
    assert sorted(discard) == sorted(hand[:5])


def test_the_second_to_decide_learns_nothing_of_the_first_ones_answer() -> None:
    """In a contest both decide at once; the Fugitive is shown the same whatever the Law
    played (its info tells only that the Law has answered)."""
    shown = []
    for take in (False, True):
        env = make("carchase", seed=5)
        env.reset()
        while env.answers["law"].decision.prompt.startswith("Discard"):
            env.step(0)
            if env.agent_selection == "fugitive":
                env.step(0)
                while env.agent_selection == "fugitive":
                    env.step(0)
        assert {"law", "fugitive"} <= set(env.answers)  # the Search contest
        while env.agent_selection == "law":
            legal = np.flatnonzero(env.observe("law")["action_mask"])
            env.step(legal[-1] if take else 0)
        obs = env.observe("fugitive")
        info = env.infos["fugitive"]["observe"]
        shown.append((obs["observation"].tolist(), obs["action_mask"].tolist(),
                       json.dumps(info, sort_keys=True)))
        assert info["waiting_for"] == ["fugitive"]
    assert shown[0] == shown[1]


def test_a_value_that_cannot_be_vectorized_names_its_declaration(make_pack: Any) -> None:
    folder = make_pack(files={"game.yaml": _DUEL_WITH_A_LIST})
    with pytest.raises(UsageError) as caught:
        make(folder)
    assert caught.value.message.startswith(
        f"the variable 'picked' ({folder / 'game.yaml'}:8:3) holds 1, which an observation "
        "vector cannot show")


def test_too_many_values_in_one_question_say_how_many_slots(duel_pack: Path) -> None:
    env = make(duel_pack, seed=1, value_slots=2)
    with pytest.raises(UsageError) as caught:
        env.reset()
    assert "'Pick a number' offers more than 2 items" in caught.value.message
    assert caught.value.hint == "make the environment with value_slots=3"


def test_render_prints_the_table_of_the_agent_to_act(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    env = make("carchase", seed=2, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text is not None and "Car Chase" in text and "The Law" in text
    hand = env.observation("law")["zones"]["hand.law"]["cards"]
    assert load_pack("carchase").game.label(hand[0]).split(" (")[0] in text
    human = make("carchase", seed=2, render_mode="human")
    human.reset()
    assert human.render() is None
    assert capsys.readouterr().out == text


# ---------------------------------------------------------------- secrecy

# pack -> (what may take an unseen card's place, games, share of decision points checked)
LEAK_PACKS: dict[str, tuple[Any, int, float]] = {
    "carchase": (any_card, 12, 1.0),
    "rednotice": (by_type_and_owner, 2, 0.25),
}


def _shown(env: RulekitEnv, role: str) -> tuple[list[float], list[int], str]:
    """What the environment gives ``role``: its vector, its mask, its info (as in
    helpers_leak, without the option ids a decision derives from its items)."""
    obs = env.observed(role, role in env.answers)
    seen = dict(env.infos[role]["observe"])
    seen["decisions"] = [{k: v for k, v in d.items() if k != "ids"} for d in seen["decisions"]]
    return (obs["observation"].tolist(), obs["action_mask"].tolist(),
            json.dumps(seen, sort_keys=True))


@pytest.mark.parametrize("pack", ["carchase", pytest.param("rednotice", marks=pytest.mark.slow)])
def test_the_environment_shows_a_role_nothing_beyond_observe(pack: str) -> None:
    """Over whole games: the secrets a role cannot see are dealt again (helpers_leak); its
    vector, action mask and info must not change."""
    kind, games, share = LEAK_PACKS[pack]
    real_env, altered_env = make(pack), make(pack)
    game = real_env.game
    compared = 0
    for number in range(games):
        rand = random.Random(number)
        state = game.new_game(number)
        while state["result"] is None:
            if rand.random() < share:
                base = {**state, "log": []}
                real_env.reset(options={"state": reask(game, base)})  # type: ignore[arg-type]
                for role in game.roles:
                    try:
                        altered = reask(game, alter(game, base, role, rand, kind))  # type: ignore[arg-type]
                    except GameRuntimeError:
                        continue
                    altered_env.reset(options={"state": altered})
                    assert _shown(real_env, role) == _shown(altered_env, role), (number, role)
                    compared += 1
            actions = {d.player: d.sample(rand) for d in game.pending(state)}
            state = game.apply(state, actions, in_place=True)
    assert compared >= 100


_DUEL_WITH_A_LIST = """\
cards:
  - {id: ace, name: Ace, score: 1}
zones:
  deck: {visibility: hidden, initial: all}
  hand: {per_role: true, visibility: owner}
variables:
  points: {per_role: true, initial: 0}
  picked: {initial: [1]}
flow:
  rounds: 1
  phases:
    - id: pick
      name: Pick
      do: |
        let r = choose red one of [1, 2, 3] prompt "Pick a number"
        win red "Red picked"
"""


def test_pettingzoo_s_wrapper_ends_the_game_on_an_illegal_action() -> None:
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper

    env = TerminateIllegalWrapper(make("carchase", seed=1), illegal_reward=-1)
    env.reset()
    env.step(50)  # law may take or leave the first card of its hand, not card 50
    assert env.terminations == {"law": True, "fugitive": True}
    assert env.rewards == {"law": -1, "fugitive": 0}


def test_a_game_goes_on_from_a_given_state(duel_pack: Path) -> None:
    env = make("carchase")
    game = env.game
    state = game.new_game(4)
    state = game.apply(state, {"law": "none"})
    env.reset(options={"state": state})
    assert env.agent_selection == "fugitive"
    assert env.observation("fugitive") == game.observe(state, "fugitive")
    with pytest.raises(UsageError, match="that state is not of the pack 'carchase'"):
        env.reset(options={"state": load_pack(duel_pack).game.new_game(1)})


def test_without_the_rl_extra_the_import_says_what_to_install() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['pettingzoo'] = None; import rulekit.env"],
        capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "ModuleNotFoundError: rulekit.env needs pettingzoo: pip install 'rulekit[rl]'")


def test_the_vector_shows_what_the_role_sees_and_names_each_number() -> None:
    env = make("carchase", seed=6)
    env.reset()
    shown = dict(zip(env.encoder.names, env.observe("law")["observation"].tolist(), strict=True))
    hand = env.observation("law")["zones"]["hand.law"]["cards"]
    assert shown["hand.law"] == shown["hand.fugitive"] == 10 and shown["deck"] == 58
    assert {card for card in env.game.symbols.cards if shown[f"hand.law: {card}"]} == set(hand)
    assert not any(v for name, v in shown.items() if name.startswith("hand.fugitive: "))
    assert shown["phase draw"] == shown["round"] == shown["asked"] == shown["subset"] == 1
    assert shown[f"offered: {hand[0]}"] == shown[f"asked now: {hand[0]}"] == 1
    assert not any(v for name, v in shown.items() if name.startswith("taken: "))
    env.step(env.actions.index[hand[0]])
    shown = dict(zip(env.encoder.names, env.observe("law")["observation"].tolist(), strict=True))
    assert shown[f"taken: {hand[0]}"] == shown[f"asked now: {hand[1]}"] == 1


def test_each_reset_plays_the_next_game_of_simulate_s_run() -> None:
    from rulekit.engine.rng import derive

    env = make("carchase", seed=3)
    game = env.game
    for n in range(3):
        env.reset()
        assert env.observation("law") == game.observe(game.new_game(derive(3, n)), "law")
    env.reset(seed=3)  # a new run of seed 3
    assert env.observation("law") == game.observe(game.new_game(derive(3, 0)), "law")
