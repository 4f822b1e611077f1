"""Games in the browser: ``rulekit serve``.

``rooms`` holds the games and checks the answers, ``views`` draws what each page is sent, from
``game.observe`` only, and ``server`` serves the pages. The page itself is in ``static/``.
"""

from __future__ import annotations

from rulekit.web.rooms import Room, new_room, resumed_room
from rulekit.web.server import Server

__all__ = ["Room", "Server", "new_room", "resumed_room"]
