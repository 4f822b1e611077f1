"""``rulekit map PACK``: the places and routes of a pack's map, as text or as an SVG picture."""

from __future__ import annotations

import argparse
from typing import Any

from rulekit.cli.common import add_param_option
from rulekit.errors import UsageError


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "map", help="show a pack's map", description="Show the places and routes of a pack.")
    parser.add_argument("pack", metavar="PACK", help="a pack folder or a shipped pack id")
    add_param_option(parser)
    parser.add_argument("--no-color", action="store_true", help="no colours")
    parser.add_argument("--out", metavar="FILE.svg",
                        help="draw the map as a picture (SVG) into this file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rulekit.pack.loader import load_pack, parse_params
    from rulekit.play.render import Renderer
    from rulekit.play.screen import Screen

    game = load_pack(args.pack, parse_params(args.param)).game
    if args.out:
        import os
        import tempfile
        from pathlib import Path

        from rulekit.play.svgmap import render_svg

        out = Path(args.out)
        if out.suffix.lower() != ".svg":
            raise UsageError(f"cannot write '{out}': the map is drawn as SVG",
                             "give a file name ending in .svg")
        if not out.parent.is_dir():
            raise UsageError(f"cannot write '{out}': no folder '{out.parent}'")
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=out.parent,
                                         suffix=".tmp", delete=False) as handle:
            handle.write(render_svg(game))
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(handle.name, 0o666 & ~mask)  # readable like any other output, not 0600
        os.replace(handle.name, out)
        print(f"{out}: {len(game.symbols.board.nodes)} places, "
              f"{len(game.symbols.board.edges)} routes")
        return 0
    screen = Screen(no_color=args.no_color)
    screen.show(Renderer(game).map())
    routes = route_listing(game)
    if routes is not None:
        screen.show(routes)
    return 0


def route_listing(game: Any) -> Any:
    """The routes that carry properties, with them (``Cedar - Fir: long``); None if none do."""
    from rich.console import Group
    from rich.text import Text

    from rulekit.play.styles import STYLE_SECTION
    from rulekit.play.svgmap import describe_properties, route_properties

    board = game.symbols.board
    lines = []
    for edge in board.edges.values():
        props = describe_properties(route_properties(edge))
        if props:
            lines.append(Text(f"  {edge.get('name', edge['id'])}: {props}"))
    return Group(Text("Routes", style=STYLE_SECTION), *lines) if lines else None
