"""What one player may know of a state: the observation, made from views kept and reused.

An observation is plain data (dicts, lists, texts, numbers) that JSON round-trips; its parts
are read-only (``engine/frozen``), so a caller cannot change the game through it.

The log only grows, and its events never change once appended (see ``copy_state``); in a game
with a log, the engine makes each event read-only as it logs it, and an observation shows that
very event. Each role's view of the log is kept and extended: an observation of a later state
of the same game (or of a copy of it, which shares its events) reuses the view of the log it
saw last. An event made otherwise (a quiet game's choices, a state read back from JSON) and a
pending decision are copied once, read-only, and kept by identity (:class:`Copies`, shared by
every role). The piles are copied once per change, read-only, for every role
(:class:`PileRow`), and each role's view of them (:class:`PileViews`) is made again only for
the piles whose copy changed (found by identity); each role's view of its variables
(:class:`ValueViews`) is kept with the values it shows and made again only where one changed.
The observation itself (the outer dict) is a new plain dict at each call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import compress, islice
from operator import is_not, itemgetter, ne, or_
from typing import Any

from rulekit.engine.frozen import EMPTY, SCALARS, FrozenDict, FrozenList, freeze
from rulekit.errors import UsageError

# How far back from the end of a log to look for a position whose view is known.
LOOK_BACK = 64
RECENT = 4  # a role's latest views of the log, tried first as the start of a new log
CACHE_LIMIT = 256  # views kept per role (each holds a list as long as the log)
FROZEN_LIMIT = 8192  # read-only copies of events kept
WHOLE, BY_CARD, COUNTED = 0, 1, 2  # how a role sees a pile
Keys = list[tuple[str, str | None, str]]  # (key, owner, visibility) of each pile or value
LogEntry = tuple[dict[str, Any], int, FrozenList]  # a log's last event, its length, a view
Show = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
_set = dict.__setitem__
_TO = itemgetter("to")
_ALL_FROZEN = frozenset({FrozenDict}).issuperset  # of the types of events


class Copies:
    """Read-only copies of values that are never changed once stored in a state (log events,
    pending decisions: see ``copy_state``), kept by identity: every copy of a state shares
    these values, so each is copied once whichever state or role it is seen from."""

    def __init__(self) -> None:
        # id(value) -> (the value, its read-only copy)
        self.made: dict[int, tuple[dict[str, Any], FrozenDict]] = {}

    def of(self, value: dict[str, Any]) -> FrozenDict:
        entry = self.made.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        return self._keep(value, freeze(value))

    def shown(self, spec: dict[str, Any], state: dict[str, Any], show: Show) -> FrozenDict:
        """The read-only copy of what a reader sees of ``spec``, a pending decision of
        ``state`` (``show(spec, state)``), kept by the identity of ``spec``."""
        entry = self.made.get(id(spec))
        if entry is not None and entry[0] is spec:
            return entry[1]
        return self._keep(spec, freeze(show(spec, state)))

    def _keep(self, value: dict[str, Any], frozen: FrozenDict) -> FrozenDict:
        if len(self.made) >= FROZEN_LIMIT:
            self.made.clear()
        self.made[id(value)] = (value, frozen)
        return frozen


class LogViews:
    """Each role's read-only view of the log, kept per position of a log and extended."""

    def __init__(self, roles: Iterable[str], copies: Copies) -> None:
        # role -> id(last event seen) -> (that event, log length, the role's view)
        self._views: dict[str, dict[int, LogEntry]] = {role: {} for role in roles}
        self._recent: dict[str, list[LogEntry]] = {role: [] for role in roles}  # latest first
        self._copies = copies  # the read-only copies of events, shared by the roles' views
        # Per role: whether an event to someone is seen by the role (to nobody, or to it).
        self._seers = {role: frozenset({None, role}).__contains__ for role in roles}

    def view(self, log: list[dict[str, Any]], role: str) -> FrozenList:
        """The events of ``log`` that ``role`` may see (those to nobody in particular or to
        ``role``), read-only."""
        size = len(log)
        if not size:
            return EMPTY
        known = self._views[role]
        last = log[-1]
        entry = known.get(id(last))
        if entry is not None and entry[0] is last and entry[1] == size:
            return entry[2]  # the view last made of this log, or of a copy of it
        recent = self._recent[role]
        base, start = self._base(log, known, recent)
        events = log[start:] if start else log
        try:  # the events to nobody in particular or to the role, picked in C
            new = list(compress(events, map(self._seers[role], map(_TO, events))))
        except TypeError:  # (an event to something that is not a text)
            new = [e for e in events if (to := e["to"]) is None or to == role]
        if new and not _ALL_FROZEN(map(type, new)):
            copy = self._copies.of
            new = [e if e.__class__ is FrozenDict else copy(e) for e in new]
        if new:
            view = FrozenList(base)
            list.extend(view, new)
        else:
            view = base
        if len(known) >= CACHE_LIMIT:
            known.clear()
        entry = known[id(last)] = (last, size, view)
        recent.insert(0, entry)
        del recent[RECENT:]
        return view

    @staticmethod
    def _base(log: list[dict[str, Any]], known: dict[int, LogEntry], recent: list[LogEntry]
              ) -> tuple[FrozenList, int]:
        """The view of the longest log this role has seen that ``log`` continues, found among
        its latest views (a game going on), or else at one of the last places of ``log``
        (branches of a search), with that log's length: ``(EMPTY, 0)`` if none. An entry
        keeps its event alive, so no other event has its id; two logs holding the same event
        at the same place hold the same events before it (events are shared, never
        changed)."""
        size = len(log)
        base, start = EMPTY, 0
        for event, length, view in recent:
            if start < length < size and log[length - 1] is event:
                base, start = view, length
        if start or size <= 1:
            return base, start
        # The latest event known among the last ones, looked for in C.
        entry = next(filter(None, map(known.get, map(id, islice(reversed(log), 1, LOOK_BACK)))),
                     None)
        if entry is not None and entry[1] < size and log[entry[1] - 1] is entry[0]:
            return entry[2], entry[1]
        return base, start


class PileRow:
    """The piles of the state last observed, as read-only copies by position, shared by the
    roles: copied again only where a pile changed (compared by value, in C), so that two
    rows share the copy of every pile that did not change."""

    def __init__(self, keys: list[str]) -> None:
        self.get = _getter(keys)
        self.row: tuple[FrozenList, ...] = ()
        # The view of each pile as a role that sees it whole sees it, made when first asked.
        self.whole: list[FrozenDict | None] = []

    def of(self, cards: tuple[list[str], ...]) -> tuple[FrozenList, ...]:
        """The copies of the piles ``cards`` (``get`` of a state's zones), once ``Observer``
        has found that they are not those of ``row`` (one comparison, in C)."""
        row = self.row
        if len(row) != len(cards):
            changed: Iterable[int] = range(len(cards))
            copies: list[FrozenList] = [EMPTY] * len(cards)
            self.whole = [None] * len(cards)
        else:
            changed = compress(range(len(cards)), map(ne, cards, row))
            copies = list(row)
        whole = self.whole
        for i in changed:
            copies[i] = FrozenList(cards[i])
            whole[i] = None
        self.row = row = tuple(copies)
        return row

    def whole_view(self, i: int, cards: FrozenList) -> FrozenDict:
        """The view of pile ``i`` (``cards``, its copy in ``row``) to a role that sees it
        whole."""
        view = self.whole[i]
        if view is None or view["cards"] is not cards:
            view = self.whole[i] = FrozenDict({"cards": cards, "count": len(cards)})
        return view


class PileViews:
    """A role's read-only view of the piles, made from a :class:`PileRow` and made again only
    for the piles whose copy is another (compared by identity, in C): whole (the view shared
    by every role that sees the pile whole), by card (the cards the role owns, ``None`` in
    place of the others), or counted (the size only)."""

    def __init__(self, role: str, piles: list[tuple[str, int]], card_owner: dict[str, Any],
                 shared: PileRow) -> None:
        self.role = role
        self.keys = [key for key, _ in piles]
        self.modes = [mode for _, mode in piles]
        self.card_owner = card_owner
        self.shared = shared
        self.row: tuple[FrozenList, ...] = ()  # the copies the view was made from
        self.view = FrozenDict()

    def of(self, row: tuple[FrozenList, ...]) -> FrozenDict:
        """The view of the piles of ``row``, once ``Observer`` has found that it is not the
        row the view was made from."""
        made = self.row
        if len(made) != len(row):
            changed: Iterable[int] = range(len(row))
            view = FrozenDict()
        else:
            changed = compress(range(len(row)), map(is_not, row, made))
            view = FrozenDict(self.view)
        keys, modes = self.keys, self.modes
        for i in changed:
            cards = row[i]
            mode = modes[i]
            if mode == WHOLE:
                shown = self.shared.whole_view(i, cards)
            elif mode == COUNTED:
                shown = _COUNTED.get(len(cards)) or _counted(len(cards))
            else:
                shown = self._by_card(cards)
            _set(view, keys[i], shown)
        self.row = row
        self.view = view
        return view

    def _by_card(self, cards: list[str]) -> FrozenDict:
        """The view of a pile whose cards each show to their owner only."""
        owner, role = self.card_owner.get, self.role
        return FrozenDict({"cards": FrozenList([c if owner(c) == role else None for c in cards]),
                           "count": len(cards)})


class ValueViews:
    """A role's read-only view of the variables it sees, kept with the values it shows (read-only
    copies of lists): when every value is the one shown (one comparison by value, in C) and of
    the same type (``1`` and ``True`` are equal, not the same in JSON) the same view is handed
    out again; else only the values that changed are copied again."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.get = _getter(keys)
        self.row: tuple[Any, ...] = ()  # the values the view shows, by index
        self.types: tuple[type, ...] = ()  # their types, as the state holds them
        self.view = FrozenDict()

    def of(self, row: tuple[Any, ...], types: tuple[type, ...]) -> FrozenDict:
        """The view of the values ``row`` (``get`` of a state's variables), of ``types``, once
        ``Observer`` has found that they are not those shown (or not of the same types)."""
        shown = self.row
        if SCALARS.issuperset(types):  # numbers, texts and none: shown as they are
            view = FrozenDict(zip(self.keys, row, strict=True))
            self.row = row
        else:
            if len(shown) != len(row):
                changed: Iterable[int] = range(len(row))
                copies: list[Any] = [None] * len(row)
                view = FrozenDict()
            else:
                changed = compress(range(len(row)), map(or_, map(ne, row, shown),
                                                        map(is_not, types, self.types)))
                copies = list(shown)
                view = FrozenDict(self.view)
            keys = self.keys
            for i in changed:
                copies[i] = value = freeze(row[i])
                _set(view, keys[i], value)
            self.row = tuple(copies)
        self.types = types
        self.view = view
        return view


def _getter(keys: list[str]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The values of ``keys`` in a dict, as a tuple (in C)."""
    if len(keys) > 1:
        return itemgetter(*keys)
    return lambda values: tuple(map(values.get, keys))


_COUNTED: dict[int, FrozenDict] = {}  # the view of a pile seen only by its size, by size


def _counted(size: int) -> FrozenDict:
    view = _COUNTED.get(size)
    if view is None:
        view = _COUNTED[size] = FrozenDict({"count": size})
    return view


class Observer:
    """Makes the observations of the games of one pack."""

    def __init__(self, pack_id: str, roles: list[str], zone_keys: Keys, var_keys: Keys,
                 card_owner: dict[str, Any], show: Show) -> None:
        self.pack_id = pack_id
        # A pending decision's spec as its player sees it, given the state (the candidates
        # refused, and why, are worked out when first read: engine/refusals).
        self.show = show
        self.piles = PileRow([key for key, _, _ in zone_keys])
        # Per role: its views of the piles (each pile with how the role sees it: WHOLE,
        # BY_CARD or COUNTED) and of the variables it sees.
        self.views: dict[str, tuple[PileViews, ValueViews]] = {}
        for role in roles:
            piles = []
            for key, owner, visibility in zone_keys:
                if visibility == "public" or (visibility == "owner" and owner == role):
                    piles.append((key, WHOLE))
                elif visibility == "card_owner":
                    piles.append((key, BY_CARD))
                else:
                    piles.append((key, COUNTED))
            shown = [key for key, owner, visibility in var_keys
                     if visibility == "public" or (visibility == "owner" and owner == role)]
            self.views[role] = (PileViews(role, piles, card_owner, self.piles),
                                ValueViews(shown))
        self.copies = Copies()  # of log events and pending decisions, for every role
        self.logs = LogViews(roles, self.copies)

    def observe(self, state: dict[str, Any], role: str) -> dict[str, Any]:
        """Everything ``role`` may know of ``state``, and nothing else."""
        views = self.views.get(role)
        if views is None:
            raise UsageError(f"unknown role '{role}'")
        piles, values = views
        decisions = []
        waiting = []
        pending = state["pending"]
        if pending:
            committed = state["committed"]
            made = self.copies.made
            for spec in pending:
                player = spec["player"]
                if player not in committed:
                    waiting.append(player)
                    if player == role:
                        entry = made.get(id(spec))
                        decisions.append(entry[1] if entry is not None and entry[0] is spec
                                         else self._decision(spec, state))
        # What was seen last is handed out again if nothing changed, checked here in C.
        shared = self.piles
        cards = shared.get(state["zones"])
        row = shared.row if cards == shared.row else shared.of(cards)
        shown = values.get(state["vars"])
        types = tuple(map(type, shown))
        result = state["result"]
        return {
            "pack": self.pack_id,
            "role": role,
            "round": state["round"],
            "phase": state["phase"],
            "zones": piles.view if row is piles.row else piles.of(row),
            "vars": values.view if shown == values.row and types == values.types
            else values.of(shown, types),
            "decisions": decisions,
            "waiting_for": waiting,
            "log": self.logs.view(state["log"], role),
            "result": None if result is None else dict(result),
        }

    def _decision(self, spec: dict[str, Any], state: dict[str, Any]) -> FrozenDict:
        """The read-only copy of a pending decision as its player sees it, made once."""
        if "refusing" in spec or "labelling" in spec:
            return self.copies.shown(spec, state, self.show)
        return self.copies.of(spec)
