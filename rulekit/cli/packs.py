"""``rulekit list``: every pack rulekit can find, with its version and where it comes from."""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    pass
