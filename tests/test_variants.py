"""Variants by extension: a pack that ``extends`` another inherits it and changes what it names."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from rulekit.errors import PackErrors
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.scenarios.runner import run_scenarios
from tests.helpers_cli import Run, runner

ROOT = Path(__file__).resolve().parent.parent
HIDEOUT = ROOT / "docs" / "examples" / "hideout"
EXAMPLES = [ROOT / "docs" / "examples" / name
            for name in ("carchase-nine", "rednotice-tour", "hideout-long")]

MANIFEST = """\
id: hotter
name: Hotter
version: "1"
extends: ../hideout
"""


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def variant(tmp_path: Path, manifest: str = MANIFEST, **files: str) -> Path:
    """A copy of the Hideout example in tmp_path/hideout, and a variant of it in tmp_path/hotter
    with the given pack.yaml and files (``changes_yaml`` is written as changes.yaml)."""
    shutil.copytree(HIDEOUT, tmp_path / "hideout")
    folder = tmp_path / "hotter"
    folder.mkdir()
    (folder / "pack.yaml").write_text(manifest)
    for name, text in files.items():
        (folder / name.replace("_yaml", ".yaml")).write_text(text)
    return folder


def errors_of(folder: Path) -> str:
    with pytest.raises(PackErrors) as caught:
        load_pack(folder)
    return str(caught.value)


def test_a_variant_with_only_a_manifest_plays_its_base_with_new_defaults(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "parameters:\n  turns: {default: 3}\n")
    pack = load_pack(folder)
    base = load_pack(tmp_path / "hideout")
    assert pack.id == "hotter" and pack.base_id == "hideout"
    assert pack.game.params == {**base.game.params, "turns": 3}
    assert pack.game.symbols.cards.keys() == base.game.symbols.cards.keys()
    assert pack.game.symbols.phases == base.game.symbols.phases
    assert pack.rules == base.rules  # the rules are inherited
    assert pack.game.pack_hash != base.game.pack_hash


def test_a_parameter_default_outside_the_base_bounds_is_located_in_the_variant(
        tmp_path: Path) -> None:
    text = errors_of(variant(tmp_path, MANIFEST + "parameters:\n  turns: {default: 99}\n"))
    assert "hotter/pack.yaml:6:" in text and "outside its bounds" in text
    assert "base pack" not in text


def test_cards_are_added_replaced_and_removed_by_id(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "include: [changes.yaml]\n", changes_yaml="""\
cards:
  - {id: informant, name: Big Informant, type: S, score: 9}
  - {id: roadblock, name: Roadblock, type: S, score: 5}
remove:
  cards: [raid]
""")
    cards = load_pack(folder).game.symbols.cards
    base = load_pack(tmp_path / "hideout").game.symbols.cards
    assert cards["informant"]["score"] == 9 and base["informant"]["score"] == 8
    assert cards["roadblock"]["name"] == "Roadblock"
    assert "raid#1" in base and not any(c.startswith("raid") for c in cards)
    assert len(cards) == len(base) + 1 - 2  # roadblock added, the two copies of raid removed
    # the order of the base is kept: a replaced card stays where it was
    assert list(cards).index("informant") == list(base).index("informant")


def test_removing_an_unknown_card_is_located_with_a_hint(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "include: [changes.yaml]\n",
                     changes_yaml="remove:\n  cards: [informer]\n")
    text = errors_of(folder)
    assert "hotter/changes.yaml:2:11: there is no card 'informer' to remove" in text
    assert "did you mean 'informant'?" in text


def test_phases_are_inserted_after_a_named_phase_and_procedures_replaced(
        tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "include: [changes.yaml]\n", changes_yaml="""\
procedures:
  refill:
    params: {p: role}
    do: |
      draw 1 from deck to hand[p]
flow:
  phases:
    - id: warm_up
      after: draw
      do: |
        heat = 1
""")
    pack = load_pack(folder)
    assert pack.game.symbols.phases == ["draw", "warm_up", "stash", "search"]
    state = pack.game.run(pack.game.initial_state(1))
    assert state["phase"] == "stash" and state["vars"]["heat"] == 1
    assert len(state["zones"]["hand.law"]) == 1  # the replaced refill draws one card


def test_a_phase_put_after_an_unknown_phase_is_located_with_a_hint(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "include: [changes.yaml]\n", changes_yaml="""\
flow:
  phases:
    - {id: warm_up, before: serch, do: "heat = 1"}
""")
    text = errors_of(folder)
    assert "hotter/changes.yaml:3:29: no phase 'serch' to put this one before" in text
    assert "did you mean 'search'?" in text


def test_an_error_in_what_the_variant_inherits_says_it_is_in_the_base(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "include: [changes.yaml]\n",
                     changes_yaml="remove:\n  procedures: [refill]\n")
    text = errors_of(folder)
    assert "hideout/flow.yaml:" in text
    assert "in the base pack hideout: unknown" in text and "refill" in text


def test_a_broken_base_is_reported_in_the_base(tmp_path: Path) -> None:
    folder = variant(tmp_path)
    flow = tmp_path / "hideout" / "flow.yaml"
    flow.write_text(flow.read_text().replace("rounds: turns", "rounds: turns\n  rounds: 3"))
    text = errors_of(folder)
    assert "hideout/flow.yaml:" in text and "in the base pack hideout:" in text


def test_a_missing_base_is_located_at_extends(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST.replace("../hideout", "carchse"))
    text = errors_of(folder)
    assert "hotter/pack.yaml:4:10:" in text and "did you mean 'carchase'?" in text
    folder = tmp_path / "other"
    folder.mkdir()
    (folder / "pack.yaml").write_text(MANIFEST.replace("../hideout", "../nowhere"))
    assert "other/pack.yaml:4:10: the base pack folder '../nowhere' has no pack.yaml" in \
        errors_of(folder)


def test_a_cycle_of_extends_is_located(tmp_path: Path) -> None:
    for name, base in (("one", "two"), ("two", "one")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "pack.yaml").write_text(
            MANIFEST.replace("hotter", name).replace("../hideout", f"../{base}"))
    text = errors_of(tmp_path / "one")
    assert "the pack extends itself:" in text and "two/pack.yaml:4:10:" in text


def test_a_variant_may_read_files_of_its_base_folder_and_no_other(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "include: [../hideout/cards.yaml]\n")
    assert load_pack(folder).base_id == "hideout"
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "cards.yaml").write_text("cards: []\n")
    (folder / "pack.yaml").write_text(MANIFEST + "include: [../elsewhere/cards.yaml]\n")
    assert "is outside the pack folder" in errors_of(folder)


def test_a_section_may_be_split_over_files_of_one_pack(tmp_path: Path) -> None:
    shutil.copytree(HIDEOUT, tmp_path / "hideout")
    folder = tmp_path / "hideout"
    (folder / "more.yaml").write_text(
        "cards:\n  - {id: roadblock, name: Roadblock, type: S, score: 5}\n")
    manifest = folder / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("flow.yaml]", "flow.yaml, more.yaml]"))
    assert "roadblock" in load_pack(folder).game.symbols.cards
    (folder / "more.yaml").write_text("functions:\n  total:\n    returns: '1'\n")
    text = errors_of(folder)
    assert "hideout/more.yaml:2:3: function 'total' is already given at" in text
    assert "components.yaml" in text


def test_remove_in_a_pack_that_extends_nothing_is_an_error(tmp_path: Path) -> None:
    shutil.copytree(HIDEOUT, tmp_path / "hideout")
    cards = tmp_path / "hideout" / "cards.yaml"
    cards.write_text(cards.read_text() + "remove:\n  cards: [raid]\n")
    assert "'remove' is for a variant" in errors_of(tmp_path / "hideout")


@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: p.name)
def test_the_example_variants_pass_their_scenarios(folder: Path) -> None:
    pack: LoadedPack = load_pack(folder)
    assert pack.base_id is not None
    result = run_scenarios(pack)
    assert result.results and result.failed == 0, [str(r) for r in result.results]


def test_rulekit_test_with_base_reports_the_base_scenarios_apart(run: Run) -> None:
    code, out, _ = run("test", EXAMPLES[0], "--with-base", "-k", "Setup")
    assert code == 0  # the base's scenarios may fail: the variant deals 7 cards, not 10
    assert "scenarios of the base pack carchase, run against carchase-nine:" in out
    assert "FAIL Setup: the shuffled deck deals 10 cards" in out
    assert "expected count(hand[law]) == 10: count(hand[law]) = 7" in out
    assert "base: " in out and "(a variant may change what they assert)" in out


def test_the_tutorials_variant_is_the_one_it_shows() -> None:
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n# (docs/examples/hideout-long/\S+)\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    for name, shown in blocks:
        data = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
        assert yaml.safe_load(shown) == data, name


SHADOW = ROOT / "tests" / "packs" / "shadow"


def test_removing_a_node_removes_its_edges_and_map_items_are_replaced(tmp_path: Path) -> None:
    shutil.copytree(SHADOW, tmp_path / "shadow")
    folder = tmp_path / "small"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: small\nname: Small\nversion: '1'\nextends: ../shadow\n"
                                      "include: [map.yaml]\n")
    (folder / "map.yaml").write_text("""\
map:
  nodes:
    - {id: b, name: Beech, region: north}
  edges:
    - {from: f, to: e, steep: true}
remove:
  nodes: [c]
""")
    board = load_pack(folder).game.symbols.board
    assert list(board.nodes) == ["a", "b", "d", "e", "f"] and board.nodes["b"]["name"] == "Beech"
    assert sorted(board.edges) == ["a-b", "a-d", "d-e", "f-e"]  # b-c and c-f went with c
    assert board.edges["f-e"]["steep"] is True


def test_a_variant_of_a_variant_names_the_pack_each_mistake_is_in(tmp_path: Path) -> None:
    folder = variant(tmp_path, MANIFEST + "include: [changes.yaml]\n",
                     changes_yaml="procedures:\n  refill:\n    params: {p: role}\n"
                                  "    do: pass\n")
    outer = tmp_path / "hottest"
    outer.mkdir()
    (outer / "pack.yaml").write_text(MANIFEST.replace("hotter", "hottest").replace(
        "../hideout", "../hotter") + "include: [more.yaml]\n")
    (outer / "more.yaml").write_text("remove:\n  procedures: [refill]\n")
    assert load_pack(folder).base_id == "hideout"
    text = errors_of(outer)
    assert "hideout/flow.yaml:" in text and "in the base pack hideout: unknown" in text
    (outer / "more.yaml").write_text("remove:\n  zones: [stash]\n")
    assert "in the base pack hideout: unknown zone 'stash'" in errors_of(outer)
    (folder / "changes.yaml").write_text("procedures:\n  refill:\n    params: {p: role}\n"
                                         "    do: draw 1 from stsh[p] to hand[p]\n")
    (outer / "more.yaml").write_text("cards: []\n")
    text = errors_of(outer)
    assert "hotter/changes.yaml:4:21: in the base pack hotter: unknown zone 'stsh'" in text
