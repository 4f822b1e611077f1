"""What a person types at a decision prompt: a numbered menu and the parser of answers.

A :class:`Menu` numbers the choices of one :class:`~rulekit.engine.decisions.Decision`:

- a ``one`` decision lists its options in the engine's order (``none`` first when the choice
  may be declined, anytime actions last); the answer is one number or a name;
- a ``subset`` decision lists its *items* (never every subset); the answer is several numbers
  separated by spaces or commas, names separated by commas, or ``none``; the chosen ids are
  checked by ``decision.option('+'.join(ids))`` so the engine's own rules (bounds, 'at most')
  give the message of an illegal choice.

Menu keys never change meaning: the lines of options (or items) are numbered 1..n, whatever
their labels (a label that is a number is shown as the label); anytime actions get letters
(``a``, ``b``...), never the next number. Options of equal labels (two tokens of one value) are
shown once.

:func:`parse_answer` turns a typed line into a :class:`Choice`, a :class:`Command` (``help``,
``board``, ``cards [NAME]``, ``pile NAME``, ``log [N]``, ``map``, ``more`` (a long menu in
full), ``save [FILE]``, ``quit``) or a
:class:`Problem` to show before asking again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulekit.engine.decisions import NONE_ID, Decision, Option, item_ids
from rulekit.errors import IllegalActionError

COMMANDS = ("help", "board", "cards", "pile", "log", "map", "more", "save", "quit")
WITH_TEXT = ("save", "cards", "pile")  # commands followed by any text
ALIASES = {"?": "help", "exit": "quit"}
_INTEGER = re.compile(r"[+-]?\d+")
ANYTIME_KEYS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Entry:
    """One numbered line of a menu: an option (``one`` decisions, anytime actions) or an item
    of a ``subset`` decision (``index`` into ``decision.items``)."""

    key: str
    label: str
    option: Option | None = None
    index: int | None = None
    anytime: bool = False


@dataclass(frozen=True)
class Choice:
    option: Option


@dataclass(frozen=True)
class Command:
    name: str
    argument: str = ""


@dataclass(frozen=True)
class Problem:
    message: str


Answer = Choice | Command | Problem


class Menu:
    """The numbered lines shown for one decision, and the lookup of typed keys."""

    def __init__(self, decision: Decision, label: Callable[[Any], str]) -> None:
        self.decision = decision
        self.subset = decision.kind == "subset"
        self.context: str | None = None  # what the decision is about, before its prompt
        self.item_ids: list[str] = list(decision.spec.get("ids") or item_ids(decision.items))
        self.item_labels = [label(item) for item in decision.items]
        # What the rules refuse here, with the pack's reason (``where ... else``): by label.
        refused = decision.refused()
        self.refused: list[tuple[str, str]] = [
            (label(item), item_id) for (item, _), item_id in
            zip(refused, item_ids([item for item, _ in refused]), strict=True)]
        rows: list[tuple[str, Option | None, int | None, bool]] = []
        if self.subset:
            rows = [(text, None, i, False) for i, text in enumerate(self.item_labels)]
            rows += [(extra.label, extra, None, True) for extra in decision.extras]
        else:
            for option in decision.options():
                anytime = option.id.startswith("!")
                index = None if anytime or option.id == NONE_ID else self._index_of(option.id)
                text = option.label if index is None else self.item_labels[index]
                rows.append((text, option, index, anytime))
        if not self.subset:  # equal options (two tokens of one value) are shown once
            seen: set[str] = set()
            kept = []
            for row in rows:
                if row[2] is None or row[0] not in seen:
                    kept.append(row)
                    seen.add(row[0])
            rows = kept
        entries: list[Entry] = []
        numbered = 0
        for text, choice, index, anytime in rows:
            if anytime:
                key = ANYTIME_KEYS[sum(1 for e in entries if e.anytime) % len(ANYTIME_KEYS)]
            else:
                numbered += 1
                key = str(numbered)
            entries.append(Entry(key, text, choice, index, anytime))
        self.entries = entries
        self._by_key = {entry.key: entry for entry in entries}
        self.default = only_option(decision)  # what Enter takes, when there is one choice

    def _index_of(self, item_id: str) -> int | None:
        try:
            return self.item_ids.index(item_id)
        except ValueError:
            return None

    def entry(self, key: str) -> Entry | None:
        return self._by_key.get(key.strip())

    def key_of(self, option_id: str) -> str:
        """The text to type for an option (``one``) or for a subset's option id."""
        if self.subset and not option_id.startswith("!"):
            if option_id == NONE_ID:
                return NONE_ID
            keys = []
            for part in option_id.split("+"):
                index = self.item_ids.index(part)
                keys.append(next(e.key for e in self.entries if e.index == index))
            return " ".join(keys)
        for entry in self.entries:
            if entry.option is not None and entry.option.id == option_id:
                return entry.key
        at = self._index_of(option_id)
        label = self.item_labels[at] if at is not None else next(
            (o.label for o in self.decision.options() if o.id == option_id), None)
        for entry in self.entries:  # one of equal options, shown once
            if entry.option is not None and entry.label == label:
                return entry.key
        raise KeyError(option_id)

    def keys_text(self) -> str:
        """The valid keys, shortly: ``1-5``, ``1, 2`` or ``1-5, a``."""
        numbers = [e.key for e in self.entries if not e.anytime]
        letters = [e.key for e in self.entries if e.anytime]
        parts = []
        if len(numbers) > 2:
            parts.append(f"{numbers[0]}-{numbers[-1]}")
        else:
            parts.extend(numbers)
        parts.extend(letters)
        return ", ".join(parts) or "none"


def _command(text: str) -> Command | None:
    word, _, rest = text.strip().partition(" ")
    name = ALIASES.get(word.lower(), word.lower())
    if name not in COMMANDS:
        return None
    if name == "log" and _INTEGER.fullmatch(rest.strip()):
        return Command(name, str(abs(int(rest.strip()))))
    if rest.strip() and name not in WITH_TEXT:
        return None  # 'log something' is not the command: maybe an option's name
    return Command(name, rest.strip())


def parse_answer(menu: Menu, text: str) -> Answer:
    """What ``text`` typed at ``menu``'s prompt means."""
    typed = text.strip()
    if not typed and menu.default is not None:
        return Choice(menu.default)
    if not typed:
        hint = ("the numbers of your choice, or none" if menu.subset
                else "the number of your choice")
        return Problem(f"Type {hint} ({menu.keys_text()}); help shows how.")
    command = _command(typed)
    if command is not None:
        return command
    if menu.subset:
        return _parse_subset(menu, typed)
    return _parse_one(menu, typed)


def _parse_one(menu: Menu, typed: str) -> Answer:
    decision = menu.decision
    entry = menu.entry(typed)
    if entry is not None and entry.option is not None:
        return Choice(entry.option)
    if _INTEGER.fullmatch(typed):
        return Problem(f"There is no choice {typed}: type one of {menu.keys_text()}.")
    lowered = typed.lower()
    if lowered == NONE_ID:
        if decision.optional:
            return Choice(decision.option(NONE_ID))
        return Problem("This choice cannot be declined.")
    entries = [e for e in menu.entries if e.option is not None]
    options = [e.option for e in entries if e.option is not None]
    for option in options:
        if option.id == typed:
            return Choice(option)
    found = match_name([e.label for e in entries], typed)
    if isinstance(found, Problem):  # the engine's name of an option (a token's value)
        plain = match_name([o.label for o in options], typed)
        if isinstance(plain, Problem):
            return _refused(menu, typed) or found
        found = plain
    return Choice(options[found])


def _refused(menu: Menu, typed: str) -> Problem | None:
    """The pack's reason for refusing what was typed (an item a 'where' left out, by its id,
    its label as the menu writes it, or the start of that label), if any."""
    decision = menu.decision
    why = decision.refusal(typed)
    if why is None and menu.refused:
        found = match_name([text for text, _ in menu.refused], typed)
        if not isinstance(found, Problem):
            why = decision.refusal(menu.refused[found][1])
    return None if why is None else Problem(why)


def match_name(labels: list[str], typed: str, taken: set[int] | None = None) -> int | Problem:
    """The index of the one label equal to ``typed`` or starting with it, any case (equal
    labels count as one: the first index not already ``taken`` is given)."""
    taken = taken or set()
    lowered = typed.strip().lower()
    for equal in (True, False):
        found = [i for i, text in enumerate(labels)
                 if (text.lower() == lowered if equal else text.lower().startswith(lowered))]
        names = list(dict.fromkeys(labels[i] for i in found))
        if len(names) == 1:
            free = [i for i in found if i not in taken]
            return free[0] if free else found[0]
        if len(names) > 1:
            shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
            return Problem(f"'{typed}' matches several choices ({shown}): type more of the "
                           f"name, or its number.")
    return Problem(f"Nothing matches '{typed}': type a number or the start of a name.")


_RANGE = re.compile(r"(\d+)\s*-\s*(\d+)")


def _parse_subset(menu: Menu, typed: str) -> Answer:
    decision = menu.decision
    lowered = typed.lower()
    action = menu.entry(lowered)
    if action is not None and action.option is not None:  # an anytime action, by its letter
        return Choice(action.option)
    chosen: list[int] = []
    if lowered == "all":
        chosen = list(range(len(menu.item_ids)))
    elif lowered not in (NONE_ID, "nothing", "-"):
        if "+" in typed:  # an option id as the engine writes it
            try:
                return Choice(decision.option(typed))
            except IllegalActionError as exc:
                return Problem(exc.message)
        chunks = [c.strip() for c in typed.split(",") if c.strip()]
        for chunk in chunks:
            parts = _RANGE.sub(_spell_range, chunk).split()
            if all(_INTEGER.fullmatch(p) for p in parts):
                for part in parts:
                    entry = menu.entry(part)
                    if entry is None or entry.index is None:
                        return Problem(f"There is no item {part}: type numbers among "
                                       f"{menu.keys_text()}, or none.")
                    if entry.index in chosen:
                        return Problem(f"{entry.label} is chosen twice.")
                    chosen.append(entry.index)
                continue
            if chunk in menu.item_ids:
                index = menu.item_ids.index(chunk)
            else:
                found = match_name(menu.item_labels, chunk, set(chosen))
                if isinstance(found, Problem):
                    extras = [e for e in menu.entries if e.option is not None]
                    hit = [e for e in extras if e.label.lower().startswith(chunk.lower())]
                    if len(hit) == 1 and len(chunks) == 1 and hit[0].option is not None:
                        return Choice(hit[0].option)
                    return _refused(menu, chunk) or found
                index = found
            if index in chosen:
                return Problem(f"{menu.item_labels[index]} is chosen twice.")
            chosen.append(index)
    broken = _broken_group(menu, chosen) if decision.min <= len(chosen) <= decision.max else None
    if broken is not None:
        return broken
    ids = [menu.item_ids[i] for i in sorted(chosen)]
    try:
        return Choice(decision.option("+".join(ids) if ids else NONE_ID))
    except IllegalActionError as exc:
        text = exc.message[:1].upper() + exc.message[1:]
        return Problem(text if text.endswith((".", "!", "?")) else text + ".")


def _broken_group(menu: Menu, chosen: list[int]) -> Problem | None:
    """The 'at most N of these' rule of a subset that ``chosen`` breaks, said with the names
    of the cards concerned (or in the pack's words, if it gives the rule's reason)."""
    why = menu.decision.broken_rule(chosen)
    if why is not None:
        return Problem(why)
    for limit, flags in menu.decision.spec.get("at_most", ()):
        group = [i for i, flag in enumerate(flags) if flag]
        picked = [menu.item_labels[i] for i in sorted(chosen) if i in group]
        if len(picked) > limit:
            names = list(dict.fromkeys(menu.item_labels[i] for i in group))
            return Problem(f"Only {limit} of {', '.join(names)} may be chosen together, "
                           f"not {len(picked)} ({', '.join(picked)}).")
    return None


def _spell_range(match: re.Match[str]) -> str:
    """``2-4`` -> ``2 3 4`` (a reversed or huge range is left as typed, to be refused)."""
    low, high = int(match.group(1)), int(match.group(2))
    if low > high or high - low > 1000:
        return match.group(0)
    return " ".join(str(n) for n in range(low, high + 1))


def only_option(decision: Decision) -> Option | None:
    """The only legal option of a decision (anytime actions aside), if it has just one.

    A person is asked even then (Enter takes it): whether someone is asked must never depend
    on what only they may see."""
    if decision.kind == "one":
        if len(decision.items) + (1 if decision.optional else 0) == 1:
            return decision.options()[0]
        return None
    n = len(decision.items)
    if n == 0 and decision.min <= 0:
        return decision.option(NONE_ID)
    if n > 0 and decision.min >= n and decision.max >= n:
        try:
            return decision.option("+".join(decision.spec.get("ids") or item_ids(decision.items)))
        except IllegalActionError:
            return None
    return None


__all__ = ["COMMANDS", "Answer", "Choice", "Command", "Entry", "Menu", "Problem",
           "only_option", "parse_answer"]
