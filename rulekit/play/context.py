"""What a decision is about, written before its prompt.

It is made of the pack's ``context:`` templates, filled with their procedures' parameters. The
procedures are those the decision is asked in, outermost first. A context reads "Card 1, your left
side, Movement 2, step 1: Move to".

``{step}`` counts how many times in a row a procedure call asks its question. A template using it is
written only when its procedure is the one asking. The text is shown only to the one who decides. A
pack names in it only what they know.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rulekit.engine.game import Game, State
from rulekit.engine.state import Frame

if TYPE_CHECKING:
    from rulekit.play.table import Table


class _Card:
    """A card in a template: its name, and its properties as attributes."""

    def __init__(self, card: str, table: Table) -> None:
        self.card = card
        self.table = table

    def __format__(self, spec: str) -> str:
        return self.table.game.label(self.card)

    def __getattr__(self, prop: str) -> str:
        props = self.table.game.symbols.cards.get(self.card, {})
        return self.table.word(props.get(prop))


class Context:
    """The context of each question asked at a table, and its steps."""

    def __init__(self, game: Game, table: Table) -> None:
        self.game = game
        self.table = table
        self.templates = table.display.context
        self.call: str | None = None  # the call asking the last question (its name, args, pc)
        self.steps: list[str] = []  # the locals it had at each of its questions in a row

    def text(self, state: State) -> str | None:
        """The context of the question ``state`` waits on, if any."""
        if not self.templates:
            return None
        stack = state["stack"]
        step = self._step(stack[-1]) if stack else 1
        parts = [self._part(frame, step, depth == len(stack) - 1)
                 for depth, frame in enumerate(stack)]
        return ", ".join(part for part in parts if part is not None) or None

    def _part(self, frame: Frame, step: int, innermost: bool) -> str | None:
        """A frame's template filled, if it has one that applies there."""
        name = frame["proc"]
        template = self.templates.get(name)
        decl = self.game.symbols.procedures.get(name)
        if template is None or decl is None or ("{step" in template and not innermost):
            return None
        values: dict[str, object] = {"step": step}
        for (param, kind), value in zip(decl.params, frame["locals"], strict=False):
            values[param] = self._value(kind, value)
        try:
            return template.format_map(values)
        except (KeyError, AttributeError, ValueError, IndexError):
            return None

    def _value(self, kind: str, value: object) -> object:
        """A parameter as a template writes it: a card, a name, or a word."""
        if kind == "card" and isinstance(value, str):
            return _Card(value, self.table)
        if kind == "role" and isinstance(value, str):
            return self.table.render.name(value)
        return self.table.word(value)

    def _step(self, frame: Frame) -> int:
        """The number of the question the innermost call asks, in a row."""
        name, pc, local = frame["proc"], frame["pc"], frame["locals"]
        decl = self.game.symbols.procedures.get(name)
        arity = len(decl.params) if decl is not None else 0
        call = json.dumps([name, pc, local[:arity]])
        now = json.dumps(local)
        if call != self.call:
            self.call, self.steps = call, []
        if now not in self.steps:  # a question asked again (after an action) is one step
            self.steps.append(now)
        return self.steps.index(now) + 1


__all__ = ["Context"]
