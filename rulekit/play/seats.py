"""Who sits where: the ``--seat ROLE=human|AGENT`` options of a new game, and the seats of a
resumed one (a save is data: it never names code to run)."""

from __future__ import annotations

from rulekit.bots.registry import (
    BUILTIN_AGENTS,
    DEFAULT_AGENT,
    AssignmentWords,
    is_builtin,
    parse_assignments,
)
from rulekit.errors import UsageError, did_you_mean
from rulekit.play.savefile import HUMAN

SEAT_WORDS = AssignmentWords("--seat", "ROLE=human or ROLE=AGENT", "--seat", "seats")
OPPONENT = "ismcts"
"""Who plays the roles no one was given in a new game: ISMCTS with its default budget, which
answers in about a second per decision on the shipped packs (``--seat ROLE=random`` for the
old random opponent)."""


def named_seats(pairs: list[str], roles: list[str]) -> dict[str, str]:
    """``["hunter=human", "runner=random,..."]`` -> ``{role: "human" | agent spec}`` for the
    roles named."""
    given = parse_assignments(pairs, roles, SEAT_WORDS, f"--seat {roles[0]}=human")
    seats = {role: HUMAN if spec.lower() == HUMAN else spec for role, spec in given.items()}
    for role, spec in seats.items():
        if spec != HUMAN and spec not in BUILTIN_AGENTS and ":" not in spec:
            words = [HUMAN, *BUILTIN_AGENTS]
            raise UsageError(f"unknown player '{spec}' for {role} in --seat",
                             did_you_mean(spec, words) or f"{', '.join(words)} or "
                             f"package.module:Name")
    return seats


def parse_seats(pairs: list[str], roles: list[str]) -> dict[str, str]:
    """The seats of a new game, for every role: those named in ``pairs``; if none of them is a
    person's, the first role not named is played by a person (of roles ``hunter`` and
    ``runner``, ``--seat runner=random``: you hunt a random runner); the others by
    :data:`OPPONENT` bots. Every role named for a bot: bots play each other, and the person
    watches."""
    seats = named_seats(pairs, roles)
    if HUMAN not in seats.values():
        first_free = next((role for role in roles if role not in seats), None)
        if first_free is not None:
            seats[first_free] = HUMAN
    for role in roles:
        seats.setdefault(role, OPPONENT)
    return {role: seats[role] for role in roles}


def resumed_seats(saved: dict[str, str], given: dict[str, str], roles: list[str], where: str,
                  take_seat: bool = False) -> dict[str, str]:
    """Who plays each role of a resumed game: the seats ``given`` on the command line, else
    those of the save. A save is data and never runs code: of its seats only people and
    built-in agents (with their parameters) are taken as they are, a plug-in agent must be
    named again. A person may take over a bot's seat only with ``take_seat``, since they
    would see its secrets."""
    chosen: dict[str, str] = {}
    for role in roles:
        before = saved.get(role, DEFAULT_AGENT)
        spec = given.get(role, before)
        if role not in given and spec != HUMAN and not is_builtin(spec):
            raise UsageError(
                f"{where}: the {role} seat was played by the agent '{spec}'; a save never "
                f"runs code, so name a plug-in agent again on the command line",
                f"--seat {role}={spec} (if you trust it), or --seat {role}=random")
        if spec == HUMAN and before != HUMAN and not take_seat:
            raise UsageError(
                f"{where}: the {role} seat was played by a bot; taking it over would show "
                f"you what only that player may see",
                "add --take-seat to take it anyway, or leave that seat to a bot")
        chosen[role] = spec
    return chosen


__all__ = ["OPPONENT", "SEAT_WORDS", "named_seats", "parse_seats", "resumed_seats"]
