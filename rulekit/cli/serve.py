"""``rulekit serve PACK``: games in the browser, one link per person's seat."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulekit.cli.common import Commands, add_param_option, count, out, seed
from rulekit.errors import UsageError

DEFAULT_PORT = 8000


def register(commands: Commands) -> None:
    parser = commands.add(
        "serve", run, help="play in the browser, across the network",
        description="Serve games of a pack to browsers: each person's seat gets a link of its "
                    "own, with a secret token; bots play their seats on the server. Needs "
                    "pip install 'rulekit[web]'.")
    parser.add_argument("pack", metavar="PACK", nargs="?", default=None,
                        help="a pack folder or a shipped pack id (not needed with --resume)")
    parser.add_argument("--seat", action="append", default=[], metavar="ROLE=human|AGENT",
                        help="who plays a role: human (a link), or a bot (random, heuristic, "
                             "ismcts[:iterations=N]); roles not named are people's")
    add_param_option(parser)
    parser.add_argument("--seed", type=seed, default=None, metavar="S",
                        help="seed of the game (default: a new secret one)")
    parser.add_argument("--games", type=lambda v: count(v, 1, "--games"), default=1,
                        metavar="N", help="how many games of PACK to serve at once (default 1)")
    parser.add_argument("--resume", action="append", default=[], metavar="FILE",
                        help="go on with a saved game (repeatable: several games at once)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only; "
                             "0.0.0.0 for the network)")
    parser.add_argument("--port", type=lambda v: count(v, 0, "--port"), default=DEFAULT_PORT,
                        help=f"the port (default {DEFAULT_PORT})")


def run(args: argparse.Namespace) -> int:
    """Open the games, print their links, and serve until Ctrl-C."""
    try:
        import uvicorn

        from rulekit.web import Server, new_room, resumed_room
        from rulekit.web.server import MAX_MESSAGE
    except ImportError as exc:
        raise UsageError(f"rulekit serve needs the web extra ({exc.name} is missing)",
                         "pip install 'rulekit[web]'") from None
    if args.pack is None and not args.resume:
        raise UsageError("name the PACK to serve, or a saved game with --resume",
                         "rulekit serve PACK, or rulekit serve --resume FILE")
    if args.seed is not None and args.games > 1:
        raise UsageError("--seed gives one game: leave it out with --games")
    rooms = [resumed_room(Path(path), args.seat) for path in args.resume]
    if args.pack is not None:
        rooms += [new_room(args.pack, args.seat, args.param, args.seed)
                  for _ in range(args.games)]
    server = Server(rooms)
    host = f"[{args.host}]" if ":" in args.host else args.host  # an IPv6 address
    base = f"http://{host}:{args.port}"
    for room in rooms:
        session = room.session
        out(f"{room.game.pack_name}, saved as it goes to {session.keeper.path}:")
        names = {role: ("spectator" if role is None else session.render.name(role)) + ":"
                 for role, _ in room.links()}
        width = max(map(len, names.values()))
        for role, token in room.links():
            out(f"  {names[role]:<{width}} {base}/play/{token}")
    out("Each link is its seat's secret: send it to that player only. Ctrl-C stops; "
        "go on later with rulekit serve --resume FILE.")
    uvicorn.run(server.app(), host=args.host, port=args.port, log_level="warning",
                ws_max_size=MAX_MESSAGE, ws_ping_interval=20)
    return 0
