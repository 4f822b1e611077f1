"""`rulekit train`: an evaluation learned by playing, used by the bots of a pack without one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers_cli import Run, runner

from rulekit import simulate
from rulekit.bots import training

ROOT = Path(__file__).resolve().parent.parent
HIDEOUT = ROOT / "docs" / "examples" / "hideout"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


@pytest.mark.slow
def test_learned_weights_make_the_bots_play(run: Run, cache: Path) -> None:
    # With wins and losses alone, the one-step bot sees no difference between the Law's
    # moves before the end, and plays as at random; with the weights it plays its cards.
    def law_wins() -> int:
        result = simulate(str(HIDEOUT), games=20, agents={"law": "heuristic"})
        return result.wins.get("law", 0)

    blind = law_wins()
    code, out, _ = run("train", HIDEOUT, "-n", "300", "-q")
    assert code == 0
    assert "hideout: learned from 300 games" in out
    assert "The Law wins more with: +heat" in out
    assert (cache / "learned" / "hideout.json").is_file()
    assert law_wins() >= blind + 5


def test_training_stopped_goes_on_where_it_stopped(run: Run, cache: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    played = training._played
    calls = []

    def stopping(*args: object) -> object:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return played(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(training, "_played", stopping)
    code, _, err = run("train", HIDEOUT, "-n", "10", "-q")
    assert code == 130
    assert "interrupted after 3 of 10 games; run the same command again to go on" in err
    monkeypatch.setattr(training, "_played", played)
    code, out, err = run("train", HIDEOUT, "-n", "10", "-q")
    assert code == 0
    assert "going on from 3 games played before" in err
    assert "learned from 10 games" in out
    assert not list((cache / "learned").glob("*.partial"))


def test_unfit_weights_are_ignored_with_a_note(run: Run, cache: Path, tmp_path: Path) -> None:
    pack = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, pack)
    assert run("train", pack, "-n", "5", "-q")[0] == 0
    weights = cache / "learned" / "hideout.json"
    rules = pack / "rules.yaml"
    rules.write_text(rules.read_text() + "# another version\n")
    code, _, err = run("simulate", pack, "-n", "1", "--agents", "law=heuristic", "-q")
    assert code == 0
    assert f"note: the learned weights in {weights} are for another version of the pack " \
           "'hideout' (run `rulekit train hideout` again): ignored" in err
    weights.write_text("{not json")
    code, _, err = run("simulate", pack, "-n", "1", "--agents", "law=heuristic", "-q")
    assert code == 0
    assert err.strip() == f"note: {weights} cannot be read (JSONDecodeError): ignored"


def test_a_damaged_progress_file_starts_again(run: Run, cache: Path) -> None:
    (cache / "learned").mkdir(parents=True)
    (cache / "learned" / "hideout.json.partial").write_text("[1, 2")
    code, out, err = run("train", HIDEOUT, "-n", "3", "-q")
    assert code == 0
    assert "hideout.json.partial cannot be read (JSONDecodeError): starting again" in err
    assert "learned from 3 games" in out


def test_train_says_where_a_pack_evaluates_itself(run: Run, cache: Path) -> None:
    code, _, err = run("train", "carchase", "-n", "1", "-q")
    assert code == 0
    assert "note: carchase declares `evaluate:`, which the bots use before any learned " \
           "weights" in err


def test_train_without_a_cache_needs_out(run: Run, tmp_path: Path) -> None:
    code, _, err = run("train", HIDEOUT, "-n", "1", "-q")
    assert code == 1
    assert "rulekit's cache is turned off (RULEKIT_NO_CACHE)" in err
    code, _, _ = run("train", HIDEOUT, "-n", "2", "-q", "--out", tmp_path / "w.json")
    assert code == 0 and (tmp_path / "w.json").is_file()


def test_a_pack_names_its_own_weights_file(run: Run, tmp_path: Path) -> None:
    pack = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "learned: bots/learned.json\n")
    code, out, _ = run("train", pack, "-n", "4", "-q")  # the cache is off: the pack's file
    assert code == 0
    assert f"weights in {pack / 'bots' / 'learned.json'}" in out
    (pack / "bots" / "learned.json").write_text("[]")
    code, _, err = run("simulate", pack, "-n", "1", "--agents", "law=heuristic", "-q")
    assert code == 0
    assert err.strip() == (f"note: the learned weights in {pack / 'bots' / 'learned.json'} "
                           "are not a weights file of this version of rulekit: ignored")


def test_a_weights_file_outside_the_pack_is_refused(run: Run, tmp_path: Path) -> None:
    pack = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "learned: ../elsewhere.json\n")
    code, _, err = run("validate", pack)
    assert code == 1
    assert "pack.yaml:" in err and "../elsewhere.json" in err
