"""The code of choice spec makers ``f(rt, L) -> spec`` and of log events, for the emitter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.model.program import LogField

if TYPE_CHECKING:
    from rulekit.engine.playout import SpecMaker
    from rulekit.lang.compiler import Compiler

Line = tuple[str, Location | None]

# Values a log shows as they are; other values (cards, roles, places, lists) by their names.
RAW_KINDS = frozenset({"int", "bool", "text", "none"})
# Values that are never lists, so a log keeps them without a copy.
SCALAR_KINDS = frozenset({"role", "card", "node", "edge", "region"})


class ChoiceWriter:
    """Writes specs and log events for an :class:`~rulekit.lang.emitter.Emitter`."""

    c: Compiler

    def where(self, pos: n.Pos) -> Location:
        raise NotImplementedError

    def _log_text(self, s: n.Log, table: dict[int, list[str | LogField]], key: int
                  ) -> tuple[int, str]:
        """A log text's id in ``table``, and the code of its field values."""
        c = self.c
        kinds = iter(s.kinds)
        parts: list[str | LogField] = [
            p if isinstance(p, str) else LogField(next(kinds, "any") not in RAW_KINDS)
            for p in s.parts]
        ids = c.text_ids.setdefault(id(table), {})
        log_id = ids.get(key)
        if log_id is None:
            log_id = ids[key] = len(table)
            table[log_id] = parts
        exprs = [p for p in s.parts if not isinstance(p, str)]
        args = ", ".join(c.py(p) if kind in RAW_KINDS or kind in SCALAR_KINDS
                         else f"_fsnap({c.py(p)})"
                         for p, kind in zip(exprs, s.kinds or ["any"] * len(exprs), strict=True))
        return log_id, args

    def _reason(self, s: n.Log) -> str:
        """The code of a pack's reason, read-only: ``[text id, [field values]]``."""
        log_id, args = self._log_text(s, self.c.program.reasons, id(s))
        return f"_FL([{log_id}, _FL([{args}])])"

    def candidates(self, choice: n.Choice) -> str:
        """The code of a new list of the candidates ``choice`` keeps."""
        c = self.c
        source = c.walked(choice.source)
        if choice.where is not None:
            with c.binding(choice.slot) as var:
                return f"[{var} for {var} in {source} if {c.py(choice.where)}]"
        if source.startswith(("list(", "[")) and source.endswith((")", "]")):
            return source  # already a new list
        return f"list({source})"

    def choice_spec(self, choice: n.Choice, slot: int) -> SpecMaker:
        """The spec maker of ``choice``, whose answer goes into local ``slot``."""
        c = self.c
        made: SpecMaker | None = c.makers.get((id(choice), slot, c.fast))
        if made is not None:
            return made
        source = c.walked(choice.source)
        items = self.candidates(choice)
        body = [f"items = {items}",
                f"spec = {{'player': {c.py(choice.player)}, 'kind': {choice.kind!r}, "
                f"'prompt': {self._prompt(choice)}, 'items': items, 'slot': {slot}}}",
                *self._text_lines(choice, source), *self._rule_lines(choice), "return spec"]
        maker: SpecMaker = c.function(body, self.where(choice.pos))
        c.makers[id(choice), slot, c.fast] = maker
        return maker

    def _prompt(self, choice: n.Choice) -> str:
        """The code of a choice's prompt."""
        if choice.prompt is None:
            return repr("Choose one" if choice.kind == "one" else "Choose any number")
        return self.said(choice.prompt)

    def said(self, text: n.Log) -> str:
        """The code of a text for players (a prompt, a win's): itself, or its fields filled in."""
        if all(isinstance(part, str) for part in text.parts):
            return repr("".join(str(part) for part in text.parts))
        return f"rt.program.say(*{self._reason(text)})"

    def _text_lines(self, choice: n.Choice, source: str) -> list[str]:
        """Lines adding texts for people to a spec, in a logged game (fast: no step counted)."""
        c = self.c
        lines = []
        with c.fast_code():
            if any(reason for _, reason in choice.wheres):
                lines.append(f"if rt.logging: spec['refused'] = {self._refused(choice, source)}")
            if choice.label is not None:
                with c.binding(choice.slot) as var:
                    labels = f"_FL([{self._reason(choice.label)} for {var} in items])"
                lines.append(f"if rt.logging: spec['labels'] = {labels}")
        return lines

    def _rule_lines(self, choice: n.Choice) -> list[str]:
        """The lines that add a choice's constraints, and their reasons, to its spec."""
        lines = [f"spec['{bound}_why'] = {self._reason(choice.reasons[bound])}"
                 for bound in ("min", "max") if bound in choice.reasons]
        if choice.always_ask:  # its options may tell a secret: asked even if forced
            lines.append("spec['ask'] = True")
        if choice.kind == "one":
            return [*lines, f"spec['optional'] = {choice.optional!r}"]
        return lines + self._subset_lines(choice)

    def bounds(self, choice: n.Choice, items: str) -> tuple[str, str]:
        """The code of a subset's least and most items, ``items`` naming its candidates."""
        c = self.c
        return (c.py(choice.min) if choice.min is not None else "0",
                c.py(choice.max) if choice.max is not None else f"len({items})")

    def flags(self, choice: n.Choice, rule: n.AtMost, items: str) -> str:
        """The code of a list of 1 for each candidate an ``at most`` rule counts, else 0."""
        with self.c.binding(choice.slot) as var:
            return f"[1 if {self.c.py(rule.condition)} else 0 for {var} in {items}]"

    def _subset_lines(self, choice: n.Choice) -> list[str]:
        """A subset's constraints: its bounds and its ``at most`` rules."""
        least, most = self.bounds(choice, "items")
        body = [f"spec['min'] = {least}", f"spec['max'] = {most}", "rules = []"]
        with_reasons = any(rule.reason for rule in choice.at_most)
        for rule in choice.at_most:
            body += [f"flags = {self.flags(choice, rule, 'items')}",
                     f"if 1 in flags: rules.append([{self.c.py(rule.limit)}, flags])"]
            if with_reasons:
                why = self._reason(rule.reason) if rule.reason else "None"
                body.append(f"if 1 in flags: spec.setdefault('at_most_why', []).append({why})")
        return [*body, "spec['at_most'] = rules"]

    def _refused(self, choice: n.Choice, source: str) -> str:
        """The code of the candidates ``choice`` refuses, with reasons, read-only."""
        c = self.c
        with c.binding(choice.slot) as var:
            lines = ["refused = []", f"for {var} in {source}:"]
            for cond, reason in choice.wheres:
                lines.append(f"    if not ({c.py(cond)}):")
                if reason is not None:
                    lines.append(f"        refused.append(_FL([{var}, {self._reason(reason)}]))")
                lines.append("        continue")
        refuser = c.function([*lines, "return _FL(refused)"], self.where(choice.pos))
        return f"{c.constant(refuser)}(rt, L)"
