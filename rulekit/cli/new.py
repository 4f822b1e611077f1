"""``rulekit new NAME``: a new pack folder that validates, tests and plays."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulekit.cli.common import Commands, out


def register(commands: Commands) -> None:
    parser = commands.add(
        "new", run, help="make a new pack folder (or a variant of a pack)",
        description="Write a new pack folder NAME that validates, tests and plays at once: a "
                    "small complete game whose files teach in comments, or with --from a variant "
                    "of PACK that extends it. NAME's last part is the pack's id. Each "
                    "YAML file names its schema, copied into NAME/.schemas/, for editors.")
    parser.add_argument("name", metavar="NAME",
                        help="the folder to create (absent or empty), e.g. my_game")
    parser.add_argument("--from", dest="base", metavar="PACK", default=None,
                        help="make a variant that extends this pack (a folder or a shipped pack "
                             "id) instead of the template")


def run(args: argparse.Namespace) -> int:
    """Write the new pack, then say what to run next."""
    from rulekit.authoring.scaffold import new_pack, pack_id_for
    from rulekit.pack.loader import load_pack

    target = Path(args.name)
    pack_id_for(target)  # a bad name is refused before the base pack is loaded
    base = load_pack(args.base) if args.base else None
    made = new_pack(target, base)
    what = f"a variant of {base.id}" if base else "a new pack"
    out(f"{target}: {what}, {len(made.files)} files; "
        f"ok ({made.cards} cards, {made.scenarios} scenarios)")
    out("next:")
    for line in (f"rulekit test {target}", f"rulekit play {target} --seat {made.roles[0]}=human",
                 f"rulekit simulate {target} -n 1000 --seed 1"):
        out(f"  {line}")
    return 0
