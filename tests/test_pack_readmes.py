"""Each shipped pack is self-contained: its README names only files of the pack (or of this
repository), never a path on some machine, and its rules are in its rules file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted(p.parent for p in (ROOT / "games").glob("*/pack.yaml"))
FILE_NAME = re.compile(r"`([^`\s]+\.(?:md|txt|yaml|py|json|svg))`")


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_readme_names_only_files_that_exist(pack: Path) -> None:
    text = (pack / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"(?<![\w.])(/(?:work|home|Users|tmp)/|[A-Za-z]:\\)", text)
    missing = []
    for name in sorted(set(FILE_NAME.findall(text))):
        found = (list(pack.glob(name)) or list(pack.rglob(Path(name).name))
                 or (ROOT / name).exists())
        if not found:
            missing.append(name)
    assert missing == []


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_rules_are_in_the_pack(pack: Path) -> None:
    manifest = (pack / "pack.yaml").read_text(encoding="utf-8")
    assert re.search(r"^rules: rules\.yaml", manifest, re.M)
    assert (pack / "rules.yaml").is_file()
