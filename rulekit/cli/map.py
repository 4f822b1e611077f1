"""``rulekit map PACK``: a pack's places and routes, as text or as an SVG picture."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rulekit.cli.common import Commands, add_param_option, out
from rulekit.errors import UsageError

if TYPE_CHECKING:
    from rich.console import Group

    from rulekit.engine.game import Game


def register(commands: Commands) -> None:
    parser = commands.add(
        "map", run, pack=True,
        help="show a pack's map", description="Show the places and routes of a pack.")
    add_param_option(parser)
    parser.add_argument("--no-color", action="store_true", help="no colours")
    parser.add_argument("--out", metavar="FILE.svg",
                        help="draw the map as a picture (SVG) into this file")


def run(args: argparse.Namespace) -> int:
    """Show the map at the terminal, or draw it into ``--out``."""
    from rulekit.authoring.files import write_text_atomic
    from rulekit.pack.loader import load_pack, parse_params
    from rulekit.play.render import Renderer
    from rulekit.play.screen import Screen
    from rulekit.play.svgmap import render_svg

    game = load_pack(args.pack, parse_params(args.param)).game
    if args.out:
        target = Path(args.out)
        if target.suffix.lower() != ".svg":
            raise UsageError(f"cannot write '{target}': the map is drawn as SVG",
                             "give a file name ending in .svg")
        write_text_atomic(target, render_svg(game))
        out(f"{target}: {len(game.symbols.board.nodes)} places, "
            f"{len(game.symbols.board.edges)} routes")
        return 0
    screen = Screen(no_color=args.no_color)
    screen.show(Renderer(game).map())
    routes = route_listing(game)
    if routes is not None:
        screen.show(routes)
    return 0


def route_listing(game: Game) -> Group | None:
    """The routes that carry properties, listed (``Cedar - Fir: long``), or None."""
    from rich.console import Group
    from rich.text import Text

    from rulekit.play.styles import STYLE_SECTION
    from rulekit.play.svgmap import describe_properties, route_properties

    lines = []
    for edge in game.symbols.board.edges.values():
        props = describe_properties(route_properties(edge))
        if props:
            lines.append(Text(f"  {edge.get('name', edge['id'])}: {props}"))
    return Group(Text("Routes", style=STYLE_SECTION), *lines) if lines else None
