"""``benchmarks/watch_game.py`` tells a game as its players saw it, secrets kept apart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_watched_game_shows_each_side_its_own_view_and_ends_with_its_result() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "watch_game.py"), "tests/packs/peek",
         "--agents", "guesser=heuristic,keeper=random", "--show", "secret"],
        capture_output=True, text=True, check=True, cwd=ROOT)
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("winner: ")
    asked = [line for line in lines if line.startswith("r")]
    assert asked and all(" | " in line and " -> " in line for line in asked)
    # The guesser never sees the keeper's secret; the keeper's own lines show it.
    assert all("secret=None" in line for line in asked if " guesser: " in line)
