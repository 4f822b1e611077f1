"""A game whose agents go round a loop of choices for ever is stopped, not left to hang.

Here Alice may, at any decision of hers, open an anytime action and then decline its choice:
nothing changes, and an agent that always does so would never let the round end.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulekit.sim.simulation as simulate_module
from rulekit.engine.decisions import Decision, Option
from rulekit.sim.simulation import play_game
from tests.helpers_lang import content, load

LOOP = """\
procedures:
  dither:
    do: |
      let n = choose a one of [1, 2] optional prompt "Pick one (or not)"
      if n == none { return }
anytime:
  - {id: dither, role: a, label: "Dither", when: "true", do: dither}
"""


class Goer:
    """Never takes the anytime action."""

    def choose(self, view: object, decision: Decision) -> Option:
        return next(o for o in decision.options() if not o.id.startswith("!"))


class Ditherer:
    """Takes the anytime action whenever offered, and declines inside it."""

    def choose(self, view: object, decision: Decision) -> Option:
        options = decision.options()
        return next((o for o in options if o.id in ("!dither", "none")), options[0])


def test_a_round_that_never_ends_is_stopped_with_its_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "MAX_ROUND_DECISIONS", 40)
    main = 'let x = choose a one of [1, 2] prompt "Go"\nlog "{x}"'
    text = content(phases={"main": main}).replace("procedures:\n", "")
    game = load(tmp_path, text + LOOP).game
    record = play_game(game, 3, {"a": Ditherer()})
    assert record.capped and record.winner is None
    assert record.decisions == 40
    assert record.reason == "stopped: 40 decisions in round 1 and the round did not end"


def test_a_game_of_more_decisions_than_the_limit_in_all_is_not_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "MAX_ROUND_DECISIONS", 40)
    main = 'let x = choose a one of [1, 2] prompt "Go"\nlet y = choose a one of [1, 2] prompt "On"'
    text = content(phases={"main": main}, rounds="30").replace("procedures:\n", "")
    game = load(tmp_path, text + LOOP).game
    record = play_game(game, 3, {"a": Goer()})
    assert not record.capped and record.decisions == 60
