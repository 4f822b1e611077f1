"""``rulekit validate PACK...``: load packs and their scenario files, report every mistake."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rulekit.cli.common import err, out
from rulekit.errors import PackError, PackErrors, RulekitError


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "validate", help="check packs and their scenario files",
        description="Load each pack and its scenario files and report every mistake found.")
    parser.add_argument("packs", nargs="+", metavar="PACK",
                        help="a pack folder, or the id of a shipped pack")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rulekit.pack.loader import load_pack
    from rulekit.scenarios import load_scenarios

    invalid = 0
    for ref in args.packs:
        errors: list[PackError] = []
        try:
            pack = load_pack(ref)
            scenarios = load_scenarios(pack.scenario_files)
        except PackErrors as exc:
            errors = list(exc.errors)
        except PackError as exc:
            errors = [exc]
        except RulekitError as exc:
            invalid += 1
            err(f"{ref}: {exc}")
            err(f"{ref}: invalid")
            continue
        if errors:
            invalid += 1
            for error in errors:
                err(str(error))
            noun = "error" if len(errors) == 1 else "errors"
            err(f"{ref}: invalid ({len(errors)} {noun})")
            continue
        cards = len(pack.game.symbols.cards)
        out(f"{ref}: ok ({cards} cards, {len(scenarios)} scenarios)")
    if len(args.packs) > 1:
        valid = len(args.packs) - invalid
        out(f"{len(args.packs)} packs: {valid} valid, {invalid} invalid",
            sys.stderr if invalid else sys.stdout)
    return 1 if invalid else 0
