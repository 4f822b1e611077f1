"""Who sits where: the ``--seat ROLE=human|AGENT`` options, and resumed seats."""

from __future__ import annotations

from collections.abc import Callable

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
OPPONENT = "normal"  # who plays the roles no one was given in a new game


def named_seats(pairs: list[str], roles: list[str]) -> dict[str, str]:
    """The roles named in ``--seat`` options: ``["runner=random"]`` -> ``{"runner": "random"}``."""
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
    """The seats of a new game: a person takes the first role not named, bots the others."""
    seats = named_seats(pairs, roles)
    if HUMAN not in seats.values():
        first_free = next((role for role in roles if role not in seats), None)
        if first_free is not None:
            seats[first_free] = HUMAN
    return {role: seats.get(role, OPPONENT) for role in roles}


def resumed_seats(saved: dict[str, str], given: dict[str, str], roles: list[str], where: str,
                  take_seat: bool = False) -> dict[str, str]:
    """Who plays each role of a resumed game: as ``given``, else as saved, if that is safe."""
    return {role: _resumed_seat(role, saved.get(role, DEFAULT_AGENT), given, where, take_seat)
            for role in roles}


def _resumed_seat(role: str, before: str, given: dict[str, str], where: str,
                  take_seat: bool) -> str:
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
    return spec


def seats_text(seats: dict[str, str], name: Callable[[str], str]) -> str:
    """Who plays each role: ``Hunter: person, Runner: random bot``."""
    return ", ".join(f"{name(role)}: {'person' if spec == HUMAN else spec + ' bot'}"
                     for role, spec in seats.items())
