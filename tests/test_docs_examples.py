"""The documentation's examples work: the tutorial's pack, the effect-language reference's
examples, and the YAML snippets of the pack format."""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import pytest
import yaml

from rulekit.errors import PackErrors
from rulekit.lang.builtins import BUILTINS, PACK_BUILTINS
from rulekit.lang.parser import grammar_text
from rulekit.pack.loader import load_pack
from rulekit.scenarios.runner import run_scenarios

DOCS = Path(__file__).resolve().parent.parent / "docs"
HIDEOUT = DOCS / "examples" / "hideout"
LANGUAGE = DOCS / "effect-language.md"
PACK_FORMAT = DOCS / "pack-format.md"

MAX_DECISIONS = 10_000  # far more than any game of Hideout takes


# ---------------------------------------------------------------- the tutorial's pack


def test_hideout_scenarios_all_pass_and_cover_every_rule() -> None:
    pack = load_pack(HIDEOUT)
    run = run_scenarios(pack)
    assert [str(result) for result in run.results if not result.passed] == []
    assert len(run.results) >= 10
    rule_ids = [rule_id for rule_id, _ in pack.rules]
    assert rule_ids == [f"HO-0{i}" for i in range(1, 8)]
    coverage = run.coverage()
    assert [rule for rule in rule_ids if not coverage.get(rule)] == []


def test_hideout_random_games_end_with_a_winner() -> None:
    game = load_pack(HIDEOUT).game
    winners = set()
    for i in range(50):
        rng = random.Random(i)
        state = game.new_game(i)
        for _ in range(MAX_DECISIONS):
            if game.is_over(state):
                break
            actions = {d.player: d.sample(rng).id for d in game.pending(state)}
            assert actions, f"game {i} neither over nor waiting"
            state = game.apply(state, actions)
        assert game.is_over(state), f"game {i} did not end"
        assert game.winner(state) in ("law", "fugitive")
        assert 1 <= state["round"] <= 5
        winners.add(game.winner(state))
    assert winners == {"law", "fugitive"}


# ---------------------------------------------------------------- the language reference


def _write_sandbox(folder: Path, code: str) -> Path:
    """The reference's examples' pack, with ``code`` as the body of its phase, in ``folder``."""
    text = LANGUAGE.read_text(encoding="utf-8")
    section = text.split("## The examples' pack", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.S)
    assert len(blocks) == 3
    manifest, components, flow = blocks
    placeholder = re.search(r"^ *# the example goes here.*\n", flow, re.M)
    assert placeholder is not None
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(manifest, encoding="utf-8")
    (folder / "components.yaml").write_text(components, encoding="utf-8")
    (folder / "flow.yaml").write_text(
        flow.replace(placeholder.group(0), textwrap.indent(code, " " * 8)), encoding="utf-8")
    return folder


def _reference_examples() -> list[str]:
    return re.findall(r"```rulekit\n(.*?)```", LANGUAGE.read_text(encoding="utf-8"), re.S)


def _expected_logs(example: str) -> list[str]:
    """The texts announced by ``# -> text`` comments; ``# -> a / b`` announces two logs."""
    expected: list[str] = []
    for match in re.finditer(r"# -> (.*)$", example, re.M):
        expected.extend(text.strip() for text in match.group(1).split(" / "))
    return expected


@pytest.mark.parametrize("index", range(len(_reference_examples())))
def test_reference_example_runs(tmp_path: Path, index: int) -> None:
    example = _reference_examples()[index]
    folder = _write_sandbox(tmp_path / "sandbox", example)
    game = load_pack(folder).game
    rng = random.Random(index)
    state = game.new_game(0)
    for _ in range(MAX_DECISIONS):
        if game.is_over(state):
            break
        state = game.apply(state, {d.player: d.sample(rng).id for d in game.pending(state)})
    assert game.is_over(state)
    expected = _expected_logs(example)
    if expected:
        logs = [game.format_event(e) for e in state["log"] if e["e"] == "log"]
        assert logs == expected, example


def test_reference_shows_every_statement_with_an_example() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    parts = text.split("\n## Statements", 1)[1].split("\n## ", 1)[0].split("\n### ")[1:]
    assert [p.splitlines()[0] for p in parts if "```rulekit" not in p] == []
    headings = " ".join(p.splitlines()[0] for p in parts)
    keywords = re.findall(r'^\w+_stmt: "(\w+)"', grammar_text(), re.M)
    assert len(keywords) >= 16
    assert [word for word in keywords if f"`{word}`" not in headings] == []


def test_reference_shows_every_builtin_function_with_an_example() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    section = text.split("\n## Built-in functions", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| `")]
    missing = [name for name in [*BUILTINS, *PACK_BUILTINS]
               if not any(f"`{name}(" in row[1] and f"{name}(" in row[3] for row in rows)]
    assert missing == []


# ---------------------------------------------------------------- the pack format


def test_pack_format_component_snippets_are_valid_yaml() -> None:
    text = PACK_FORMAT.read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S)
              if b.startswith(("cards:", "zones:", "variables:"))]
    assert {b.split(":", 1)[0] for b in blocks} == {"cards", "zones", "variables"}
    for block in blocks:
        data = yaml.safe_load(block)
        assert isinstance(data, dict), block
        key = block.split(":", 1)[0]
        assert data[key], block


def test_pack_format_examples_make_a_pack_that_loads(tmp_path: Path) -> None:
    text = PACK_FORMAT.read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    manifests = [b for b in blocks if b.startswith("id:")]
    contents = [b for b in blocks if not b.startswith(("id:", "scenarios:", "# variant"))]
    assert len(manifests) == 1 and len(contents) >= 9
    manifest = yaml.safe_load(manifests[0])
    manifest["include"] = ["content.yaml"]
    del manifest["scenarios"], manifest["rules"]
    (tmp_path / "pack.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    (tmp_path / "content.yaml").write_text("\n".join(contents), encoding="utf-8")
    game = load_pack(tmp_path).game
    state = game.new_game(0)
    assert game.is_over(state)
    assert game.winner(state) == "runner"
    # the variant of the section on extends, over this pack
    variant = {b.split("\n", 1)[0].removeprefix("# variant: "): b for b in blocks
               if b.startswith("# variant")}
    assert set(variant) == {"pack.yaml", "changes.yaml"}
    folder = tmp_path / "long"
    folder.mkdir()
    manifest = yaml.safe_load(variant["pack.yaml"])
    manifest["extends"] = ".."
    del manifest["scenarios"], manifest["rules"]
    (folder / "pack.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    (folder / "changes.yaml").write_text(variant["changes.yaml"], encoding="utf-8")
    long = load_pack(folder).game
    assert long.params["turns"] == 9 and long.symbols.phases == ["draw", "bribe", "search"]
    assert "sprint" in long.symbols.cards and long.symbols.cards["bust"]["score"] == 9
    assert not {"token_1#1", "target"} & {*long.symbols.cards, *long.symbols.variables}
    state = long.new_game(0)
    assert long.winner(state) == "hunter" and state["round"] == 1


def _checker_table() -> list[tuple[str, str, str]]:
    """(code, message, hint) of each row of the reference's table of checker messages."""
    text = LANGUAGE.read_text(encoding="utf-8")
    section = text.split("## What the checker reports", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = re.findall(r"\|\s*(`(?:[^`]|``)*`|)\s*(?=\|)", line)
        if len(cells) == 3 and cells[0].startswith("`") and cells[0] != "`code`":
            code, message, hint = (c.strip("`") for c in cells)
            rows.append((code, message, hint))
    return rows


def _matches(pattern: str, text: str) -> bool:
    regex = ".*".join(re.escape(part) for part in pattern.split("..."))
    return re.fullmatch(regex, text, re.S) is not None


def test_checker_table_is_what_the_checker_says(tmp_path: Path) -> None:
    rows = _checker_table()
    assert len(rows) >= 30
    for i, (code, message, hint) in enumerate(rows):
        folder = _write_sandbox(tmp_path / f"case{i}" / "sandbox", code + "\n")
        with pytest.raises(PackErrors) as caught:
            load_pack(folder)
        found = [(e.message, e.hint or "") for e in caught.value.errors]
        assert any(_matches(message, m) and (not hint or h == hint) for m, h in found), \
            (code, found)


def test_the_tutorials_simulation_figures_are_what_rulekit_prints() -> None:
    """The win counts the tutorial shows come from real runs (same seed, same counts)."""
    from rulekit.sim.simulation import simulate

    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    runs = re.findall(r"\$ rulekit simulate docs/examples/hideout -n (\d+) --seed (\d+)"
                      r"(?: --param (\S+))?\n(?:.*\n)*?law\s+(\d+).*\nfugitive\s+(\d+)", text)
    assert len(runs) == 2
    for games, seed, param, law, fugitive in runs:
        params = dict([param.split("=")]) if param else {}
        result = simulate(HIDEOUT, params, int(games), int(seed), {})
        assert (result.wins["law"], result.wins["fugitive"]) == (int(law), int(fugitive))
