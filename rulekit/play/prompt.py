"""What a person types at a decision prompt: a numbered menu, and its parser.

A :class:`Menu` numbers the choices of one :class:`~rulekit.engine.decisions.Decision`:

- a ``one`` decision lists its options in the engine's order. ``none`` comes first when it may be
  declined, anytime actions last. The answer is a number or a name;
- a ``subset`` decision lists its *items*, never every subset. The answer is numbers, names
  separated by commas, or ``none``. The engine checks the ids chosen, so its own rules say why a
  choice is illegal.

Menu keys never change meaning. Options or items are numbered 1..n, whatever their labels. Anytime
actions get letters (``a``, ``b``...), never the next number. Equal options (two tokens of one
value) are shown once.

:func:`parse_answer` turns a typed line into a :class:`Choice`, a :class:`Command` or a
:class:`Problem`. The commands are those of :data:`COMMANDS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from rulekit.engine.decisions import NONE_ID, Decision, Option, item_ids
from rulekit.errors import IllegalActionError

COMMANDS = ("help", "board", "cards", "pile", "log", "map", "more", "save", "quit")
WITH_TEXT = ("save", "cards", "pile")  # commands followed by any text
ALIASES = {"?": "help", "exit": "quit"}
NOTHING = (NONE_ID, "nothing", "-")  # a subset answer that chooses no item
ANYTIME_KEYS = "abcdefghijklmnopqrstuvwxyz"
_INTEGER = re.compile(r"[+-]?\d+")
_RANGE = re.compile(r"(\d+)\s*-\s*(\d+)")

Label = Callable[[object], str]
"""How the items of a decision are named to the person choosing."""


@dataclass(frozen=True)
class Entry:
    """One numbered line of a menu.

    It is an option (of a ``one`` decision, or an anytime action). Or it is an item of a ``subset``
    decision: ``index`` into ``decision.items``.
    """

    key: str
    label: str
    option: Option | None = None
    index: int | None = None
    anytime: bool = False


class _Row(NamedTuple):
    """A menu line before it has its key."""

    text: str
    option: Option | None
    item: int | None  # the index of a subset's item
    anytime: bool


@dataclass(frozen=True)
class Choice:
    """A legal answer."""

    option: Option


@dataclass(frozen=True)
class Command:
    """A command typed instead of an answer."""

    name: str
    argument: str = ""


@dataclass(frozen=True)
class Problem:
    """Why a typed line is no answer, shown before asking again."""

    message: str


Answer = Choice | Command | Problem


class Menu:
    """The numbered lines shown for one decision, and the keys typed."""

    def __init__(self, decision: Decision, label: Label) -> None:
        self.decision = decision
        self.subset = decision.kind == "subset"
        self.context: str | None = None  # what the decision is about, before its prompt
        self.item_ids: list[str] = list(decision.spec.get("ids") or item_ids(decision.items))
        self.item_labels = [label(item) for item in decision.items]
        # What the rules refuse here, with the pack's reason (``where ... else``): by label.
        self.refused = _refused_labels(decision, label)
        self.entries = _keyed(self._subset_rows() if self.subset else self._one_rows())
        self._by_key = {entry.key: entry for entry in self.entries}
        self.default = only_option(decision)  # what Enter takes, when there is one choice

    def _subset_rows(self) -> list[_Row]:
        """A subset's items, then its anytime actions."""
        rows = [_Row(text, None, i, False) for i, text in enumerate(self.item_labels)]
        return rows + [_Row(extra.label, extra, None, True) for extra in self.decision.extras]

    def _one_rows(self) -> list[_Row]:
        """The options; equal ones (two tokens of one value) once."""
        rows: list[_Row] = []
        seen: set[str] = set()
        for option in self.decision.options():
            row = self._one_row(option)
            if row.item is None or row.text not in seen:
                rows.append(row)
                seen.add(row.text)
        return rows

    def _one_row(self, option: Option) -> _Row:
        """The line of an option."""
        anytime = option.id.startswith("!")
        index = None if anytime or option.id == NONE_ID else self._index_of(option.id)
        text = option.label if index is None else self.item_labels[index]
        return _Row(text, option, index, anytime)

    def _index_of(self, item_id: str) -> int | None:
        """The index of an item by its id, if it is one."""
        return self.item_ids.index(item_id) if item_id in self.item_ids else None

    def entry(self, key: str) -> Entry | None:
        """The line of a typed key, if any."""
        return self._by_key.get(key.strip())

    def key_of(self, option_id: str) -> str:
        """The text to type for an option, or a subset's option id."""
        if self.subset and not option_id.startswith("!"):
            return self._subset_keys(option_id)
        return self._option_key(option_id)

    def _option_key(self, option_id: str) -> str:
        """The key of an option's line, or of an equal option's."""
        lines = [(e.key, e.option.id, e.label) for e in self.entries if e.option is not None]
        key = next((key for key, line_id, _ in lines if line_id == option_id), None)
        if key is None:  # one of equal options, shown once
            label = self._label_of(option_id)
            key = next((key for key, _, line_label in lines if line_label == label), None)
        if key is None:
            raise KeyError(option_id)
        return key

    def _subset_keys(self, option_id: str) -> str:
        """The keys of a subset's items, or ``none``."""
        if option_id == NONE_ID:
            return NONE_ID
        indexes = [self.item_ids.index(part) for part in option_id.split("+")]
        return " ".join(next(e.key for e in self.entries if e.index == index)
                        for index in indexes)

    def _label_of(self, option_id: str) -> str | None:
        """The label of an option or item, by its id."""
        at = self._index_of(option_id)
        if at is not None:
            return self.item_labels[at]
        return next((o.label for o in self.decision.options() if o.id == option_id), None)

    def keys_text(self) -> str:
        """The keys, in short: ``1-5``, ``1, 2`` or ``1-5, a``."""
        numbers = [e.key for e in self.entries if not e.anytime]
        letters = [e.key for e in self.entries if e.anytime]
        parts = [f"{numbers[0]}-{numbers[-1]}"] if len(numbers) > 2 else numbers
        return ", ".join([*parts, *letters]) or "none"


def _refused_labels(decision: Decision, label: Label) -> list[tuple[str, str]]:
    """The label and item id of each candidate the rules refuse now."""
    items = [item for item, _ in decision.refused()]
    return [(label(item), item_id) for item, item_id in zip(items, item_ids(items), strict=True)]


def _keyed(rows: list[_Row]) -> list[Entry]:
    """The lines numbered 1..n, anytime actions lettered ``a``, ``b``..."""
    entries: list[Entry] = []
    numbered = lettered = 0
    for text, option, index, anytime in rows:
        if anytime:
            key = ANYTIME_KEYS[lettered % len(ANYTIME_KEYS)]
            lettered += 1
        else:
            numbered += 1
            key = str(numbered)
        entries.append(Entry(key, text, option, index, anytime))
    return entries


def only_option(decision: Decision) -> Option | None:
    """The only legal option of a decision, anytime actions aside.

    A person is asked even then, and Enter takes it. Whether someone is asked must never depend on
    what only they may see.
    """
    if decision.kind == "one":
        declined = 1 if decision.optional else 0
        return decision.options()[0] if len(decision.items) + declined == 1 else None
    return _only_subset(decision)


def _only_subset(decision: Decision) -> Option | None:
    """The only legal answer of a subset: none of no items, or all."""
    n = len(decision.items)
    if n == 0:
        return decision.option(NONE_ID) if decision.min <= 0 else None
    if decision.min < n or decision.max < n:
        return None
    try:
        return decision.option("+".join(decision.spec.get("ids") or item_ids(decision.items)))
    except IllegalActionError:  # taking every item breaks a rule: no single answer
        return None


# ---------------------------------------------------------------- typed answers


def parse_answer(menu: Menu, text: str) -> Answer:
    """What ``text`` typed at ``menu``'s prompt means."""
    typed = text.strip()
    if not typed:
        return Choice(menu.default) if menu.default is not None else _nothing_typed(menu)
    command = _command(typed)
    if command is not None:
        return command
    return _parse_subset(menu, typed) if menu.subset else _parse_one(menu, typed)


def _nothing_typed(menu: Menu) -> Problem:
    """What to type, when nothing was."""
    hint = "the numbers of your choice, or none" if menu.subset else "the number of your choice"
    return Problem(f"Type {hint} ({menu.keys_text()}); help shows how.")


def _command(text: str) -> Command | None:
    """The command typed, if ``text`` is one."""
    word, _, rest = text.strip().partition(" ")
    name = ALIASES.get(word.lower(), word.lower())
    argument = rest.strip()
    if name not in COMMANDS:
        return None
    if name == "log" and _INTEGER.fullmatch(argument):
        return Command(name, str(abs(int(argument))))
    if argument and name not in WITH_TEXT:
        return None  # 'log something' is not the command: maybe an option's name
    return Command(name, argument)


def _parse_one(menu: Menu, typed: str) -> Answer:
    """An answer to a ``one`` decision: a key, ``none``, an id or a name."""
    entry = menu.entry(typed)
    if entry is not None and entry.option is not None:
        return Choice(entry.option)
    if _INTEGER.fullmatch(typed):
        return Problem(f"There is no choice {typed}: type one of {menu.keys_text()}.")
    if typed.lower() == NONE_ID:
        return _declined(menu.decision)
    return _one_by_name(menu, typed)


def _declined(decision: Decision) -> Answer:
    """``none``: the choice declined, if it may be."""
    if decision.optional:
        return Choice(decision.option(NONE_ID))
    return Problem("This choice cannot be declined.")


def _one_by_name(menu: Menu, typed: str) -> Answer:
    """The option whose id is ``typed``, or whose name starts with it."""
    lines = [(e.label, e.option) for e in menu.entries if e.option is not None]
    exact = next((option for _, option in lines if option.id == typed), None)
    if exact is not None:
        return Choice(exact)
    found = _option_named([label for label, _ in lines], [o for _, o in lines], typed)
    if isinstance(found, Problem):
        return _refused(menu, typed) or found
    return Choice(lines[found][1])


def _option_named(labels: list[str], options: list[Option], typed: str) -> int | Problem:
    """The option named ``typed`` in the menu, else by the engine (a token's value)."""
    found = match_name(labels, typed)
    if not isinstance(found, Problem):
        return found
    plain = match_name([option.label for option in options], typed)
    return found if isinstance(plain, Problem) else plain


def _refused(menu: Menu, typed: str) -> Problem | None:
    """The pack's reason for refusing what was typed, if any.

    That is an item a ``where`` left out. It may be typed by its id, its label, or the start of it.
    """
    decision = menu.decision
    why = decision.refusal(typed)
    if why is None and menu.refused:
        found = match_name([text for text, _ in menu.refused], typed)
        if not isinstance(found, Problem):
            why = decision.refusal(menu.refused[found][1])
    return None if why is None else Problem(why)


def match_name(labels: list[str], typed: str, taken: set[int] | None = None) -> int | Problem:
    """The index of the one label equal to ``typed``, else starting with it.

    Case does not matter. Equal labels count as one: the first index not ``taken`` is given.
    """
    lowered = typed.strip().lower()
    equal = [i for i, text in enumerate(labels) if text.lower() == lowered]
    starting = [i for i, text in enumerate(labels) if text.lower().startswith(lowered)]
    for found in (equal, starting):
        picked = _pick(labels, found, typed, taken or set())
        if picked is not None:
            return picked
    return Problem(f"Nothing matches '{typed}': type a number or the start of a name.")


def _pick(labels: list[str], found: list[int], typed: str, taken: set[int]
          ) -> int | Problem | None:
    """The index of the one name among ``found``; a problem if several."""
    names = list(dict.fromkeys(labels[i] for i in found))
    if len(names) > 1:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        return Problem(f"'{typed}' matches several choices ({shown}): type more of the "
                       f"name, or its number.")
    if not names:
        return None
    free = [i for i in found if i not in taken]
    return free[0] if free else found[0]


def _parse_subset(menu: Menu, typed: str) -> Answer:
    """An answer to a subset: numbers, ranges, names, all or none."""
    action = menu.entry(typed.lower())
    if action is not None and action.option is not None:  # an anytime action, by its letter
        return Choice(action.option)
    if "+" in typed:  # an option id as the engine writes it
        return _by_id(menu.decision, typed)
    chosen = _chosen(menu, typed)
    if not isinstance(chosen, list):
        return chosen
    return _subset_choice(menu, chosen)


def _by_id(decision: Decision, option_id: str) -> Answer:
    """The option of an id as the engine writes it, or why not."""
    try:
        return Choice(decision.option(option_id))
    except IllegalActionError as exc:
        return Problem(exc.message)


def _chosen(menu: Menu, typed: str) -> list[int] | Answer:
    """The indexes of the items typed, or why they cannot be."""
    lowered = typed.lower()
    if lowered == "all":
        return list(range(len(menu.item_ids)))
    if lowered in NOTHING:
        return []
    chunks = [c.strip() for c in typed.split(",") if c.strip()]
    chosen: list[int] = []
    for chunk in chunks:
        problem = _add_chunk(menu, chunk, chosen, alone=len(chunks) == 1)
        if problem is not None:
            return problem
    return chosen


def _add_chunk(menu: Menu, chunk: str, chosen: list[int], alone: bool) -> Answer | None:
    """Add the items of one comma-separated part of an answer.

    A part is numbers and ranges, an item's id, or the start of a name. The result is why it cannot
    be added, or an anytime action it names.
    """
    parts = _RANGE.sub(_spell_range, chunk).split()
    if all(_INTEGER.fullmatch(part) for part in parts):
        return _add_numbers(menu, parts, chosen)
    index = _item_named(menu, chunk, chosen, alone)
    return _add(menu, index, chosen) if isinstance(index, int) else index


def _add_numbers(menu: Menu, numbers: list[str], chosen: list[int]) -> Problem | None:
    """Add the items of typed numbers, or say why not."""
    for number in numbers:
        entry = menu.entry(number)
        if entry is None or entry.index is None:
            return Problem(f"There is no item {number}: type numbers among "
                           f"{menu.keys_text()}, or none.")
        problem = _add(menu, entry.index, chosen)
        if problem is not None:
            return problem
    return None


def _add(menu: Menu, index: int, chosen: list[int]) -> Problem | None:
    """Add an item, unless it is chosen already."""
    if index in chosen:
        return Problem(f"{menu.item_labels[index]} is chosen twice.")
    chosen.append(index)
    return None


def _item_named(menu: Menu, chunk: str, chosen: list[int], alone: bool) -> int | Answer:
    """The item whose id is ``chunk``, or whose name starts with it.

    Failing that, when it is the whole answer, an anytime action that it names. Else the pack's
    reason for refusing it, or why nothing matches.
    """
    if chunk in menu.item_ids:
        return menu.item_ids.index(chunk)
    found = match_name(menu.item_labels, chunk, set(chosen))
    if not isinstance(found, Problem):
        return found
    actions = [e.option for e in menu.entries
               if e.option is not None and e.label.lower().startswith(chunk.lower())]
    if alone and len(actions) == 1:
        return Choice(actions[0])
    return _refused(menu, chunk) or found


def _subset_choice(menu: Menu, chosen: list[int]) -> Answer:
    """The option of the items ``chosen``, or the rule it breaks."""
    decision = menu.decision
    if decision.min <= len(chosen) <= decision.max:
        broken = _broken_group(menu, chosen)
        if broken is not None:
            return broken
    ids = [menu.item_ids[i] for i in sorted(chosen)]
    try:
        return Choice(decision.option("+".join(ids) if ids else NONE_ID))
    except IllegalActionError as exc:
        text = exc.message[:1].upper() + exc.message[1:]
        return Problem(text if text.endswith((".", "!", "?")) else text + ".")


def _broken_group(menu: Menu, chosen: list[int]) -> Problem | None:
    """The rule 'at most N of these' that ``chosen`` breaks, if any.

    It is said in the pack's words, or else with the names of the cards.
    """
    why = menu.decision.broken_rule(chosen)
    if why is not None:
        return Problem(why)
    for limit, flags in menu.decision.spec.get("at_most", ()):
        problem = _over_limit(menu, chosen, limit, flags)
        if problem is not None:
            return problem
    return None


def _over_limit(menu: Menu, chosen: list[int], limit: int, flags: list[int]) -> Problem | None:
    """Why ``chosen`` holds too many items of a group, if it does."""
    group = [i for i, flag in enumerate(flags) if flag]
    picked = [menu.item_labels[i] for i in sorted(chosen) if i in group]
    if len(picked) <= limit:
        return None
    names = list(dict.fromkeys(menu.item_labels[i] for i in group))
    return Problem(f"Only {limit} of {', '.join(names)} may be chosen together, "
                   f"not {len(picked)} ({', '.join(picked)}).")


def _spell_range(match: re.Match[str]) -> str:
    """``2-4`` -> ``2 3 4``.

    A reversed or huge range is left as typed, to be refused.
    """
    low, high = int(match.group(1)), int(match.group(2))
    if low > high or high - low > 1000:
        return match.group(0)
    return " ".join(str(n) for n in range(low, high + 1))


__all__ = ["COMMANDS", "Answer", "Choice", "Command", "Entry", "Label", "Menu", "Problem",
           "only_option", "parse_answer"]
