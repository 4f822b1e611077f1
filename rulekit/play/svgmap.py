"""A picture of a pack's map, as SVG (``rulekit map PACK --out map.svg``).

Where every node has ``lat`` and ``lon`` (or ``x`` and ``y``) properties, nodes are drawn
there; otherwise regions are laid out on a circle and each region's nodes on a small circle
around its centre. Edges between regions are dashed; a region's ``color`` colours its nodes.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from rulekit.engine.game import Game
from rulekit.lang.symbols import Board

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
            return {ident: _scale(p[xkey], p[ykey], xs, ys, flip) for ident, p in nodes.items()}
    return _circles(board)


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


def render_svg(game: Game) -> str:
    """The SVG text of the pack's map (an empty picture with a note if it has none)."""
    board = game.symbols.board
    at = _positions(board)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f"<title>{escape(game.pack_name)}</title>",
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbfaf5"/>']
    if not board.nodes:
        out.append(f'<text x="{MARGIN}" y="{MARGIN}">This pack has no map.</text>')
    for edge in board.edges.values():
        (x1, y1), (x2, y2) = at[edge["from"]], at[edge["to"]]
        crossing = (board.nodes[edge["from"]].get("region")
                    != board.nodes[edge["to"]].get("region"))
        dash = ' stroke-dasharray="6 4"' if crossing else ""
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="#888" stroke-width="1.5"{dash}>'
                   f"<title>{escape(str(edge.get('name', edge['id'])))}</title></line>")
    for ident, props in board.nodes.items():
        x, y = at[ident]
        region = board.regions.get(str(props.get("region", "")), {})
        colour = str(region.get("color", "#445"))
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill={quoteattr(colour)} '
                   f'stroke="#222"><title>{escape(str(props.get("name", ident)))}'
                   f"</title></circle>")
        out.append(f'<text x="{x + 9:.1f}" y="{y - 6:.1f}">'
                   f"{escape(str(props.get('name', ident)))}</text>")
    for i, (ident, props) in enumerate(board.regions.items()):
        colour = str(props.get("color", "#445"))
        y = HEIGHT - MARGIN / 2 - 16 * (len(board.regions) - 1 - i)
        out.append(f'<circle cx="{MARGIN / 2:.0f}" cy="{y - 4:.0f}" r="5" '
                   f"fill={quoteattr(colour)}/>")
        out.append(f'<text x="{MARGIN / 2 + 10:.0f}" y="{y:.0f}">'
                   f"{escape(str(props.get('name', ident)))}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
