"""Scenarios that test secrecy: ``sees``, ``never_sees``, ``log_for`` and ``options_for``, as a
designer sees them in ``rulekit test`` and ``rulekit validate``; list values for ``variables``;
and the values shown for a failing ``expect``."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner

HIDEOUT = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hideout"

# The Fugitive stashes a Back Door; the Law then has to choose its search cards.
STASHED = """\
  - name: {name}
    start: {{round: 1, phase: stash}}
    zones:
      hand[law]: [detective#1, patrol#1]
      hand[fugitive]: [vanish, back_door#1]
    play:
      - fugitive: "Back Door"
"""


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def pack_with(tmp_path: Path, body: str, name: str = "Views") -> Path:
    """A copy of the tutorial's pack with one more scenario: the stash above, then ``body``."""
    folder = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, folder)
    text = "scenarios:\n" + STASHED.format(name=name) + textwrap.indent(
        textwrap.dedent(body), "    ")
    (folder / "scenarios" / "views.yaml").write_text(text)
    return folder


def failure(run: Run, folder: Path) -> str:
    """The two lines ``rulekit test`` prints for the failing scenario."""
    code, out, _ = run("test", folder, "-k", "views")
    assert code == 1
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL"))
    return lines[at + 1].strip()


def test_a_scenario_asserts_what_each_role_sees(run: Run, tmp_path: Path) -> None:
    folder = pack_with(tmp_path, """\
        sees:
          law:
            stash[fugitive]: [hidden]         # one card, face down
            hand[fugitive]: {count: 1, cards: hidden}
            hand[law]: {count: 2, contains: [patrol#1]}
            heat: 0
          fugitive:
            stash[fugitive]: [back_door#1]
        never_sees:
          law: [back_door#1, vanish]
        log_for:
          law:
            - "The Fugitive stashes a *"
            - not_contains: [Back Door, Vanish]
          fugitive:
            - contains: Back Door
        options_for:
          law: [detective#1, Patrol (S2)]     # ids or labels, in any order
          fugitive: [vanish]
        """)
    code, out, _ = run("test", folder, "-k", "views")
    assert (code, out.splitlines()[0]) == (0, "ok   Views"), out


@pytest.mark.parametrize(("body", "message"), [
    ('sees: {law: {"stash[fugitive]": [back_door#1]}}',
     "views.yaml:9:37: expected [@back_door#1]: law sees stash[fugitive] as [hidden]"),
    ('sees: {fugitive: {"stash[fugitive]": hidden}}',
     "views.yaml:9:42: expected hidden: fugitive sees stash[fugitive] as [@back_door#1]"),
    ('sees: {law: {"hand[fugitive]": 3}}',
     "views.yaml:9:36: expected 3 card(s): law sees hand[fugitive] as [hidden]"),
    ("sees: {law: {heat: 2}}", "views.yaml:9:24: expected 2: law sees heat = 0"),
    ("sees: {law: {heat: hidden}}",
     "views.yaml:9:24: expected heat hidden from law, but law sees heat = 0"),
    ('sees: {law: {"hand[law]": {not_contains: [patrol#1]}}}',
     "views.yaml:9:46: expected no [@patrol#1]: law sees hand[law] as "
     "[@detective#1, @patrol#1]"),
    ("never_sees: {law: [vanish, detective#1]}",
     "views.yaml:9:32: law sees @detective#1 (in zone hand[law])"),
    ("never_sees: {fugitive: [back_door#1]}",
     "views.yaml:9:29: fugitive sees @back_door#1 (in zone stash[fugitive])"),
    ("log_for: {law: [not_contains: back door]}", None),
    ("log_for: {fugitive: [not_contains: back door]}",
     "views.yaml:9:40: fugitive's log contains 'back door': "
     "'The Fugitive chose Back Door (H2)'"),
    ("log_for: {law: [contains: Vanish]}", "views.yaml:9:31: no line of law's log contains "
                                           "'Vanish'; its last lines: The Fugitive stashes a "
                                           "card."),
    ("log_for: {law: [The Fugitive hides a card]}",
     "views.yaml:9:21: law's log has no line 'The Fugitive hides a card'; its last lines: "
     "The Fugitive stashes a card."),
    ("options_for: {law: not asked}",
     "views.yaml:9:24: expected law not to be asked, but law is asked: Play search cards "
     "(at most one Location)"),
    ("options_for: {fugitive: not asked}",  # the two players choose at once
     "views.yaml:9:29: expected fugitive not to be asked, but fugitive is asked: "),
    ("options_for: {law: [detective#1]}",
     "views.yaml:9:24: expected the options detective#1: law is offered "
     "patrol#1 (Patrol (S2)), detective#1 (Detective (S6))"),
    ("options_for: {law: {not_contains: [Patrol (S2)]}}",
     "views.yaml:9:39: expected no option 'Patrol (S2)': law is offered patrol#1 "),
])
def test_what_a_failing_view_assertion_says(run: Run, tmp_path: Path, body: str,
                                             message: str | None) -> None:
    folder = pack_with(tmp_path, body)
    if message is None:
        assert run("test", folder, "-k", "views")[0] == 0
        return
    assert "scenarios/" + message in failure(run, folder)


def test_validate_places_each_unknown_name_of_a_view_with_a_hint(run: Run,
                                                                  tmp_path: Path) -> None:
    folder = pack_with(tmp_path, """\
        sees:
          lawman: {heat: 0}
          law:
            haet: 0
            stash[fugitve]: hidden
            stash[fugitive]: [vanish, back_dor#1]
          fugitive:
            stash[law]: back_door#1
            heat: {count: 1}
        never_sees:
          law: [vanihs]
        log_for:
          fugtive: [contains: x]
        options_for:
          fugitive: not asked
        """)
    code, _, err = run("validate", folder)
    assert code == 1
    for place, message, hint in [
        ("10:7", "unknown role 'lawman'", "did you mean 'law'?"),
        ("12:9", "unknown zone or variable 'haet'", "did you mean 'heat'?"),
        ("13:9", "'fugitve' is not a role of zone 'stash'", "did you mean 'fugitive'?"),
        ("14:35", "'back_dor#1' is not a card", "did you mean 'back_door#1'?"),
        ("16:21", "'back_door#1' is no view of a zone: a zone is seen as `hidden`, a number "
                  "of cards, the cards from the top", ""),
        ("17:16", "'count' is no test of what a role sees here; a variable is seen as `hidden`",
         ""),
        ("19:13", "'vanihs' is no card, node, edge or region", "did you mean 'vanish'?"),
        ("21:7", "unknown role 'fugtive'", "did you mean 'fugitive'?"),
    ]:
        assert f"views.yaml:{place}: {message}" in err, (place, err)
        assert hint in err.split(f"views.yaml:{place}:", 1)[1].split("views.yaml:")[0]


def test_a_bad_view_key_is_a_schema_error_with_the_allowed_keys(run: Run,
                                                                tmp_path: Path) -> None:
    folder = pack_with(tmp_path, "log_for: {law: [{contain: Vanish}]}")
    code, _, err = run("validate", folder)
    assert code == 1 and "views.yaml:9:22: unknown key 'contain'" in err and "contains" in err, err


def test_variables_take_lists(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, folder)
    components = folder / "components.yaml"
    components.write_text(components.read_text().replace(
        "variables:\n", "variables:\n  seen_at: {initial: [], type: list}\n", 1))
    (folder / "scenarios" / "views.yaml").write_text(textwrap.dedent("""\
        scenarios:
          - name: Views of a list
            start: {round: 1, phase: stash}
            variables: {seen_at: [docks, 3]}
            expect: ["seen_at == ['docks', 3] and count(seen_at) == 2"]
            sees: {law: {seen_at: [docks, 3]}, fugitive: {seen_at: {contains: [3]}}}
          - name: Views of a bad list
            start: {round: 1, phase: stash}
            variables: {heat: [1]}
        """))
    code, _, err = run("validate", folder)
    assert code == 1
    assert "views.yaml:9:23: 'heat' holds a value of type int, not [1]" in err, err
    code, out, _ = run("test", folder, "-k", "views")
    assert code == 1 and "ok   Views of a list" in out
    assert "FAIL Views of a bad list\n" in out
    assert "views.yaml:9:23: 'heat' holds a value of type int, not [1]" in out


@pytest.mark.parametrize(("expect", "message"), [
    ("heat >= 1 and round == 1", "expected heat >= 1 and round == 1: heat = 0, round = 1"),
    ("heat == 2 or count(stash[fugitive]) > 3",
     "expected heat == 2 or count(stash[fugitive]) > 3: heat = 0, count(stash[fugitive]) = 1"),
    ("not (@back_door#1 in stash[fugitive])",
     "expected not (@back_door#1 in stash[fugitive]): stash[fugitive] = [@back_door#1]"),
    ("phase == 'draw'", "expected phase == 'draw': phase = \"search\""),
    ("count(deck) == 22 - 2 * hand_size",
     "expected count(deck) == 22 - 2 * hand_size: count(deck) = 18, 22 - 2 * hand_size = 12"),
])
def test_a_false_expectation_shows_the_values_of_its_parts(run: Run, tmp_path: Path,
                                                           expect: str, message: str) -> None:
    folder = pack_with(tmp_path, f"expect: [{json.dumps(expect)}]")
    assert failure(run, folder).endswith(message)


DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_pack_formats_example_of_views_passes(run: Run, tmp_path: Path) -> None:
    text = (DOCS / "pack-format.md").read_text(encoding="utf-8")
    section = text.split("### What a role sees", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    folder = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, folder)
    (folder / "scenarios" / "views.yaml").write_text(block)
    assert run("validate", folder)[0] == 0
    code, out, _ = run("test", folder, "-k", "secret")
    assert code == 0 and out.startswith("ok   A stashed card is the Fugitive's secret\n"), out


def test_the_tutorials_scenario_with_sees_is_the_packs(run: Run) -> None:
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    (block,) = [b for b in text.split("```yaml\n")[1:] if "    sees:" in b.split("```")[0]]
    assert block.split("```")[0] in (HIDEOUT / "scenarios" / "hideout.yaml").read_text()
