"""Simulation results as text tables for people, and as CSV for scripts."""

from __future__ import annotations

import csv
import io
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rulekit.sim.result import FirstMover, Initiative, Share, SimulationResult
from rulekit.sim.stats import rate

BAR_WIDTH = 30

Moment = Literal["start", "end"]
MOMENTS: tuple[tuple[Moment, str], ...] = (("start", "at the start"),
                                           ("end", "when the game ended"))

Reason = tuple[str, str | None]  # an end reason's text, and the role it makes win
Row = tuple[str, str, str, str]  # a text table's label, games, rate and last cell


def percent(value: float) -> str:
    """A share as a percentage with one decimal: ``37.6%``."""
    return f"{value * 100:.1f}%"


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def _rate(count: int, games: int) -> str:
    return percent(rate(count, games))


def interval(ci: Sequence[float]) -> str:
    """A 95% interval as two percentages: ``34.7% - 40.6%``."""
    return f"{percent(ci[0])} - {percent(ci[1])}"


def _rate_with_interval(share: float, ci: Sequence[float]) -> str:
    """A rate and its interval in one table cell: ``37.6% (34.7%-40.6%)``."""
    return f"{percent(share)} ({percent(ci[0])}-{percent(ci[1])})"


def _pairs(values: Mapping[str, object]) -> str:
    return ", ".join(f"{key}={value}" for key, value in values.items())


def header(result: SimulationResult, per_row: bool = False) -> list[str]:
    """What was run: pack, games, seed, agents, parameters."""
    games = f"{result.games} games per row" if per_row else f"{result.games} games"
    lines = [f"{result.pack} {result.version}: {games}, seed {result.seed}",
             "agents: " + _pairs(result.agents)]
    if result.params and not per_row:
        lines.append("params: " + _pairs(result.params))
    return lines


def text_report(result: SimulationResult) -> str:
    """The text report of one run."""
    lines = [*header(result), "", *_outcome_lines(result), *_end_lines(result), "",
             *length_lines(result), *first_lines(result), *initiative_lines(result), "",
             _time_line(result)]
    return "\n".join(lines)


def _table(head: Row, rows: Sequence[Row]) -> list[str]:
    """Rows of a label, games, a rate and a last cell under ``head``, the labels padded alike."""
    width = max(len(row[0]) for row in [head, *rows])
    return [f"{label:<{width}}  {games:>7}  {share:>6}  {last}".rstrip()
            for label, games, share, last in [head, *rows]]


def _share_row(label: str, share: Share) -> Row:
    """A row of a label and a share: games, rate and 95% interval; a dash without games."""
    if not share["games"]:
        return (label, "0", "-", "")
    return (label, str(share["games"]), percent(share["win_rate"]), interval(share["ci95"]))


def _outcome_lines(result: SimulationResult) -> list[str]:
    rows = [(role, str(count), percent(result.win_rate[role]), interval(result.ci95[role]))
            for role, count in result.wins.items()]
    rows += [(label, str(count), _rate(count, result.games), "")
             for label, count in (("draws", result.draws), ("capped", result.capped))]
    return _table(("outcome", "games", "rate", "95% CI"), rows)


def _end_lines(result: SimulationResult) -> list[str]:
    rows = [(reason, str(count), _rate(count, result.games), winner or "-")
            for reason, winner, count in result.end_reasons()]
    return ["", *_table(("how games end", "games", "rate", "winner"), rows)] if rows else []


def _time_line(result: SimulationResult) -> str:
    where = f"Dask at {result.scheduler}, " if result.scheduler else ""
    workers = "1 worker" if result.workers == 1 else f"{result.workers} workers"
    return (f"time: {result.seconds:.2f} s, {_rate_text(result.games_per_second)} "
            f"({where}{workers})")


def _rate_text(per_second: float) -> str:
    """Games per second, or seconds per game, not "0 games/s", for slow games."""
    if per_second >= 1 or per_second <= 0:
        return f"{per_second:,.0f} games/s"
    return f"{1 / per_second:,.1f} s/game"


def length_lines(result: SimulationResult) -> list[str]:
    """The game length in rounds: figures, then a histogram."""
    length = result.length
    return [f"mean rounds: {result.mean_rounds:.2f}, median {_number(length.median)}, "
            f"quartiles {_number(length.q1)} - {_number(length.q3)}, "
            f"range {length.shortest} - {length.longest}",
            *_histogram(length.bins, result.games)]


def _histogram(bins: list[tuple[int, int, int]], games: int) -> list[str]:
    """A bar of ``#`` per bin of game lengths."""
    if not bins:
        return []
    labels = [str(first) if first == last else f"{first}-{last}" for first, last, _ in bins]
    width = max(len("rounds"), *(len(label) for label in labels))
    most = max(count for _, _, count in bins)
    lines = [f"{'rounds':>{width}}  {'':<{BAR_WIDTH}}  {'games':>7}  {'rate':>6}"]
    for label, (_, _, count) in zip(labels, bins, strict=True):
        bar = "#" * round(BAR_WIDTH * count / most)  # (most: 1 game at least)
        lines.append(f"{label:>{width}}  {bar:<{BAR_WIDTH}}  {count:>7}  "
                     f"{_rate(count, games):>6}")
    return lines


def first_lines(result: SimulationResult) -> list[str]:
    """Who took the first decision, and how that role fared."""
    first = result.first_mover()
    together = first["together"]
    if not first["by_role"]:
        return ["", "first decision: taken by several roles at once in every game"] \
            if together else []
    if not first["comparable"]:
        (role, _), = first["by_role"].items()
        note = f" ({together} games began with a decision taken together)" if together else ""
        return ["", f"first decision: always {role}'s{note}; its advantage cannot be told "
                    "apart from the role's"]
    return _first_table(first)


def _first_table(first: FirstMover) -> list[str]:
    rows = [_share_row(role, stats) for role, stats in first["by_role"].items()]
    return ["", *_table(("first to decide", "games", "won", "95% CI"), rows),
            f"the first to decide won {percent(first['rate'])} ({interval(first['ci95'])}) "
            f"of {first['games']} games"]


def initiative_lines(result: SimulationResult) -> list[str]:
    """How the holder of the initiative (``flow.initiative``) fared, then each role."""
    held = result.initiative()
    if held is None:
        return []
    rows = [_share_row(label, held[moment]) for moment, label in MOMENTS]
    for role in result.wins:
        for moment, label in MOMENTS:
            side = held[moment]["by_role"][role]
            rows += [_share_row(f"{role}, held it {label}", side["held"]),
                     _share_row(f"{role}, did not", side["not_held"])]
    lines = _table(("initiative: who won", "games", "won", "95% CI"), rows)
    return ["", *lines[:3], "", *lines[3:], *_initiative_notes(held)]


def _initiative_notes(held: Initiative) -> list[str]:
    """Notes on moments where one role always held the initiative."""
    lines = []
    for moment, label in MOMENTS:
        holders = [role for role, games in held[moment]["holders"].items() if games]
        if len(holders) == 1:
            lines.append(f"{label}, the initiative was always {holders[0]}'s: its advantage "
                         "there cannot be told apart from the role's")
        if held[moment]["none"]:
            lines.append(f"{label}, no role held the initiative in {held[moment]['none']} "
                         "games")
    return lines


@dataclass
class _Columns:
    """The columns of the rows of several runs."""

    params: list[str]
    roles: list[str]
    reasons: list[Reason]
    initiative: bool

    @classmethod
    def of(cls, results: Sequence[SimulationResult], params: Sequence[str]) -> _Columns:
        return cls(list(params), list(results[0].wins), _reason_keys(results),
                   any(result.held for result in results))


def _reason_keys(results: Sequence[SimulationResult]) -> list[Reason]:
    """Every end reason of the runs, the most frequent first."""
    totals: Counter[Reason] = Counter()
    for result in results:
        totals.update({(reason, winner): count for reason, winner, count in result.end_reasons()})
    return sorted(totals, key=lambda key: (-totals[key], key[0], key[1] or ""))


def _end_share(result: SimulationResult, reason: str, winner: str | None) -> int:
    return result.ends.get((winner or "", reason), 0)


def sweep_table(results: Sequence[SimulationResult], keys: Sequence[str]) -> str:
    """One row per combination of swept parameters: rates, lengths, end reasons."""
    columns = _Columns.of(results, keys)
    letters = [_letter(i) for i in range(len(columns.reasons))]
    head = [*keys, *columns.roles, "draws", "capped", "mean rounds",
            *(["initiative won"] if columns.initiative else []), *letters]
    rows = [head, *(_sweep_row(result, columns) for result in results)]
    lines = [*header(results[0], per_row=True), "", *_aligned(rows, len(keys))]
    return "\n".join(lines + _legend(letters, columns.reasons))


def _sweep_row(result: SimulationResult, columns: _Columns) -> list[str]:
    row = [str(result.params.get(key, "")) for key in columns.params]
    row += [_rate_with_interval(result.win_rate[role], result.ci95[role])
            for role in columns.roles]
    row += [_rate(result.draws, result.games), _rate(result.capped, result.games),
            f"{result.mean_rounds:.2f}"]
    if columns.initiative:
        row.append(_start_initiative(result))
    row += [_rate(_end_share(result, reason, winner), result.games)
            for reason, winner in columns.reasons]
    return row


def _start_initiative(result: SimulationResult) -> str:
    held = result.initiative()
    if held is None or not held["start"]["games"]:
        return "-"
    return _rate_with_interval(held["start"]["win_rate"], held["start"]["ci95"])


def _aligned(rows: list[list[str]], left: int) -> list[str]:
    """Rows as lines of aligned columns; the first ``left`` align left."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) if i < left else cell.rjust(width)
                      for i, (cell, width) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in rows]


def _legend(letters: list[str], reasons: list[Reason]) -> list[str]:
    if not reasons:
        return []
    lines = ["", "how games end (columns " + ", ".join(letters) + "):"]
    for letter, (reason, winner) in zip(letters, reasons, strict=True):
        lines.append(f"  {letter}: {reason}" + (f" ({winner} wins)" if winner else ""))
    return lines


def _letter(index: int) -> str:
    """A column's letters by its number: A to Z, then AA, AB..."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


def csv_report(results: Sequence[SimulationResult], keys: Sequence[str] = ()) -> str:
    """One CSV row per run, or per combination of a sweep."""
    columns = _Columns.of(results, list(keys) or list(results[0].params))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for number, result in enumerate(results):
        names, values = zip(*_csv_cells(result, columns), strict=True)
        if number == 0:
            writer.writerow(names)
        writer.writerow(values)
    return buffer.getvalue().rstrip("\n")


def _csv_cells(result: SimulationResult, columns: _Columns) -> list[tuple[str, object]]:
    """The cells of a run's CSV row, each with the name of its column."""
    length = result.length
    cells: list[tuple[str, object]] = [
        ("pack", result.pack), ("version", result.version),
        *((key, result.params.get(key, "")) for key in columns.params),
        ("games", result.games), ("seed", result.seed)]
    for role in columns.roles:
        lo, hi = result.ci95[role]
        cells += [(f"{role} wins", result.wins[role]),
                  (f"{role} rate", f"{result.win_rate[role]:.6f}"),
                  (f"{role} ci low", f"{lo:.6f}"), (f"{role} ci high", f"{hi:.6f}")]
    cells += [("draws", result.draws), ("capped", result.capped),
              ("mean rounds", f"{result.mean_rounds:.6f}"), ("median rounds", length.median),
              ("q1 rounds", length.q1), ("q3 rounds", length.q3)]
    if columns.initiative:
        cells += _initiative_cells(result.initiative(), columns.roles)
    return cells + [(f"end: {reason}", _end_share(result, reason, winner))
                    for reason, winner in columns.reasons]


def _initiative_cells(held: Initiative | None, roles: Sequence[str]
                      ) -> list[tuple[str, object]]:
    """The initiative's cells; empty ones for a run of a pack that declares none."""
    cells: list[tuple[str, object]] = []
    for moment, _ in MOMENTS:
        names = [f"initiative {moment} {what}"
                 for what in ("games", "holder wins", "rate", "ci low", "ci high")]
        for role in roles:
            names += [f"{role} held initiative {moment} games",
                      f"{role} held initiative {moment} wins",
                      f"{role} without initiative {moment} games",
                      f"{role} without initiative {moment} wins"]
        values: list[object] = []
        if held is not None:
            stats = held[moment]
            lo, hi = stats["ci95"]
            values += [stats["games"], stats["wins"], f"{stats['win_rate']:.6f}", f"{lo:.6f}",
                       f"{hi:.6f}"]
            for role in roles:
                side = stats["by_role"][role]
                values += [side["held"]["games"], side["held"]["wins"],
                           side["not_held"]["games"], side["not_held"]["wins"]]
        cells += itertools.zip_longest(names, values, fillvalue="")
    return cells
