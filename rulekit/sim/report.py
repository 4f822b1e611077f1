"""Simulation results for people (text tables with a small histogram) and for scripts (CSV)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from rulekit.sim.result import SimulationResult

BAR_WIDTH = 30


def percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def _rate(count: int, games: int) -> str:
    return percent(count / games if games else 0.0)


def header(result: SimulationResult, per_row: bool = False) -> list[str]:
    """What was run: the pack, the games, the seed, the agents, the parameters."""
    games = f"{result.games} games per row" if per_row else f"{result.games} games"
    lines = [f"{result.pack} {result.version}: {games}, seed {result.seed}",
             "agents: " + ", ".join(f"{role}={spec}" for role, spec in result.agents.items())]
    if result.params and not per_row:
        lines.append("params: " + ", ".join(f"{k}={v}" for k, v in result.params.items()))
    return lines


def text_report(result: SimulationResult) -> str:
    """The report of one run: outcomes, how games end, lengths, who decided first, time."""
    games = result.games
    lines = [*header(result), ""]
    width = max([len("outcome"), len("capped"), *(len(r) for r in result.wins)])
    lines.append(f"{'outcome':<{width}}  {'games':>7}  {'rate':>6}  95% CI")
    rates, cis = result.win_rate, result.ci95
    for role, count in result.wins.items():
        lo, hi = cis[role]
        lines.append(f"{role:<{width}}  {count:>7}  {percent(rates[role]):>6}  "
                     f"{percent(lo)} - {percent(hi)}")
    for label, count in (("draws", result.draws), ("capped", result.capped)):
        lines.append(f"{label:<{width}}  {count:>7}  {_rate(count, games):>6}")
    ends = result.end_reasons()
    if ends:
        width = max(len("how games end"), *(len(reason) for reason, _, _ in ends))
        lines += ["", f"{'how games end':<{width}}  {'games':>7}  {'rate':>6}  winner"]
        for reason, winner, count in ends:
            lines.append(f"{reason:<{width}}  {count:>7}  {_rate(count, games):>6}  "
                         f"{winner or '-'}")
    lines += ["", *length_lines(result), *first_lines(result), *initiative_lines(result), ""]
    where = f"Dask at {result.scheduler}, " if result.scheduler else ""
    workers = "1 worker" if result.workers == 1 else f"{result.workers} workers"
    lines.append(f"time: {result.seconds:.2f} s, {_rate_text(result.games_per_second)} "
                 f"({where}{workers})")
    return "\n".join(lines)


def _rate_text(per_second: float) -> str:
    """Games per second, or seconds per game when a game takes longer than a second (a slow
    bot's games would otherwise read "0 games/s")."""
    if per_second >= 1 or per_second <= 0:
        return f"{per_second:,.0f} games/s"
    return f"{1 / per_second:,.1f} s/game"


def length_lines(result: SimulationResult) -> list[str]:
    """The game length in rounds: mean, median, quartiles, range, and a text histogram."""
    length = result.length
    lines = [f"mean rounds: {result.mean_rounds:.2f}, median {_number(length.median)}, "
             f"quartiles {_number(length.q1)} - {_number(length.q3)}, "
             f"range {length.shortest} - {length.longest}"]
    if not length.bins:
        return lines
    labels = [str(a) if a == b else f"{a}-{b}" for a, b, _ in length.bins]
    width = max(len("rounds"), *(len(label) for label in labels))
    most = max(n for _, _, n in length.bins)
    lines.append(f"{'rounds':>{width}}  {'':<{BAR_WIDTH}}  {'games':>7}  {'rate':>6}")
    for label, (_, _, count) in zip(labels, length.bins, strict=True):
        bar = "#" * round(BAR_WIDTH * count / most) if most else ""
        lines.append(f"{label:>{width}}  {bar:<{BAR_WIDTH}}  {count:>7}  "
                     f"{_rate(count, result.games):>6}")
    return lines


def first_lines(result: SimulationResult) -> list[str]:
    """Who took the first decision of the games, and how that role fared."""
    first = result.first_mover()
    by_role = first["by_role"]
    if not by_role:
        if first["together"]:
            return ["", "first decision: taken by several roles at once in every game"]
        return []
    if not first["comparable"]:
        (role, stats), = by_role.items()
        together = f" ({first['together']} games began with a decision taken together)" if \
            first["together"] else ""
        return ["", f"first decision: always {role}'s{together}; its advantage cannot be told "
                    f"apart from the role's"]
    width = max(len("first to decide"), *(len(role) for role in by_role))
    lines = ["", f"{'first to decide':<{width}}  {'games':>7}  {'won':>6}  95% CI"]
    for role, stats in by_role.items():
        lo, hi = stats["ci95"]
        lines.append(f"{role:<{width}}  {stats['games']:>7}  {percent(stats['win_rate']):>6}  "
                     f"{percent(lo)} - {percent(hi)}")
    lo, hi = first["ci95"]
    lines.append(f"the first to decide won {percent(first['rate'])} ({percent(lo)} - "
                 f"{percent(hi)}) of {first['games']} games")
    return lines


def _ci(stats: dict[str, Any]) -> str:
    lo, hi = stats["ci95"]
    return f"{percent(lo)} - {percent(hi)}"


MOMENTS = (("start", "at the start"), ("end", "when the game ended"))


def initiative_lines(result: SimulationResult) -> list[str]:
    """How the initiative holder fared (the pack's ``flow.initiative``) at the start of the
    games and when they ended, and each role by whether it held the initiative."""
    held = result.initiative()
    if held is None:
        return []
    rows: list[tuple[str, dict[str, Any]]] = [(label, held[m]) for m, label in MOMENTS]
    for role in result.wins:
        for moment, label in MOMENTS:
            side = held[moment]["by_role"][role]
            rows += [(f"{role}, held it {label}", side["held"]),
                     (f"{role}, did not", side["not_held"])]
    width = max(len(label) for label, _ in rows)
    lines = ["", f"{'initiative: who won':<{width}}  {'games':>7}  {'won':>6}  95% CI"]
    for number, (label, stats) in enumerate(rows):
        if number == 2:
            lines.append("")
        lines.append(f"{label:<{width}}  {stats['games']:>7}  " + (
            f"{percent(stats['win_rate']):>6}  {_ci(stats)}" if stats["games"] else
            f"{'-':>6}"))
    for moment, label in MOMENTS:
        holders = [role for role, games in held[moment]["holders"].items() if games]
        if len(holders) == 1:
            lines.append(f"{label}, the initiative was always {holders[0]}'s: its advantage "
                         "there cannot be told apart from the role's")
        if held[moment]["none"]:
            lines.append(f"{label}, no role held the initiative in {held[moment]['none']} "
                         "games")
    return lines


# ---------------------------------------------------------------- sweeps


def _reason_keys(results: Sequence[SimulationResult]) -> list[tuple[str, str | None]]:
    """Every end reason of the runs, most frequent over all runs first."""
    totals: dict[tuple[str, str | None], int] = {}
    for result in results:
        for reason, winner, count in result.end_reasons():
            totals[(reason, winner)] = totals.get((reason, winner), 0) + count
    return sorted(totals, key=lambda key: (-totals[key], key[0], key[1] or ""))


def _end_share(result: SimulationResult, reason: str, winner: str | None) -> int:
    return result.ends.get((winner or "", reason), 0)


def sweep_table(results: Sequence[SimulationResult], keys: Sequence[str]) -> str:
    """One row per combination of swept parameters: win rates with 95% intervals, draws,
    capped games, mean length, and the share of each end reason (named below the table)."""
    if not results:
        return ""
    roles = list(results[0].wins)
    reasons = _reason_keys(results)
    letters = [_letter(i) for i in range(len(reasons))]
    initiative = any(result.held for result in results)
    head = [*keys, *roles, "draws", "capped", "mean rounds",
            *(["initiative won"] if initiative else []), *letters]
    rows: list[list[str]] = []
    for result in results:
        cis = result.ci95
        row = [str(result.params.get(key, "")) for key in keys]
        for role in roles:
            lo, hi = cis[role]
            row.append(f"{percent(result.win_rate[role])} ({percent(lo)}-{percent(hi)})")
        row += [_rate(result.draws, result.games), _rate(result.capped, result.games),
                f"{result.mean_rounds:.2f}"]
        if initiative:
            held = result.initiative()
            start = None if held is None else held["start"]
            row.append("-" if start is None or not start["games"] else
                       f"{percent(start['win_rate'])} ({percent(start['ci95'][0])}-"
                       f"{percent(start['ci95'][1])})")
        row += [_rate(_end_share(result, reason, winner), result.games)
                for reason, winner in reasons]
        rows.append(row)
    widths = [max(len(head[i]), *(len(row[i]) for row in rows)) for i in range(len(head))]
    lines = [*header(results[0], per_row=True), ""]
    for row in (head, *rows):
        lines.append("  ".join(cell.ljust(w) if i < len(keys) else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
                     .rstrip())
    if reasons:
        lines.append("")
        lines.append("how games end (columns " + ", ".join(letters) + "):")
        for letter, (reason, winner) in zip(letters, reasons, strict=True):
            lines.append(f"  {letter}: {reason}" + (f" ({winner} wins)" if winner else ""))
    return "\n".join(lines)


def _letter(index: int) -> str:
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


def csv_report(results: Sequence[SimulationResult], keys: Sequence[str] = ()) -> str:
    """One CSV row per run (a sweep's combinations, or the one run): the parameters, the win
    counts, rates and 95% intervals, draws, capped games, lengths, and a column per end
    reason."""
    if not results:
        return ""
    roles = list(results[0].wins)
    params = list(keys) or list(results[0].params)
    reasons = _reason_keys(results)
    head = ["pack", "version", *params, "games", "seed"]
    for role in roles:
        head += [f"{role} wins", f"{role} rate", f"{role} ci low", f"{role} ci high"]
    head += ["draws", "capped", "mean rounds", "median rounds", "q1 rounds", "q3 rounds"]
    initiative = any(result.held for result in results)
    if initiative:
        for moment, _ in MOMENTS:
            head += [f"initiative {moment} {what}" for what in
                     ("games", "holder wins", "rate", "ci low", "ci high")]
            for role in roles:
                head += [f"{role} held initiative {moment} games",
                         f"{role} held initiative {moment} wins",
                         f"{role} without initiative {moment} games",
                         f"{role} without initiative {moment} wins"]
    head += [f"end: {reason}" for reason, _ in reasons]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(head)
    for result in results:
        length = result.length
        row: list[object] = [result.pack, result.version,
                             *(result.params.get(key, "") for key in params),
                             result.games, result.seed]
        for role in roles:
            lo, hi = result.ci95[role]
            row += [result.wins[role], f"{result.win_rate[role]:.6f}", f"{lo:.6f}", f"{hi:.6f}"]
        row += [result.draws, result.capped, f"{result.mean_rounds:.6f}", length.median,
                length.q1, length.q3]
        if initiative:
            row += _initiative_cells(result, roles)
        row += [_end_share(result, reason, winner) for reason, winner in reasons]
        writer.writerow(row)
    return buffer.getvalue().rstrip("\n")


def _initiative_cells(result: SimulationResult, roles: Sequence[str]) -> list[object]:
    held = result.initiative()
    cells: list[object] = []
    if held is None:
        return cells + [""] * len(MOMENTS) * (5 + 4 * len(roles))
    for moment, _ in MOMENTS:
        stats = held[moment]
        lo, hi = stats["ci95"]
        cells += [stats["games"], stats["wins"], f"{stats['win_rate']:.6f}", f"{lo:.6f}",
                  f"{hi:.6f}"]
        for role in roles:
            side = stats["by_role"][role]
            cells += [side["held"]["games"], side["held"]["wins"], side["not_held"]["games"],
                      side["not_held"]["wins"]]
    return cells


__all__ = ["csv_report", "header", "initiative_lines", "length_lines", "percent", "sweep_table",
           "text_report"]
