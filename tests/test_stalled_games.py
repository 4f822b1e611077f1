"""A game whose agents go round a loop of choices for ever is stopped, not left to hang.

Here Alice may, at any decision of hers, open an anytime action and then decline its choice:
nothing changes, and an agent that always does so would never let the round end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulekit.engine.playout as playout_module
from rulekit.engine.decisions import Decision, Option
from rulekit.sim.simulation import play_game
from tests import helpers_play
from tests.helpers_cli import Run, runner
from tests.helpers_lang import content, load, write_pack
from tests.helpers_play import Play

LOOP = """\
procedures:
  dither:
    do: |
      let n = choose a one of [1, 2] optional prompt "Pick one (or not)"
      if n == none { return }
anytime:
  - {id: dither, role: a, label: "Dither", when: "true", do: dither}
"""


class Goer:
    """Never takes the anytime action."""

    def choose(self, view: object, decision: Decision) -> Option:
        return next(o for o in decision.options() if not o.id.startswith("!"))


class Ditherer:
    """Takes the anytime action whenever offered, and declines inside it."""

    def choose(self, view: object, decision: Decision) -> Option:
        options = decision.options()
        return next((o for o in options if o.id in ("!dither", "none")), options[0])


def test_a_round_that_never_ends_is_stopped_with_its_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(playout_module, "MAX_ROUND_DECISIONS", 40)
    main = 'let x = choose a one of [1, 2] prompt "Go"\nlog "{x}"'
    text = content(phases={"main": main}).replace("procedures:\n", "")
    game = load(tmp_path, text + LOOP).game
    record = play_game(game, 3, {"a": Ditherer()})
    assert record.capped and record.winner is None
    assert record.decisions == 40
    assert record.reason == ("stopped: 40 decisions in round 1, phase 'main', and the round did "
                             "not end")


def test_a_game_of_more_decisions_than_the_limit_in_all_is_not_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(playout_module, "MAX_ROUND_DECISIONS", 40)
    main = 'let x = choose a one of [1, 2] prompt "Go"\nlet y = choose a one of [1, 2] prompt "On"'
    text = content(phases={"main": main}, rounds="30").replace("procedures:\n", "")
    game = load(tmp_path, text + LOOP).game
    record = play_game(game, 3, {"a": Goer()})
    assert not record.capped and record.decisions == 60


play = helpers_play.play  # the fixture
ASKS_FOR_EVER = "while true {\n  let x = choose a one of [1, 2] prompt \"Again\"\n}"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


@pytest.mark.parametrize("agents", ["a=random", "a=heuristic"])
def test_simulate_stops_a_phase_that_asks_for_ever(run: Run, tmp_path: Path, agents: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(playout_module, "MAX_ROUND_DECISIONS", 50)
    text = content(phases={"main": "score += 1", "loop": ASKS_FOR_EVER})
    folder = write_pack(tmp_path / "pack", text.replace("procedures:\n", ""))
    code, out, _ = run("simulate", folder, "-n", "2", "--agents", agents, "--json")
    result = json.loads(out)
    assert code == 0 and result["capped"] == 2 and result["decisions"] == 100
    assert [end["reason"] for end in result["ends"]] == [
        "stopped: 50 decisions in round 1, phase 'loop', and the round did not end"]


def test_play_stops_a_bot_that_decides_for_ever(play: Play, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(playout_module, "MAX_ROUND_DECISIONS", 50)
    text = content(phases={"main": "score += 1", "loop": ASKS_FOR_EVER})
    folder = write_pack(tmp_path / "pack", text.replace("procedures:\n", ""))
    code, out, err = play([], "play", folder, "--seat", "a=random", "--fast", "--save", "g.json")
    assert code == 1 and "The round cannot end; the game up to here is saved" in out
    assert "(rulekit replay g.json)" in out  # resuming would only stall again
    assert err.startswith("rulekit: error: stopped: 50 decisions in round 1, phase 'loop', and "
                          "the round did not end\nhint: the bots alone took 20 decisions in "
                          "this round, and random play from here did not end it either: does a "
                          "loop of the pack ask again and again with no way out?")


def test_play_at_its_pace_stops_a_stall_after_a_few_moves(play: Play, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("rulekit.play.screen.Screen.pause",
                        lambda self, seconds: pauses.append(seconds) if seconds else None)
    loop = 'while true {\n  let x = choose a one of [1, 2] prompt "Again"\n  log "{x}"\n}'
    text = content(phases={"main": "score += 1", "loop": loop})
    folder = write_pack(tmp_path / "pack", text.replace("procedures:\n", ""))
    code, _, err = play([], "play", folder, "--seat", "a=random", "--save", "g.json")
    assert code == 1 and err.startswith(
        "rulekit: error: stopped: 10,000 decisions in round 1, phase 'loop', and the round did "
        "not end")
    saved = json.loads((tmp_path / "g.json").read_text())
    assert len(saved["decisions"]) == 20  # not 10,000 moves, each paced
    assert 0 < len(pauses) <= 20


@pytest.mark.parametrize(("loop", "warned"), [
    (ASKS_FOR_EVER, True),
    ("asker()", False),  # the procedure may end the game
    ("while true {\n  let x = choose a one of [1, 2] optional\n  if x == none { break }\n}", False),
    ("while true {\n  let x = choose a one of [1, 2]\n  for y in [1] { break }\n}", True),
    ("while true {\n  let x = choose a one of [1, 2]\n  if x == 2 { win a \"Two\" }\n}", False),
    ("while true {\n  ask()\n}", True),
])
def test_validate_warns_about_a_loop_that_asks_with_no_way_out(run: Run, tmp_path: Path,
                                                             loop: str, warned: bool) -> None:
    text = content(phases={"main": "score += 1", "loop": loop}, procs={
        "ask": ("", "let x = choose a one of [1, 2]"),
        "asker": ("", "while true {\n  let x = choose a one of [1, 2]\n  if x == 2 { win a }\n}"),
    })
    folder = write_pack(tmp_path / "pack", text)
    code, _, err = run("validate", folder)
    message = ("warning: this loop asks again and again, and nothing in it leaves it (no "
               "break, return, win or end_round)")
    assert code == 0 and (message in err) == warned, err
    if warned:
        assert f"content.yaml:{text.count(chr(10), 0, text.rindex('while true')) + 1}:" \
            "9: " + message in err
