"""The bounds on what a pack may ask of rulekit.

Each limit is far beyond what a real game needs. A pack over it is refused quickly. Its
located error names the limit. Authors find them in docs/pack-format.md.
"""

from __future__ import annotations

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest pack file (manifest, content, rules or scenario file) rulekit reads, in bytes."""

MAX_PATH_CHARS = 255
"""Longest file name or pattern, in characters, in ``include``, ``rules`` and ``scenarios``."""

MAX_COPIES = 9_999
"""Most copies of one card (``copies``), and most piles or values of a ``per: N``."""

MAX_INT = 2**63 - 1
"""Largest number (in absolute value) a pack or a scenario may write, or a game may compute."""

MAX_TEXT_CHARS = 65_536
"""Longest text a game may make while it runs (longer: a located run-time error)."""

MAX_LIST_ITEMS = 100_000
"""Most items of a list a game may make while it runs (more: a located run-time error)."""

MAX_BLOCK_NESTING = 16
"""Most blocks (``{ ... }`` of ``if``, ``while``, ``for``...) inside one another in effect code."""

MAX_CODE_NESTING = 100
"""Most levels of nesting of one piece of effect code (operators, lists, calls and blocks)."""

__all__ = ["MAX_BLOCK_NESTING", "MAX_CODE_NESTING", "MAX_COPIES", "MAX_FILE_BYTES", "MAX_INT",
           "MAX_LIST_ITEMS", "MAX_PATH_CHARS", "MAX_TEXT_CHARS"]
