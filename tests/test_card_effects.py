"""Card effects: a card or a card type gives its own version of a procedure, ``base(...)`` runs
what it replaces, and a variant changes one card's effect by giving that card's entry again."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner

ROOT = Path(__file__).resolve().parent.parent
HIDEOUT = ROOT / "docs" / "examples" / "hideout"
PACKS = [*ROOT.glob("games/*"), *(p for p in ROOT.glob("docs/examples/*") if p.is_dir()),
         *ROOT.glob("tests/packs/*")]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def variant(tmp_path: Path, changes: str, scenarios: str | None = None) -> Path:
    """A variant of a copy of Hideout, whose changes.yaml is ``changes``."""
    shutil.copytree(HIDEOUT, tmp_path / "hideout")
    folder = tmp_path / "marked"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "pack.yaml").write_text(
        "id: marked\nname: Marked\nversion: \"1\"\nextends: ../hideout\n"
        "include: [changes.yaml]\nscenarios: [scenarios/*.yaml]\n")
    (folder / "changes.yaml").write_text(changes)
    (folder / "scenarios" / "marks.yaml").write_text(scenarios or "scenarios: []\n")
    return folder


def _lines(folder: Path) -> int:
    """The lines of a variant's pack.yaml and the files it includes, comments and all."""
    manifest = folder / "pack.yaml"
    included = re.search(r"^include: \[(.*)\]$", manifest.read_text(), re.M)
    names = [name.strip() for name in included.group(1).split(",")] if included else []
    return sum(len((folder / name).read_text().splitlines()) for name in ["pack.yaml", *names])


def test_no_code_of_a_pack_tests_a_card_id() -> None:
    tests = re.compile(r"(==|!=)\s*@\w|@\w[\w#]*\s*(==|!=)")
    found = [f"{path}:{i}" for folder in PACKS for path in folder.rglob("*.yaml")
             if "scenarios" not in path.parts
             for i, line in enumerate(path.read_text().splitlines(), 1) if tests.search(line)]
    assert found == []


@pytest.mark.parametrize(("name", "most"), [("rednotice-safer", 12), ("carchase-tow", 20)])
def test_a_proof_variant_is_short_and_validates_tests_and_simulates(run: Run, name: str,
                                                                   most: int) -> None:
    folder = ROOT / "tests" / "packs" / name
    assert _lines(folder) <= most
    code, out, err = run("validate", folder, "--strict")
    assert code == 0 and out.endswith(f"{name}: ok", 0, out.index(" (")), out + err
    code, out, err = run("test", folder)
    assert code == 0 and "0 failed" in out, out + err
    code, out, err = run("simulate", folder, "--games", "5")
    assert code == 0 and f"{name} 1.0.0: 5 games" in out, out + err


BASE_CHAIN = """\
variables:
  marks: {initial: 0}
procedures:
  on_play:                        # replaces Hideout's, which does nothing
    params: {card: card}
    do: "marks += 100; base(card)"
card_types:
  S:
    effects: {on_play: "marks += 10; base(card)"}
cards:
  - id: patrol
    name: Patrol
    type: S
    score: 2
    copies: 3
    effects: {on_play: "marks += 1; base(card)"}
"""

BASE_SCENARIO = """\
scenarios:
  - name: each version runs the next
    start: {round: 1, phase: search}
    zones:
      hand[law]: [patrol#2, sniffer_dog#1]
      hand[fugitive]: [disguise#1]
    play:
      - law: [patrol#2]
        fugitive: [disguise#1]
    expect:
      - "marks == 111 + 100"
"""


def test_base_runs_the_card_type_then_the_procedure_then_the_base_pack(run: Run,
                                                                       tmp_path: Path) -> None:
    folder = variant(tmp_path, BASE_CHAIN, BASE_SCENARIO)
    code, out, err = run("test", folder)
    assert code == 0 and "ok   each version runs the next" in out, out + err


@pytest.mark.parametrize(("changes", "where", "message", "hint"), [
    # a label a chooser may not see, in a card's effect: located in the card's own lines
    ("cards:\n  - id: raid\n    name: Raid\n    type: R\n    score: 1\n    effects:\n"
     "      on_play: |\n        let c = choose law one of hand[law] optional "
     "label \"{it} {stash[fugitive]}\" prompt \"Pick\"\n",
     "changes.yaml:8:67", "a label is told to the chooser, who may not see this",
     "say it with public data"),
    ("procedures:\n  brand_new:\n    do: \"base()\"\n", "changes.yaml:3:10",
     "base(...) has nothing to run here: this code replaces nothing",
     "call base(...) in a card's effect, or in a variant's procedure that replaces one"),
    ("cards:\n  - {id: raid, name: Raid, type: R, score: 1, effects: {on_play: \"base()\"}}\n",
     "changes.yaml:2:67", "'base' takes 1 argument(s), got 0", "base(card)"),
    ("procedures:\n  bad:\n    do: \"on_play(@raid#1, 2)\"\n", "changes.yaml:3:10",
     "'on_play' takes 1 argument(s), got 2", "on_play(card)"),
    ("cards:\n  - {id: raid, name: Raid, type: R, score: 1, effects: {on_plya: \"pass\"}}\n",
     "changes.yaml:2:57", "no procedure 'on_plya' for this effect to replace",
     "did you mean 'on_play'?"),
    ("cards:\n  - {id: raid, name: Raid, type: R, score: 1, effects: {refill: \"pass\"}}\n",
     "changes.yaml:2:57", "procedure 'refill' does not take a card first, so no card can "
     "replace it", "give 'refill' a first parameter of type card"),
    ("cards:\n  - id: raid\n    name: Raid\n    type: R\n    score: 1\n    effects:\n"
     "      on_play: {params: {card: card}, do: pass}\n", "changes.yaml:7:16",
     "an effect is its code only, a text: its parameters are those of the procedure it "
     "replaces", ""),
    ("cards:\n  - {id: lots, name: Lots, type: R, copies: 100000000, "
     "effects: {on_play: \"pass\"}}\n", "changes.yaml:2:45",
     "100,000,000 copies of card 'lots' are too many; the limit is 9,999", ""),
    ("card_types:\n  Q:\n    effects: {on_play: \"pass\"}\n", "changes.yaml:2:3",
     "no card has the type 'Q'", "a card type is a value of the cards' 'type' property: H, L,"),
])
def test_a_mistake_in_a_card_effect_is_located_with_a_hint(
        run: Run, tmp_path: Path, changes: str, where: str, message: str, hint: str) -> None:
    code, _, err = run("validate", variant(tmp_path, changes))
    assert code == 1 and "Traceback" not in err
    lines = err.splitlines()
    found = [i for i, line in enumerate(lines) if line.endswith(f"{where}: {message}")]
    assert found, err
    hints = [line for line in lines[found[0]:] if line.startswith("hint:")]
    assert not hint or hints[0].startswith(f"hint: {hint}"), err


def test_base_runs_a_chain_of_variants_and_checks_a_replaced_procedure_only_if_called(
        run: Run, tmp_path: Path) -> None:
    middle = variant(tmp_path, "variables:\n  marks: {initial: 0}\nfunctions:\n  bonus:\n"
                     "    returns: \"100\"\nprocedures:\n  on_play:\n    params: {card: card}\n"
                     "    do: \"marks += bonus(); base(card)\"\n")
    top = tmp_path / "top"
    (top / "scenarios").mkdir(parents=True)
    (top / "pack.yaml").write_text("id: top\nname: Top\nversion: \"1\"\nextends: ../marked\n"
                                   "include: [changes.yaml]\nscenarios: [scenarios/*.yaml]\n")
    (top / "scenarios" / "s.yaml").write_text(BASE_SCENARIO.replace("111 + 100", "2000"))
    changes = top / "changes.yaml"
    # the middle variant's on_play reads a function this one removes: unchecked, as not called
    changes.write_text("procedures:\n  on_play:\n    params: {card: card}\n"
                       "    do: \"marks += 1000\"\nremove:\n  functions: [bonus]\n")
    code, out, err = run("test", top)
    assert code == 0 and "ok   each version runs the next" in out, out + err
    # called, it is checked, and its mistake is located in its own file
    changes.write_text(changes.read_text().replace("marks += 1000", "marks += 1000; base(card)"))
    code, _, err = run("validate", top)
    assert code == 1 and f"{middle / 'changes.yaml'}:9:19: in the base pack marked: unknown " \
        "function 'bonus'" in err, err
    # without the removal the chain runs: this variant's, the middle one's, then Hideout's
    changes.write_text(changes.read_text().replace("remove:\n  functions: [bonus]\n", ""))
    (top / "scenarios" / "s.yaml").write_text(BASE_SCENARIO.replace("111 + 100", "2200"))
    code, out, err = run("test", top)
    assert code == 0 and "ok   each version runs the next" in out, out + err


def test_the_one_card_of_a_type_without_its_effect_is_a_warning(run: Run,
                                                                 tmp_path: Path) -> None:
    folder = variant(tmp_path, "cards:\n  - {id: sweep, name: Sweep, type: R, score: 2}\n")
    code, out, err = run("validate", folder)
    assert code == 0 and out.endswith("(23 cards, 0 scenarios; 1 warning)\n"), out + err
    assert "changes.yaml:2:6: warning: card 'sweep' has no effect 'on_play', which the other " \
        "cards of its type 'R' give: the procedure's own body runs for it" in err
    assert "hint: give it effects: {on_play: ...}, or give the type one under card_types" in err
