"""The shapes of a game state and what it holds: plain JSON data."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]
"""A game in progress: everything about it, as plain data that JSON round-trips."""

Spec = dict[str, Any]
"""A pending decision, as a ``choose`` statement asks it."""

Frame = list[Any]
"""Where one procedure stands: ``[its name, the next block to run, its local values]``."""
