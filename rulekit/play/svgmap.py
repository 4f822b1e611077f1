"""A picture of a pack's map, as SVG (``rulekit map PACK --out map.svg``).

Where every node has ``lat`` and ``lon`` (or ``x`` and ``y``) properties, nodes are drawn
there; otherwise regions are laid out on a circle and each region's nodes on a small circle
around its centre; places drawn too near one another (a crowded continent) are pushed apart.
Edges between regions are dashed; a region's ``color`` colours its nodes.

A route's own properties (any key besides ``from``, ``to``, ``id`` and ``name``) are drawn too
(:func:`route_properties`): the first text or yes/no property whose routes take 2 to 6 values
colours each route by its value, with a legend (routes where it is no or none stay grey);
every other property is written at the middle of the route (``cost 2``; a yes/no property by
its name when yes); and each route's ``<title>`` (its tooltip) lists them all.

Each route is a group (``<g class="route">``) of what draws it: a straight line; a curve when
a straight line would pass over a place it does not visit; or, on a ``lon``/``lat`` map, two
lines that leave at one edge of the picture and come back at the other when the route crosses
the date line (the short way round the globe). Each name is put beside its dot where it covers
no other dot and no other name.
"""

from __future__ import annotations

import itertools
import math
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from rulekit.engine.game import Game
from rulekit.model.symbols import Board

WIDTH, HEIGHT, MARGIN = 1200, 700, 60
LABEL_ROOM = 80  # room on the right for the names of the easternmost nodes
Point = tuple[float, float]


def _positions(board: Board) -> dict[str, Point]:
    nodes = board.nodes
    for xkey, ykey, flip in (("lon", "lat", True), ("x", "y", False)):
        if nodes and all(isinstance(p.get(xkey), int) and isinstance(p.get(ykey), int)
                         for p in nodes.values()):
            xs = [p[xkey] for p in nodes.values()]
            ys = [p[ykey] for p in nodes.values()]
            return _spread({ident: _scale(p[xkey], p[ykey], xs, ys, flip)
                            for ident, p in nodes.items()})
    return _circles(board)


SPACING = 44.0  # places nearer than this on the picture are pushed apart


def _spread(at: dict[str, Point], rounds: int = 120) -> dict[str, Point]:
    """Push apart places drawn too near one another (a crowded continent), a little at a
    time, so that the picture keeps their geography but has room for dots and names."""
    points = {ident: list(p) for ident, p in at.items()}
    idents = sorted(points)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(idents):
            for b in idents[i + 1:]:
                pa, pb = points[a], points[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                dist = math.hypot(dx, dy)
                if dist >= SPACING:
                    continue
                if dist == 0:
                    dx, dy, dist = 1.0, 0.0, 1.0
                push = (SPACING - dist) / 4
                pa[0] -= dx / dist * push
                pa[1] -= dy / dist * push
                pb[0] += dx / dist * push
                pb[1] += dy / dist * push
                moved = True
        if not moved:
            break
    return {ident: (min(max(p[0], MARGIN / 2), WIDTH - MARGIN / 2),
                    min(max(p[1], MARGIN / 2), HEIGHT - MARGIN / 2))
            for ident, p in points.items()}


def _scale(x: float, y: float, xs: list[int], ys: list[int], flip: bool) -> Point:
    span_x = max(max(xs) - min(xs), 1)
    span_y = max(max(ys) - min(ys), 1)
    px = MARGIN + (x - min(xs)) / span_x * (WIDTH - 2 * MARGIN - LABEL_ROOM)
    fy = (max(ys) - y) if flip else (y - min(ys))
    return px, MARGIN + fy / span_y * (HEIGHT - 2 * MARGIN)


def _circles(board: Board) -> dict[str, Point]:
    groups: dict[str, list[str]] = {}
    for ident, props in board.nodes.items():
        groups.setdefault(str(props.get("region", "")), []).append(ident)
    cx, cy = WIDTH / 2, HEIGHT / 2
    big = min(WIDTH, HEIGHT) / 2 - 2 * MARGIN
    positions: dict[str, Point] = {}
    for g, members in enumerate(groups.values()):
        angle = 2 * math.pi * g / max(len(groups), 1)
        gx = cx + (big * math.cos(angle) if len(groups) > 1 else 0)
        gy = cy + (big * math.sin(angle) if len(groups) > 1 else 0)
        small = 25 + 12 * len(members)
        for k, ident in enumerate(members):
            a = 2 * math.pi * k / len(members)
            positions[ident] = (gx + small * math.cos(a), gy + small * math.sin(a))
    return positions


CLEAR = 11.0  # how near a route may pass to a place it does not visit, in pixels
BOWS = (40, -40, 80, -80, 130, -130)  # how far a curve may bow out, in pixels
LABEL_SPOTS = ((9, -6, "start"), (9, 15, "start"), (-9, -6, "end"), (-9, 15, "end"),
               (0, -12, "middle"), (0, 22, "middle"))
CHAR = 6.6  # the width of a character of a name, roughly (12 px sans-serif)


def _near(point: Point, a: Point, b: Point) -> float:
    """The distance from ``point`` to the segment ``a``-``b``."""
    (px, py), (ax, ay), (bx, by) = point, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _curve(a: Point, control: Point, b: Point, steps: int = 24) -> list[Point]:
    return [((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * control[0] + t * t * b[0],
             (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * control[1] + t * t * b[1])
            for t in (k / steps for k in range(steps + 1))]


def _clear(points: list[Point], others: list[Point]) -> bool:
    return all(_near(o, p, q) >= CLEAR for o in others for p, q in itertools.pairwise(points))


def _route(a: Point, b: Point, others: list[Point], wrap: float
           ) -> tuple[list[str], Point]:
    """The SVG shapes of a route from ``a`` to ``b`` (``wrap``: the width of 360 degrees when
    the route crosses the date line, else 0), and the middle of the route."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    if wrap:
        shift = wrap if a[0] < b[0] else -wrap
        far = (b[0] - shift, b[1])
        return [_line(a, far), _line((a[0] + shift, a[1]), b)], ((a[0] + far[0]) / 2,
                                                                  (a[1] + far[1]) / 2)
    if _clear([a, b], others):
        return [_line(a, b)], (mx, my)
    length = max(math.hypot(b[0] - a[0], b[1] - a[1]), 1.0)
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    for bow in BOWS:
        control = (mx + 2 * bow * nx, my + 2 * bow * ny)
        if _clear(_curve(a, control, b), others):
            return ([f'<path d="M {a[0]:.1f} {a[1]:.1f} Q {control[0]:.1f} {control[1]:.1f} '
                     f'{b[0]:.1f} {b[1]:.1f}" fill="none"/>'],
                    _curve(a, control, b, 2)[1])
    return [_line(a, b)], (mx, my)


def _line(a: Point, b: Point) -> str:
    return f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"/>'


Box = tuple[float, float, float, float]


def _label(x: float, y: float, name: str, dots: list[Point], taken: list[Box]
           ) -> tuple[float, float, str, Box]:
    """Where to write ``name`` beside the dot at (x, y): the first spot that covers no other
    dot and no name already placed (else the first spot)."""
    width = CHAR * len(name)
    choices = []
    for dx, dy, anchor in LABEL_SPOTS:
        left = x + dx - (width if anchor == "end" else width / 2 if anchor == "middle" else 0)
        box = (left, y + dy - 11, left + width, y + dy + 3)
        choices.append((x + dx, y + dy, anchor, box))
        free = not any(box[0] - 7 <= px <= box[2] + 7 and box[1] - 7 <= py <= box[3] + 7
                       for px, py in dots if (px, py) != (x, y))
        if free and not any(_overlap(box, other) for other in taken):
            return choices[-1]
    return choices[0]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _wrap_width(board: Board) -> float:
    """The width of 360 degrees of longitude on a lon/lat map (0 on other maps)."""
    lons = [p.get("lon") for p in board.nodes.values()]
    if not lons or not all(isinstance(v, int) for v in lons) or not all(
            isinstance(p.get("lat"), int) for p in board.nodes.values()):
        return 0.0
    span = max(max(lons) - min(lons), 1)  # type: ignore[type-var, operator]
    return float(360 * (WIDTH - 2 * MARGIN - LABEL_ROOM) / span)


def render_svg(game: Game) -> str:
    """The SVG text of the pack's map (an empty picture with a note if it has none)."""
    board = game.symbols.board
    at = _positions(board)
    wrap = _wrap_width(board)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f"<title>{escape(game.pack_name)}</title>",
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbfaf5"/>']
    if not board.nodes:
        out.append(f'<text x="{MARGIN}" y="{MARGIN}">This pack has no map.</text>')
    styled, colours = _route_style(board)
    for edge in board.edges.values():
        start, end = edge["from"], edge["to"]
        crossing = board.nodes[start].get("region") != board.nodes[end].get("region")
        dash = ' stroke-dasharray="6 4"' if crossing else ""
        across = wrap and abs(board.nodes[start]["lon"] - board.nodes[end]["lon"]) > 180
        others = [at[n] for n in board.nodes if n not in (start, end)]
        shapes, middle = _route(at[start], at[end], others, wrap if across else 0.0)
        props = route_properties(edge)
        colour = colours.get(_style_value(board, edge, styled), "#888") if styled else "#888"
        title = str(edge.get("name", edge["id"]))
        if describe_properties(props):
            title += f" ({describe_properties(props)})"
        out.append(f'<g class="route" stroke={quoteattr(colour)} stroke-width="1.5"{dash}>'
                   f"<title>{escape(title)}</title>" + "".join(shapes) + "</g>")
        label = describe_properties(props, styled)
        if label:
            out.append(f'<text class="route-label" x="{middle[0]:.1f}" y="{middle[1] - 3:.1f}" '
                       f'text-anchor="middle" font-size="10" fill="#555">{escape(label)}</text>')
    dots = list(at.values())
    taken: list[Box] = []
    for ident, props in board.nodes.items():
        x, y = at[ident]
        region = board.regions.get(str(props.get("region", "")), {})
        colour = str(region.get("color", "#445"))
        name = str(props.get("name", ident))
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill={quoteattr(colour)} '
                   f'stroke="#222"><title>{escape(name)}</title></circle>')
        tx, ty, anchor, box = _label(x, y, name, dots, taken)
        taken.append(box)
        out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}">'
                   f"{escape(name)}</text>")
    for i, (ident, props) in enumerate(board.regions.items()):
        colour = str(props.get("color", "#445"))
        y = HEIGHT - MARGIN / 2 - 16 * (len(board.regions) - 1 - i)
        out.append(f'<circle cx="{MARGIN / 2:.0f}" cy="{y - 4:.0f}" r="5" '
                   f"fill={quoteattr(colour)}/>")
        out.append(f'<text x="{MARGIN / 2 + 10:.0f}" y="{y:.0f}">'
                   f"{escape(str(props.get('name', ident)))}</text>")
    for i, (value, colour) in enumerate(colours.items()):
        y = MARGIN / 2 + 16 * i
        out.append(f'<line class="legend" x1="{WIDTH - 190}" y1="{y - 4:.0f}" '
                   f'x2="{WIDTH - 166}" y2="{y - 4:.0f}" stroke={quoteattr(colour)} '
                   'stroke-width="3"/>')
        legend = str(styled) if value == "yes" else f"{styled}: {value}"
        out.append(f'<text x="{WIDTH - 160}" y="{y:.0f}">{escape(legend)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


ROUTE_KEYS = ("id", "from", "to", "name")
ROUTE_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65")


def route_properties(edge: dict[str, Any]) -> dict[str, Any]:
    """The properties a route carries besides its ends, id and name."""
    return {key: value for key, value in edge.items() if key not in ROUTE_KEYS}


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def _route_style(board: Board) -> tuple[str | None, dict[str, str]]:
    """The property that colours the routes, and the colour of each of its values."""
    edges = list(board.edges.values())
    names = list(dict.fromkeys(k for edge in edges for k in route_properties(edge)))
    for name in names:
        if not all(isinstance(edge.get(name), str | bool | None) for edge in edges):
            continue
        distinct = list(dict.fromkeys(_style_value(board, edge, name) for edge in edges))
        if 2 <= len(distinct) <= len(ROUTE_COLOURS):
            shown = [value for value in distinct if value not in ("no", "none")]  # stay grey
            return name, dict(zip(shown, ROUTE_COLOURS, strict=False))
    return None, {}


def _style_value(board: Board, edge: dict[str, Any], name: str) -> str:
    """The value of ``name`` that colours ``edge`` (a yes/no property left out is no)."""
    if name in edge:
        return _value_text(edge[name])
    boolean = all(isinstance(e[name], bool) for e in board.edges.values() if name in e)
    return "no" if boolean else "none"


def describe_properties(props: dict[str, Any], skip: str | None = None) -> str:
    """Properties as a text (``kind tram, cost 2, long``; a yes/no property by its name when
    yes), but ``skip``: what is written at the middle of a route and in the text map."""
    parts = []
    for key, value in props.items():
        if key == skip or value is False or value is None:
            continue
        parts.append(key if value is True else f"{key} {_value_text(value)}")
    return ", ".join(parts)
