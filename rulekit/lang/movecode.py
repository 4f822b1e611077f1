"""Moves and draws written out in place, for playout versions.

On the normal path a ``move`` or ``draw`` calls a helper of the runtime
(``engine/helpers``: ``move``, ``move_all``, ``draw``), which also returns the cards moved for
a zone's ``on_enter``. A playout version of a move into a zone with no ``on_enter`` does the
same list operations, in the same order, in place: no call, nothing returned. A card missing
from its zone fails there with another Python error than the helper's, which is the playout's
failure: the game is then played again on the normal path, whose error names the place.
"""

from __future__ import annotations


def inline_move(src: str, dst: str, cards: str | None, bottom: bool) -> list[str]:
    """Python lines moving ``cards`` (Python source of a card or a list of cards; None: all
    the cards) from zone key ``src`` to ``dst`` (Python source of keys), as
    ``helpers.move`` and ``helpers.move_all`` do."""
    put = "_d.insert(0, _c)" if bottom else "_d.append(_c)"
    if cards is None:
        onto = "_d[:0] = _s" if bottom else "_d += _s"
        return [f"_s = Z[{src}]; _d = Z[{dst}]",
                f"if _s is not _d: {onto}; _s.clear()"]
    return [f"_s = Z[{src}]; _d = Z[{dst}]; _c = {cards}",
            f"if isinstance(_c, str): _s.remove(_c); {put}",
            "else:",
            f"    for _c in list(_c): _s.remove(_c); {put}"]


def inline_draw(src: str, dst: str, count: str) -> list[str]:
    """Python lines drawing up to ``count`` cards one by one from the top of ``src`` onto
    ``dst``, as ``helpers.draw`` does."""
    return [f"_s = Z[{src}]; _n = min({count}, len(_s))",
            f"if _n > 0: _t = _s[:-_n - 1:-1]; del _s[-_n:]; Z[{dst}].extend(_t)"]
