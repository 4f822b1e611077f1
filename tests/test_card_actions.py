"""Anytime actions on cards: a card carries an action its holder may take at any decision while
the card lies in a zone; its code reads the card as ``card``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import load_pack
from tests.helpers_cli import Run, runner
from tests.test_card_effects import variant

VANISH = """\
cards:
  - id: vanish
    name: Vanish
    type: H
    score: 8
    anytime:
      - id: lie_low
        role: fugitive
        zone: hand                    # per role: the Fugitive's own hand
        label: "Discard {card}: heat -1"
        when: "heat > 0 and card.score > 5"
        do: |
          move card from hand[fugitive] to discard
          heat -= 1
          log "The Fugitive lies low: heat {heat}."
"""

SCENARIOS = """\
scenarios:
  - name: Vanish in hand lowers the heat, then the same question is asked again
    covers: [HO-04]
    start: {round: 1, phase: stash}
    zones:
      hand[fugitive]: [vanish, back_door#1]
    variables: {heat: 2}
    play:
      - fugitive: "!lie_low"
    expect:
      - "heat == 1 and @vanish in discard"
    expect_pending: fugitive
    options_for:
      fugitive: {contains: [back_door#1], not_contains: ["!lie_low"]}
    log_for:
      law: [contains: "The Fugitive lies low: heat 1."]
  - name: The action is not offered while its when is false
    covers: [HO-04]
    start: {round: 1, phase: stash}
    zones:
      hand[fugitive]: [vanish, back_door#1]
    play:
      - fugitive: "!lie_low"
    expect_error: "no option matches '!lie_low'"
  - name: Nor while the card lies elsewhere
    covers: [HO-04]
    start: {round: 1, phase: stash}
    zones:
      hand[fugitive]: [back_door#1]
      discard: [vanish]
    variables: {heat: 2}
    play:
      - fugitive: "!lie_low"
    expect_error: "no option matches '!lie_low'"
"""


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def test_a_card_carries_an_action_taken_while_it_lies_in_its_zone(run: Run,
                                                                  tmp_path: Path) -> None:
    folder = variant(tmp_path, VANISH, SCENARIOS)
    code, out, err = run("validate", folder, "--strict")
    assert code == 0, out + err
    code, out, err = run("test", folder)
    assert code == 0 and "3 passed, 0 failed" in out, out + err


def test_the_label_names_the_card_and_only_its_role_is_offered(tmp_path: Path) -> None:
    game = load_pack(variant(tmp_path, VANISH)).game
    decl = next(d for d in game.symbols.anytime if d.id == "lie_low")
    assert (decl.role, decl.label) == ("fugitive", "Discard Vanish: heat -1")
    assert decl.when == "@vanish in hand[fugitive] and (heat > 0 and card.score > 5)"


TYPE_ACTION = """\
card_types:
  L:
    anytime:
      - id: hide_at
        zone: stash                   # per role: with no role, give one
        role: fugitive
        do: |
          move card from stash[fugitive] to discard
          log "The Fugitive leaves {card}."
"""


def test_a_card_types_action_has_an_option_per_card(tmp_path: Path) -> None:
    game = load_pack(variant(tmp_path, TYPE_ACTION)).game
    ids = [(d.id, d.label) for d in game.symbols.anytime]
    assert ids == [("hide_at@alley", "hide_at (Alley)"), ("hide_at@rooftops", "hide_at (Rooftops)"),
                   ("hide_at@sewers", "hide_at (Sewers)"), ("hide_at@docks", "hide_at (Docks)")]


@pytest.mark.parametrize(("changes", "expected"), [
    (VANISH.replace("zone: hand ", "zone: hands"),
     ["changes.yaml:9:15: unknown zone 'hands'", "did you mean 'hand'?"]),
    (VANISH.replace("        role: fugitive\n", "").replace("zone: hand ", "zone: discard"),
     ["changes.yaml:8:15: say who may take this action: zone 'discard' has no owner",
      "hint: add role: one of law, fugitive"]),
    (VANISH.replace("role: fugitive", "role: fugitve"),
     ["changes.yaml:8:15: unknown role 'fugitve'", "did you mean 'fugitive'?"]),
    (VANISH.replace("heat -= 1", "heat -= card"),
     ["changes.yaml:14:19: expected an integer, got a card"]),
    (VANISH.replace("card.score > 5", "card.scor > 5"),
     ["changes.yaml:11:29: no card has the property 'scor'"]),
    (VANISH + VANISH.replace("cards:\n", "").replace("id: vanish", "id: vanish2"),
     ["changes.yaml:21:13: anytime action 'lie_low' is given twice: first at line 7, "
      "column 9\n"]),
    (TYPE_ACTION.replace("log", "lgo"), ["changes.yaml:9:15: syntax error"]),
    (TYPE_ACTION.replace("        do:", "        when: \"heat >\"\n        do:"),
     ["changes.yaml:7:22: syntax error"]),
])
def test_a_wrong_card_action_is_a_located_error(run: Run, tmp_path: Path, changes: str,
                                                expected: list[str]) -> None:
    code, _, err = run("validate", variant(tmp_path, changes))
    assert code == 1 and "Traceback" not in err
    for text in expected:
        assert text in err, err
    if changes.startswith("card_types"):
        where = expected[0].partition(": ")[0]
        assert err.count(where) == 1  # told once, not once per card


def test_red_notice_upgrades_carry_their_actions() -> None:
    game = load_pack("rednotice").game
    actions = {d.id: d.card for d in game.symbols.anytime if d.role == "jessah"}
    assert actions == {"satellite": "up_satellite", "wiretap": "up_wiretap",
                       "interpol": "up_interpol", "informant": "up_informant"}
    flow = (Path(__file__).resolve().parent.parent / "games" / "rednotice" / "flow.yaml")
    assert "@up_" not in flow.read_text()


def test_a_card_moved_from_a_pile_it_is_not_in_is_named_as_the_pack_writes_it(
        run: Run, tmp_path: Path) -> None:
    changes = VANISH.replace("move card from hand[fugitive]", "move card from hand[law]")
    code, out, err = run("test", variant(tmp_path, changes, SCENARIOS))
    assert code == 1 and "card 'vanish' is not in zone 'hand[law]'" in out + err, out + err


PER_ROLE = """\
cards:
  - {id: radio, name: Radio, type: X, score: 0, copies: 2}
card_types:
  X:
    anytime:
      - id: call
        zone: hand                    # no role: each player, from their own hand
        label: "Call in the {card}"
        do: |
          move card from hand[player] to discard
          log "{player} calls in a Radio."
"""

PER_ROLE_SCENARIOS = """\
scenarios:
  - name: Each player calls in a Radio from their own hand
    covers: [HO-04]
    start: {round: 1, phase: stash}
    zones:
      hand[law]: [radio#2, patrol#1]
      hand[fugitive]: [radio#1, back_door#1]
    play:
      - fugitive: "!call@radio#1"
    expect:
      - "@radio#1 in discard and @radio#2 in hand[law]"
    options_for:
      fugitive: {not_contains: ["!call@radio#1", "!call@radio#2"]}
    log_for:
      law: [contains: "The Fugitive calls in a Radio."]
"""


def test_without_a_role_each_player_takes_a_cards_action_from_their_own_pile(
        run: Run, tmp_path: Path) -> None:
    folder = variant(tmp_path, PER_ROLE, PER_ROLE_SCENARIOS)
    code, out, err = run("validate", folder, "--strict")
    assert code == 0 and "warning" not in err, out + err
    code, out, err = run("test", folder)
    assert code == 0 and "1 passed, 0 failed" in out, out + err
    game = load_pack(folder).game
    assert sorted((d.id, d.role) for d in game.symbols.anytime if d.card == "radio#1") == [
        ("call@radio#1", "fugitive"), ("call@radio#1", "law")]
