"""What a person types at a decision prompt: a keyed menu, and :func:`parse_answer`."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from rulekit.engine.decisions import NONE_ID, Decision, Option, item_ids
from rulekit.errors import IllegalActionError

COMMANDS = ("help", "board", "cards", "pile", "log", "map", "more", "save", "quit")
WITH_TEXT = ("save", "cards", "pile")  # commands followed by any text
ALIASES = {"?": "help", "exit": "quit"}
NOTHING = (NONE_ID, "nothing", "-")  # a subset answer that chooses no item
ANYTIME_KEYS = "abcdefghijklmnopqrstuvwxyz"
_INTEGER = re.compile(r"[+-]?\d+")
_RANGE = re.compile(r"(\d+)\s*-\s*(\d+)")

Label = Callable[[object], str]  # how a decision's items are named to the person choosing
NOTHING_MATCHES = "Nothing matches"
DECLINE_KEYS = ("0", "-")  # the key of declining: the first not taken by an item


@dataclass(frozen=True)
class Entry:
    """One line of a menu: an option, or a subset's item (``index`` into ``decision.items``)."""

    key: str
    label: str
    option: Option | None = None
    index: int | None = None
    anytime: bool = False


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

    def __init__(self, decision: Decision, label: Label,
                 keys: list[str] | None = None) -> None:
        self.decision = decision
        self.subset = decision.kind == "subset"
        self.context: str | None = None  # what the decision is about, before its prompt
        self.item_ids: list[str] = list(decision.spec.get("ids") or item_ids(decision.items))
        self.item_labels = [label(item) for item in decision.items]
        # What the rules refuse here, with the pack's reason (``where ... else``): by label.
        refused = [item for item, _ in decision.refused()]
        self.refused = [(label(item), item_id)
                        for item, item_id in zip(refused, item_ids(refused), strict=True)]
        self.refused_keys: dict[str, str] = {}  # the key an option not open now would have
        self.entries = _keyed(self._subset_rows() if self.subset else self._one_rows(), keys)
        self._by_key = {entry.key: entry for entry in self.entries}
        self.default = only_option(decision)  # what Enter takes, when there is one choice

    def _subset_rows(self) -> list[Entry]:
        rows = [Entry("", text, None, i) for i, text in enumerate(self.item_labels)]
        return rows + [Entry("", extra.label, extra, None, True) for extra in self.decision.extras]

    def _one_rows(self) -> list[Entry]:
        """The options; equal ones (two tokens of one value) once."""
        rows: list[Entry] = []
        seen: set[str] = set()
        for option in self.decision.options():
            anytime = option.id.startswith("!")
            known = not anytime and option.id != NONE_ID and option.id in self.item_ids
            index = self.item_ids.index(option.id) if known else None
            text = option.label if index is None else self.item_labels[index]
            if index is None or text not in seen:
                rows.append(Entry("", text, option, index, anytime))
                seen.add(text)
        return rows

    def entry(self, key: str) -> Entry | None:
        """The line of a typed key, if any."""
        return self._by_key.get(key.strip())

    def label_of(self, option: Option) -> str:
        """An option as this menu names it."""
        return next((e.label for e in self.entries
                     if e.option is not None and e.option.id == option.id), option.label)

    def keys_text(self) -> str:
        """The keys, in short: ``1-5``, ``0, 2-4`` or ``1-5, a``."""
        numbers = [int(e.key) for e in self.entries if e.key.isdigit()]
        others = [e.key for e in self.entries if not e.key.isdigit()]
        return ", ".join([*_spans(numbers), *others]) or "none"


def _spans(numbers: list[int]) -> list[str]:
    """``[1, 2, 3, 5]`` -> ``["1-3", "5"]``."""
    runs = itertools.groupby(enumerate(numbers), lambda pair: pair[1] - pair[0])  # n, n+1...
    spans = [[n for _, n in run] for _, run in runs]
    return [f"{s[0]}-{s[-1]}" if len(s) > 2 else ", ".join(map(str, s)) for s in spans]


def _keyed(rows: list[Entry], keys: list[str] | None) -> list[Entry]:
    """The lines keyed: the items by :func:`_item_keys`, then 0 and a, b..."""
    keyed = _item_keys([(row.index, row) for row in rows if row.index is not None], keys)
    decline = next(k for k in DECLINE_KEYS if k not in keyed)
    letters = itertools.cycle(ANYTIME_KEYS)
    return [*(replace(row, key=decline) for row in rows if row.index is None and not row.anytime),
            *(replace(row, key=key) for key, row in keyed.items()),
            *(replace(row, key=next(letters)) for row in rows if row.anytime)]


def _item_keys(items: list[tuple[int, Entry]], keys: list[str] | None) -> dict[str, Entry]:
    """The items' lines by ``keys`` if these tell them apart (numbers in order), else 1..n."""
    given = [keys[i] for i, _ in items] if keys is not None else []
    if len(set(given)) < len(items):
        return {str(n): row for n, (_, row) in enumerate(items, 1)}
    keyed = dict(zip(given, (row for _, row in items), strict=True))
    if all(_INTEGER.fullmatch(key) for key in keyed):
        return dict(sorted(keyed.items(), key=lambda kv: int(kv[0])))
    return keyed


def only_option(decision: Decision) -> Option | None:
    """The only legal option of a decision, anytime actions aside: what Enter takes."""
    if decision.kind == "one":
        declined = 1 if decision.optional else 0
        return decision.options()[0] if len(decision.items) + declined == 1 else None
    return _only_subset(decision)


def _only_subset(decision: Decision) -> Option | None:
    n = len(decision.items)
    if n == 0:
        return decision.option(NONE_ID) if decision.min <= 0 else None
    if decision.min < n or decision.max < n:
        return None
    try:
        return decision.option("+".join(decision.spec.get("ids") or item_ids(decision.items)))
    except IllegalActionError:  # taking every item breaks a rule: no single answer
        return None


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
    hint = "the numbers of your choice, or none" if menu.subset else "the number of your choice"
    return Problem(f"Type {hint} ({menu.keys_text()}); help shows how.")


def _command(text: str) -> Command | None:
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
    entry = menu.entry(typed)
    if entry is not None and entry.option is not None:
        return Choice(entry.option)
    closed = _closed_key(menu, typed)
    if closed is not None:
        return closed
    if _INTEGER.fullmatch(typed):  # not a key: a number in a name (Route 51), or a mistake
        named = _one_by_name(menu, typed)
        return named if isinstance(named, Choice) else Problem(
            f"There is no choice {typed}: type one of {menu.keys_text()}.")
    if all(menu.entry(part) is not None for part in re.split(r"[\s,]+", typed)):
        return Problem(f"Choose one only: type one of {menu.keys_text()}.")
    if typed.lower() == NONE_ID and menu.decision.optional:
        return Choice(menu.decision.option(NONE_ID))
    if typed.lower() == NONE_ID:
        return Problem("This choice cannot be declined.")
    return _one_by_name(menu, typed)


def _closed_key(menu: Menu, typed: str) -> Problem | None:
    """Why the option a typed key would name is not open now, in the pack's words."""
    item_id = menu.refused_keys.get(typed.strip().lower())
    why = menu.decision.refusal(item_id) if item_id is not None else None
    return None if why is None else Problem(why)


def _one_by_name(menu: Menu, typed: str) -> Answer:
    found = _named_line(menu, typed, anytime=False)
    if isinstance(found, Problem) and found.message.startswith(NOTHING_MATCHES):
        found = _named_line(menu, typed, anytime=True)  # an action, by its name
    return found


def _named_line(menu: Menu, typed: str, anytime: bool) -> Answer:
    lines = [(e.label, e.option) for e in menu.entries
             if e.option is not None and e.anytime == anytime]
    found = match_name([label for label, _ in lines], typed)
    if not isinstance(found, Problem):
        return Choice(lines[found][1])
    exact = next((option for _, option in lines if option.id == typed), None)
    if exact is not None:  # an option's id, as the engine writes it
        return Choice(exact)
    return _refused(menu, typed) or _what_works(menu, found)


def _refused(menu: Menu, typed: str) -> Problem | None:
    """The pack's reason for refusing an item a ``where`` left out, typed by id or name."""
    decision = menu.decision
    why = decision.refusal(typed)
    if why is None and menu.refused:
        found = match_name([text for text, _ in menu.refused], typed)
        if not isinstance(found, Problem):
            why = decision.refusal(menu.refused[found][1])
    return None if why is None else Problem(why)


def match_name(labels: list[str], typed: str, taken: set[int] | None = None) -> int | Problem:
    """The index of the one label equal to ``typed``, else starting with it, not yet ``taken``."""
    lowered = typed.strip().lower()
    words = _words(lowered)
    equal = [i for i, text in enumerate(labels) if text.lower() == lowered]
    starting = [i for i, text in enumerate(labels) if text.lower().startswith(lowered)]
    worded = [i for i, text in enumerate(labels) if words and _names(words, _words(text))]
    for found in (equal, starting, worded):
        picked = _pick(labels, found, typed, taken or set())
        if picked is not None:
            return picked
    return Problem(f"{NOTHING_MATCHES} '{typed}'.")


def _words(text: str) -> list[str]:
    """The words of a name, lowered, without the signs around them: ``(C9)`` -> ``c9``."""
    return [word for word in (w.strip("()[]{}!?.,:;'\"$×*").lower() for w in text.split())
            if word]


def _names(typed: list[str], words: list[str]) -> bool:
    """Whether each typed word starts a word of the name, in the name's order."""
    at = 0
    for part in typed:
        at = next((i + 1 for i in range(at, len(words)) if words[i].startswith(part)), -1)
        if at < 0:
            return False
    return True


def _pick(labels: list[str], found: list[int], typed: str, taken: set[int]
          ) -> int | Problem | None:
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
    action = menu.entry(typed.lower())
    if action is not None and action.option is not None:  # an anytime action, by its letter
        return Choice(action.option)
    if "+" in typed:  # an option id as the engine writes it
        return _by_id(menu.decision, typed)
    chosen = _chosen(menu, typed)
    return _subset_choice(menu, chosen) if isinstance(chosen, list) else chosen


def _by_id(decision: Decision, option_id: str) -> Answer:
    try:
        return Choice(decision.option(option_id))
    except IllegalActionError as exc:
        return Problem(exc.message)


def _chosen(menu: Menu, typed: str) -> list[int] | Answer:
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
    """Add the items of one comma-separated part; why not, or an anytime action it names."""
    parts = _RANGE.sub(_spell_range, chunk).split()
    index = _item_named(menu, chunk, chosen, alone)
    keys = all(_INTEGER.fullmatch(part) or menu.entry(part) is not None for part in parts)
    if keys and (len(parts) > 1 or menu.entry(chunk) is not None or not isinstance(index, int)):
        return _add_numbers(menu, parts, chosen)
    return _add(menu, index, chosen) if isinstance(index, int) else index


def _add_numbers(menu: Menu, numbers: list[str], chosen: list[int]) -> Problem | None:
    for number in numbers:
        entry = menu.entry(number)
        closed = _closed_key(menu, number) if entry is None else None
        if closed is not None:
            return closed
        if entry is None or entry.index is None:
            return Problem(f"There is no item {number}: type numbers among "
                           f"{menu.keys_text()}, or none.")
        problem = _add(menu, entry.index, chosen)
        if problem is not None:
            return problem
    return None


def _add(menu: Menu, index: int, chosen: list[int]) -> Problem | None:
    if index in chosen:
        return Problem(f"{menu.item_labels[index]} is chosen twice.")
    chosen.append(index)
    return None


def _item_named(menu: Menu, chunk: str, chosen: list[int], alone: bool) -> int | Answer:
    """The item whose id or name is ``chunk``. Else an anytime action, a refusal or a problem."""
    if chunk in menu.item_ids:
        return menu.item_ids.index(chunk)
    found = match_name(menu.item_labels, chunk, set(chosen))
    if not isinstance(found, Problem):
        return found
    actions = [e.option for e in menu.entries
               if e.option is not None and e.label.lower().startswith(chunk.lower())]
    if alone and len(actions) == 1:
        return Choice(actions[0])
    return _refused(menu, chunk) or _what_works(menu, found)


def _what_works(menu: Menu, problem: Problem) -> Problem:
    """A name that matches nothing, with what would work: the keys, and a name to start."""
    if not problem.message.startswith(NOTHING_MATCHES):
        return problem
    names = [e.label for e in menu.entries if not e.anytime and e.index is not None]
    such = f", such as {names[0].split(':')[0]}" if names else ""
    keys = "numbers" if menu.subset else "one"
    return Problem(f"{problem.message[:-1]}: type {keys} of {menu.keys_text()}, or a word of "
                   f"a name{such}.")


def _subset_choice(menu: Menu, chosen: list[int]) -> Answer:
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
    """The rule 'at most N of these' that ``chosen`` breaks, in the pack's words or by name."""
    why = menu.decision.broken_rule(chosen)
    if why is not None:
        return Problem(why)
    for limit, flags in menu.decision.spec.get("at_most", ()):
        problem = _over_limit(menu, chosen, limit, flags)
        if problem is not None:
            return problem
    return None


def _over_limit(menu: Menu, chosen: list[int], limit: int, flags: list[int]) -> Problem | None:
    group = [i for i, flag in enumerate(flags) if flag]
    picked = [menu.item_labels[i] for i in sorted(chosen) if i in group]
    if len(picked) <= limit:
        return None
    names = list(dict.fromkeys(menu.item_labels[i] for i in group))
    return Problem(f"Only {limit} of {', '.join(names)} may be chosen together, "
                   f"not {len(picked)} ({', '.join(picked)}).")


def _spell_range(match: re.Match[str]) -> str:
    """``2-4`` -> ``2 3 4``. A reversed or huge range is left as typed, to be refused."""
    low, high = int(match.group(1)), int(match.group(2))
    if low > high or high - low > 1000:
        return match.group(0)
    return " ".join(str(n) for n in range(low, high + 1))
