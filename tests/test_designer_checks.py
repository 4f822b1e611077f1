"""`rulekit validate` catches the mistakes designers really make, each with its place and a hint."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulekit import load_pack
from tests.helpers_cli import Run, runner

ROOT = Path(__file__).resolve().parent.parent
HIDEOUT = ROOT / "docs" / "examples" / "hideout"
SHADOW = ROOT / "tests" / "packs" / "shadow"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def copy(tmp_path: Path, source: Path = HIDEOUT) -> Path:
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


BAD_SCENARIOS = """\
scenarios:
  - name: Every mistake at once
    covers: [HO-1]
    params: {turns: 99, tunrs: 3}
    start: {round: 1, phase: serch}
    zones:
      dicard: [patroll#1]
    variables: {haet: 1, heat: 7}
    play:
      - lw: []
    expect:
      - "count(dek) == 1"
    expect_pending: fugitve
  - name: Every mistake at once
    expect: ["finished"]
"""

EXPECTED = [
    ("3:14", "rule 'HO-1' is not in the rules of hideout", "did you mean 'HO-01'?"),
    ("4:21", "parameter 'turns' must be between 1 and 20, not 99", None),
    ("4:25", "unknown parameter 'tunrs'", "did you mean 'turns'?"),
    ("5:30", "unknown phase 'serch'", "did you mean 'search'?"),
    ("7:7", "unknown zone 'dicard'", "did you mean 'discard'?"),
    ("7:16", "unknown card 'patroll#1'", "did you mean 'patrol#1'?"),
    ("8:17", "unknown variable 'haet'", "did you mean 'heat'?"),
    ("8:32", "7 is outside the bounds of 'heat' (0 to 3)", None),
    ("10:9", "unknown role 'lw'", "did you mean 'law'?"),
    ("12:16", "unknown name 'dek'", "did you mean 'deck'?"),
    ("13:21", "unknown role 'fugitve'", "did you mean 'fugitive'?"),
    ("14:11", "scenario name 'Every mistake at once' is already used at", None),
]


def test_validate_checks_what_scenarios_say(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    (folder / "scenarios" / "bad.yaml").write_text(BAD_SCENARIOS, encoding="utf-8")
    code, out, err = run("validate", folder)
    assert code == 1 and out == ""
    for place, message, hint in EXPECTED:
        assert f"scenarios/bad.yaml:{place}: {message}" in err, (message, err)
        if hint:
            assert f"{message}" in err and f"hint: {hint}" in err, hint
    assert f"invalid ({len(EXPECTED)} errors)" in err


def test_a_misspelt_node_in_a_scenario_is_caught_before_it_runs(run: Run,
                                                                 tmp_path: Path) -> None:
    folder = copy(tmp_path, SHADOW)
    edit(folder / "pack.yaml", "include: [content.yaml]", "include: [content.yaml]\n"
         "scenarios: [scenarios.yaml]")
    (folder / "scenarios.yaml").write_text(
        "scenarios:\n  - name: found\n    variables: {hider_at: bb}\n    expect: ['found == 0']\n")
    code, _, err = run("validate", folder)
    assert code == 1
    assert "scenarios.yaml:3:27: 'bb' is not a node (variable 'hider_at' holds a node)" in err


def test_an_owner_on_a_public_variable_or_zone_is_an_error(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "components.yaml", "heat:           {initial: 0, min: 0, max: 3}",
         "heat:           {initial: 0, min: 0, max: 3, owner: law}")
    edit(folder / "components.yaml", "discard: {visibility: public}",
         "discard: {visibility: public, owner: fugitive}")
    code, _, err = run("validate", folder)
    assert code == 1
    assert "components.yaml:3:40: zone 'discard' has an owner but is public" in err
    assert "components.yaml:9:55: variable 'heat' has an owner but is public" in err
    assert "hint: add visibility: owner to show it to its owner only, or public: true" in err
    edit(folder / "components.yaml", "owner: fugitive}", "owner: fugitive, public: true}")
    edit(folder / "components.yaml", "owner: law}", "owner: law, visibility: owner}")
    assert run("validate", folder)[0] == 0


def test_duplicate_rule_ids_are_an_error(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "rules.yaml", "  - id: HO-02", "  - id: HO-01")
    code, _, err = run("validate", folder)
    assert code == 1 and "rules.yaml:5:9: rule 'HO-01' is given twice" in err


def test_validate_json_lists_diagnostics(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    (folder / "scenarios" / "bad.yaml").write_text(BAD_SCENARIOS, encoding="utf-8")
    code, out, _ = run("validate", folder, "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert report["packs"][0]["pack"] == str(folder) and not report["packs"][0]["ok"]
    first = report["packs"][0]["diagnostics"][0]
    assert first["file"].endswith("scenarios/bad.yaml") and (first["line"], first["column"]) == (
        3, 14)
    assert first["severity"] == "error" and first["hint"] == "did you mean 'HO-01'?"
    assert first["message"] == "rule 'HO-1' is not in the rules of hideout"


def test_lint_warnings_are_printed_and_fail_only_with_strict(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    components, flow = folder / "components.yaml", folder / "flow.yaml"
    edit(components, "variables:\n", "variables:\n  spare:          {initial: 0}\n")
    edit(components, "zones:\n", "zones:\n  limbo:   {visibility: public}\n")
    components.write_text(components.read_text() + "  helper:\n    returns: \"1\"\n")
    edit(flow, "setup: |\n  shuffle deck\n",
         "setup: |\n  shuffle deck\n  let x = choose law one of limbo optional prompt \"Pick\"\n")
    edit(flow, "procedures:\n", "procedures:\n  unused_proc:\n    do: pass\n")
    edit(flow, "    - when: \"heat >= 3\"", "    - when: \"heat == 0\"")
    code, out, err = run("validate", folder)
    assert code == 0 and out.endswith("hideout: ok (22 cards, 10 scenarios; 5 warnings)\n")
    for place, message in [
        ("components.yaml:10:3", "variable 'spare' is never used by the pack's code"),
        ("components.yaml:19:3", "function 'helper' is never used"),
        ("flow.yaml:2:3", "procedure 'unused_proc' is never called"),
        ("flow.yaml:25:11", "this choose always offers an empty list: zone 'limbo', which no "
                            "card ever enters"),
        ("flow.yaml:72:7", "this end condition holds right after setup, so games end before "
                           "their first round, with law winning"),
    ]:
        assert f"{place}: warning: {message}" in err, (message, err)
    code, out, err = run("validate", folder, "--strict")
    assert code == 1 and "hideout: invalid (5 warnings)" in err


def test_a_function_only_the_evaluation_calls_is_used(run: Run, tmp_path: Path) -> None:
    """The bots' evaluation is the pack's code too: what it calls is not unused."""
    folder = copy(tmp_path)
    components, flow = folder / "components.yaml", folder / "flow.yaml"
    components.write_text(components.read_text() + "  closeness:\n    returns: \"heat * 2\"\n")
    edit(flow, "  end_when:\n", "  evaluate:\n    law: \"closeness()\"\n  end_when:\n")
    code, out, err = run("validate", folder)
    assert code == 0 and "closeness" not in err, err
    assert out.endswith("hideout: ok (22 cards, 10 scenarios)\n"), out


def test_a_card_no_zone_starts_with_and_no_code_names_is_a_warning(run: Run,
                                                                    tmp_path: Path) -> None:
    folder = copy(tmp_path)
    cards = load_pack(HIDEOUT).game.symbols.cards
    kept = [c for c in cards if not c.startswith(("docks", "patrol#2", "patrol#3"))]
    edit(folder / "components.yaml", "initial: all}", f"initial: [{', '.join(kept)}]}}")
    code, _, err = run("validate", folder)
    assert code == 0
    assert "cards.yaml:27:5: warning: card 'docks' never comes into play" in err, err
    assert "'patrol'" not in err  # one of its copies starts in the deck


def test_duplicate_phase_ids_are_an_error(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "flow.yaml", "    - id: stash", "    - id: draw")
    code, _, err = run("validate", folder)
    assert code == 1 and "flow.yaml:35:11: phase 'draw' is given twice" in err


def test_the_shipped_packs_have_no_warnings(run: Run) -> None:
    code, out, err = run("validate", "carchase", "rednotice", HIDEOUT, "--strict")
    assert code == 0 and "warning" not in out + err


def test_declared_properties_catch_misspelt_missing_and_mistyped_keys(run: Run,
                                                                      tmp_path: Path) -> None:
    folder = copy(tmp_path, ROOT / "games" / "carchase")
    cards = folder / "cards.yaml"
    edit(cards, "{id: lie_low, name: Lie Low, type: F, kind: Fugitive, score: 1}",
         "{id: lie_low, name: Lie Low, type: F, kind: Fugitive, score: 1, copise: 12}")
    edit(cards, "{id: skid, name: Skid, type: C, kind: Chase, score: 1}",
         "{id: skid, nmae: Skid, type: C, kind: Chase, score: \"1\"}")
    edit(cards, "{id: bust, name: Bust, type: I, kind: Investigation, score: 8}",
         "{id: bust, name: Bust, type: I, score: 8}")
    code, _, err = run("validate", folder)
    assert code == 1
    assert "has a property 'copise' that the pack does not declare" in err
    assert "hint: did you mean 'copies'?" in err
    assert "card 'skid' has a property 'nmae' that the pack does not declare\n" in err
    assert "card 'bust' has no 'kind'" in err
    assert "property 'score' of card 'skid' must be an integer" in err


def test_a_misspelt_region_key_on_a_node_is_caught(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path, ROOT / "games" / "rednotice")
    edit(folder / "map.yaml", "{id: lima, name: Lima, region: south_america,",
         "{id: lima, name: Lima, regoin: south_america,")
    code, _, err = run("validate", folder)
    assert code == 1
    assert "map.yaml:" in err and "node 'lima' has a property 'regoin'" in err


def test_packs_that_declare_no_properties_are_not_checked(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "cards.yaml", "properties:\n  cards: {type: text, score: int}\n", "")
    edit(folder / "cards.yaml", "{id: informant,   name: Informant,   type: S, score: 8}",
         "{id: informant,   name: Informant,   type: S, score: 8, note: any}")
    assert run("validate", folder)[0] == 0
    edit(folder / "cards.yaml", "cards:\n", "properties:\n  cards: {type: text, score: int}\n"
         "cards:\n")
    assert run("validate", folder)[0] == 1  # declared, the same key is an error


def test_a_public_log_line_that_prints_a_secret_is_a_warning(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "cards.yaml", "{reveal(stash[fugitive])}", "{stash[fugitive]}")
    edit(folder / "flow.yaml", '          log "The Fugitive stashes a card."',
         '          let seen = c\n          log "The Fugitive stashes {seen}."')
    code, out, err = run("validate", folder)
    # A card of the hideout is a secret; an answer is not (a log of a choice tells what the
    # rules reveal), even through a local variable.
    assert code == 0 and out.endswith("hideout: ok (22 cards, 10 scenarios; 1 warning)\n")
    lines = err.splitlines()
    start = lines.index(next(line for line in lines if line.endswith(
        "cards.yaml:17:45: warning: this log line is public, and it prints 'stash', which not "
        "every player may see")))
    assert lines[start + 1:start + 4] == [
        '              log "Raid! The hideout is found: {stash[fugitive]}."',
        "                                                ^",
        "hint: send the line to the role that may see it (log \"...\" to ROLE), or print "
        "something public"]
    assert "flow.yaml:43:" not in err
    code, out, _ = run("validate", folder, "--format", "json")
    [warning] = [d for d in json.loads(out)["packs"][0]["diagnostics"]
                 if "stash" in d["message"]]
    assert (warning["severity"], warning["line"], warning["column"]) == ("warning", 17, 45)


def test_a_phase_that_always_ends_the_round_is_a_warning(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "flow.yaml", "        refill(fugitive)\n",
         "        refill(fugitive)\n        if heat > 1 { end_round } else { finish() }\n")
    edit(folder / "flow.yaml", "procedures:\n",
         "procedures:\n  finish:\n    do: |\n      if heat > 0 { pass }\n      end_round\n")
    code, _, err = run("validate", folder)
    assert code == 0
    assert str(folder / "flow.yaml") + ":33:7: warning: every path of phase 'draw' ends the " \
        "round or the game, so the phases after it never run: 'stash', 'search'" in err
    assert "hint: end the round only on some paths (inside an if), or move the phases after " \
        "it before it" in err
    edit(folder / "flow.yaml", "      if heat > 0 { pass }\n", "      if heat > 0 { return }\n")
    code, _, err = run("validate", folder)
    assert "every path of phase" not in err


def test_an_unused_parameter_and_a_role_that_never_decides_are_warnings(run: Run,
                                                                        tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "pack.yaml", "parameters:\n", "parameters:\n  spare: {default: 1}\n")
    edit(folder / "pack.yaml", "roles:\n", "roles:\n  - {id: judge, name: The Judge}\n")
    code, _, err = run("validate", folder)
    assert code == 0
    assert "pack.yaml:15:3: warning: parameter 'spare' is never used by the pack's code" in err
    assert ("pack.yaml:11:10: warning: role 'judge' never decides: no choose names it, and no "
            "anytime action is its") in err
    assert "hint: give it a decision, or remove it" in err


def test_a_card_given_twice_is_one_error_whatever_its_copies(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "cards.yaml", "  - {id: informant, ",
         "  - {id: patrol, name: Patrol 2, type: S, score: 2, copies: 8}\n  - {id: informant, ")
    code, _, err = run("validate", folder)
    assert code == 1 and err.count("error") == 1 and err.endswith("invalid (1 error)\n")
    assert ("cards.yaml:8:10: card 'patrol' is given twice: its ids are those of the entry at "
            "line 5, column 10") in err
    assert "hint: give each card entry its own id (copies: N makes ID#1 to ID#N)" in err


def test_a_clash_of_ids_is_one_error_not_a_cascade(run: Run, tmp_path: Path) -> None:
    folder = copy(tmp_path, ROOT / "games" / "rednotice")
    edit(folder / "components.yaml", "{id: act_01,", "{id: london,")
    code, _, err = run("validate", folder)
    assert code == 1 and err.endswith("invalid (1 error)\n")
    assert "map.yaml:33:7: id 'london' is already used by a card" in err


@pytest.mark.parametrize(("code", "noted"), [
    ('if @patrol#1 in hand[law] {\n    log "Many"\n  }', True),
    ('if @patrol#1 in hand[law] {\n    log "Many"\n  } else {\n    log "Few"\n  }', False),
    ('if count(deck) > 3 {\n    log "Many"\n  }', False),  # a pile's size is public
])
def test_a_public_log_on_a_secret_branch_is_a_note(run: Run, tmp_path: Path, code: str,
                                                   noted: bool) -> None:
    folder = copy(tmp_path)
    edit(folder / "flow.yaml", "setup: |\n  shuffle deck\n",
         "setup: |\n  shuffle deck\n  draw 5 from deck to hand[law]\n  " + code + "\n")
    code_, out, err = run("validate", folder, "--strict")
    assert code_ == 0 and ("note: this public log line is written on a branch taken on data "
                           "not every player may see" in err) == noted
    assert out.endswith("scenarios; 1 note)\n" if noted else "10 scenarios)\n")


def test_a_variant_that_wraps_a_base_procedure_keeps_what_the_base_body_does(
        run: Run, tmp_path: Path) -> None:
    # The base pack's refill is the only code that fills a hand; the variant runs it through
    # base(p). Lint reads that body too, so no choose is said to offer an empty hand.
    copy(tmp_path)
    variant = tmp_path / "calm"
    variant.mkdir()
    (variant / "pack.yaml").write_text(
        'id: calm\nname: Calm\nversion: "1"\nextends: ../hideout\ninclude: [flow.yaml]\n')
    (variant / "flow.yaml").write_text(
        "procedures:\n  refill:\n    params: {p: role}\n    do: |\n"
        '      log "Refill."\n      base(p)\n')
    code, out, err = run("validate", str(variant))
    assert (code, err) == (0, "") and out.endswith("calm: ok (22 cards, 0 scenarios)\n"), out
    (variant / "flow.yaml").write_text(
        "procedures:\n  refill:\n    params: {p: role}\n    do: |\n"
        '      log "Refill."\n')
    code, out, err = run("validate", str(variant))
    assert "3 warnings" in out and "which no card ever enters" in err
