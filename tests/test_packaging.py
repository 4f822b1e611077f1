"""The wheel carries every package of rulekit and every file of the shipped packs and schemas.

``.ci/run`` builds the wheel and plays from it in a fresh environment; these checks catch a new
subpackage or a new kind of pack file that pyproject.toml would leave out of the wheel.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from rulekit.pack.loader import shipped_packs_dir
from rulekit.source.datafiles import data_dir
from rulekit.source.schema import SCHEMA_DIR

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]


def test_every_package_of_rulekit_is_in_the_wheel() -> None:
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "rulekit").rglob("__init__.py")}
    assert found <= set(SETUPTOOLS["packages"])


def test_every_file_of_the_shipped_packs_and_schemas_is_package_data() -> None:
    for package, folder in SETUPTOOLS["package-dir"].items():
        patterns = SETUPTOOLS["package-data"][package]
        files = [p.relative_to(ROOT / folder).as_posix()
                 for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in
                 p.parts]
        assert files
        left_out = [f for f in files
                    if not any(fnmatch.fnmatch(f, pat) or fnmatch.fnmatch(f, pat.removeprefix(
                        "**/")) for pat in patterns)]
        assert left_out == [], f"{package}: not in the wheel: {left_out}"


def test_a_checkout_reads_its_own_top_level_folders() -> None:
    assert shipped_packs_dir() == data_dir("games") == ROOT / "games"
    assert SCHEMA_DIR == ROOT / "schemas"
