"""docs/python.md works: its Python snippets run one after another, importing only the public
API (``rulekit``, ``rulekit.env``), numpy and the standard library."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "python.md"


def _snippets() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_snippets_import_only_the_public_api() -> None:
    imported = [name for code in _snippets()
                for name in re.findall(r"^(?:from|import) ([\w.]+)", code, re.M)]
    assert "rulekit" in imported and "rulekit.env" in imported
    assert [name for name in imported
            if name.startswith("rulekit.") and name != "rulekit.env"] == []


@pytest.mark.slow
def test_every_snippet_runs(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(DOC.parent.parent)
    snippets = _snippets()
    assert len(snippets) >= 9
    namespace: dict[str, object] = {"__name__": "python_doc"}
    for number, code in enumerate(snippets, 1):
        exec(compile(code, f"{DOC.name}, snippet {number}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "Car Chase ['law', 'fugitive'] {'turns': 5" in out
    assert "\n10.0 10.0 58.0\n" in out
    assert re.search(r"the Law wins \d+% of 50 games before, \d+% after", out)
