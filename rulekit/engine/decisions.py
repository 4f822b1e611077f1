"""A pending decision's legal options, read from its spec (``state["pending"]``).

A ``one`` option's id is its item's id, or ``none`` to decline. A ``subset`` option's id joins
its items' ids by ``+`` in offered order; ``none`` is the empty subset.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, KeysView, Sequence
from typing import TYPE_CHECKING

from rulekit.engine.draws import pick, random_answer
from rulekit.engine.frozen import freeze
from rulekit.engine.state import read_only
from rulekit.errors import IllegalActionError

if TYPE_CHECKING:
    from rulekit.engine.state import ChoiceEvent, Reason, Refusal, Spec

NONE_ID = "none"
ENUMERATION_LIMIT = 100_000


class Option:
    """One legal answer: an ``id``, a ``label`` and a ``value`` (an item, a list, or None)."""

    __slots__ = ("_label", "_labeler", "id", "made_by", "value")

    def __init__(self, id: str, label: str | None, value: object,
                 labeler: Callable[[object], str] | None = None,
                 made_by: object = None) -> None:
        self.id = id
        self.value = value
        self._label = label
        self._labeler = labeler
        self.made_by = made_by  # the spec of the Decision that vouches for it (not a cycle)

    @property
    def label(self) -> str:
        """The text shown to people (computed on first use)."""
        if self._label is None:
            assert self._labeler is not None
            value = self.value
            if isinstance(value, list):
                self._label = " + ".join(self._labeler(v) for v in value) or "(none)"
            else:
                self._label = self._labeler(value)
        return self._label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and (self.id, self.value) == (other.id, other.value)

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"Option({self.id!r}, {self.label!r})"

    def __str__(self) -> str:
        return self.label


def item_ids(items: list[object]) -> list[str]:
    """Stable ids of a choice's items (positions '1', '2'... if ids clash)."""
    ids = [item if item.__class__ is str else NONE_ID if item is None
           else ("true" if item else "false") if isinstance(item, bool) else str(item)
           for item in items]
    if len(set(ids)) != len(ids) or NONE_ID in ids or "+" in "".join(ids):
        return [str(i + 1) for i in range(len(items))]
    return ids


def choice_event(role: str, option_id: str, value: object, round_: int,
                 logged: bool) -> ChoiceEvent:
    """The log event of ``role``'s answer, seen by ``role`` only; read-only if ``logged``."""
    kept = freeze(value) if logged else list(value) if value.__class__ is list else value
    event: ChoiceEvent = {"e": "choice", "to": role, "player": role, "option": option_id,
                          "value": kept, "round": round_}
    return read_only(event) if logged else event


def option_ids(items: list[object], plain_ids: frozenset[str]) -> list[str]:
    """The option ids of a choice's items, as :func:`item_ids` makes them."""
    if len(set(items)) == len(items) and plain_ids.issuperset(items):
        return [str(item) for item in items]
    return item_ids(items)


class Decision:
    """A decision one player must take, read from a spec."""

    __slots__ = ("_explain", "_fallback", "_index_cache", "_labeler", "_options", "extras",
                 "ids", "items", "kind", "player", "prompt", "spec")

    def __init__(self, spec: Spec, labeler: Callable[[object], str],
                 extras: list[tuple[str, str]] | None = None,
                 explain: Callable[[Reason], str] | None = None) -> None:
        self.spec = spec  # marks the options it makes (Option.made_by): it does not change
        self._explain = explain
        self.player: str = spec["player"]
        self.kind: str = spec["kind"]
        self.prompt: str = spec["prompt"]
        self.items: list[object] = spec["items"]
        labels = spec.get("labels")
        self._fallback = labeler
        self._labeler = labeler if explain is None or labels is None else \
            _pack_labeler(self.items, labels, explain, labeler)
        self.ids: list[str] = spec.get("ids") or item_ids(self.items)  # of the items, in order
        self._index_cache: dict[str, int] | None = None
        self._options: list[Option] | None = None
        # Anytime actions offered with this decision: (option id '!name', label).
        self.extras = [Option(i, label, None, None, self.spec) for i, label in extras] \
            if extras else []

    def copy(self) -> Decision:
        """The same decision on a read-only copy of its spec: it shares nothing with a state."""
        extras = [(extra.id, extra.label) for extra in self.extras]
        return Decision(freeze(self.spec), self._fallback, extras, self._explain)

    def item_label(self, item: object) -> str | None:
        """The pack's ``label`` of an item, if it has one."""
        labels = self.spec.get("labels")
        if labels is None or self._explain is None or item not in self.items:
            return None
        return self._explain(labels[self.items.index(item)])

    @property
    def _index(self) -> dict[str, int]:
        if self._index_cache is None:
            self._index_cache = {item_id: i for i, item_id in enumerate(self.ids)}
        return self._index_cache

    def __repr__(self) -> str:
        return f"Decision({self.player}, {self.kind}, {self.prompt!r}, {len(self.items)} items)"

    @property
    def optional(self) -> bool:
        return bool(self.spec.get("optional", False))

    @property
    def min(self) -> int:
        return int(self.spec.get("min", 1))

    @property
    def max(self) -> int:
        return int(self.spec.get("max", 1))

    # ------------------------------------------------------------ options

    def options(self) -> list[Option]:
        """Every legal option in a stable order, declining first."""
        if self._options is None:
            self._options = [*self._enumerate(), *self.extras]
        return self._options

    def _enumerate(self) -> Iterator[Option]:
        if self.kind == "one":
            if self.optional:
                yield Option(NONE_ID, "(none)", None)
            for item_id, item in zip(self.ids, self.items, strict=True):
                yield Option(item_id, None, item, self._labeler, self.spec)
            return
        n = len(self.items)
        legal = (combo for size in range(self.min, min(self.max, n) + 1)
                 for combo in itertools.combinations(range(n), size) if self.groups_ok(combo))
        for combo in itertools.islice(legal, ENUMERATION_LIMIT):
            yield self.subset_option(combo)

    def groups_ok(self, indexes: Sequence[int]) -> bool:
        """Whether the items at ``indexes`` keep every 'at most' rule of the choice."""
        for limit, flags in self.spec.get("at_most", ()):
            if sum(map(flags.__getitem__, indexes)) > limit:
                return False
        return True

    def subset_option(self, indexes: Sequence[int]) -> Option:
        """The option of the items at ``indexes`` (increasing), known to be legal."""
        if not indexes:
            return Option(NONE_ID, "(none)", [], None, self.spec)
        items, ids = self.items, self.ids
        return Option("+".join([ids[i] for i in indexes]), None, [items[i] for i in indexes],
                      self._labeler, self.spec)

    def option(self, option_id: str) -> Option:
        """The option with this id; an :class:`IllegalActionError` (with why) if illegal."""
        found = self._resolve(option_id)
        if isinstance(found, Option):
            return found
        raise IllegalActionError(found())

    @property
    def offered(self) -> KeysView[str]:
        """The ids of the items offered, as a set."""
        return self._index.keys()

    def legal_option(self, option_id: str) -> Option | None:
        """The option with this id if it is legal, else None."""
        found = self._resolve(option_id)
        return found if isinstance(found, Option) else None

    def _resolve(self, option_id: str) -> Option | Callable[[], str]:
        """The option with this id, or what writes why it is illegal."""
        if option_id.startswith("!"):
            return next((extra for extra in self.extras if extra.id == option_id),
                        lambda: f"'{option_id}' is not an action {self.player} may take now")
        if self.kind == "subset":
            return self._resolve_subset(option_id)
        if option_id == NONE_ID and self.optional:
            return Option(NONE_ID, "(none)", None)
        i = self._index.get(option_id)
        if i is not None:
            return Option(option_id, None, self.items[i], self._labeler, self.spec)
        return lambda: (self.refusal(option_id) or
                        f"'{option_id}' is not an option for {self.player}: {self.prompt}")

    def _resolve_subset(self, option_id: str) -> Option | Callable[[], str]:
        parts = [] if option_id in (NONE_ID, "") else option_id.split("+")
        index = self._index
        bad = next((part for part in parts if part not in index), None)
        if bad is not None:
            return lambda: self.refusal(bad) or f"'{bad}' cannot be chosen here ({self.prompt})"
        indexes = sorted(index[part] for part in parts)
        if len(set(indexes)) != len(indexes):
            return lambda: "the same item is chosen twice"
        least, most = self.min, self.max
        if not least <= len(indexes) <= most:
            why = self.spec.get("min_why") if len(indexes) < least else self.spec.get("max_why")
            return lambda: (self._reason(why) or
                            f"choose between {least} and {most} items, not {len(indexes)}")
        if not self.groups_ok(indexes):
            return lambda: (self.broken_rule(indexes) or
                            "that choice breaks an 'at most' rule of this decision")
        return self.subset_option(indexes)

    # ------------------------------------------------------------ why an answer is refused

    def _reason(self, why: Reason | None) -> str | None:
        return None if why is None or self._explain is None else self._explain(why)

    def refused(self) -> list[Refusal]:
        """The candidates the choice's ``where ... else`` refused: ``[candidate, reason]``."""
        return self.spec.get("refused") or []

    def refusal(self, text: str) -> str | None:
        """The pack's reason for refusing the candidate named by id, label or label start."""
        refused = self.refused()
        labels = [self._labeler(item) for item, _ in refused]
        found = _matching(text, item_ids([item for item, _ in refused]), labels)
        if not found or len({labels[i].lower() for i in found}) > 1:
            return None
        return self._reason(refused[found[0]][1])

    def broken_rule(self, indexes: Sequence[int]) -> str | None:
        """The pack's reason for the first 'at most' rule ``indexes`` break."""
        whys = self.spec.get("at_most_why") or ()
        for (limit, flags), why in zip(self.spec.get("at_most", ()), whys, strict=False):
            if sum(flags[i] for i in indexes) > limit:
                return self._reason(why)
        return None

    def find(self, text: str) -> Option:
        """The option named by an id, a label or a label prefix."""
        try:
            return self.option(text)
        except IllegalActionError:
            pass
        if self.kind == "subset" and not text.strip().startswith("!"):
            return self._find_subset(text)
        return self._find_by_label(text)

    def _find_by_label(self, text: str) -> Option:
        options = self.options()
        return options[self._named(text, [o.id for o in options], [o.label for o in options],
                                   "option")]

    def _find_subset(self, text: str) -> Option:
        """A subset named item by item: 'Bust + Raid', 'bust, raid'."""
        parts = [p.strip() for p in text.replace("+", ",").split(",") if p.strip()]
        if not parts or [p.lower() for p in parts] in (["none"], ["(none)"]):
            return self.option(NONE_ID)
        labels = [self._labeler(item) for item in self.items]
        ids: list[str] = []
        for part in parts:
            ids.append(self.ids[self._named(part, self.ids, labels, "item", ids)])
        return self.option("+".join(ids))

    def _named(self, text: str, ids: list[str], labels: list[str], what: str,
               taken: Sequence[str] = ()) -> int:
        """The position of the one label (or id) ``text`` names, among those not ``taken``."""
        free = [i for i in _matching(text, ids, labels) if ids[i] not in taken]
        if not free:
            raise IllegalActionError(self.refusal(text) or f"no {what} matches '{text}'")
        if len({labels[i] for i in free}) > 1:
            names = ", ".join(labels[i] for i in free[:5])
            raise IllegalActionError(f"'{text}' matches several {what}s: {names}")
        return free[0]

    def sample(self, rng: random.Random) -> Option:
        """A legal option drawn uniformly at random."""
        drawn = random_answer(self.spec, rng, [extra.id for extra in self.extras])
        if isinstance(drawn, str):
            return next(extra for extra in self.extras if extra.id == drawn)
        if drawn is None:
            return pick(rng, self.options())
        if isinstance(drawn, int):
            if drawn < 0:
                return Option(NONE_ID, "(none)", None, None, self.spec)
            return Option(self.ids[drawn], None, self.items[drawn], self._labeler, self.spec)
        return self.subset_option(drawn)


def _matching(text: str, ids: list[str], labels: list[str]) -> list[int]:
    """The positions ``text`` names by id or label, else by label start, in any case."""
    lowered = text.strip().lower()
    exact = [i for i, label in enumerate(labels)
             if ids[i].lower() == lowered or label.lower() == lowered]
    return exact or [i for i, label in enumerate(labels)
                     if lowered and label.lower().startswith(lowered)]


def _pack_labeler(items: list[object], labels: list[Reason], explain: Callable[[Reason], str],
                  fallback: Callable[[object], str]) -> Callable[[object], str]:
    """Names items by their choice's ``label`` texts, and anything else by ``fallback``."""

    def label(item: object) -> str:
        return explain(labels[items.index(item)]) if item in items else fallback(item)
    return label
