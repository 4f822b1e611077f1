"""A picture of a pack's map, as SVG (``rulekit map PACK --out map.svg``)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from xml.sax.saxutils import escape, quoteattr

from rulekit.engine.game import Game
from rulekit.model.symbols import Board

WIDTH, HEIGHT, MARGIN = 1200, 700, 60
LABEL_ROOM = 80  # room on the right for the names of the easternmost nodes
SPACING = 44.0  # places nearer than this on the picture are pushed apart
CLEAR = 16.0  # how near a route may pass to a place it does not visit, in pixels
PAD = 4.0  # room kept around a place's name
BOWS = (40, -40, 80, -80, 130, -130)  # how far a curve may bow out, in pixels
LABEL_SPOTS = ((9, -6, "start"), (9, 15, "start"), (-9, -6, "end"), (-9, 15, "end"),
               (0, -12, "middle"), (0, 22, "middle"))
ANCHOR_SHIFT = {"start": 0.0, "middle": 0.5, "end": 1.0}  # of a name's width, to its left
CHAR = 6.6  # the width of a character of a name, roughly (12 px sans-serif)
GREY = "#888"
PAPER = "#fbfaf5"  # the picture's background
HALO = f'stroke="{PAPER}" stroke-width="3" paint-order="stroke"'  # keeps a name legible on a route
ROUTE_KEYS = ("id", "from", "to", "name")
ROUTE_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65")
SHADES = {"yellow": "#e0b400", "white": "#d8d8d8", "lightyellow": "#e0c860"}  # (too light)
DASH = ' stroke-dasharray="6 4"'
Segment = tuple[tuple[float, float], tuple[float, float]]

Point = tuple[float, float]
Box = tuple[float, float, float, float]
Props = Mapping[str, object]


def render_svg(game: Game) -> str:
    """The SVG text of the pack's map; a note if it has none."""
    board = game.symbols.board
    at = node_places(board)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f"<title>{escape(game.pack_name)}</title>",
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>']
    if not board.nodes:
        out.append(f'<text x="{MARGIN}" y="{MARGIN}">This pack has no map.</text>')
    styled, colours = _route_style(board)
    wrap = _wrap_width(board)
    drawn: list[Segment] = []
    for edge in board.edges.values():
        out += _route_svg(board, edge, at, wrap, styled, colours, drawn)
    out += _places_svg(board, at, drawn)
    out += _regions_legend(board)
    out += _routes_legend(styled, colours, _kinds(board, wrap))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def node_places(board: Board) -> dict[str, Point]:
    """Where each place of the map stands on the picture of :func:`render_svg`."""
    nodes = board.nodes
    for xkey, ykey, flip in (("lon", "lat", True), ("x", "y", False)):
        if _located(board, xkey, ykey):
            xs = [p[xkey] for p in nodes.values()]
            ys = [p[ykey] for p in nodes.values()]
            return _spread({ident: _scale(p[xkey], p[ykey], xs, ys, flip)
                            for ident, p in nodes.items()})
    return _circles(board)


def _spread(at: dict[str, Point], rounds: int = 120) -> dict[str, Point]:
    """Push apart places drawn too near, a little at a time, keeping the geography."""
    points = {ident: [*p] for ident, p in at.items()}
    idents = sorted(points)
    for _ in range(rounds):
        moved = [_push_apart(points[a], points[b])
                 for i, a in enumerate(idents) for b in idents[i + 1:]]
        if not any(moved):
            break
    return {ident: (min(max(p[0], MARGIN / 2), WIDTH - MARGIN / 2),
                    min(max(p[1], MARGIN / 2), HEIGHT - MARGIN / 2))
            for ident, p in points.items()}


def _push_apart(pa: list[float], pb: list[float]) -> bool:
    """Push two points apart if too near; whether they moved."""
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    dist = math.hypot(dx, dy)
    if dist >= SPACING:
        return False
    if dist == 0:
        dx, dy, dist = 1.0, 0.0, 1.0
    push = (SPACING - dist) / 4
    pa[0] -= dx / dist * push
    pa[1] -= dy / dist * push
    pb[0] += dx / dist * push
    pb[1] += dy / dist * push
    return True


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
    big = min(WIDTH, HEIGHT) / 2 - 2 * MARGIN if len(groups) > 1 else 0
    positions: dict[str, Point] = {}
    for g, members in enumerate(groups.values()):
        angle = 2 * math.pi * g / max(len(groups), 1)
        gx, gy = cx + big * math.cos(angle), cy + big * math.sin(angle)
        small = 25 + 12 * len(members)
        for k, ident in enumerate(members):
            a = 2 * math.pi * k / len(members)
            positions[ident] = (gx + small * math.cos(a), gy + small * math.sin(a))
    return positions


def _located(board: Board, xkey: str, ykey: str) -> bool:
    """Whether the map has places, each with whole numbers ``xkey`` and ``ykey``."""
    return bool(board.nodes) and all(isinstance(p.get(xkey), int) and isinstance(p.get(ykey), int)
                                     for p in board.nodes.values())


def _wrap_width(board: Board) -> float:
    if not _located(board, "lon", "lat"):
        return 0.0
    lons: list[int] = [p["lon"] for p in board.nodes.values()]
    span = max(max(lons) - min(lons), 1)
    return float(360 * (WIDTH - 2 * MARGIN - LABEL_ROOM) / span)


def _route_svg(board: Board, edge: Props, at: dict[str, Point], wrap: float,
               styled: str | None, colours: dict[str, str], drawn: list[Segment]
               ) -> list[str]:
    """A route's shapes (their segments added to ``drawn``) and its label."""
    start, end = str(edge["from"]), str(edge["to"])
    dash = DASH if _crossing(board, edge) else ""
    across = _across(board, edge, wrap)
    others = [at[n] for n in board.nodes if n not in (start, end)]
    shapes, middle, points = _route(at[start], at[end], others, wrap if across else 0.0)
    drawn += [(points[0], points[1]), (points[2], points[3])] if across \
        else list(itertools.pairwise(points))
    props = route_properties(edge)
    colour = colours.get(_style_value(board, edge, styled), GREY) if styled else GREY
    described = describe_properties(props)
    title = str(edge.get("name", edge["id"])) + (f" ({described})" if described else "")
    out = [f'<g class="route" stroke={quoteattr(colour)} stroke-width="1.5"{dash}>'
           f"<title>{escape(title)}</title>" + "".join(shapes) + "</g>"]
    label = describe_properties(props, styled)
    if label:
        out.append(f'<text class="route-label" x="{middle[0]:.1f}" y="{middle[1] - 3:.1f}" '
                   f'text-anchor="middle" font-size="10" fill="#555">{escape(label)}</text>')
    return out


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
           ) -> tuple[list[str], Point, list[Point]]:
    """A route's shapes, middle and points; ``wrap``: the world's width, across the date line."""
    if wrap:
        shift = wrap if a[0] < b[0] else -wrap
        far, near = (b[0] - shift, b[1]), (a[0] + shift, a[1])
        return [_line(a, far), _line(near, b)], ((a[0] + far[0]) / 2, (a[1] + far[1]) / 2), \
            [a, far, near, b]
    middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    control = None if _clear([a, b], others) else _bow(a, b, middle, others)
    if control is None:
        return [_line(a, b)], middle, [a, b]
    return ([f'<path d="M {a[0]:.1f} {a[1]:.1f} Q {control[0]:.1f} {control[1]:.1f} '
             f'{b[0]:.1f} {b[1]:.1f}" fill="none"/>'], _curve(a, control, b, 2)[1],
            _curve(a, control, b))


def _crossing(board: Board, edge: Props) -> bool:
    """Whether a route joins two regions (drawn dashed)."""
    return bool(board.nodes[str(edge["from"])].get("region")
                != board.nodes[str(edge["to"])].get("region"))


def _across(board: Board, edge: Props, wrap: float) -> bool:
    """Whether a route goes round the back of the world (cut off by the picture's edges)."""
    return bool(wrap) and abs(board.nodes[str(edge["from"])]["lon"]
                              - board.nodes[str(edge["to"])]["lon"]) > 180


def _kinds(board: Board, wrap: float) -> list[tuple[str, str]]:
    """The kinds of routes the picture draws in a way of their own, with their keys' text."""
    edges = board.edges.values()
    kinds = []
    if any(_crossing(board, edge) for edge in edges):
        kinds.append((DASH, "between two regions"))
    if any(_across(board, edge, wrap) for edge in edges):
        kinds.append(("", "cut by the edge: goes on at the other edge"))
    return kinds


def _bow(a: Point, b: Point, middle: Point, others: list[Point]) -> Point | None:
    length = max(math.hypot(b[0] - a[0], b[1] - a[1]), 1.0)
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    controls = [(middle[0] + 2 * bow * nx, middle[1] + 2 * bow * ny) for bow in BOWS]
    return next((c for c in controls if _clear(_curve(a, c, b), others)), None)


def _line(a: Point, b: Point) -> str:
    return f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"/>'


def route_properties(edge: Props) -> dict[str, object]:
    """A route's properties, but its ends, id and name."""
    return {key: value for key, value in edge.items() if key not in ROUTE_KEYS}


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def _route_style(board: Board) -> tuple[str | None, dict[str, str]]:
    edges = list(board.edges.values())
    for name in dict.fromkeys(k for edge in edges for k in route_properties(edge)):
        colours = _colours(board, name)
        if colours is not None:
            return name, colours
    return None, {}


def _colours(board: Board, name: str) -> dict[str, str] | None:
    """The colour of each value of ``name``: a text or yes/no property with a few values."""
    edges = board.edges.values()
    if not all(isinstance(edge.get(name), str | bool | None) for edge in edges):
        return None
    distinct = list(dict.fromkeys(_style_value(board, edge, name) for edge in edges))
    if not 2 <= len(distinct) <= len(ROUTE_COLOURS):
        return None
    shown = [value for value in distinct if value not in ("no", "none")]
    return dict(zip(shown, ROUTE_COLOURS, strict=False))


def _style_value(board: Board, edge: Props, name: str) -> str:
    if name in edge:
        return _value_text(edge[name])
    boolean = all(isinstance(e[name], bool) for e in board.edges.values() if name in e)
    return "no" if boolean else "none"


def describe_properties(props: Props, skip: str | None = None) -> str:
    """Properties as text, but ``skip``: ``kind tram, cost 2, long`` (a yes/no by its name)."""
    return ", ".join(key if value is True else f"{key} {_value_text(value)}"
                     for key, value in props.items()
                     if key != skip and value is not False and value is not None)


def _places_svg(board: Board, at: dict[str, Point], drawn: list[Segment]) -> list[str]:
    dots = list(at.values())
    taken: list[Box] = []
    out: list[str] = []
    for ident, props in board.nodes.items():
        x, y = at[ident]
        region = board.regions.get(str(props.get("region", "")), {})
        colour = _shade(str(region.get("color", "#445")))
        name = str(props.get("name", ident))
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill={quoteattr(colour)} '
                   f'stroke="#222"><title>{escape(name)}</title></circle>')
        tx, ty, anchor, box = _label(x, y, name, dots, taken, drawn)
        taken.append(box)
        out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}" {HALO}>'
                   f"{escape(name)}</text>")
    return out


def _label(x: float, y: float, name: str, dots: list[Point], taken: list[Box],
           drawn: list[Segment]) -> tuple[float, float, str, Box]:
    """Where to write ``name`` by the dot at (x, y): the spot that covers the least."""
    width = CHAR * len(name)
    spots = []
    for dx, dy, anchor in LABEL_SPOTS:
        left = x + dx - width * ANCHOR_SHIFT[anchor]
        spots.append((x + dx, y + dy, anchor, (left, y + dy - 11, left + width, y + dy + 3)))
    others = [dot for dot in dots if dot != (x, y)]
    return min(spots, key=lambda spot: _covers(spot[3], others, taken, drawn))


def _covers(box: Box, dots: list[Point], taken: list[Box], drawn: list[Segment]) -> int:
    """How much a name's box covers: 10 per dot, name or edge crossed, 1 per route."""
    out = box[0] < 0 or box[2] > WIDTH or box[1] < 0 or box[3] > HEIGHT
    on_dot = sum(box[0] - 7 <= px <= box[2] + 7 and box[1] - 7 <= py <= box[3] + 7
                 for px, py in dots)
    on_name = sum(box[0] - PAD < other[2] and other[0] < box[2] + PAD
                  and box[1] - PAD < other[3] and other[1] < box[3] + PAD for other in taken)
    return 10 * (on_dot + on_name + out) + sum(_crosses(box, segment) for segment in drawn)


def _crosses(box: Box, segment: Segment) -> bool:
    """Whether a segment passes through a box (sampled along it)."""
    (ax, ay), (bx, by) = segment
    steps = max(int(math.hypot(bx - ax, by - ay) / 3), 1)
    return any(box[0] <= ax + (bx - ax) * k / steps <= box[2]
               and box[1] <= ay + (by - ay) * k / steps <= box[3] for k in range(steps + 1))


def _shade(colour: str) -> str:
    """A colour as drawn: one too light to see on the background, a shade darker."""
    return SHADES.get(colour.lower(), colour)


def _regions_legend(board: Board) -> list[str]:
    out = []
    for i, (ident, props) in enumerate(board.regions.items()):
        colour = _shade(str(props.get("color", "#445")))
        y = HEIGHT - MARGIN / 2 - 16 * (len(board.regions) - 1 - i)
        out.append(f'<circle cx="{MARGIN / 2:.0f}" cy="{y - 4:.0f}" r="5" '
                   f"fill={quoteattr(colour)}/>")
        out.append(f'<text x="{MARGIN / 2 + 10:.0f}" y="{y:.0f}">'
                   f"{escape(str(props.get('name', ident)))}</text>")
    return out


def _routes_legend(styled: str | None, colours: dict[str, str],
                   kinds: list[tuple[str, str]]) -> list[str]:
    """The key of the routes: their colours, then the ways some are drawn (dashed...)."""
    keys = [(f"stroke={quoteattr(colour)} stroke-width=\"3\"",
             str(styled) if value == "yes" else f"{styled}: {value}")
            for value, colour in colours.items()]
    keys += [(f'stroke="{GREY}" stroke-width="1.5"{dash}', f"route {text}")
             for dash, text in kinds]
    left = WIDTH - max((CHAR * len(text) for _, text in keys), default=0) - 40
    out = []
    for i, (style, text) in enumerate(keys):
        y = MARGIN / 2 + 16 * i
        out.append(f'<line class="legend" x1="{left:.0f}" y1="{y - 4:.0f}" '
                   f'x2="{left + 24:.0f}" y2="{y - 4:.0f}" {style}/>')
        out.append(f'<text x="{left + 30:.0f}" y="{y:.0f}">{escape(text)}</text>')
    return out
