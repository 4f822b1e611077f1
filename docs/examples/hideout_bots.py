"""Agents for Hideout (docs/tutorial.md), an example of agents of your own.

Use it with ``--agents ROLE=hideout_bots:Greedy``, this folder on the module path (from the
repository root):

    PYTHONPATH=docs/examples rulekit simulate docs/examples/hideout \
        --agents law=hideout_bots:Greedy

An agent is a class with a method ``choose(view, decision)`` (or a plain function of the same
two arguments) that returns one of ``decision.options()`` or its id. ``view.role`` is the seat
it plays, ``view.observation`` what that seat may know, ``view.game`` the pack (its cards and
their properties are public), ``view.rng`` a random generator of its own.
"""

from __future__ import annotations

from typing import Any


class Greedy:
    """Plays the cards with the highest total score; stashes its weakest card."""

    def choose(self, view: Any, decision: Any) -> Any:
        cards = view.game.symbols.cards

        def score(value: Any) -> int:
            items = value if isinstance(value, list) else [value]
            return sum(cards[item]["score"] for item in items if item in cards)

        options = decision.options()
        if decision.kind == "subset":
            return max(options, key=lambda option: score(option.value))
        played = [option for option in options if option.value is not None]
        if not played:
            return options[0]
        return min(played, key=lambda option: score(option.value))
