"""Tests of the Red Notice pack (games/rednotice/).

The pack's scenarios test the rules through play, and what each player sees (RN-47), with
``rulekit test rednotice``; this file adds what scenarios cannot see: that every scenario passes
and every rule id of rules.yaml is covered, that observations are plain data, and that random
games end by the rules.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.game import Game, State
from rulekit.model.program import zone_key
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.scenarios.runner import ScenarioRun, run_scenarios

RULE_IDS = [f"RN-{i:02d}" for i in range(1, 48)]
SCENARIO_TOPICS = ["setup", "programming", "resolution", "actions", "movement-and-radars",
                   "capture-and-identities", "bank-and-upgrades", "end", "hidden"]
PACK_FOLDER = Path(__file__).resolve().parent.parent / "games" / "rednotice"


@pytest.fixture(scope="module")
def pack() -> LoadedPack:
    return load_pack("rednotice")


@pytest.fixture(scope="module")
def game(pack: LoadedPack) -> Game:
    return pack.game


@pytest.fixture(scope="module")
def scenario_run(pack: LoadedPack) -> ScenarioRun:
    return run_scenarios(pack)


# ------------------------------------------------------------------ helpers

def key(ref: str) -> str:
    """``card_at[1]`` -> the state key of that pile (or variable)."""
    match = re.fullmatch(r"([A-Za-z_]\w*)(?:\[([\w\-]+)\])?", ref)
    assert match, ref
    name, index = match.groups()
    return zone_key(name, index) if index else name


def start(game: Game, phase: str, zones: dict[str, list[str]] | None = None,
          variables: dict[str, Any] | None = None, round: int = 1, seed: int = 0) -> State:
    """A state at the start of ``phase`` (setup skipped) with the listed piles (top first;
    listed cards are taken from wherever they are) and variables, run to its first decision."""
    state = game.start_state(seed, round=round, phase=phase)
    listed = {card for cards in (zones or {}).values() for card in cards}
    for pile in state["zones"].values():
        pile[:] = [card for card in pile if card not in listed]
    for ref, cards in (zones or {}).items():
        state["zones"][key(ref)] = list(reversed(cards))
    for ref, value in (variables or {}).items():
        state["vars"][key(ref)] = value
    return game.run(state)


def play(game: Game, state: State, *steps: dict[str, str]) -> State:
    for step in steps:
        state = game.apply(state, step, in_place=True)
    return state


def public_log(game: Game, observation: dict[str, Any]) -> list[str]:
    return [game.format_event(event) for event in observation["log"]]


# ------------------------------------------------------------------ rules and scenarios

def test_rules_file_lists_rn01_to_rn47(pack: LoadedPack) -> None:
    assert [rule_id for rule_id, _ in pack.rules] == RULE_IDS
    assert all(text.strip() for _, text in pack.rules)


def test_scenario_files_by_topic(pack: LoadedPack) -> None:
    names = {path.stem for path in pack.scenario_files}
    missing = set(SCENARIO_TOPICS) - names
    assert not missing, f"scenario files missing: {sorted(missing)}"


def test_all_scenarios_pass(scenario_run: ScenarioRun) -> None:
    failed = [str(result) for result in scenario_run.results if not result.passed]
    assert not failed, "\n".join(failed)
    assert scenario_run.passed >= 100


def test_every_rule_is_covered_by_a_passing_scenario(pack: LoadedPack,
                                                     scenario_run: ScenarioRun) -> None:
    coverage = scenario_run.coverage()
    rule_ids = [rule_id for rule_id, _ in pack.rules]
    uncovered = [rule_id for rule_id in rule_ids if not coverage.get(rule_id)]
    assert not uncovered, f"rules without a passing scenario: {uncovered}"
    unknown = sorted(set(coverage) - set(rule_ids))
    assert not unknown, f"scenarios name rules that rules.yaml lacks: {unknown}"


def test_readme_maps_every_rule(pack: LoadedPack) -> None:
    readme = (PACK_FOLDER / "README.md").read_text(encoding="utf-8")
    for rule_id in RULE_IDS:
        assert f"| {rule_id} |" in readme, f"{rule_id} is missing from the README's table"
    assert "Choices where the rulebook is silent" in readme


# ------------------------------------------------------------------ RN-47: what each player sees
# What each player sees in given situations is asserted by scenarios/hidden.yaml (`sees`,
# `never_sees`, `log_for`, `options_for`); tests/test_rednotice_hidden.py checks it over random
# games. What stays here is what a scenario cannot say: that an observation is plain data.


def test_observations_are_plain_data_at_every_step_of_a_game(game: Game) -> None:
    rng = random.Random(7)
    state = game.new_game(7)
    while not game.is_over(state) and state["round"] <= 3:
        for role in game.roles:
            seen = game.observe(state, role)
            assert json.loads(json.dumps(seen)) == seen
            other = "jessah" if role == "angela" else "angela"
            assert all(event["to"] in (None, role) for event in seen["log"])
            for s in range(1, 9):
                pile = seen["zones"][key(f"face_down[{s}]")]["cards"]
                real = state["zones"][key(f"face_down[{s}]")]
                assert [c for c in pile if c is not None] == \
                    [c for c in real if game.symbols.cards[c].get("owner") == role]
            assert "cards" not in seen["zones"][key(f"checks[{other}]")]
            assert "cards" not in seen["zones"][key(f"drawn[{other}]")]
        if "angela_at" in game.observe(state, "jessah")["vars"]:
            pytest.fail("Jessah sees angela_at")
        decisions = game.pending(state)
        game.apply(state, {d.player: d.sample(rng) for d in decisions}, in_place=True)


# ------------------------------------------------------------------ random games

@pytest.mark.parametrize("block", range(4))
def test_random_games_end_by_the_rules(game: Game, block: int) -> None:
    """200 random games (50 a block): each ends with a winner by RN-02 or RN-03 within
    300 rounds, and only at the instant its condition first holds (RN-46)."""
    for seed in range(block * 50, block * 50 + 50):
        rng = random.Random(seed)
        state = game.new_game(seed)
        while not game.is_over(state):
            assert state["round"] <= 300, f"seed {seed}: no winner after 300 rounds"
            decisions = game.pending(state)
            assert decisions, f"seed {seed}: the game waits for nobody"
            game.apply(state, {d.player: d.sample(rng) for d in decisions}, in_place=True)
        winner = game.winner(state)
        assert winner in ("angela", "jessah"), f"seed {seed}: {state['result']}"
        values = state["vars"]
        if winner == "angela":
            assert values["cashed_total"] >= 1_000_000
            assert values["cashed_total"] < 1_000_000 + 200_000
            assert values["captures"] <= 2
        else:
            assert values["captures"] == 3
            assert values["cashed_total"] < 1_000_000
            assert len(state["zones"]["burned"]) == 2 and not state["zones"]["identities"]
        # Components are conserved: 18 Checks, 10 Barriers/Radars on the board or in reserve.
        checks = [c for pile in state["zones"].values() for c in pile
                  if game.symbols.cards[c].get("type") == "check"]
        assert len(checks) == 18
        on_board = sum(len(state["zones"][k]) for k in state["zones"]
                       if k.startswith(("barrier_on.", "radar_on.")))
        assert on_board + len(state["zones"]["reserve"]) == 10
        assert all(len(state["zones"][k]) <= 1 for k in state["zones"]
                   if k.startswith(("barrier_on.", "radar_on.")))
        assert 0 <= values["security"] <= 4


# ------------------------------------------------------------------ pack bugs found (reported)

def test_interpol_during_security_keeps_one_radar_per_continent(game: Game) -> None:
    state = start(game, "resolution",
                  zones={"card_at[1]": ["act_05"], "face_down[1]": ["j_tok_3#1"],
                         "reserve": ["radar#1", "radar#2"], "upgrades": ["up_interpol"]},
                  variables={"angela_at": "tokyo", "jessah_at": "paris"})
    play(game, state, {"jessah": "!interpol"}, {"jessah": "europe"})
    decision = game.decision_for(state, "jessah")
    assert decision is not None
    assert "europe" not in [option.id for option in decision.options()]


def test_interpol_using_the_last_radar_does_not_crash_security(game: Game) -> None:
    state = start(game, "resolution",
                  zones={"card_at[1]": ["act_05"], "face_down[1]": ["j_tok_3#1"],
                         "reserve": ["radar#1"], "upgrades": ["up_interpol"]},
                  variables={"angela_at": "tokyo", "jessah_at": "paris"})
    play(game, state, {"jessah": "!interpol"}, {"jessah": "europe"})
    decision = game.decision_for(state, "jessah")
    assert decision is None or "asia" not in [option.id for option in decision.options()]


def test_jessah_banks_in_the_city_where_she_stands(game: Game) -> None:
    state = start(game, "resolution",
                  zones={"card_at[1]": ["act_02"], "face_down[2]": ["j_tok_3#1"],
                         "checks[jessah]": ["chk_eu_1", "chk_af_1"],
                         "upgrades": ["up_satellite"], "identities": ["id_decoy", "id_ghost"]},
                  variables={"angela_at": "rome", "jessah_at": "madrid"})
    play(game, state, {"jessah": "!satellite"}, {"jessah": "rome"},
         {"angela": "id_decoy"}, {"angela": "casablanca"}, {"angela": "paris"})
    assert state["vars"]["jessah_at"] == "casablanca"
    decision = game.decision_for(state, "jessah")
    assert decision is not None and decision.prompt == "Cash a Check"
    assert "chk_eu_1" not in [option.id for option in decision.options()]


def test_a_satellite_capture_ends_jessahs_movement(game: Game) -> None:
    state = start(game, "resolution",
                  zones={"card_at[1]": ["act_01"], "face_down[1]": ["j_tok_3#1"],
                         "upgrades": ["up_satellite"],
                         "identities": ["id_safehouse", "id_ghost"]},
                  variables={"angela_at": "tokyo", "jessah_at": "madrid"})
    play(game, state, {"jessah": "paris"}, {"jessah": "!satellite"}, {"jessah": "tokyo"},
         {"angela": "id_safehouse"}, {"angela": "beijing"})
    decision = game.decision_for(state, "jessah")
    assert decision is not None
    assert decision.prompt != "Move to (or stop)"


def test_analyst_never_lowers_jessahs_hand_limit() -> None:
    game = load_pack("rednotice", {"hand_limit": 8}).game
    state = start(game, "resolution",
                  zones={"card_at[1]": ["act_07"], "face_down[2]": ["a_tok_3#1"],
                         "checks[angela]": ["chk_eu_3"], "offer": ["up_analyst"]},
                  variables={"angela_at": "paris", "jessah_at": "tokyo",
                             "limit[angela]": 8, "limit[jessah]": 8})
    play(game, state, {"angela": "chk_eu_3"})
    assert "up_analyst" in state["zones"]["upgrades"]
    assert state["vars"][key("limit[jessah]")] > 8


def test_checks_match_the_colours_of_the_map(game: Game) -> None:
    """Every Check's colour is a continent of the map, and each continent has 3 Checks:
    two of $100,000 and one of $200,000 (the pack's design of the 18 Checks)."""
    regions = game.symbols.board.regions
    checks = [c for c in game.symbols.cards.values() if c.get("type") == "check"]
    assert len(checks) == 18
    for region in regions:
        values = sorted(c["value"] for c in checks if c["color"] == region)
        assert values == [100000, 100000, 200000], region
    assert {c["color"] for c in checks} == set(regions)
    colours = [r["color"] for r in regions.values()]
    assert len(set(colours)) == len(colours) == 6


def test_one_payment_removes_one_white_token_and_the_log_says_so(game: Game) -> None:
    """RN-34: boxed in, Angela is asked; she pays 2, one token goes, and both players read who
    paid, what it cost and which token went."""
    state = start(game, "resolution",
                  zones={"card_at[1]": ["act_09"], "face_down[1]": ["a_tok_3#1"],
                         "card_at[2]": ["act_01"], "face_down[3]": ["j_tok_1#1"],
                         "reserve": [], "barrier_on[berlin-moscow]": ["barrier#1"],
                         "barrier_on[moscow-beijing]": ["barrier#2"]},
                  variables={"angela_at": "moscow", "jessah_at": "tokyo", "security": 2})
    decision = game.decision_for(state, "angela")
    assert decision is not None
    assert [o.id for o in decision.options()] == ["none", "!remove_white"]
    play(game, state, {"angela": "!remove_white"})
    inner = game.decision_for(state, "angela")
    assert inner is not None and "!remove_white" not in [o.id for o in inner.options()]
    play(game, state, {"angela": "berlin-moscow"})
    lines = public_log(game, game.observe(state, "jessah"))
    assert lines[-1] == ("Angela spends 2 Security: the Barrier on Berlin - Moscow goes back "
                         "to Jessah's reserve.")
    assert state["vars"]["security"] == 0 and state["zones"]["reserve"] == ["barrier#1"]



@pytest.mark.parametrize(("jessah_at", "cashes"), [("darwin", False), ("london", True)])
def test_the_bots_value_cashing_only_out_of_jessahs_reach(game: Game, jessah_at: str,
                                                          cashes: bool) -> None:
    """Cashing names Angela's city (RN-28): next to Jessah, her evaluation keeps the Check."""
    from rulekit.bots.evaluation import pack_evaluation
    from rulekit.engine.game import copy_state

    state = start(game, "resolution",
                  zones={"card_at[1]": ["act_07"], "face_down[2]": ["a_tok_3#1"],
                         "checks[angela]": ["chk_oc_3", "chk_eu_1"],
                         "identities": ["id_decoy", "id_ghost"]},
                  variables={"angela_at": "sydney", "jessah_at": jessah_at})
    decision = game.decision_for(state, "angela")
    assert decision is not None and decision.prompt == "Cash a Check"
    evaluate, value = pack_evaluation(game), {}
    for answer in ("none", "chk_oc_3"):
        after = game.apply(copy_state(state), {"angela": answer}, in_place=True)
        value[answer] = evaluate(game, after, "angela")
    assert (value["chk_oc_3"] > value["none"]) is cashes


def test_the_bots_value_a_city_with_no_open_route_below_one_with_some(game: Game) -> None:
    """A city all of whose routes hold Barriers is a dead end for Angela (RN-38)."""
    from rulekit.bots.evaluation import pack_evaluation

    evaluate, value = pack_evaluation(game), {}
    for barriers in ([], ["new_york-chicago", "chicago-los_angeles"]):
        state = start(game, "resolution",
                      zones={"card_at[1]": ["act_07"], "face_down[1]": ["a_tok_3#1"],
                             **{f"barrier_on[{e}]": [f"barrier#{i + 1}"]
                                for i, e in enumerate(barriers)}},
                      variables={"angela_at": "chicago", "jessah_at": "tokyo"})
        value[len(barriers)] = evaluate(game, state, "angela")
    assert value[2] < value[0]
