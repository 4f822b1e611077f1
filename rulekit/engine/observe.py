"""What one player may know of a state: the observation, made without copying the whole log.

An observation is plain data (dicts, lists, texts, numbers) that JSON round-trips; nothing in it
is a part of the real state, so a caller cannot change the game through it.

The log only grows, and its events never change once appended (see ``copy_state``), so each
role's view of it is kept and extended: the events a role may see are copied once, as
read-only :class:`FrozenDict` s in a read-only :class:`FrozenList`, and an observation of a
later state of the same game (or of a copy of it, which shares its events) reuses the view of
the log it saw last. A pending decision never changes either: its read-only copy is made once
and kept by identity, as an event's is (:class:`Copies`, shared by every role). The piles
(``zones``) and the variables (``vars``) are read-only views too, each kept per role with a
copy of what it was made from: when no pile (no variable) has changed since the role's last
observation (one comparison by value, in C) the same view is handed out again, and otherwise
only what changed is copied again.
Nothing of the state is ever shared: every view holds copies. A caller that wants to change its
copy makes one (``list(...)``, ``dict(...)``, :func:`thaw`); JSON, ``copy.deepcopy`` and
``pickle`` give plain lists and dicts. The observation itself (the outer dict) is a new plain
dict at each call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import compress
from operator import itemgetter, ne
from typing import Any, NoReturn

READ_ONLY = "an observation is read-only (copy it to change it)"
# How far back from the end of a log to look for a position whose view is known.
LOOK_BACK = 64
CACHE_LIMIT = 256  # views kept per role (each holds a list as long as the log)
FROZEN_LIMIT = 8192  # read-only copies of events kept


_SCALARS = frozenset({str, int, bool, float, type(None)})
_all_scalars = _SCALARS.issuperset  # of an iterable of types, in C
_set = dict.__setitem__


def _read_only(*_: Any, **__: Any) -> NoReturn:
    raise TypeError(READ_ONLY)


class FrozenList(list[Any]):
    """A list that cannot be changed; equal to (and serialised as) a plain list."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [thaw(v) for v in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


class FrozenDict(dict[str, Any]):
    """A dict that cannot be changed; equal to (and serialised as) a plain dict."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {k: thaw(v) for k, v in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


def freeze(value: Any) -> Any:
    """A read-only copy of a plain-data value (a read-only value is its own copy)."""
    cls = type(value)
    if cls is dict:
        frozen = FrozenDict(value)
        for key, item in value.items():
            cls = type(item)
            if cls is list:
                _set(frozen, key, FrozenList(item) if _all_scalars(map(type, item))
                     else _freeze_items(item))
            elif cls not in _SCALARS:
                _set(frozen, key, freeze(item))
        return frozen
    if cls is list:
        return FrozenList(value) if _all_scalars(map(type, value)) else _freeze_items(value)
    if cls in _SCALARS or cls is FrozenDict or cls is FrozenList:
        return value
    if isinstance(value, dict):
        return freeze(dict(value))
    if isinstance(value, list):
        return freeze(list(value))
    return value


def _freeze_items(value: list[Any]) -> FrozenList:
    """``freeze`` of a list holding other lists or dicts (lists of lists, as a decision's
    refused candidates with their reasons, frozen here without a call per list)."""
    items: list[Any] = []
    push = items.append
    for item in value:
        cls = type(item)
        if cls is list:
            push(FrozenList(item) if _all_scalars(map(type, item)) else _freeze_items(item))
        elif cls in _SCALARS:
            push(item)
        else:
            push(freeze(item))
    return FrozenList(items)


def thaw(value: Any) -> Any:
    """A plain, changeable copy of a plain-data value."""
    if isinstance(value, dict):
        for item in value.values():
            if item.__class__ not in _SCALARS:
                return {k: v if v.__class__ in _SCALARS else thaw(v) for k, v in value.items()}
        return dict(value)
    if isinstance(value, list):
        for item in value:
            if item.__class__ not in _SCALARS:
                return [v if v.__class__ in _SCALARS else thaw(v) for v in value]
        return list(value)
    return value


EMPTY = FrozenList()


class Copies:
    """Read-only copies of values that are never changed once stored in a state (log events,
    pending decisions: see ``copy_state``), kept by identity: every copy of a state shares
    these values, so each is copied once whichever state or role it is seen from."""

    def __init__(self) -> None:
        # id(value) -> (the value, its read-only copy)
        self._made: dict[int, tuple[dict[str, Any], FrozenDict]] = {}

    def of(self, value: dict[str, Any]) -> FrozenDict:
        entry = self._made.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        return self._keep(value, freeze(value))

    def shown(self, spec: dict[str, Any], state: dict[str, Any],
              show: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]) -> FrozenDict:
        """The read-only copy of what a reader sees of ``spec``, a pending decision of
        ``state`` (``show(spec, state)``), kept by the identity of ``spec``."""
        entry = self._made.get(id(spec))
        if entry is not None and entry[0] is spec:
            return entry[1]
        return self._keep(spec, freeze(show(spec, state)))

    def _keep(self, value: dict[str, Any], frozen: FrozenDict) -> FrozenDict:
        if len(self._made) >= FROZEN_LIMIT:
            self._made.clear()
        self._made[id(value)] = (value, frozen)
        return frozen


class LogViews:
    """Each role's read-only view of the log, kept per position of a log and extended."""

    def __init__(self, roles: Iterable[str], copies: Copies) -> None:
        # role -> id(last event seen) -> (that event, log length, the role's view)
        self._views: dict[str, dict[int, tuple[dict[str, Any], int, FrozenList]]] = {
            role: {} for role in roles}
        self._copies = copies  # the read-only copies of events, shared by the roles' views

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
        base, start = EMPTY, 0
        for i in range(size - 2, max(size - LOOK_BACK, 0) - 1, -1):
            event = log[i]
            entry = known.get(id(event))
            if entry is not None and entry[0] is event and entry[1] == i + 1:
                base, start = entry[2], i + 1
                break
        copy = self._copies.of
        new = [copy(e) for e in log[start:] if e["to"] is None or e["to"] == role]
        view = FrozenList(base + new) if new else base
        if len(known) >= CACHE_LIMIT:
            known.clear()
        known[id(log[-1])] = (log[-1], size, view)
        return view


Keys = list[tuple[str, str | None, str]]  # (key, owner, visibility) of each pile or value
WHOLE, BY_CARD, COUNTED = 0, 1, 2  # how a role sees a pile


class _Views:
    """Read-only views of a row of values (the piles, or the variables, a role sees), kept
    with the copies they were made from and made again only for the values that changed
    (``typed``: a value may change its type, as a variable holding ``1`` then ``True``, which
    are equal)."""

    def __init__(self, keys: list[str], make: Any, typed: bool) -> None:
        self.keys = keys
        self.get: Callable[[dict[str, Any]], tuple[Any, ...]] = (
            itemgetter(*keys) if len(keys) > 1 else lambda values: tuple(map(values.get, keys)))
        self.make = make  # (index, value) -> (the copy compared with later values, its view)
        self.typed = typed
        self.copies: tuple[Any, ...] | None = None  # what the views were made from, by index
        self.types: tuple[type, ...] = ()
        self.view = FrozenDict()

    def of(self, values: dict[str, Any]) -> FrozenDict:
        row = self.get(values)
        copies = self.copies
        if self.typed:
            types = tuple(map(type, row))
            if types != self.types:
                self.types, copies = types, None
        if copies is None:
            changed: Iterable[int] = range(len(row))
            kept: list[Any] = [None] * len(row)
            view = FrozenDict()
        elif row == copies:  # nothing changed (one comparison, in C)
            return self.view
        else:
            changed = list(compress(range(len(row)), map(ne, row, copies)))
            kept = list(copies)
            view = FrozenDict(self.view)
        make, keys = self.make, self.keys
        for i in changed:
            kept[i], shown = make(i, row[i])
            _set(view, keys[i], shown)
        self.copies = tuple(kept)
        self.view = view
        return view


class _RoleViews:
    """What one role sees: its piles and variables, as kept :class:`_Views`."""

    def __init__(self, role: str, piles: list[tuple[str, int]], shown: list[str],
                 card_owner: dict[str, Any]) -> None:
        modes = [mode for _, mode in piles]

        def pile(i: int, cards: list[str]) -> tuple[FrozenList, FrozenDict]:
            mode = modes[i]
            kept = FrozenList(cards)
            if mode == WHOLE:
                return kept, FrozenDict({"cards": kept, "count": len(cards)})
            if mode == COUNTED:
                return kept, FrozenDict({"count": len(cards)})
            return kept, FrozenDict({
                "cards": FrozenList([c if card_owner.get(c) == role else None for c in cards]),
                "count": len(cards)})

        def variable(i: int, value: Any) -> tuple[Any, Any]:
            kept = freeze(value)
            return kept, kept

        self.zones = _Views([key for key, _ in piles], pile, typed=False)
        self.vars = _Views(shown, variable, typed=True)


class Observer:
    """Makes the observations of the games of one pack."""

    def __init__(self, pack_id: str, roles: list[str], zone_keys: Keys, var_keys: Keys,
                 card_owner: dict[str, Any],
                 show: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]) -> None:
        self.pack_id = pack_id
        # A pending decision's spec as its player sees it, given the state (the candidates
        # refused, and why, are worked out when first read: engine/refusals).
        self.show = show
        self.card_owner = card_owner
        # Per role: each pile, in order, with how the role sees it (WHOLE, BY_CARD or
        # COUNTED); the variables it sees.
        self.seen: dict[str, tuple[list[tuple[str, int]], list[str]]] = {}
        self.views: dict[str, _RoleViews] = {}
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
            self.seen[role] = (piles, shown)
            self.views[role] = _RoleViews(role, piles, shown, card_owner)
        self.copies = Copies()  # of log events and pending decisions, for every role
        self.logs = LogViews(roles, self.copies)

    def observe(self, state: dict[str, Any], role: str) -> dict[str, Any]:
        """Everything ``role`` may know of ``state``, and nothing else."""
        views = self.views[role]
        committed = state["committed"]
        result = state["result"]
        decisions = []
        waiting = []
        for spec in state["pending"]:
            player = spec["player"]
            if player not in committed:
                waiting.append(player)
                if player == role:
                    decisions.append(self.copies.of(spec) if "refusing" not in spec and
                                     "labelling" not in spec else
                                     self.copies.shown(spec, state, self.show))
        return {
            "pack": self.pack_id,
            "role": role,
            "round": state["round"],
            "phase": state["phase"],
            "zones": views.zones.of(state["zones"]),
            "vars": views.vars.of(state["vars"]),
            "decisions": decisions,
            "waiting_for": waiting,
            "log": self.logs.view(state["log"], role),
            "result": None if result is None else dict(result),
        }
