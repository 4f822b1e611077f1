"""A learned evaluation reads only the variables that may change what follows.

A variable that only log lines read, or that code always sets anew before reading it, records
the past: a state's value of it tells nothing of the game to come, and a linear fit gives it
weights that only mislead the search (Hideout's ``law_total`` made the Law's search hold back
a card scoring 5 for one scoring 4).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_lang import content, load

from rulekit.bots.features import Features
from rulekit.pack.loader import load_pack

ROOT = Path(__file__).resolve().parent.parent


def live(tmp_path: Path, **code: object) -> set[str]:
    """The variables of the test pack whose value where it waits may change what follows."""
    game = load(tmp_path, content(**code)).game  # type: ignore[arg-type]
    found = game.program.live_vars
    assert found is not None
    return found & set(game.symbols.variables)


def test_a_variable_shown_only_in_log_lines_is_not_live(tmp_path: Path) -> None:
    assert live(tmp_path, phases={"main": """
        log "The deck held {total} cards."
        let c = choose a one of hand[a] optional
        total = count(deck)
    """}) == set()


def test_a_variable_set_anew_before_each_read_is_not_live(tmp_path: Path) -> None:
    # As Hideout's totals: chosen cards added up, then compared at once.
    assert live(tmp_path, phases={"main": """
        let c = choose a one of hand[a] optional
        total = count(hand[a])
        if total > 2 { score += 1 }
    """}) == {"score"}


@pytest.mark.parametrize(("phase", "why"), [
    ("if total > 2 { score = 1 }\ntotal = 1", "read before it is set"),
    ("total = 1\nlet c = choose a one of hand[a] optional\nif total > 2 { score = 1 }",
     "a decision waits between"),
    ("total = 1\nfinish()\nif total > 2 { score = 1 }", "a procedure called between"),
    ("total += 1", "an addition reads it"),
    ("if tag == \"start\" { total = 1 }\nif total > 2 { score = 1 }", "set only in a branch"),
])
def test_a_variable_read_where_its_value_may_come_from_before_is_live(
        tmp_path: Path, phase: str, why: str) -> None:
    found = live(tmp_path, phases={"main": phase},
                 procs={"finish": ("", "let c = choose a one of hand[a] optional")})
    assert "total" in found, why


def test_an_end_condition_reads_at_any_time(tmp_path: Path) -> None:
    assert live(tmp_path, end_when=[("total >= 3", "a", "Alice counts to 3.")],
                phases={"main": "total = 4\nlog \"{total}\""}) == {"total"}


def test_a_function_reads_what_its_body_reads(tmp_path: Path) -> None:
    assert "total" in live(tmp_path, functions={"high": ("{}", "total > 2")},
                           phases={"main": "if high() { score = 1 }"})


def test_the_shipped_packs_and_their_features() -> None:
    hideout = load_pack(ROOT / "docs" / "examples" / "hideout").game
    carchase = load_pack("carchase").game
    for game in (hideout, carchase):
        assert game.program.live_vars is not None
        assert {"law_total", "fugitive_total"}.isdisjoint(game.program.live_vars)
        assert not any("law_total" in name or "fugitive_total" in name
                       for name in Features(game).names)
    assert "heat" in Features(hideout).names
