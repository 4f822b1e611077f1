"""``rulekit docs PACK``: the rules of a pack as a Markdown document."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulekit.cli.common import Commands, out


def register(commands: Commands) -> None:
    parser = commands.add(
        "docs", run, pack=True, help="write a pack's rules as a Markdown document",
        description="Write the rules of a pack as a readable Markdown document: players, "
                    "parameters, components, setup, the flow phase by phase, every card, "
                    "the end of the game and the rules with the scenarios that cover them.")
    parser.add_argument("--out", metavar="FILE",
                        help="write the document into FILE (whole or not at all) "
                             "instead of printing it")


def run(args: argparse.Namespace) -> int:
    """Print the rules document, or write it into ``--out``."""
    from rulekit.authoring.files import write_text_atomic
    from rulekit.authoring.rulesdoc import rules_document
    from rulekit.pack.loader import load_pack
    from rulekit.scenarios.runner import load_scenarios

    pack = load_pack(args.pack)
    text = rules_document(pack, load_scenarios(pack.scenario_files), args.pack,
                          load_scenarios(pack.base_scenario_files))
    if args.out is None:
        out(text.rstrip("\n"))
        return 0
    target = Path(args.out)
    write_text_atomic(target, text)
    out(f"{target}: the rules of {pack.manifest['name']} ({text.count(chr(10))} lines)")
    return 0
