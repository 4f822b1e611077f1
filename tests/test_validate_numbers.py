"""Validation after a real edit of a number (a card's property, a parameter's default, a number
of effect code): what ``rulekit validate`` reports with its cache is what it reports from
scratch, byte for byte; an edit of numbers that only the checks redone from the cache read is
answered from it, and every other one is validated again."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import Run
from test_validate_edits import as_from_scratch, edit, first_block, shipped

DISPLAY = """\
    display:
      cards:
        "1": "{name}"
        "2": "{name} ({score})"
    """


def card_number(pack: Path, file: str, new: int) -> None:
    """The first number of the first card of ``file`` made ``new``."""
    path = pack / file
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index("cards:")
    at = next(i for i in range(start, len(lines)) if re.search(r": [0-9]+\b", lines[i]))
    lines[at] = re.sub(r"(\b(?!copies)[a-z_]+: )([0-9]+)\b", rf"\g<1>{new}", lines[at], count=1)
    path.write_text("\n".join(lines), encoding="utf-8")


def code_number(pack: Path, new: int) -> None:
    """The first number of the first ``do: |`` block of flow.yaml made ``new``."""
    path = pack / "flow.yaml"
    opening, _ = first_block(path)
    text = path.read_text(encoding="utf-8")
    start = text.index(opening) + len(opening)
    found = re.compile(r"(?<![A-Za-z0-9_#])[0-9]+(?![A-Za-z0-9_])").search(text, start)
    assert found is not None
    path.write_text(text[:found.start()] + str(new) + text[found.end():], encoding="utf-8")


def cards_file(name: str) -> str:
    return {"carchase": "cards.yaml", "rednotice": "components.yaml"}[name]


# -- numbers only the checks redone read: answered from the cache ---------------------------

@pytest.mark.parametrize("name", ["carchase", "rednotice"])
@pytest.mark.parametrize("kind", ["card", "code"])
def test_a_number_of_a_card_or_of_code_is_answered_from_the_cache(
        run: Run, cache: Path, loads: list[Path], tmp_path: Path, name: str,
        kind: str) -> None:
    pack = shipped(name, tmp_path)
    first = run("validate", pack)
    assert first[0] == 0 and len(loads) == 1
    for new in (17, 170, 3):
        if kind == "card":
            card_number(pack, cards_file(name), new)
        else:
            code_number(pack, new)
        assert run("validate", pack) == first
        assert as_from_scratch(run, pack, loads) == first
    assert len(loads) == 1  # nothing validated again


def test_a_default_within_its_bounds_and_outside(run: Run, cache: Path, loads: list[Path],
                                                 tmp_path: Path) -> None:
    pack = shipped("carchase", tmp_path)
    first = run("validate", pack)
    edit(pack / "pack.yaml", "turns: {default: 7,", "turns: {default: 12,")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1
    edit(pack / "pack.yaml", "turns: {default: 12,", "turns: {default: 51,")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 1 and "default 51 of parameter 'turns' is outside its bounds" in err
    assert "pack.yaml:12:" in err and len(loads) == 3  # validated again, with and without
    edit(pack / "pack.yaml", "turns: {default: 51,", "turns: {default: 1,")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 3  # kept for 12


def test_numbers_and_comments_edited_together(run: Run, cache: Path, loads: list[Path],
                                              tmp_path: Path) -> None:
    pack = shipped("rednotice", tmp_path)
    first = run("validate", pack)
    card_number(pack, "components.yaml", 4)
    code_number(pack, 9)
    edit(pack / "components.yaml", "cards:\n", "cards:  # and more\n\n")
    edit(pack / "flow.yaml", "procedures:\n", "procedures:    # edited\n")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1


# -- numbers other checks read: validated again ---------------------------------------------

CARDS = """\
    cards:
      - {id: ace, name: Ace, score: 1}
      - {id: king, name: King, score: 13}
    """


def split_pack(make_pack: Any, files: dict[str, str], more: tuple[str, ...] = ()) -> Path:
    """The duel pack with its cards in cards.yaml, and ``files`` (included after game.yaml,
    with ``more``): the warnings of the duel pack are all in game.yaml, and a file that holds
    a warning is validated again whatever its edit."""
    names = ", ".join(["game.yaml", "cards.yaml", *more])
    return make_pack(files={"cards.yaml": CARDS, **files}, replace={
        "game.yaml": (textwrap.dedent(CARDS), ""),
        "pack.yaml": ("include: [game.yaml]", f"include: [{names}]")})


def ending_pack(make_pack: Any, when: str, more: str = "") -> Path:
    """The duel pack with an end condition ``when`` in end.yaml (and ``more`` there), and a
    parameter ``target`` (default 2)."""
    pack = split_pack(make_pack, {"end.yaml": f"{textwrap.dedent(more)}flow:\n  end_when:\n"
                                              f"    - {{when: \"{when}\", winner: red}}\n"},
                      ("end.yaml",))
    edit(pack / "pack.yaml", "  turns:", "  target: {default: 2, min: 0, max: 9}\n  turns:")
    return pack


def variant_of(tmp_path: Path, base: str, parameter: str) -> Path:
    """A variant of the pack ``base`` (a folder of ``tmp_path``) that gives ``parameter``."""
    folder = tmp_path / "variant"
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        f"id: variant\nname: Variant\nversion: '1.0'\nextends: ../{base}\n"
        f"parameters:\n  {parameter}\n", encoding="utf-8")
    return folder


WARNING = "this end condition holds in the initial state"


@pytest.mark.parametrize(("when", "more", "old", "same", "holds"), [
    ("points[red] >= target", "", "target: {default: 2,", "target: {default: 3,",
     "target: {default: 0,"),
    ("points[red] >= 2", "", ">= 2", ">= 5", ">= 0"),
    ("reached()", "functions:\n  reached: {returns: 'points[red] + 2 >= 4'}\n",
     "+ 2 >=", "+ 1 >=", "+ 4 >="),
    ("sum([c.score for c in deck]) >= 20", "", "score: 13", "score: 18", "score: 20"),
    ("sum([c.score for c in cards()]) >= 20", "", "score: 13", "score: 18", "score: 20"),
    ("@king.score >= 20", "", "score: 13", "score: 2", "score: 20"),
    ("points[red] + 1 // target >= 1", "", "target: {default: 2,",
     "target: {default: 0,", "target: {default: 1,"),  # (with 0, it fails: it does not hold)
])
def test_a_number_the_end_conditions_read(run: Run, make_pack: Any, cache: Path,
                                          loads: list[Path], when: str, more: str, old: str,
                                          same: str, holds: str) -> None:
    pack = ending_pack(make_pack, when, more)
    first = run("validate", pack)
    assert first[0] == 0 and WARNING not in first[2]
    file = pack / ("pack.yaml" if "target" in old else "cards.yaml" if "score" in old
                   else "end.yaml")
    edit(file, old, same)  # the end conditions find what they found: tried again only
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1
    edit(file, same, old)
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1
    edit(file, old, holds)  # one holds in the initial state now: validated again
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 0 and WARNING in err and len(loads) == 2
    edit(file, holds, old)
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 3


def test_a_number_the_end_conditions_read_and_a_scenario_file(
        run: Run, make_pack: Any, cache: Path, loads: list[Path]) -> None:
    pack = ending_pack(make_pack, "points[red] >= target")
    first = run("validate", pack)
    edit(pack / "pack.yaml", "target: {default: 2,", "target: {default: 3,")
    edit(pack / "scenarios/duel.yaml", "params: {turns: 1}", "params: {turns: 0}")
    code, _, err = as_from_scratch(run, pack, loads)  # a scenario file changed too
    assert code == 1 and "must be between 1 and 20, not 0" in err and len(loads) == 3
    edit(pack / "scenarios/duel.yaml", "params: {turns: 0}", "params: {turns: 1}")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 3  # tried again


def test_a_default_the_end_conditions_of_a_base_read(run: Run, cache: Path, loads: list[Path],
                                                     tmp_path: Path) -> None:
    base = shipped("rednotice", tmp_path)
    first = run("validate", base)
    edit(base / "pack.yaml", "goal: {default: 1000000,", "goal: {default: 100000,")
    assert as_from_scratch(run, base, loads) == first and len(loads) == 1  # tried again only
    variant = variant_of(tmp_path, "rednotice", "goal: {default: 2000000}")
    first = run("validate", variant)
    assert first[0] == 0 and len(loads) == 2
    edit(variant / "pack.yaml", "default: 2000000", "default: 3000000")
    assert as_from_scratch(run, variant, loads) == first and len(loads) == 2
    edit(variant / "pack.yaml", "default: 3000000", "default: 99999")  # the bounds of the base
    code, _, err = as_from_scratch(run, variant, loads)
    assert code == 1 and "default 99999 of parameter 'goal' is outside its bounds" in err


def test_a_number_the_end_conditions_do_not_read(run: Run, make_pack: Any, cache: Path,
                                                 loads: list[Path]) -> None:
    pack = ending_pack(make_pack, "points[red] >= target + 1")
    first = run("validate", pack)
    edit(pack / "cards.yaml", "score: 13", "score: 19")
    edit(pack / "pack.yaml", "turns: {default: 3,", "turns: {default: 4,")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1
    edit(pack / "pack.yaml", "turns: {default: 4,", "turns: {default: 5,")
    edit(pack / "game.yaml", "if r > b", "if r > b + 0")  # a file with warnings
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 2


def test_a_number_read_by_name_is_validated_again(run: Run, make_pack: Any, cache: Path,
                                                  loads: list[Path]) -> None:
    pack = split_pack(make_pack, {"display.yaml": DISPLAY}, ("display.yaml",))
    edit(pack / "cards.yaml", "score: 1}", "score: 1, type: 1}")
    edit(pack / "cards.yaml", "score: 13}", "score: 13, type: 2}")
    first = run("validate", pack)
    assert first[0] == 0
    edit(pack / "cards.yaml", "score: 13, type: 2}", "score: 13, type: 3}")
    code, _, err = as_from_scratch(run, pack, loads)  # an error in another file
    assert code == 1 and "display.yaml:4:" in err and "no card is of type '2'" in err
    edit(pack / "cards.yaml", "score: 13, type: 3}", "score: 13, type: 2}")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 3  # as first
    edit(pack / "cards.yaml", "score: 13, type: 2}", "score: 12, type: 2}")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 3
    edit(pack / "cards.yaml", "- {id: ace,", "- {id: ace, copies: 2,")
    code, out, _ = as_from_scratch(run, pack, loads)
    assert code == 0 and "(3 cards" in out and len(loads) == 4


def test_a_number_of_code_too_large(run: Run, cache: Path, loads: list[Path],
                                    tmp_path: Path) -> None:
    pack = shipped("carchase", tmp_path)
    first = run("validate", pack)
    code_number(pack, 2**63 - 1)
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1
    code_number(pack, 2**63)
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 1 and "too large" in err and "flow.yaml:" in err
    code_number(pack, 0)
    assert as_from_scratch(run, pack, loads) == first


def test_a_number_of_a_variant_and_of_its_base(run: Run, cache: Path, loads: list[Path],
                                               tmp_path: Path) -> None:
    base = shipped("carchase", tmp_path)
    variant = variant_of(tmp_path, "carchase", "turns: {default: 9}")
    first = run("validate", variant)
    assert first[0] == 0
    card_number(base, "cards.yaml", 12)
    edit(variant / "pack.yaml", "default: 9", "default: 10")
    assert as_from_scratch(run, variant, loads) == first and len(loads) == 1
    edit(variant / "pack.yaml", "default: 10", "default: 60")  # the bounds of the base
    code, _, err = as_from_scratch(run, variant, loads)
    assert code == 1 and "default 60 of parameter 'turns' is outside its bounds" in err
    edit(variant / "pack.yaml", "default: 60", "default: 10")
    edit(base / "pack.yaml", "turns: {default: 7,", "turns: {default: 70,")  # overridden
    assert as_from_scratch(run, variant, loads) == first
    edit(variant / "pack.yaml", "parameters:\n  turns: {default: 10}\n", "")
    code, _, err = as_from_scratch(run, variant, loads)
    assert code == 1 and "in the base pack carchase" in err and "default 70" in err


def test_a_scenario_file_changed(run: Run, cache: Path, loads: list[Path],
                                 tmp_path: Path) -> None:
    pack = shipped("carchase", tmp_path)
    first = run("validate", pack)
    scenario = next((pack / "scenarios").glob("*.yaml"))
    text = scenario.read_text(encoding="utf-8")
    found = re.search(r"hand\[(law|fugitive)\]", text)
    assert found is not None
    edit(scenario, found.group(), found.group().replace("hand", "hands"))
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 1 and "unknown zone 'hands'" in err and scenario.name in err
    scenario.write_text(text, encoding="utf-8")
    assert as_from_scratch(run, pack, loads) == first


def test_a_number_on_the_line_of_a_warning(run: Run, make_pack: Any, cache: Path,
                                           loads: list[Path]) -> None:
    pack = split_pack(make_pack, {})
    edit(pack / "game.yaml", "initial: all}", "initial: [ace]}")
    first = run("validate", pack)
    assert "cards.yaml:3:5: warning: card 'king' never comes into play" in first[2]
    edit(pack / "cards.yaml", "score: 13}", "score: 14}")  # the line the warning quotes
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 0 and "score: 14}" in err and len(loads) == 2


# -- the digits of plain numbers, told from the text ----------------------------------------

def test_a_number_of_an_end_condition_in_a_block(run: Run, make_pack: Any, cache: Path,
                                                 loads: list[Path]) -> None:
    pack = split_pack(make_pack, {"end.yaml": "flow:\n  end_when:\n    - winner: red\n"
                                              "      when: |\n        points[red] >= 2\n"},
                      ("end.yaml",))
    first = run("validate", pack)
    edit(pack / "end.yaml", ">= 2", ">= 3")  # read from the text, the end condition tried again
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1
    edit(pack / "end.yaml", ">= 3", ">= 0")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 0 and WARNING in err and "end.yaml:4:" in err and len(loads) == 2
    edit(pack / "end.yaml", ">= 0", ">= 3")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 3


@pytest.mark.parametrize(("old", "new", "found"), [
    ("score: 5}", "score: 08}", "must be an integer"),  # YAML reads 08 as a text
    ("score: 5}", "score: 5.0}", "must be an integer"),
    ("score: 5}", "score: 0x5}", None),  # the same number, written otherwise
    ("score: 5}", "score: -5}", None),
    ("score: 5}", "score: +5}", None),
])
def test_a_number_written_otherwise(run: Run, cache: Path, loads: list[Path], tmp_path: Path,
                                    old: str, new: str, found: str | None) -> None:
    pack = shipped("carchase", tmp_path)
    first = run("validate", pack)
    edit(pack / "cards.yaml", old, new)
    code, _, err = as_from_scratch(run, pack, loads)
    assert (code, found is None or found in err) == (0 if found is None else 1, True)
    if found is None:
        assert (code, _, err) == first


def test_a_number_in_a_text_of_code(run: Run, cache: Path, loads: list[Path],
                                    tmp_path: Path) -> None:
    pack = shipped("carchase", tmp_path)
    first = run("validate", pack)
    edit(pack / "flow.yaml", "draws {count(out)} replacements", "draws {count(out) + 0} more")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 2
    edit(pack / "flow.yaml", "{count(out) + 0} more", "{count(out) + 10} more")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 3


def test_a_number_an_alias_repeats(run: Run, make_pack: Any, cache: Path,
                                   loads: list[Path]) -> None:
    pack = split_pack(make_pack, {})
    edit(pack / "cards.yaml", "score: 1}", "score: &n 1}")
    edit(pack / "cards.yaml", "score: 13}", "score: 13, copies: *n}")
    first = run("validate", pack)
    assert "(2 cards" in first[1]
    edit(pack / "cards.yaml", "&n 1}", "&n 2}")
    code, out, _ = as_from_scratch(run, pack, loads)
    assert code == 0 and "(3 cards" in out and len(loads) == 2


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many scenarios each check of scenario files checked, while the test runs."""
    import rulekit.scenarios.check

    seen: list[int] = []
    check = rulekit.scenarios.check.check_scenarios

    def counting(pack: Any, scenarios: list[Any]) -> list[Any]:
        seen.append(len(scenarios))
        return check(pack, scenarios)

    monkeypatch.setattr(rulekit.scenarios.check, "check_scenarios", counting)
    return seen


def test_the_scenarios_read_no_number_slot(run: Run, cache: Path, loads: list[Path],
                                           checked: list[int], tmp_path: Path) -> None:
    pack = shipped("rednotice", tmp_path)
    first = run("validate", pack)
    assert checked == [123]
    edit(pack / "pack.yaml", "goal: {default: 1000000,", "goal: {default: 2000000,")
    edit(pack / "flow.yaml", "triggered += [region]", "triggered = triggered + [region]")
    found = run("validate", pack)  # a statement list changed too: validated again
    assert found == first and len(loads) == 2 and checked == [123]
    assert as_from_scratch(run, pack, loads) == first


def test_the_scenarios_read_the_bounds_of_parameters(run: Run, make_pack: Any, cache: Path,
                                                     loads: list[Path],
                                                     checked: list[int]) -> None:
    pack = make_pack()
    first = run("validate", pack)
    edit(pack / "pack.yaml", "turns: {default: 3, min: 1,", "turns: {default: 3, min: 2,")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 1 and "parameter 'turns' must be between 2 and 20, not 1" in err
    edit(pack / "pack.yaml", "turns: {default: 3, min: 2,", "turns: {default: 3, min: 1,")
    assert as_from_scratch(run, pack, loads) == first


def test_numbers_then_a_comment_of_the_same_file(run: Run, cache: Path, loads: list[Path],
                                                 tmp_path: Path) -> None:
    pack = shipped("carchase", tmp_path)
    first = run("validate", pack)
    card_number(pack, "cards.yaml", 1234)  # read from the text: its meaning is not worked out
    assert run("validate", pack) == first
    card_number(pack, "cards.yaml", 7)
    edit(pack / "cards.yaml", "\ncards:\n", "\n# all of them\ncards:\n")
    assert run("validate", pack) == first
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1


def test_numbers_of_a_file_with_other_line_breaks(run: Run, cache: Path, loads: list[Path],
                                                  tmp_path: Path) -> None:
    pack = shipped("carchase", tmp_path)
    cards = pack / "cards.yaml"
    cards.write_bytes(cards.read_bytes().replace(b"\n", b"\r\n"))
    first = run("validate", pack)
    cards.write_bytes(cards.read_bytes().replace(b"score: 5}", b"score: 55}", 1))
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 1
