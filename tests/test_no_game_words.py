"""Rules live in packs: no role of a shipped pack is named in rulekit's own code (DESIGN.md,
principle 1). Role ids and names are the words that slip in most easily (an example in a
docstring, a default in a help text); cards, zones and phases use words any game may use."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekit.pack.loader import load_pack

PACKAGE = Path(__file__).resolve().parent.parent / "rulekit"


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".lark", ".json")
                  and "games" not in p.relative_to(PACKAGE).parts)


@pytest.mark.parametrize("pack", ["carchase", "rednotice"])
def test_no_role_of_a_shipped_pack_is_named_in_rulekit(pack: str) -> None:
    game = load_pack(pack).game
    words = {role.lower() for role in game.roles}
    for name in game.role_names.values():
        words.update(word.lower() for word in re.findall(r"[A-Za-z]{3,}", name))
    words.discard("the")
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(words))) + r")\b", re.I)
    found = [f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
             for path in _sources()
             for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert words and not found, "\n".join(found)
