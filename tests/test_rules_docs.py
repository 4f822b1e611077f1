"""``rulekit docs PACK``: the rules document a reader gets from the shipped packs and the
tutorial's pack, on stdout or written whole with ``--out``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import PackMaker
from helpers_cli import Run, runner


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


HIDEOUT = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hideout"


def _section(text: str, heading: str) -> str:
    """The text under a Markdown heading, up to the next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(heading + "\n")
    rest = text[start + len(heading) + 1:]
    match = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[:match.start()] if match else rest


def _row(text: str, first_cell: str) -> str:
    rows = [line for line in text.splitlines() if line.startswith(f"| {first_cell} |")]
    assert len(rows) == 1, f"no single row for {first_cell!r}"
    return rows[0]


def test_hideout_document(run: Run) -> None:
    code, out, err = run("docs", HIDEOUT)
    assert code == 0, err
    assert out.startswith("# Hideout\n")
    players = _section(out, "## Players")
    assert "**The Law** (`law`)" in players and "**The Fugitive** (`fugitive`)" in players
    assert "| `turns` | 5 | 1 | 20 | Turns the Law has to corner the Fugitive |" in out
    # cards grouped by type, copies and properties; the type legend from the author's comment
    cards = _section(out, "### Cards (22)")
    assert "type: S Search (the Law), H Hide (the Fugitive)" in cards
    search_cards = _section(out, "#### Cards of type `S` (8)")
    assert _row(search_cards, "Patrol") == "| Patrol | `patrol` | 3 | 2 | - |"
    # a card's effect: named in its row, its code among the procedures
    assert _row(_section(out, "#### Cards of type `R` (2)"), "Raid") == \
        "| Raid | `raid` | 2 | 1 | effect `on_play` |"
    assert "move all from stash[fugitive] to discard" in _section(
        out, "### Effect `on_play` of `raid`")
    assert "| `stash` | role | its owner only |" in out
    # the flow, phase by phase, with its code; the end condition with its winner
    stash = _section(out, "### 2. Stash (phase `stash`)")
    assert 'choose fugitive one of hand[fugitive] optional prompt "Stash a card' in stash
    assert "- when `heat >= 3`, **The Law** (`law`) wins: The Fugitive is cornered." in out
    assert "Draw up to hand_size cards; an empty deck is rebuilt" in _section(
        out, "### Procedure `refill(p: role)`")
    # every rule with the scenarios that cover it
    rule = _section(out, "### HO-06")
    assert "When the heat reaches 3, the Fugitive is cornered and the Law wins." in rule
    assert "Scenarios: *At heat 3 the Law corners the Fugitive*" in rule
    # its command names the pack as it was given, which finds it from where that ran
    assert f"7 rules; 7 are covered by scenario tests (`rulekit test {HIDEOUT}` runs them)." \
        in out


def test_rednotice_document_cards_with_texts_and_effects(run: Run) -> None:
    code, out, err = run("docs", "rednotice")
    assert code == 0, err
    identities = _section(out, "#### Cards of type `identity` (6)")
    assert _row(identities, "The Ghost") == (
        "| The Ghost | `id_ghost` | 1 | Slip away to any other city of your continent. "
        "| effect `escape` |")
    assert "### Map (30 places, 50 routes)" in out
    assert "| `angela_at` |  | nothing |  | Angela only | RN-37 |" in out
    anytime = _section(out, "## Anytime actions")
    assert ("| **Jessah** (`jessah`) | Use Wiretap | `@up_wiretap in upgrades` "
            "| the action of `up_wiretap` |") in anytime
    assert "### Action `wiretap` of `up_wiretap`" in out
    assert "### 1. Programming (phase `programming`)" in out
    assert "### Procedure `escape(tile: card)`" in out
    assert "Scenarios: none yet." not in out  # every rule of the pack is covered


def test_carchase_document_to_a_file(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "rules.md"
    target.write_text("an older version", encoding="utf-8")
    code, out, err = run("docs", "carchase", "--out", target)
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert out.startswith(f"{target}: the rules of Car Chase (")
    assert "### 4. Escape (phase `escape`)" in text
    assert "| Pedal to the Metal | `pedal_to_the_metal` | 1 | Chase | 10 |" in text
    assert "Scenarios:" in _section(text, "### CC-03")
    assert "(`rulekit test carchase` runs them)" in text
    assert [p.name for p in tmp_path.iterdir()] == ["rules.md"]  # no temporary file left
    code, stdout, _ = run("docs", "carchase")
    assert stdout == text


def test_uncovered_rule_and_unknown_ids_are_shown(run: Run, duel_pack: Path) -> None:
    code, out, err = run("docs", duel_pack)
    assert code == 0, err
    assert "Scenarios: none yet." in _section(out, "### D-3")
    assert "3 rules; 2 are covered" in out
    assert "## Setup" not in out  # the pack has none


@pytest.mark.parametrize("argv, message", [
    (["docs", "nowhere_pack"], "nowhere_pack: no pack folder, nor a pack of that id"),
    (["docs", "carchase", "--out", "/no/such/folder/rules.md"],
     "cannot write '/no/such/folder/rules.md': no folder '/no/such/folder'"),
])
def test_docs_errors_are_messages(run: Run, argv: list[str], message: str) -> None:
    code, out, err = run(*argv)
    assert code == 1
    assert message in err
    assert out == ""


def test_broken_pack_gives_located_errors_and_no_file(run: Run, make_pack: PackMaker,
                                                     tmp_path: Path) -> None:
    broken = make_pack(replace={"game.yaml": ("points[red] += 1", "pointz[red] += 1")})
    target = tmp_path / "out.md"
    code, _, err = run("docs", broken, "--out", target)
    assert code == 1
    assert re.search(r"game\.yaml:\d+:\d+: unknown", err)
    assert not target.exists()
