"""Packs installed as Python packages (entry point group ``rulekit.packs``), found by id as the
shipped ones and those of $RULEKIT_PACKS are, listed by ``rulekit list``, and extended by id."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import write_pack
from helpers_cli import Run, runner

from rulekit.pack.find import find_pack
from rulekit.pack.installed import shipped_packs_dir


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def install(site: Path, distribution: str, version: str, points: dict[str, str],
            packs: dict[str, str]) -> None:
    """A distribution as pip leaves it in ``site``: a ``*.dist-info`` folder with its entry
    points, and for each package of ``packs`` a folder holding the duel pack under that id."""
    info = site / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[rulekit.packs]\n" + "".join(f"{name} = {value}\n" for name, value in points.items()),
        encoding="utf-8")
    for package, pack_id in packs.items():
        folder = write_pack(site / package, replace={"pack.yaml": ("id: duel", f"id: {pack_id}")})
        (folder / "__init__.py").write_text("raise RuntimeError('never imported')\n")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "site-packages"
    install(folder, "rulekit-mygame", "0.3.0", {"mygame": "rulekit_mygame"},
            {"rulekit_mygame": "mygame"})
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delenv("RULEKIT_PACKS", raising=False)
    return folder


def test_an_installed_pack_is_found_by_id(run: Run, site: Path) -> None:
    assert find_pack("mygame") == site / "rulekit_mygame"
    code, out, _err = run("validate", "mygame")
    assert code == 0 and out.startswith("mygame: ok (2 cards, 2 scenarios")
    code, out, _ = run("simulate", "mygame", "-n", "5")
    assert code == 0 and "mygame" in out


def test_rulekit_list_says_where_each_pack_comes_from(run: Run, site: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    write_pack(tmp_path / "mine/hideaway", replace={"pack.yaml": ("id: duel", "id: hideaway")})
    write_pack(tmp_path / "here", replace={"pack.yaml": ('version: "1.0"', 'version: "2.5"')})
    monkeypatch.setenv("RULEKIT_PACKS", str(tmp_path / "mine"))
    code, out, _ = run("list", tmp_path / "here")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["id", "version", "name", "from", "folder"]
    starts = [[*line.split()[:2], line[lines[0].index("from"):].split()[0]] for line in lines]
    assert starts[1:] == [["duel", "2.5", "path"], ["hideaway", "1.0", "RULEKIT_PACKS"],
                          ["carchase", "1.0.0", "shipped"], ["rednotice", "1.0.0", "shipped"],
                          ["mygame", "1.0", "entry"]]
    (mine,) = [re.split(r"\s{2,}", line) for line in lines if line.startswith("mygame ")]
    assert mine == ["mygame", "1.0", "Duel", "entry point (rulekit-mygame 0.3.0)",
                    str(site / "rulekit_mygame")]


def test_rulekit_list_as_json(run: Run, site: Path) -> None:
    code, out, _ = run("list", "--json")
    packs = {p["id"]: p for p in json.loads(out)["packs"]}
    assert code == 0 and packs["mygame"]["distribution"] == "rulekit-mygame 0.3.0"
    assert packs["mygame"]["from"] == "entry point (rulekit-mygame 0.3.0)"
    assert packs["rednotice"]["from"] == "shipped" and packs["rednotice"]["notes"] == []


def test_an_installed_pack_never_takes_a_shipped_id(run: Run, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    install(site, "rulekit-fake", "1.0", {"carchase": "fake_carchase", "lost": "not_there",
                                          "empty": "fake_empty"},
            {"fake_carchase": "carchase"})
    (site / "fake_empty").mkdir()
    monkeypatch.syspath_prepend(str(site))
    assert find_pack("carchase") == shipped_packs_dir() / "carchase"
    code, out, _ = run("list")
    assert code == 0 and "(hidden by the carchase from shipped)" in out
    assert "lost" not in out and "empty" not in out  # no such package, no pack.yaml


def test_a_variant_extends_an_installed_pack_by_id(run: Run, site: Path, tmp_path: Path) -> None:
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "pack.yaml").write_text(
        "id: variant\nname: Variant\nversion: '1.0'\nextends: mygame\n"
        "parameters:\n  turns: {default: 5}\n", encoding="utf-8")
    code, _out, err = run("validate", variant)
    assert code == 0, err
    (variant / "pack.yaml").write_text(
        "id: variant\nname: Variant\nversion: '1.0'\nextends: mygam\n", encoding="utf-8")
    code, _, err = run("validate", variant)
    assert code == 1 and "did you mean 'mygame'?" in err


def test_rulekit_list_of_a_folder_without_packs(run: Run, site: Path, tmp_path: Path) -> None:
    code, out, err = run("list", tmp_path / "nowhere")
    assert code == 1 and f"rulekit: {tmp_path / 'nowhere'}: no pack there" in err
    assert "carchase" in out
