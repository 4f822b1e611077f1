"""The table of run-time errors in docs/effect-language.md shows the messages games really stop
with: each cause is played in the reference's examples' pack and the message compared."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from test_docs_examples import LANGUAGE, _write_sandbox

from rulekit.errors import GameRuntimeError
from rulekit.pack.loader import load_pack

# Code that causes each row's error, by the start of the row's cause.
CAUSES = {
    "`move` of a card that is not in the source zone": "move @bust from discard to deck",
    "`move` of `none`": "move top(discard) from discard to deck",
    "a property of `none`": "let c = top(discard)\nsecurity = c.score",
    "an index outside a list": "let xs = [1, 2]\nsecurity = xs[5]",
    "a numbered zone or variable outside 1..N": "let i = 7\nmove @bust from deck to slots[i]",
    "`//` or `%` by 0": "let z = 0\nsecurity = 5 % z",
    "a `one` choice with no candidate": "let c = choose hunter one of hand[hunter]",
    "a subset choice whose `min` is more": "let cs = choose hunter subset of hand[hunter] min 1",
    "a function calling itself without end": "security = forever(1)",
    "an integer past": "let q = 2\nrepeat 40 { q = q * q }",
    "a text longer than": 'let t = "ab"\nrepeat 36 { t = t + t }',
    "a list longer than": "let l = [1]\nrepeat 40 { l = l + l }",
}
EXTRA = {  # declarations the causes need, added to the examples' pack
    "zones:\n": "zones:\n  slots: {per: 3, visibility: public}\n",
    "functions:\n": ("functions:\n  forever:\n    params: {n: int}\n"
                     "    returns: \"forever(n + 1)\"\n"),
}


def _table() -> list[tuple[str, str]]:
    text = LANGUAGE.read_text(encoding="utf-8")
    section = text.split("## Errors while a game runs", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (.+?) \| `(.+)` \|$", section, re.M)
    return [(cause, message) for cause, message in rows if cause != "cause"]


def test_every_row_is_tried() -> None:
    causes = [cause for cause, _ in _table()]
    assert len(causes) == len(CAUSES)
    for start in CAUSES:
        assert any(cause.startswith(start) for cause in causes), start


@pytest.mark.parametrize("cause, message", _table())
def test_runtime_message(cause: str, message: str, tmp_path: Path) -> None:
    [code] = [code for start, code in CAUSES.items() if cause.startswith(start)]
    folder = _write_sandbox(tmp_path / "sandbox", code + "\n")
    components = folder / "components.yaml"
    text = components.read_text(encoding="utf-8")
    for old, new in EXTRA.items():
        text = text.replace(old, new, 1)
    components.write_text(text, encoding="utf-8")
    game = load_pack(folder).game
    rng = random.Random(0)
    with pytest.raises(GameRuntimeError) as caught:
        state = game.new_game(0)
        while not game.is_over(state):
            state = game.apply(state, {d.player: d.sample(rng).id for d in game.pending(state)})
    assert caught.value.message == message
