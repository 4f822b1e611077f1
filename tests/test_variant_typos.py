"""A variant that misspells what it means to replace is told so, where it wrote it; an addition
on purpose says so (``new: true``) or has a name close to none of the base's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner

MANIFEST = 'id: v\nname: V\nversion: "1"\nextends: carchase\ninclude: [more.yaml]\n'


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def variant(tmp_path: Path, more: str, manifest: str = "") -> Path:
    folder = tmp_path / "v"
    folder.mkdir()
    (folder / "pack.yaml").write_text(MANIFEST + manifest)
    (folder / "more.yaml").write_text(more)
    return folder


@pytest.mark.parametrize(("manifest", "more", "place", "what", "meant"), [
    ("parameters:\n  turn: {default: 9}\n", "", "pack.yaml:7:3", "parameter 'turn'", "turns"),
    ("", "cards:\n  - {id: smokye, name: Smokey, type: P, kind: Capture, score: 12}\n",
     "more.yaml:2:5", "card 'smokye'", "smokey"),
    ("", "procedures:\n  contets:\n    params: {law_type: text, fugitive_type: text, title: text}"
         "\n    do: pass\n", "more.yaml:2:3", "procedure 'contets'", "contest"),
    ("", "zones:\n  discards: {visibility: public}\n", "more.yaml:2:3", "zone 'discards'",
     "discard"),
])
def test_a_misspelt_replacement_is_an_error(run: Run, tmp_path: Path, manifest: str, more: str,
                                           place: str, what: str, meant: str) -> None:
    code, _, err = run("validate", variant(tmp_path, more or "cards: []\n", manifest))
    assert code == 1
    assert f"{place}: {what} is not in the base pack carchase, so it would be added" in err
    assert (f"hint: did you mean to replace '{meant}'? If it is an addition, say so with "
            "new: true") in err


@pytest.mark.parametrize(("manifest", "more"), [
    ("parameters:\n  turn: {default: 9, new: true}\n", "cards: []\n"),
    ("", "cards:\n  - {id: smokye, name: Smokye, type: P, kind: Capture, score: 12, "
         "new: true}\n"),
    ("", "cards:\n  - {id: nitro, name: Nitro, type: N, kind: Nitro, score: 2}\n"),
])
def test_an_addition_on_purpose_is_not(run: Run, tmp_path: Path, manifest: str,
                                       more: str) -> None:
    code, out, err = run("validate", variant(tmp_path, more, manifest))
    assert code == 0 and "error" not in err, err
    assert "v: ok (" in out


def test_new_on_what_the_base_has_is_an_error(run: Run, tmp_path: Path) -> None:
    more = "cards:\n  - {id: smokey, name: Smokey, type: P, kind: Capture, score: 9, new: true}\n"
    code, _, err = run("validate", variant(tmp_path, more))
    assert code == 1 and ("more.yaml:2:5: card 'smokey' is in the base pack carchase: "
                          "this replaces it, it adds nothing") in err
    assert "hint: remove new: true to replace it, or give the new one a name of its own" in err
