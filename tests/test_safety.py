"""Safe by construction: pack text is data, never Python.

The compiler writes Python source from the checked syntax tree; these tests feed it texts and
names shaped like Python that would do harm if they were ever run as code, and check that they
stay plain data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.errors import PackErrors
from tests.helpers_lang import BASE, content, load_errors, logs, run

NASTY = "'); open('PWNED', 'w').write('x') #\\\" {{}} \\\\n"


def test_texts_shaped_like_python_are_only_texts(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code = f'''
    let t = "{NASTY}"
    tag = t + "!"
    log "{NASTY} / {{tag}}"
    if t == "{NASTY}" {{ log "equal" }}
    '''
    game, state = run(tmp_path / "p", content(setup=code))
    assert not (tmp_path / "PWNED").exists()
    assert state["vars"]["tag"].startswith("'); open(")
    assert logs(game, state)[-1] == "equal"
    assert "open('PWNED'" in logs(game, state)[0]


def test_dunder_names_are_dictionary_keys(tmp_path: Path) -> None:
    base = BASE.replace("{id: c1, name: One, kind: x, score: 1}",
                        "{id: c1, name: One, kind: x, score: 1, __class__: 7}")
    base += "  __builtins__: {initial: 3}\n"
    code = '''
    let __import__ = @c1.__class__
    __builtins__ = __import__ + 1
    log "{__builtins__}"
    '''
    game, state = run(tmp_path, content(setup=code, base=base))
    assert state["vars"]["__builtins__"] == 8
    assert logs(game, state) == ["8"]


@pytest.mark.parametrize("call", ["open('x')", "eval('1')", "__import__('os')", "exec('1')",
                                  "getattr(total, 'x')", "globals()"])
def test_python_functions_do_not_exist(tmp_path: Path, call: str) -> None:
    errors = load_errors(tmp_path, content(setup=f"let x = {call}"))
    assert errors and errors[0].message.startswith("unknown function")


def test_attributes_are_card_properties_not_python_attributes(tmp_path: Path) -> None:
    errors = load_errors(tmp_path, content(setup="let x = total.__class__"))
    assert errors[0].message == "'.__class__' needs a card, node, edge or region, got an integer"
    with pytest.raises(PackErrors):
        run(tmp_path / "q", content(setup="let x = @c1.__dict__"))
