"""``rulekit play`` and ``rulekit replay``: games at the terminal, and saved games."""

from __future__ import annotations

import argparse

from rulekit.cli.common import Commands, add_param_option, seed


def register(commands: Commands) -> None:
    play = commands.add(
        "play", run_play, help="play a game at the terminal, against bots or each other",
        description="Play a pack at the terminal. By default you play the first role against "
                    "the normal bot (about 1 s of thought per move); give several roles to "
                    "people for a hot-seat game.")
    play.add_argument("pack", metavar="PACK", nargs="?", default=None,
                      help="a pack folder or a shipped pack id (with --resume: optional)")
    play.add_argument("--seat", action="append", default=[], metavar="ROLE=human|AGENT",
                      help="who plays a role: human, a bot's level (easy: instant; normal: "
                           "about 1 s a move; hard: about 3 s; or LEVEL:seconds=S), another "
                           "built-in agent (random, heuristic, ismcts[:iterations=N]) or "
                           "package.module:Name (repeatable; if no seat is a person's, you play "
                           "the first role not named; other roles: normal bots, ROLE=easy for "
                           "an easier one)")
    play.add_argument("--seed", type=seed, default=None, metavar="S",
                      help="seed of the game (default: a new secret one, shown when the game is "
                           "over)")
    add_param_option(play)
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="go on with a saved game")
    play.add_argument("--list", action="store_true",
                      help="list the unfinished games saved in this folder, and stop")
    play.add_argument("--take-seat", action="store_true",
                      help="with --resume: let a person take over a seat a bot played "
                           "(they will see that player's secrets)")
    play.add_argument("--save", metavar="FILE", default=None,
                      help="the game's save file, written before every question to a person "
                           "and at the end (default: the --resume file, else a new "
                           "./rulekit-PACK-DATE-TIME.json per game)")
    play.add_argument("--fast", action="store_true", help="do not pause after bots' moves")
    play.add_argument("--no-color", action="store_true", help="no colours")

    replay = commands.add(
        "replay", run_replay, help="step through a saved or finished game",
        description="Show a saved game's events one at a time (Enter), as one player saw "
                    "them or as everyone did.")
    replay.add_argument("file", metavar="FILE", help="a file written by rulekit play")
    replay.add_argument("--as", dest="as_role", metavar="ROLE", default=None,
                        help="whose view: a role, or all (every event, every secret). Default: "
                             "all for a finished game; for one still on, the view of its only "
                             "person (with several people, --as is needed)")
    replay.add_argument("--all", action="store_true",
                        help="show every event at once instead of one per Enter")
    replay.add_argument("--pack", metavar="PACK", default=None,
                        help="the pack folder, if it cannot be found from the save")
    replay.add_argument("--no-color", action="store_true", help="no colours")


def run_play(args: argparse.Namespace) -> int:
    """Play a game, go on with a saved one, or list them."""
    from pathlib import Path

    from rulekit.play import list_unfinished, open_session
    from rulekit.play.savefile import save_folder
    from rulekit.play.screen import Screen

    screen = Screen(no_color=args.no_color, fast=args.fast)
    if args.list:
        return list_unfinished(screen)
    if args.save:
        save_folder(Path(args.save))
    session = open_session(screen, args.pack, seats=args.seat, seed=args.seed,
                           params=args.param,
                           resume=Path(args.resume) if args.resume else None,
                           save=Path(args.save) if args.save else None,
                           take_seat=args.take_seat)
    return session.run()


def run_replay(args: argparse.Namespace) -> int:
    """Step through a saved game's events."""
    from pathlib import Path

    from rulekit.play.replay import run_replay as replay
    from rulekit.play.restore import load_saved_pack
    from rulekit.play.savefile import read_save
    from rulekit.play.screen import Screen

    path = Path(args.file)
    saved = read_save(path)
    loaded = load_saved_pack(saved, str(path), args.pack)
    screen = Screen(no_color=args.no_color)
    try:
        return replay(loaded, saved, str(path), screen, args.as_role, args.all)
    except KeyboardInterrupt:
        screen.blank()
        return 130
