"""The bounds on what a pack may ask of rulekit.

Each limit is far beyond what a real game needs. A pack over it is refused quickly. Its
located error names the limit. Authors find them in docs/pack-format.md.
"""

from __future__ import annotations

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest pack file (manifest, content, rules or scenario file) rulekit reads, in bytes."""

MAX_YAML_VALUES = 250_000
"""Most values (texts, numbers, lists and mappings) of one pack or scenario file."""

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

MAX_CODE_CHARS = 100_000
"""Longest piece of effect code (a procedure's body, a condition...), in characters."""

MAX_PACK_CODE_CHARS = 262_144
"""Most characters of effect code in one pack, all its pieces together."""

MAX_BLOCK_NESTING = 16
"""Most blocks (``{ ... }`` of ``if``, ``while``, ``for``...) inside one another in effect code."""

MAX_CODE_NESTING = 100
"""Most levels of nesting of one piece of effect code (operators, lists, calls and blocks)."""

MAX_SCENARIO_FILES = 200
"""Most scenario files of a pack (the files its ``scenarios`` patterns match)."""

MAX_SCENARIO_BYTES = 512 * 1024
"""Most bytes of all the scenario files of a pack together."""

MAX_SCENARIOS = 1_000
"""Most scenarios of a pack, in all its scenario files."""

MAX_SCENARIO_STEPS = 5_000
"""Most ``play`` steps of all the scenarios of a pack together."""

MAX_SCENARIO_EXPECTS = 5_000
"""Most ``expect`` lines of all the scenarios of a pack together."""

MAX_EXPECT_CHARS = 100_000
"""Most characters of all the ``expect`` lines of a pack's scenarios together."""

MAX_SCENARIO_PARAMS = 16
"""Most different sets of ``params`` the scenarios of a pack may give (each compiles it again)."""

MAX_CHECK_STEPS = 1_000_000
"""Most steps the checks of one run of scenarios take in all: the steps of ``expect`` lines, and
one per log line for each line or text of ``log_for``."""
