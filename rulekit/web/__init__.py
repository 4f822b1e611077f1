"""Games in the browser: ``rulekit serve``."""

from __future__ import annotations

from rulekit.web.rooms import Room, new_room, resumed_room
from rulekit.web.server import Server

__all__ = ["Room", "Server", "new_room", "resumed_room"]
