"""lark keeps the built parser in the cache folder; a bad or missing cache never fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CODE = "from rulekit import load_pack; print(load_pack('carchase').game.roles)"


def _load(cache: Path, no_cache: str = "") -> str:
    env = {**os.environ, "RULEKIT_CACHE_DIR": str(cache), "RULEKIT_NO_CACHE": no_cache}
    done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True,
                          check=True)
    assert done.stderr == ""
    return done.stdout


def test_the_parser_is_kept_and_read_back(tmp_path: Path) -> None:
    first = _load(tmp_path / "cache")
    [kept] = (tmp_path / "cache").glob("parser-*.lark")
    assert kept.stat().st_size > 1000
    stamp = kept.stat().st_mtime_ns
    assert _load(tmp_path / "cache") == first == "['law', 'fugitive']\n"
    assert kept.stat().st_mtime_ns == stamp  # read, not built and written again


@pytest.mark.parametrize("content", [b"", b"not a parser\n", b"\x80\x04garbage" * 100])
def test_a_broken_cache_file_is_built_again(tmp_path: Path, content: bytes) -> None:
    _load(tmp_path)
    [kept] = tmp_path.glob("parser-*.lark")
    kept.write_bytes(content)
    assert _load(tmp_path) == "['law', 'fugitive']\n"
    assert kept.stat().st_size > 1000


def test_a_cache_folder_that_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    assert _load(blocker / "cache") == "['law', 'fugitive']\n"


def test_no_cache_writes_nothing(tmp_path: Path) -> None:
    assert _load(tmp_path / "cache", no_cache="1") == "['law', 'fugitive']\n"
    assert not (tmp_path / "cache").exists()
