"""PyYAML imported with its pattern of characters not allowed compiled at first use
(rulekit/pyyaml): the stand-in is in place, and finds what the pattern finds."""

from __future__ import annotations

import re
import subprocess
import sys


def test_the_pattern_is_compiled_at_first_use_and_finds_what_pyyaml_finds() -> None:
    code = "\n".join([
        "import re, sys", "from rulekit.pyyaml import yaml", "import rulekit.pyyaml as p",
        "pattern = yaml.reader.Reader.NON_PRINTABLE",
        "assert type(pattern) is p._Pattern and pattern._compiled is None, type(pattern)",
        "assert re.compile is p._compile",  # put back after the import
        "text = ''.join(map(chr, range(0, 0x3000))) + '\\ufffe\\uffff\\U0001f600'",
        "found = [m.start() for m in pattern.finditer(text)]",
        "real = re.compile(p._NOT_PRINTABLE)",
        "assert found == [m.start() for m in real.finditer(text)] and found",
        "assert pattern.match('\\x07') and not pattern.match('a')",
        "loader = yaml.SafeLoader('a: 1')",  # the pure-Python reader uses it
        "try:\n    yaml.SafeLoader('a: \\x07')\nexcept yaml.reader.ReaderError as e:\n"
        "    assert e.position == 3\nelse:\n    raise AssertionError('not refused')",
        "print('ok')"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


def test_the_pattern_is_pyyamls() -> None:
    """If PyYAML changes its pattern, the stand-in is not used (the import costs more, and
    works the same): this says so."""
    from importlib.util import find_spec

    spec = find_spec("yaml.reader")
    assert spec is not None and spec.origin is not None
    with open(spec.origin, encoding="utf-8") as file:
        source = file.read()
    import rulekit.pyyaml as p

    written = re.search(r"NON_PRINTABLE = re\.compile\('(.*)'\)", source)
    assert written is not None
    assert written.group(1).encode().decode("unicode_escape") == p._NOT_PRINTABLE
