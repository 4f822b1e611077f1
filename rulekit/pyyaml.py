"""PyYAML, imported without compiling at once the one pattern of it that rulekit seldom needs.

As it is imported, PyYAML's pure-Python reader compiles a pattern of the characters YAML does
not allow: a class of Unicode ranges, 5-10 ms, about a thirtieth of ``rulekit validate`` on an
empty cache. rulekit reads YAML with libyaml where PyYAML has it, and with the pure-Python
loader (which uses that pattern) only where libyaml is missing and for a file that fails to
parse, for the messages. Here that pattern is compiled when first used: ``re.compile`` gives a
stand-in for it, for that pattern alone, while PyYAML is imported. rulekit's modules import
``yaml`` from here.
"""

from __future__ import annotations

import re
import sys
from typing import Any

_compile = re.compile
_NOT_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"


class _Pattern:
    """A compiled pattern, compiled at the first use of one of its methods."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = _compile(*self._source)
        return getattr(self._compiled, name)


def _compile_later(pattern: Any, flags: int = 0) -> Any:
    if isinstance(pattern, str) and pattern == _NOT_PRINTABLE:
        return _Pattern(pattern, flags)
    return _compile(pattern, flags)


if "yaml" not in sys.modules:
    re.compile = _compile_later
    try:
        import yaml
    finally:
        re.compile = _compile
else:
    import yaml

__all__ = ["yaml"]
