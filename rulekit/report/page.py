"""The report as one self-contained HTML page: tables, and charts as inline SVG."""

from __future__ import annotations

from html import escape
from pathlib import Path

from rulekit.authoring.files import write_text_atomic
from rulekit.report import charts
from rulekit.report.figures import CardRow, ReportDict, SkillDict
from rulekit.sim.result import ResultDict
from rulekit.sim.stats import LengthSummary
from rulekit.sim.tables import interval, percent

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; max-width: 62rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem;
       border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5rem 0; font-size: 13px; }
th, td { padding: .15rem .6rem; border-bottom: 1px solid #eee; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.missing { background: #fff6dd; border: 1px solid #e8d08a; padding: .5rem 1rem; }
.flag { color: #b00; font-weight: bold; }
.note { color: #555; }
svg { max-width: 100%; height: auto; }
"""


def _pct(value: float | None) -> str:
    return "-" if value is None else percent(value)


def _with_ci(value: float | None, ci: list[float]) -> str:
    return f"{_pct(value)} ({interval(ci)})"


def _table(head: list[str], rows: list[list[str]]) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _run_name(run: ResultDict, keys: list[str]) -> str:
    return ", ".join(f"{key}={run['params'][key]}" for key in keys) or "all games"


def _outcomes(report: ReportDict) -> str:
    keys = report["sweep"]
    roles = list(report["runs"][0]["wins"])
    rows = [[escape(_run_name(run, keys))]
            + [_with_ci(run["win_rate"][role], run["ci95"][role]) for role in roles]
            + [_pct(run["draws"] / run["games"] if run["games"] else None)]
            for run in report["runs"]]
    return charts.win_rates(report) + _table(["run", *roles, "draws"], rows)


def _lengths(report: ReportDict) -> str:
    runs, keys = report["runs"], report["sweep"]
    reasons = sorted({end["reason"] for run in runs for end in run["ends"]})
    rows = [["mean rounds"] + [f"{run['length']['mean']:.2f}" for run in runs],
            ["median (quartiles)"] + [f"{run['length']['median']:g} ({run['length']['q1']:g}"
                                      f" - {run['length']['q3']:g})" for run in runs]]
    for reason in reasons:
        rows.append([escape(reason)] + [_pct(next((e["rate"] for e in run["ends"]
                                                   if e["reason"] == reason), 0.0))
                                        for run in runs])
    head = ["", *(_run_name(run, keys) for run in runs)]
    return charts.lengths(report) + _table(head, rows)


def _tension(report: ReportDict) -> str:
    shape = report["tension"]
    if shape is None:
        return ("<p class=note>No game whose positions were evaluated ended with a winner: "
                "there is no tension to show.</p>")
    first = f"the first {min(shape['sample_per_run'], report['games'])} games"
    if len(report["runs"]) > 1:
        first += " of each run"
    source = ("the pack's <code>evaluate:</code>" if shape["evaluation"] == "pack" else
              "the share of cards and numbers each role owns (the pack declares no "
              "<code>evaluate:</code>)")
    by_round = {int(key): count for key, count in shape["settled"].items() if key != "0"}
    settled = [[f"round {a}" if a == b else f"rounds {a} - {b}", str(count)]
               for a, b, count in LengthSummary.of(by_round).bins]
    settled.append(["not before the last round", str(shape["settled"].get("0", 0))])
    return (f"<p class=note>Position evaluated by {source} at the start of each round, in "
            f"{first} ({shape['games']} of them with a winner).</p>"
            + charts.tension_curves(shape)
            + "<p>Decided early (the winner led for good from the first half of the game): "
            f"<b>{_pct(shape['decided_early_rate'])}</b> ({interval(shape['decided_early_ci95'])})."
            f" Lead changes per game: <b>{shape['mean_lead_changes']:.2f}</b> on average.</p>"
            + _table(["the winner's lead became permanent", "games"], settled))


def _skill(skill: SkillDict | None) -> str:
    if skill is None:
        return ("<p class=note>Not measured: give <code>--skill-games N</code> "
                "(a searching agent's games are slow).</p>")
    rows = [[escape(row["role"]), _with_ci(row["strong_vs_weak"], row["strong_vs_weak_ci95"]),
             _with_ci(row["weak_vs_strong"], row["weak_vs_strong_ci95"]),
             _pct(row["equal_weak"]), _pct(row["equal_strong"]), f"{100 * row['gap']:+.1f}"]
            for row in skill["roles"]]
    head = ["role", f"{skill['strong']} vs {skill['weak']}", f"{skill['weak']} vs "
            f"{skill['strong']}", f"{skill['weak']} vs itself", f"{skill['strong']} vs itself",
            "gap (points)"]
    return (f"<p class=note>{skill['games']} games per match.</p>" + _table(head, rows))


def _impact(row: CardRow) -> str:
    if row["impact"] is None:
        return "-"
    text = f"{100 * row['impact']:+.1f}"
    return f"<span class=flag>{text}</span>" if row["flagged"] else text


def _cards(cards: list[CardRow]) -> str:
    if not cards:
        return "<p class=note>No card was held in a hand: there are no cards to rate.</p>"
    rows = [[escape(row["card"]), escape(row["role"]), escape(row["phase"] or "-"),
             str(row["held"]), _pct(row["play_rate"]),
             _with_ci(row["played_win_rate"], row["played_ci95"]),
             _pct(row["not_played_win_rate"]), _pct(row["base_rate"]), _impact(row)]
            for row in cards]
    head = ["card", "role", "phase played", "games held", "played in", "owner won, played (95% CI)",
            "held, not played", "role's rate", "impact (points)"]
    return charts.impacts(cards) + _table(head, rows)


def html_page(report: ReportDict) -> str:
    """The whole report as one HTML document that needs no network."""
    title = f"{report['pack']} {report['version']}: a designer's report"
    agents = ", ".join(f"{role}={agent}" for role, agent in report["agents"].items())
    missing = "".join(f"<li>{escape(text)}</li>" for text in report["missing"])
    parts = [f"<h1>{escape(title)}</h1>",
             f"<p>{report['games']} games per run, seed {report['seed']}; agents: "
             f"{escape(agents)}.</p>"]
    if missing:
        parts.append(f"<div class=missing><b>Not shown:</b><ul>{missing}</ul></div>")
    if report["runs"][0]["games"]:  # (every report has a run at least)
        parts += ["<h2>Who wins</h2>", _outcomes(report),
                  "<h2>How long, how games end</h2>", _lengths(report),
                  "<h2>Tension</h2>", _tension(report),
                  "<h2>Skill</h2>", _skill(report["skill"]),
                  "<h2>Cards, by impact</h2>",
                  "<p class=note>A card is played in a phase when its owner chooses it from a "
                  "hand in that phase and it leaves the hand before the owner's first decision "
                  "of a later round. A row per card and phase, so a card thrown away in one "
                  "phase stands apart from the same card played in another. Impact: how far "
                  "the owner's win rate in games where it played the card in that phase stands "
                  "from the role's rate; a correlation, not a cause. Flagged in red when the "
                  "interval misses that rate by 5 points or more.</p>",
                  _cards(report["cards"])]
    return ("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(parts) + "</body></html>\n")


def write_report(report: ReportDict, path: Path) -> None:
    """Write the HTML page of ``report`` into ``path``, whole or not at all."""
    write_text_atomic(path, html_page(report))
