"""Tests of the Car Chase pack (games/carchase/).

The scenarios of the pack test the rules through play, and what each player may observe
(CC-16, CC-18); this file adds what scenarios cannot see: the card list against the rulebook
(CC-04), who is asked to decide when, refused answers at the engine level (CC-09, CC-15), that
a committed answer cannot be changed, and that every scenario passes and every rule id of
rules.yaml is covered.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rulekit.engine.game import Game, State
from rulekit.errors import IllegalActionError
from rulekit.model.program import zone_key
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.scenarios.runner import run_scenarios

RULE_IDS = [f"CC-{i:02d}" for i in range(1, 19)]

# The rulebook's card list (rulebooks/carchase.txt, "CARD LIST"), in its order: name, type, score.
RULEBOOK_CARDS: list[tuple[str, str, int]] = [
    ("Survivalists Camp", "F", 5), ("Biker Gang", "F", 4), ("On The Run", "F", 8),
    ("Breaking all the Rules", "F", 12), ("I Fought the Law", "F", 11), ("Lie Low", "F", 1),
    ("Disc Jockey", "F", 3), ("One Step Ahead", "F", 9), ("Wise Old Indian", "F", 7),
    ("Lone Wolf", "F", 10), ("Chop Shop", "F", 6), ("Police Scanner", "F", 2),
    ("Hero of the People", "F", 13),
    ("The Law Won", "I", 3), ("Leg Work", "I", 1), ("Decent Citizen", "I", 4),
    ("Land Line", "I", 5), ("Informer", "I", 6), ("Wanted Posters", "I", 2),
    ("Trace Phone Call", "I", 7), ("Nowhere to Run", "I", 10), ("All Points Bulletin", "I", 12),
    ("Be on the Lookout", "I", 11), ("Bust", "I", 8), ("Raid", "I", 9),
    ("Hot on the Trail", "I", 13),
    ("Wheelie", "C", 2), ("Skid", "C", 1), ("High Octane", "C", 6), ("Tires Screeching", "C", 4),
    ("Brakes Squealing", "C", 2), ("Hit Fruit Cart", "C", 1), ("Over Drive", "C", 5),
    ("Gun It", "C", 4), ("Zoom Zoom Zoom", "C", 3), ("Pedal to the Metal", "C", 10),
    ("Peel Out", "C", 5), ("Stunt Driving", "C", 7), ("Burn Rubber", "C", 6),
    ("Desperate Move", "C", 7), ("Three Sixty", "C", 3), ("Go Airborne", "C", 9),
    ("Flatbed Trailer Ramp", "C", 8), ("18 Wheeler", "C", 8), ("High Speed Pursuit", "C", 9),
    ("State Troopers", "P", 10), ("Road Spikes", "P", 9), ("Police Chopper", "P", 5),
    ("FBI Helicopter", "P", 6), ("Speed Trap", "P", 8), ("Smokey", "P", 13),
    ("Road Block", "P", 12), ("Sheriff", "P", 7), ("Federal Agents", "P", 11),
    ("Backup", "P", 4), ("Checkpoint", "P", 1), ("Out of Gas", "P", 3), ("Patrol Cars", "P", 2),
    ("Muscle Car", "E", 10), ("Eat My Dust", "E", 9), ("Cop Car Pile Up", "E", 8),
    ("Double Back", "E", 7), ("Cross State Line", "E", 1), ("Disguise", "E", 6),
    ("Smoke", "E", 5), ("Night", "E", 2), ("Storm", "E", 3), ("Jump", "E", 4),
    ("Wild Goose Chase", "E", 11), ("Run Blockade", "E", 12), ("Blocked Intersection", "E", 13),
    ("Truck Stop", "L", 1), ("Tunnel", "L", 2), ("Warehouse", "L", 3), ("Bridge", "L", 4),
    ("Rail Road Crossing", "L", 5), ("Ferry", "L", 6), ("Route 51", "L", 7),
]
KINDS = {"F": "Fugitive", "I": "Investigation", "C": "Chase", "P": "Capture", "E": "Escape",
         "L": "Location"}


@pytest.fixture(scope="module")
def pack() -> LoadedPack:
    return load_pack("carchase")


@pytest.fixture(scope="module")
def game(pack: LoadedPack) -> Game:
    return pack.game


def hand(role: str) -> str:
    return zone_key("hand", role)


def start(game: Game, phase: str, zones: dict[str, list[str]] | None = None,
          round: int = 1) -> State:
    """A state at the start of ``phase`` with the given piles (cards listed top first; the
    cards not listed stay in the deck), run up to its first decision."""
    state = game.start_state(0, round=round, phase=phase)
    piles = state["zones"]
    for key, cards in (zones or {}).items():
        pushed = [c for c in piles[key] if c not in cards]
        for pile in piles.values():
            pile[:] = [c for c in pile if c not in cards]
        piles[key] = list(reversed(cards))
        piles["deck"][:0] = [c for c in pushed if c not in piles["deck"]]
    assert sorted(c for pile in piles.values() for c in pile) == sorted(game.symbols.cards)
    return game.run(state)


def pending(game: Game, state: State) -> list[str]:
    return sorted(d.player for d in game.pending(state))


# ------------------------------------------------------------------ the cards (CC-04)


def test_rulebook_list_is_complete() -> None:
    assert len(RULEBOOK_CARDS) == 78
    assert len({name for name, _, _ in RULEBOOK_CARDS}) == 78


def test_pack_has_exactly_the_rulebook_cards(game: Game) -> None:
    cards = game.symbols.cards
    assert len(cards) == 78
    actual = [(c["name"], c["type"], c["score"]) for c in cards.values()]
    assert actual == RULEBOOK_CARDS
    for card in cards.values():
        assert card["kind"] == KINDS[card["type"]], card["id"]


def test_counts_per_type(game: Game) -> None:
    counts = Counter(c["type"] for c in game.symbols.cards.values())
    assert counts == {"F": 13, "I": 13, "C": 19, "P": 13, "E": 13, "L": 7}


@pytest.mark.parametrize("card_type, scores", [
    ("F", list(range(1, 14))),
    ("I", list(range(1, 14))),
    ("P", list(range(1, 14))),
    ("E", list(range(1, 14))),
    ("L", list(range(1, 8))),
    ("C", [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10]),
])
def test_scores_per_type(game: Game, card_type: str, scores: list[int]) -> None:
    actual = sorted(c["score"] for c in game.symbols.cards.values() if c["type"] == card_type)
    assert actual == scores


def test_whole_pack_starts_in_the_deck(game: Game) -> None:
    state = game.initial_state(0)
    assert sorted(state["zones"]["deck"]) == sorted(game.symbols.cards)


# ------------------------------------------------------------------ rules and scenarios


def test_rules_file_lists_cc01_to_cc18(pack: LoadedPack) -> None:
    assert [rule_id for rule_id, _ in pack.rules] == RULE_IDS
    assert all(text.strip() for _, text in pack.rules)


def test_all_scenarios_pass(pack: LoadedPack) -> None:
    run = run_scenarios(pack)
    assert len(run.results) >= 40
    failures = [str(r) for r in run.results if not r.passed]
    assert not failures, "\n".join(failures)


def test_every_rule_is_covered_by_a_passing_scenario(pack: LoadedPack) -> None:
    run = run_scenarios(pack)
    coverage = run.coverage()
    rule_ids = [rule_id for rule_id, _ in pack.rules]
    uncovered = [rule_id for rule_id in rule_ids if not coverage.get(rule_id)]
    assert not uncovered
    unknown = sorted(set(coverage) - set(rule_ids))
    assert not unknown, f"scenarios name rules that rules.yaml lacks: {unknown}"


# ------------------------------------------------------------------ who decides when


def test_setup_then_law_exchanges_first_then_fugitive(game: Game) -> None:
    state = game.new_game(0)
    assert (state["round"], state["phase"]) == (1, "draw")
    assert pending(game, state) == ["law"]                       # CC-08, CC-09: Law first
    decision = game.decision_for(state, "law")
    assert decision is not None and decision.max == 5 and decision.min == 0
    state = game.apply(state, {"law": "none"})
    assert pending(game, state) == ["fugitive"]
    state = game.apply(state, {"fugitive": "none"})
    # The Draw phase is over: what comes next are the Search choices (CC-06).
    assert (state["round"], state["phase"]) != (1, "draw")


def test_both_players_decide_at_once_in_every_contest(game: Game) -> None:
    state = start(game, "search", {hand("law"): ["bust", "skid", "smokey"],
                                   hand("fugitive"): ["lie_low", "wheelie", "night"]})
    for phase, law, fugitive in [("search", "bust", "lie_low"), ("chase", "skid", "none"),
                                 ("escape", "none", "night")]:
        assert state["phase"] == phase
        assert pending(game, state) == ["fugitive", "law"]
        state = game.apply(state, {"law": law, "fugitive": fugitive})
    assert (state["round"], state["phase"]) == (2, "draw")


def test_only_allowed_cards_are_offered(game: Game) -> None:
    state = start(game, "search", {
        hand("law"): ["bust", "ferry", "tunnel", "skid", "smokey", "lone_wolf"],
        hand("fugitive"): ["one_step_ahead", "bridge", "wheelie", "night", "raid"],
    })
    law = game.decision_for(state, "law")
    fugitive = game.decision_for(state, "fugitive")
    assert law is not None and fugitive is not None
    assert sorted(law.items) == ["bust", "ferry", "tunnel"]              # I and L only
    assert sorted(fugitive.items) == ["bridge", "one_step_ahead"]        # F and L only


# ------------------------------------------------------------------ refused answers


def test_exchanging_six_cards_is_refused(game: Game) -> None:
    state = start(game, "draw")
    cards = state["zones"][hand("law")][:6]
    with pytest.raises(IllegalActionError, match="not 6"):
        game.apply(state, {"law": "+".join(cards)})
    five = game.apply(state, {"law": "+".join(cards[:5])})
    assert len(five["zones"][hand("law")]) == 10
    assert sorted(five["zones"]["discard"]) == sorted(cards[:5])


def test_a_card_of_another_phase_is_refused_with_its_name_and_why(game: Game) -> None:
    state = start(game, "search", {hand("law"): ["bust", "smokey", "ferry"],
                                   hand("fugitive"): ["lone_wolf"]})
    with pytest.raises(IllegalActionError) as info:
        game.apply(state, {"law": "bust+smokey"})
    assert info.value.message == \
        "Smokey (Capture) cannot be played in the Search phase."


def test_two_location_cards_are_refused_in_every_contest(game: Game) -> None:
    for phase, law_card, fugitive_card in [("search", "bust", "lone_wolf"),
                                           ("chase", "skid", "wheelie"),
                                           ("escape", "smokey", "night")]:
        state = start(game, phase, {hand("law"): [law_card, "ferry", "tunnel"],
                                    hand("fugitive"): [fugitive_card, "bridge", "route_51"]})
        law = game.decision_for(state, "law")
        assert law is not None
        # Refused in the rulebook's words (the pack's 'else' text, CC-15).
        with pytest.raises(IllegalActionError,
                           match=r"^Only one Location card may be played per phase\.$"):
            game.apply(state, {"law": f"{law_card}+ferry+tunnel"})
        with pytest.raises(IllegalActionError,
                           match=r"^Only one Location card may be played per phase\.$"):
            game.apply(state, {"fugitive": f"{fugitive_card}+bridge+route_51"})
        # One Location card with other cards is fine.
        assert law.option(f"ferry+{law_card}").value is not None


# ------------------------------------------------------------------ hidden information
# What each player sees (CC-18) and that a committed answer stays secret (CC-16) are asserted by
# scenarios/hidden.yaml (`sees`, `never_sees`, `log_for`, `options_for`). What stays here is
# what a scenario cannot say: a player who has answered cannot answer again (a scenario's next
# step finds no decision of that player), and an observation is plain data.


def test_a_committed_choice_cannot_be_changed(game: Game) -> None:
    state = start(game, "search", {hand("law"): ["bust", "raid", "skid"],
                                   hand("fugitive"): ["lone_wolf", "lie_low", "wheelie"]})
    state = game.apply(state, {"law": "bust+raid"})
    with pytest.raises(IllegalActionError, match="already decided"):
        game.apply(state, {"law": "bust"})
    # Once the Fugitive answers, both choices are revealed together.
    state = game.apply(state, {"fugitive": "lone_wolf"})
    assert state["vars"] == {"law_total": 17, "fugitive_total": 10}
    assert state["phase"] == "chase"


def test_observation_is_plain_data(game: Game) -> None:
    state = game.new_game(0)
    for role in ("law", "fugitive"):
        seen = game.observe(state, role)
        assert json.loads(json.dumps(seen)) == seen


def test_a_subset_is_found_by_naming_its_cards() -> None:
    """People type cards by name ('Go Air + three'); no list of every subset is made."""
    game = load_pack("carchase").game
    state = game.new_game(1)
    (decision,) = game.pending(state)  # the Law's exchange: any 5 of her 10 cards
    assert decision.find("Go Air + three").id == "go_airborne+three_sixty"
    assert decision.find("bust, the law won").id == "the_law_won+bust"
    assert decision.find("none").id == "none"
    assert decision._options is None  # nothing was enumerated
    with pytest.raises(IllegalActionError, match="no item matches 'zzz'"):
        decision.find("zzz")
    with pytest.raises(IllegalActionError, match="between 0 and 5"):
        decision.find("go, three, the law, blocked, disc, route")
