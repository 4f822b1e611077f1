"""The report's pictures, drawn by pygal (the ``report`` extra) as inline SVG."""

from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element

from rulekit.errors import UsageError
from rulekit.report.figures import CardRow, ReportDict, TensionDict

MIN_GAMES = 10  # the fewest games a round of the tension curves stands on
CARDS_SHOWN = 20  # cards in the impact chart: the highest and lowest impacts
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")

Chart = Any  # a pygal chart: pygal ships no type hints


def _chart(kind: str, height: float = 300, colors: tuple[str, ...] = COLORS,
           **config: object) -> Chart:
    """An empty chart of pygal's class ``kind``, 600 wide, in the page's style."""
    try:
        import pygal
        from pygal.style import Style
    except ImportError:
        raise UsageError("the report's charts need pygal, which is not installed",
                         "pip install 'rulekit[report]', or give --json alone") from None
    style = Style(background="white", plot_background="white", colors=colors,
                  font_family="system-ui, sans-serif", label_font_size=11,
                  major_label_font_size=11, legend_font_size=11, title_font_size=11)
    chart = getattr(pygal, kind)(width=600, height=height, style=style, js=[],
                                 disable_xml_declaration=True, legend_at_bottom=True,
                                 show_x_guides=False, **config)
    return chart.add_xml_filter(_bare)


def _bare(root: Element) -> Element:
    """Drop the comments (one dated) and the script: the page is the same each time."""
    for parent in list(root.iter()):
        for child in list(parent):
            if not isinstance(child.tag, str) or child.tag.endswith("script"):
                parent.remove(child)
    return root


def _svg(chart: Chart, name: str) -> str:
    chart.uuid = name  # the prefix of the chart's ids and styles, unique in the page
    return str(chart.render(is_unicode=True))


def _point(value: float, low: float, high: float) -> dict[str, object]:
    return {"value": value, "ci": {"low": low, "high": high}}


def win_rates(report: ReportDict) -> str:
    """Each role's win rate per run of a sweep (or for the one run), with its 95% interval."""
    runs, keys = report["runs"], report["sweep"]
    chart = _chart("Line", range=(0, 1), y_title="win rate (95% interval)",
                   x_title=", ".join(keys) or None, stroke=len(runs) > 1, dots_size=4)
    chart.x_labels = [", ".join(str(run["params"][key]) for key in keys) for run in runs] \
        if keys else ["all games"]
    for role in runs[0]["wins"]:
        chart.add(role, [_point(run["win_rate"][role], *run["ci95"][role]) for run in runs])
    return _svg(chart, "win-rates")


def lengths(report: ReportDict) -> str:
    """The histogram of game lengths, one set of bars per run of a sweep."""
    runs, keys = report["runs"], report["sweep"]
    chart = _chart("Histogram", x_title="rounds", y_title="share of games",
                   show_legend=bool(keys))
    share = 0.8 / len(runs)  # of a bin's width, for each run's bar
    for index, run in enumerate(runs):
        bars = []
        for b in run["length"]["histogram"]:
            span = b["to"] - b["from"] + 1
            start = b["from"] - 0.4 * span + share * span * index
            bars.append((b["games"] / (run["games"] or 1), start, start + share * span))
        chart.add(", ".join(f"{key}={run['params'][key]}" for key in keys) or "games", bars)
    return _svg(chart, "lengths")


def tension_curves(shape: TensionDict) -> str:
    """The evaluation over the rounds: medians, with quartiles, for winners and losers."""
    fewest = max(MIN_GAMES, shape["games"] // 50)
    rounds = [row for row in shape["rounds"] if row["winner"]["games"] >= fewest]
    chart = _chart("Line", colors=(COLORS[2], COLORS[1]), dots_size=3,
                   x_title=f"round (those that {fewest} games or more reached)",
                   y_title="evaluation at the round's start")
    chart.x_labels = [str(row["round"]) for row in rounds]
    for side in ("winner", "loser"):
        spreads = [row[side] for row in rounds]
        chart.add(f"{side}s (median, quartiles)",
                  [_point(s["median"], s["q1"], s["q3"]) for s in spreads])
    return _svg(chart, "tension")


def impacts(cards: list[CardRow]) -> str:
    """The cards of highest and lowest impact, with their 95% intervals."""
    rated = [row for row in cards if row["impact"] is not None]
    half = CARDS_SHOWN // 2
    shown = rated if len(rated) <= CARDS_SHOWN else rated[:half] + rated[-half:]
    bounds = [0.0, *(end for row in shown for end in row["impact_ci95"])]
    chart = _chart("HorizontalBar", height=90 + 22 * len(shown), show_legend=False,
                   range=(min(bounds), max(bounds)), truncate_label=-1,
                   x_title="win rate when played, minus the role's (95% interval)")
    chart.x_labels = [f"{row['card']} ({row['role']}, {row['phase']})" for row in shown][::-1]
    chart.add("impact", [dict(_point(row["impact"] or 0.0, *row["impact_ci95"]),
                              color=COLORS[0] if (row["impact"] or 0.0) >= 0 else COLORS[1])
                         for row in shown][::-1])
    return _svg(chart, "cards")
