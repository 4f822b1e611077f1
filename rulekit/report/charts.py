"""The report's pictures, drawn by matplotlib (the ``report`` extra) as inline SVG."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING

from rulekit.errors import UsageError
from rulekit.report.figures import CardRow, ReportDict, TensionDict

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MIN_GAMES = 10  # the fewest games a round of the tension curves stands on
CARDS_SHOWN = 20  # cards in the impact chart: the highest and lowest impacts
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
STYLE = {"svg.fonttype": "none", "svg.hashsalt": "rulekit", "font.size": 9,
         "axes.spines.top": False, "axes.spines.right": False}


def _matplotlib() -> ModuleType:
    try:
        import matplotlib
    except ImportError:
        raise UsageError("the report's charts need matplotlib, which is not installed",
                         "pip install 'rulekit[report]', or give --json alone") from None
    return matplotlib


@contextmanager
def _figure(width: float, height: float) -> Iterator[tuple[Figure, Axes]]:
    matplotlib = _matplotlib()
    from matplotlib.figure import Figure

    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(width, height), layout="constrained")
        yield figure, figure.add_subplot()


def _svg(figure: Figure) -> str:
    """The figure as an ``<svg>`` element, without the XML prologue."""
    buffer = io.StringIO()
    with _matplotlib().rc_context(STYLE):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return re.sub(r"^.*?(?=<svg)", "", text, count=1, flags=re.S)


def win_rates(report: ReportDict) -> str:
    """Each role's win rate per run of a sweep (or for the one run), with its 95% band."""
    runs = report["runs"]
    keys = report["sweep"]
    labels = [", ".join(str(run["params"][key]) for key in keys) for run in runs] if keys \
        else ["all games"]
    with _figure(6.0, 3.0) as (figure, axes):
        xs = list(range(len(runs)))
        for index, role in enumerate(runs[0]["wins"]):
            color = COLORS[index % len(COLORS)]
            rates = [run["win_rate"][role] for run in runs]
            lows = [run["ci95"][role][0] for run in runs]
            highs = [run["ci95"][role][1] for run in runs]
            if len(runs) > 1:
                axes.fill_between(xs, lows, highs, color=color, alpha=0.2, linewidth=0)
                axes.plot(xs, rates, marker="o", color=color, label=role)
            else:
                axes.errorbar([index], rates, yerr=[[rates[0] - lows[0]], [highs[0] - rates[0]]],
                              fmt="o", color=color, capsize=6, label=role)
        if len(runs) > 1:
            axes.set_xticks(xs, labels)
            axes.set_xlabel(", ".join(keys))
        else:
            axes.set_xticks(list(range(len(runs[0]["wins"]))), list(runs[0]["wins"]))
            axes.set_xlim(-0.6, len(runs[0]["wins"]) - 0.4)
        axes.axhline(0.5, color="#999", linewidth=0.8, linestyle=":")
        axes.set_ylim(0, 1)
        axes.set_ylabel("win rate (95% band)")
        axes.legend(loc="best", frameon=False)
        return _svg(figure)


def lengths(report: ReportDict) -> str:
    """The histogram of game lengths, one set of bars per run of a sweep."""
    runs = report["runs"]
    keys = report["sweep"]
    with _figure(6.0, 3.0) as (figure, axes):
        share = 0.8 / len(runs)  # of a bin's width, for each run's bar
        for index, run in enumerate(runs):
            bins = run["length"]["histogram"]
            spans = [b["to"] - b["from"] + 1 for b in bins]
            label = ", ".join(f"{key}={run['params'][key]}" for key in keys) or None
            axes.bar([(b["from"] + b["to"]) / 2 + span * (share * (index + 0.5) - 0.4)
                      for b, span in zip(bins, spans, strict=True)],
                     [b["games"] / (run["games"] or 1) for b in bins],
                     width=[span * share for span in spans],
                     color=COLORS[index % len(COLORS)], label=label)
        axes.set_xlabel("rounds")
        axes.set_ylabel("share of games")
        if keys:
            axes.legend(frameon=False, fontsize=7)
        return _svg(figure)


def tension_curves(shape: TensionDict) -> str:
    """The evaluation over the rounds: medians and quartiles for winners and losers.

    A round only few games reached is left out: its quartiles would be noise.
    """
    fewest = max(MIN_GAMES, shape["games"] // 50)
    rounds = [row for row in shape["rounds"] if row["winner"]["games"] >= fewest]
    xs = [row["round"] for row in rounds]
    marker = "o" if len(rounds) <= 20 else None
    with _figure(6.0, 3.0) as (figure, axes):
        for side, color in (("winner", COLORS[2]), ("loser", COLORS[1])):
            spreads = [row[side] for row in rounds]  # type: ignore[literal-required]
            axes.fill_between(xs, [s["q1"] for s in spreads], [s["q3"] for s in spreads],
                              color=color, alpha=0.2, linewidth=0)
            axes.plot(xs, [s["median"] for s in spreads], marker=marker, color=color,
                      label=f"{side}s (median, quartiles)")
        axes.set_xlabel(f"round (those that {fewest} games or more reached)")
        axes.set_ylabel("evaluation at the round's start")
        axes.legend(frameon=False)
        return _svg(figure)


def impacts(cards: list[CardRow]) -> str:
    """The cards of highest and lowest impact, with their 95% intervals."""
    rated = [row for row in cards if row["impact"] is not None]
    half = CARDS_SHOWN // 2
    shown = rated if len(rated) <= CARDS_SHOWN else rated[:half] + rated[-half:]
    with _figure(6.0, 0.6 + 0.22 * len(shown)) as (figure, axes):
        ys = list(range(len(shown)))[::-1]
        for y, row in zip(ys, shown, strict=True):
            impact = row["impact"] or 0.0
            low, high = row["impact_ci95"]
            color = COLORS[0] if impact >= 0 else COLORS[1]
            axes.errorbar([impact], [y], xerr=[[impact - low], [high - impact]], fmt="o",
                          color=color, markersize=3, capsize=2)
        axes.set_yticks(ys, [f"{row['card']} ({row['role']})" for row in shown])
        axes.axvline(0, color="#999", linewidth=0.8)
        axes.set_xlabel("win rate when played minus the role's win rate (95% interval)")
        return _svg(figure)


__all__ = ["impacts", "lengths", "tension_curves", "win_rates"]
