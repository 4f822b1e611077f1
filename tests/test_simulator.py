"""The simulator as a designer uses it: how games end, lengths, who decided first, sweeps,
CSV, the progress bar, and the same figures on worker processes and on a Dask cluster."""

from __future__ import annotations

import csv
import http.server
import io
import json
import statistics
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekit.bots.agent import RandomAgent
from rulekit.cli.common import progress_bar
from rulekit.errors import UsageError
from rulekit.pack.loader import load_pack
from rulekit.sim import execution, simulation
from rulekit.sim.execution import DaskPool, Job, PackSource, tapering_chunks
from rulekit.sim.result import RUN_FIELDS
from rulekit.sim.simulation import play_game, simulate, sweep
from rulekit.sim.stats import GameRecord, LengthSummary, Tally, quantile

Run = Callable[..., tuple[int, str, str]]  # the `run` fixture of conftest


# The duel pack, where a hidden card decides who takes a warm-up decision first; the second
# option of the warm-up scores a point.
STARTER = ("flow:\n", """setup: |
  shuffle deck
  if first(deck).score == 1 {
    let warm = choose red one of [1, 2] prompt "Warm up"
    if warm == 2 { points[red] += 1 }
  } else {
    let warm = choose blue one of [1, 2] prompt "Warm up"
    if warm == 2 { points[blue] += 1 }
  }
flow:
""")
# The duel pack, where a game may end early: a player who picks 3 while the other picks 1
# wins at once (a `win` without a text), and 2 against 2 ends it by an end condition.
EARLY = ("if r > b { points[red] += 1 }", "\n        ".join([
    "if r == 3 and b == 1 { win red }", "if b == 3 and r == 1 { win blue }",
    "if r == 2 and b == 2 { ties += 1 }", "if r > b { points[red] += 1 }"]))
EARLY_VARS = ("points: {per_role: true, initial: 0}",
              "points: {per_role: true, initial: 0}\n  ties: {initial: 0}")
EARLY_END = ("  after_rounds: |", """  end_when:
    - {when: "ties >= 2", winner: blue, reason: Two ties go to Blue.}
  after_rounds: |""")


def _early(make_pack: Callable[..., Path]) -> Path:
    """The duel pack where games may end early (see EARLY)."""
    folder = make_pack("early")
    game = (folder / "game.yaml").read_text()
    for old, new in (EARLY, EARLY_VARS, EARLY_END):
        assert old in game
        game = game.replace(old, new, 1)
    (folder / "game.yaml").write_text(game)
    return folder


# -- how games end ----------------------------------------------------------------------------


def test_end_reasons_are_counted_by_text_and_winner(make_pack: Callable[..., Path]) -> None:
    result = simulate(_early(make_pack), {"turns": 5}, games=300, seed=4)
    ends = {(reason, winner): count for reason, winner, count in result.end_reasons()}
    assert sum(ends.values()) == 300
    assert ends[("red wins (no reason given)", "red")] > 0  # `win red` without a text
    assert ends[("Two ties go to Blue.", "blue")] > 0  # an end condition's reason
    assert ends[("Red has more points", "red")] > 0  # a `win` statement's text
    assert ends[("the last round is over", None)] == result.draws > 0
    assert sum(c for (_, w), c in ends.items() if w == "red") == result.wins["red"]
    counts = [count for _, _, count in result.end_reasons()]
    assert counts == sorted(counts, reverse=True)


def test_capped_games_have_their_own_reason(make_pack: Callable[..., Path]) -> None:
    result = simulate(make_pack(), {"turns": 20}, games=10, max_rounds=4)
    assert result.end_reasons() == [("stopped after 4 rounds", None, 10)]


# -- game lengths -----------------------------------------------------------------------------


@pytest.mark.parametrize("values", [[1, 2, 3, 4], [5], [3, 3, 7, 9, 9, 9, 20], list(range(50))])
def test_quantiles_match_the_usual_definition(values: list[int]) -> None:
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    expected = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [
        values[0]] * 3
    assert [quantile(counts, p) for p in (0.25, 0.5, 0.75)] == pytest.approx(expected)


def test_length_histogram_bins_cover_every_game() -> None:
    lengths = {length: length % 7 + 1 for length in range(1, 41)}
    summary = LengthSummary.of(lengths)
    assert sum(n for _, _, n in summary.bins) == sum(lengths.values())
    assert summary.bins[0][0] == 1 and summary.bins[-1][1] == 40
    assert len(summary.bins) <= 12
    assert LengthSummary.of({}).bins == []


def test_lengths_of_games_that_end_early(make_pack: Callable[..., Path]) -> None:
    result = simulate(_early(make_pack), {"turns": 6}, games=200, seed=2)
    length = result.length
    assert sum(result.lengths.values()) == 200
    assert length.shortest == 1 and length.longest == 6
    assert length.q1 <= length.median <= length.q3
    assert length.mean == pytest.approx(result.mean_rounds)


# -- who decided first ------------------------------------------------------------------------


def test_first_decider_is_recorded(make_pack: Callable[..., Path]) -> None:
    starter = make_pack("starter", replace={"game.yaml": STARTER})
    game = load_pack(starter).game
    firsts = {play_game(game, seed).first for seed in range(40)}
    assert firsts == {"red", "blue"}
    result = simulate(starter, games=200, seed=1)
    first = result.first_mover()
    assert first["comparable"] and set(first["by_role"]) == {"red", "blue"}
    assert sum(s["games"] for s in first["by_role"].values()) == first["games"] == 200
    assert first["wins"] == sum(s["wins"] for s in first["by_role"].values())


def test_simultaneous_first_decisions(duel_pack: Path) -> None:
    first = simulate(duel_pack, games=20).first_mover()
    assert first["together"] == 20 and first["by_role"] == {} and not first["comparable"]


# -- pools ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("games", "slots"), [(1, 2), (5, 2), (7, 3), (1000, 2), (100_000, 4)])
def test_tapering_chunks_cover_every_game_once_and_end_small(games: int, slots: int) -> None:
    ranges = tapering_chunks(games, slots, 4)
    assert [i for start, stop in ranges for i in range(start, stop)] == list(range(games))
    sizes = [stop - start for start, stop in ranges]
    assert sizes == sorted(sizes, reverse=True)[:len(sizes) - 1] + sizes[-1:]  # never growing
    assert sizes[0] <= max(4, -(-games // (slots * 16))) and sizes[-1] <= 4
    assert len(ranges) >= min(slots, games // 4)


@pytest.mark.parametrize(("agents", "quick"), [
    ((("a", "random"), ("b", " random ")), True),
    ((("a", RandomAgent()), ("b", "random")), True),
    ((("a", "random"), ("b", "heuristic")), False),
])
def test_random_seats_however_named_are_played_in_chunks(agents: tuple[tuple[str, Any], ...],
                                                         quick: bool) -> None:
    job = Job(PackSource("pack"), (), agents, 0, 10, "hash")
    assert (len(job.ranges(100, 2, 4)) < 100) is quick


def test_workers_give_the_same_figures(make_pack: Callable[..., Path]) -> None:
    pack = _early(make_pack)
    one = simulate(pack, {"turns": 6}, games=90, seed=5)
    three = simulate(pack, {"turns": 6}, games=90, seed=5, workers=3)
    assert one.outcome() == three.outcome()
    assert three.workers == 3 and one.ends and one.lengths


def test_workers_started_afresh_give_the_same_figures(
        make_pack: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Where processes do not fork, each worker starts Python afresh and loads the pack."""
    pack = _early(make_pack)
    one = simulate(pack, {"turns": 6}, games=60, seed=3)
    monkeypatch.setattr("rulekit.sim.execution.sys.platform", "elsewhere")
    two = simulate(pack, {"turns": 6}, games=60, seed=3, workers=2)
    assert one.outcome() == two.outcome()


def test_pack_sent_by_content(duel_pack: Path, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    source = PackSource.with_files(duel_pack)
    assert {name for name, _ in source.files or ()} >= {"pack.yaml", "game.yaml"}
    copy = source.path()
    assert copy != duel_pack and source.path() == copy
    assert load_pack(copy).game.pack_hash == load_pack(duel_pack).game.pack_hash
    (duel_pack / "game.yaml").write_text((duel_pack / "game.yaml").read_text() + "\n# x\n")
    assert PackSource.with_files(duel_pack).digest != source.digest


@pytest.fixture(scope="module")
def dask_address() -> Iterator[str]:
    """The address of a Dask cluster of 2 workers, in this process (threads)."""
    dask = pytest.importorskip("distributed")
    with dask.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                           dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_dask_cluster_gives_the_same_figures(make_pack: Callable[..., Path],
                                             dask_address: str) -> None:
    pack = _early(make_pack)
    one = simulate(pack, {"turns": 6}, games=120, seed=8)
    on_dask = simulate(pack, {"turns": 6}, games=120, seed=8, scheduler=dask_address)
    assert on_dask.outcome() == one.outcome()
    assert on_dask.scheduler == dask_address and on_dask.workers == 2


def test_dask_from_the_command_line(run: Run, duel_pack: Path, dask_address: str) -> None:
    def figures(*options: str) -> dict[str, Any]:
        code, out, err = run("simulate", duel_pack, "-n", "50", "--seed", "3", *options)
        assert code == 0, err
        data: dict[str, Any] = json.loads(out)
        assert data["scheduler"] == (dask_address if "--scheduler" in options else None)
        return {key: value for key, value in data.items() if key not in RUN_FIELDS}

    assert figures("--json") == figures("--json", "--scheduler", dask_address)
    code, out, _ = run("simulate", duel_pack, "-n", "30", "--scheduler", dask_address,
                       "--sweep", "turns=1,2")
    assert code == 0 and "30 games per row" in out
    code, out, _ = run("simulate", duel_pack, "-n", "20", "--scheduler", dask_address)
    assert code == 0 and f"Dask at {dask_address}, 2 workers" in out


def test_dask_missing_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def without_dask(name: str, *args: Any) -> Any:
        if name == "distributed":
            raise ImportError("No module named 'distributed'")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", without_dask)
    with pytest.raises(UsageError) as info:
        DaskPool("local")
    assert "Dask" in str(info.value) and "rulekit[dask]" in str(info.value.hint)


@pytest.fixture
def quick_dask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask's waits shortened to a second."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(execution, "DASK_SECONDS", 1)


def test_a_scheduler_address_where_a_web_server_listens_is_refused(
        run: Run, duel_pack: Path, quick_dask: None) -> None:
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        code, _, err = run("simulate", duel_pack, "-n", "10", "--scheduler",
                           f"tcp://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
    assert code == 1
    assert "it is no Dask scheduler (no greeting in 1 s)" in err
    assert "not the dashboard's port" in err


def test_a_scheduler_without_workers_is_said(run: Run, duel_pack: Path,
                                              quick_dask: None) -> None:
    import distributed

    with distributed.LocalCluster(n_workers=0, processes=False,
                                  dashboard_address=":0") as cluster:
        code, _, err = run("simulate", duel_pack, "-n", "10", "--scheduler",
                           cluster.scheduler_address)
    assert code == 1
    assert err.splitlines()[0].endswith("has no worker")


def test_a_cluster_lost_during_a_run_is_said_in_one_line(
        run: Run, duel_pack: Path, dask_address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As the futures of Dask's executor end when the scheduler or the last worker is lost."""
    def lost(*_: object) -> Tally:
        raise CancelledError

    monkeypatch.setattr(execution, "_gather", lost)
    code, out, err = run("simulate", duel_pack, "-n", "10", "--scheduler", dask_address)
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"rulekit: error: the Dask cluster at '{dask_address}' was lost during the run "
        "(CancelledError): its scheduler or its last worker stopped",
        "hint: run again once the cluster is back; start a scheduler with `dask scheduler`, "
        "then `dask worker ADDRESS` on each machine, and give --scheduler tcp://HOST:8786 "
        "(not the dashboard's port)"]


@pytest.mark.parametrize(("options", "message"), [
    (["-n", "1000000001"], "the number of games must be between 0 and 1,000,000,000"),
    (["-j", "1025"], "the number of workers must be between 1 and 1,024"),
])
def test_counts_past_their_bounds_are_refused(run: Run, duel_pack: Path, options: list[str],
                                              message: str) -> None:
    code, _, err = run("simulate", duel_pack, *options)
    assert code == 1 and message in err


def test_a_sweep_refuses_too_many_workers_before_it_starts_them(
        duel_pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*_: object) -> None:
        raise AssertionError("a pool was opened")

    monkeypatch.setattr(simulation, "open_pool", no_pool)
    with pytest.raises(UsageError, match="the number of workers must be between 1 and 1,024"):
        sweep(duel_pack, ["turns=1,2"], games=5, workers=2000)


# -- sweeps -----------------------------------------------------------------------------------


def test_sweep_runs_every_combination(duel_pack: Path) -> None:
    keys, results = sweep(duel_pack, ["turns=1..3,5"], games=20, seed=3)
    assert keys == ["turns"]
    assert [r.params["turns"] for r in results] == [1, 2, 3, 5]
    assert [r.mean_rounds for r in results] == [1, 2, 3, 5]
    alone = simulate(duel_pack, {"turns": 2}, games=20, seed=3)
    assert results[1].outcome() == alone.outcome()


@pytest.mark.parametrize(("spec", "message", "hint"), [
    ("turn=1,2", "unknown parameter 'turn'", "did you mean 'turns'?"),
    ("turns=0,2", "must be between 1 and 20, got 0", None),
    ("turns=3..21", "must be between 1 and 20, got 21", None),
    ("turns=", "an empty value", "turns=3,5,7"),
    ("turns=1,,2", "an empty value", None),
    ("turns=5..3", "the range 5..3 is empty", "3..5"),
    ("turns=a,b", "'a' is not a whole number", None),
    ("turns=1..9/0", "step", None),
    ("turns", "expected KEY=V1,V2", None),
])
def test_sweep_errors(run: Run, duel_pack: Path, spec: str, message: str,
                      hint: str | None) -> None:
    code, out, err = run("simulate", duel_pack, "-n", "5", "--sweep", spec)
    assert code == 1 and out == ""
    assert err.startswith("rulekit: error: ") and message in err
    assert hint is None or hint in err
    assert "Traceback" not in err


def test_sweep_twice_or_with_param(run: Run, duel_pack: Path) -> None:
    _, _, err = run("simulate", duel_pack, "--sweep", "turns=1", "--sweep", "turns=2")
    assert "given twice" in err
    _, _, err = run("simulate", duel_pack, "--sweep", "turns=1,2", "-p", "turns=3")
    assert "both swept and set with --param" in err


def test_sweep_table(run: Run, make_pack: Callable[..., Path]) -> None:
    code, out, err = run("simulate", _early(make_pack), "-n", "60", "--seed", "1",
                         "--sweep", "turns=2,4,6")
    assert code == 0, err
    lines = out.splitlines()
    head = next(line for line in lines if line.startswith("turns"))
    for column in ("red", "blue", "draws", "capped", "mean rounds", "A", "B"):
        assert column in head
    rows = [line for line in lines if line[:1].isdigit()]
    assert [row.split()[0] for row in rows] == ["2", "4", "6"]
    assert "60 games per row" in out
    assert "A: " in out and "Two ties go to Blue. (blue wins)" in out


def test_sweep_json_and_csv(run: Run, duel_pack: Path) -> None:
    code, out, _ = run("simulate", duel_pack, "-n", "10", "--sweep", "turns=1,2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["sweep"] == ["turns"]
    assert [r["params"]["turns"] for r in data["runs"]] == [1, 2]
    assert all(sum(e["games"] for e in r["ends"]) == 10 for r in data["runs"])
    code, out, _ = run("simulate", duel_pack, "-n", "10", "--sweep", "turns=1,2", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [row["turns"] for row in rows] == ["1", "2"]
    assert [row["mean rounds"] for row in rows] == ["1.000000", "2.000000"]


# -- what the command prints ------------------------------------------------------------------


def test_text_report(run: Run, make_pack: Callable[..., Path]) -> None:
    code, out, err = run("simulate", _early(make_pack), "-n", "200", "-p", "turns=6")
    assert code == 0, err
    for text in ("how games end", "Two ties go to Blue.", "red wins (no reason given)",
                 "the last round is over", "mean rounds:", "median", "quartiles",
                 "range 1 - 6", "first decision: taken by several roles at once"):
        assert text in out
    histogram = [line.split() for line in out.splitlines()
                 if line.strip()[:1].isdigit() and "#" in line]
    assert [row[0] for row in histogram] == ["1", "2", "3", "4", "5", "6"]
    assert sum(int(row[-2]) for row in histogram) == 200


def test_text_report_first_decider(run: Run, make_pack: Callable[..., Path]) -> None:
    starter = make_pack("starter", replace={"game.yaml": STARTER})
    code, out, _ = run("simulate", starter, "-n", "100")
    assert code == 0
    assert "first to decide" in out and "the first to decide won" in out


def test_json_report(run: Run, make_pack: Callable[..., Path]) -> None:
    code, out, _ = run("simulate", _early(make_pack), "-n", "50", "--json")
    assert code == 0
    data = json.loads(out)
    assert sum(e["games"] for e in data["ends"]) == 50
    assert {"reason", "winner", "games", "rate"} <= set(data["ends"][0])
    assert {"mean", "median", "q1", "q3", "min", "max", "histogram"} <= set(data["length"])
    assert data["first_decider"]["together"] == 50
    assert data["scheduler"] is None


def test_csv_report(run: Run, duel_pack: Path) -> None:
    code, out, _ = run("simulate", duel_pack, "-n", "40", "--seed", "2", "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 1
    row = rows[0]
    assert row["pack"] == "duel" and row["games"] == "40" and row["turns"] == "3"
    assert int(row["red wins"]) + int(row["blue wins"]) + int(row["draws"]) == 40
    assert float(row["red ci low"]) <= float(row["red rate"]) <= float(row["red ci high"])
    ends = [key for key in row if key.startswith("end: ")]
    assert sum(int(row[key]) for key in ends) == 40


def test_json_and_csv_exclude_each_other(run: Run, duel_pack: Path) -> None:
    with pytest.raises(SystemExit) as info:
        run("simulate", duel_pack, "--json", "--csv")
    assert info.value.code == 2


def test_no_progress_bar_when_not_a_terminal(run: Run, duel_pack: Path) -> None:
    code, _, err = run("simulate", duel_pack, "-n", "50")
    assert code == 0 and err == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with progress_bar(30, "games") as advance:
        assert advance is not None
        advance(10)
        advance(20)
    assert "30/30" in screen.getvalue()
    with progress_bar(30, "games", quiet=True) as advance:
        assert advance is None


def test_the_simulator_docs_show_real_output(run: Run) -> None:
    """docs/simulator.md's example is what rulekit prints (all but the time)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "simulator.md").read_text()
    command = "$ rulekit simulate carchase -n 1000 --seed 1\n"
    shown = text[text.index(command) + len(command):].split("```")[0].rstrip("\n")
    code, out, _ = run("simulate", "carchase", "-n", "1000", "--seed", "1")
    assert code == 0
    assert shown.splitlines()[:-1] == out.rstrip("\n").splitlines()[:-1]
    assert shown.splitlines()[-1].startswith("time: ")


record_strategy = st.builds(
    GameRecord, seed=st.integers(0, 9), winner=st.sampled_from([None, "red", "blue"]),
    rounds=st.integers(1, 30), decisions=st.integers(0, 99), capped=st.booleans(),
    reason=st.sampled_from(["", "a", "b"]), first=st.sampled_from([None, "red", "blue"]),
    initiative=st.sampled_from([None, "", "red", "blue"]),
    initiative_end=st.sampled_from([None, "", "red", "blue"]))


@given(st.lists(record_strategy, max_size=40), st.integers(1, 8), st.randoms())
def test_tallies_merge_to_the_same_counts_in_any_split_and_order(
        records: list[GameRecord], parts: int, rng: Any) -> None:
    whole = Tally()
    for record in records:
        whole.add(record)
    pieces = [Tally() for _ in range(parts)]
    for i, record in enumerate(records):
        pieces[i * parts // max(1, len(records))].add(record)
    rng.shuffle(pieces)
    merged = Tally()
    for piece in pieces:
        merged.merge(piece)
    assert merged == whole


@pytest.mark.parametrize(("seconds", "shown"), [(0.5, "40 games/s"), (20.0, "1 games/s"),
                                                 (80.0, "4.0 s/game")])
def test_text_report_speed_of_slow_games(make_pack: Callable[..., Path], seconds: float,
                                         shown: str) -> None:
    """Games slower than one a second (bots that search) read in seconds a game, never as
    "0 games/s"."""
    from dataclasses import replace

    from rulekit.sim.tables import text_report

    result = replace(simulate(_early(make_pack), games=20), seconds=seconds)
    line = text_report(result).splitlines()[-1]
    assert line.startswith(f"time: {seconds:.2f} s, {shown} (1 worker)"), line
