"""An agent reaches nothing of the real state, nor another seat's belief, from what it is handed.

The walk goes where an attacker in the same process can go without calling into the engine:
attributes, ``__dict__`` and ``__slots__``, closures' cells, functions' ``__globals__`` and
defaults, bound methods, classes, every module of rulekit, containers, weak references, frames
and tracebacks. It runs at every decision of whole games of both shipped packs, through the
seat runners of ``simulate`` and of ``play``. Read-only data (``engine/frozen``) is what an
observation shows, so only the state's changeable parts count as reached.
"""

from __future__ import annotations

import sys
import types
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

from rulekit import Decision, Option, View, load_pack
from rulekit.bots.belief import Belief
from rulekit.engine.frozen import FrozenDict, FrozenList
from rulekit.engine.game import Game
from rulekit.engine.state import State
from rulekit.play.session import Bot
from rulekit.sim.simulation import play_game

ATOMS = (str, bytes, int, float, complex, bool, type(None), types.CodeType, range)
# The real state at each decision, kept by this module: the walk does not enter test code.
REAL: dict[str, State] = {}


def _ours(module_name: object) -> bool:
    """Code the walk follows into: rulekit's, and a pack's generated code (no module)."""
    return not isinstance(module_name, str) or module_name.split(".")[0] == "rulekit" \
        or module_name not in sys.modules


def _children(obj: object) -> Iterator[object]:
    if isinstance(obj, ATOMS):
        return
    if isinstance(obj, types.ModuleType):
        if _ours(obj.__name__):
            yield from vars(obj).values()
        return
    if isinstance(obj, dict):
        yield from obj.keys()
        yield from obj.values()
        return
    if isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
        return
    if isinstance(obj, weakref.ref):
        yield obj()
        return
    if isinstance(obj, types.FunctionType):
        if _ours(obj.__globals__.get("__name__")):
            yield obj.__globals__
        yield from (cell.cell_contents for cell in obj.__closure__ or ()
                    if cell.cell_contents is not None)
        yield obj.__defaults__, obj.__kwdefaults__, obj.__dict__
        return
    if isinstance(obj, types.MethodType):
        yield obj.__self__, obj.__func__
        return
    if isinstance(obj, (types.GeneratorType, types.CoroutineType)):
        yield getattr(obj, "gi_frame", None) or getattr(obj, "cr_frame", None)
        return
    if isinstance(obj, types.FrameType):
        yield obj.f_locals, obj.f_back
        return
    if isinstance(obj, types.TracebackType):
        yield obj.tb_frame, obj.tb_next
        return
    if isinstance(obj, type):
        if _ours(obj.__module__):
            yield from vars(obj).values()
            yield from obj.__mro__
        return
    if isinstance(obj, (property, staticmethod, classmethod)):
        yield from (getattr(obj, name, None) for name in ("fget", "fset", "__func__"))
        return
    if isinstance(obj, BaseException):
        yield obj.__traceback__, obj.__context__, obj.__cause__, obj.args
    kind = type(obj)
    yield kind
    yield from (getattr(obj, "__dict__", None) or {}).values()
    for klass in kind.__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            yield getattr(obj, name, None)
    for name in ("func", "args", "keywords", "__wrapped__"):  # functools.partial, wrappers
        if not isinstance(getattr(kind, name, None), property):
            yield getattr(obj, name, None)


def reachable(*roots: object) -> Iterator[object]:
    """Every object reachable from ``roots`` and from rulekit's modules, each once."""
    modules = [m for name, m in list(sys.modules.items()) if name.split(".")[0] == "rulekit"]
    stack: list[object] = [*roots, *modules]
    seen: set[int] = set()
    while stack:
        obj = stack.pop()
        if obj is None or isinstance(obj, ATOMS) or id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        stack.extend(_children(obj))


def _changeable(state: State) -> dict[int, str]:
    """The ids of the state and of every plain list and dict within it, with their path."""
    found: dict[int, str] = {}
    stack: list[tuple[object, str]] = [(state, "state")]
    while stack:
        obj, path = stack.pop()
        if isinstance(obj, (FrozenDict, FrozenList)):
            continue
        if isinstance(obj, dict):
            found[id(obj)] = path
            stack.extend((v, f"{path}[{k!r}]") for k, v in obj.items())
        elif isinstance(obj, list):
            found[id(obj)] = path
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(obj))
    return found


@dataclass
class Attacker:
    """An agent that walks what it is handed, noting what it should not reach, then answers.

    It asks for its belief first, so that every seat keeps one as a search bot does.
    """

    every: int = 1  # walk at one decision in so many (a walk takes a good part of a second)
    leaks: list[str] = field(default_factory=list)
    walked: list[int] = field(default_factory=list)  # objects reached at each walk
    asked: int = 0

    def choose(self, view: View, decision: Decision) -> Option:
        view.determinize(view.rng)
        self.asked += 1
        if self.asked % self.every:
            return decision.sample(view.rng)
        state = REAL["state"]
        parts = _changeable(state)
        count = 0
        for obj in reachable(view, decision, *decision.options()):
            count += 1
            if id(obj) in parts:
                self.leaks.append(f"{view.role} reached {parts[id(obj)]}")
            elif isinstance(obj, dict) and "rng" in obj and (
                    obj.get("seed") == state["seed"] or obj["rng"] == state["rng"]):
                self.leaks.append(f"{view.role} reached a copy of the state")
            elif isinstance(obj, Belief) and obj.role != view.role:
                self.leaks.append(f"{view.role} reached the belief of {obj.role}")
        self.walked.append(count)
        return decision.sample(view.rng)


def _simulated(game: Game, seed: int, attacker: Attacker, rounds: int) -> None:
    """A game as ``rulekit simulate`` plays it; the state is the one its runner holds."""
    original = game.initial_state

    def spied(seed: int = 0, *, quiet: bool = False) -> State:
        state = original(seed, quiet=quiet)
        REAL.setdefault("state", state)  # the game's; beliefs start states of their own
        return state

    REAL.clear()
    game.initial_state = spied  # type: ignore[method-assign]
    try:
        play_game(game, seed, dict.fromkeys(game.roles, attacker), max_rounds=rounds)
    finally:
        del game.initial_state


def _played(game: Game, seed: int, attacker: Attacker, rounds: int) -> None:
    """A game as ``rulekit play`` runs its bots, every seat a bot."""
    bots = {role: Bot(game, role, "random", seed) for role in game.roles}
    for bot in bots.values():
        bot.choose = attacker.choose
    state = game.new_game(seed)
    while state["result"] is None and state["round"] <= rounds:
        REAL["state"] = state
        actions = {d.player: bots[d.player].decide(state, d) for d in game.pending(state)}
        state = game.apply(state, actions)


@pytest.mark.slow
@pytest.mark.parametrize(("pack", "run", "rounds", "every"), [
    ("carchase", _simulated, 1000, 1), ("carchase", _played, 1000, 1),
    ("rednotice", _simulated, 30, 10), ("rednotice", _played, 10, 5)])
def test_an_agent_reaches_no_real_state_and_no_other_belief(
        pack: str, run: Callable[[Game, int, Attacker, int], None], rounds: int, every: int
) -> None:
    """Whole games of Car Chase, and 30 and 10 rounds of Red Notice (a walk there takes
    a tenth of a second), walked at every decision or at one in ``every``."""
    game = load_pack(pack).game
    attacker = Attacker(every=every)
    run(game, 3, attacker, rounds)
    assert len(attacker.walked) > 20  # many decisions walked
    assert min(attacker.walked) > 5000  # the walk reaches the game's code and modules
    assert attacker.leaks == []


def test_a_state_kept_by_a_module_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk finds a state that a module of rulekit keeps, as a cache would."""
    from rulekit.engine import draws

    game = load_pack("carchase").game
    state = game.new_game(4)
    (decision, *_) = game.pending(state)
    REAL["state"] = state
    attacker = Attacker()
    bot = Bot(game, decision.player, "random", 4)
    bot.choose = attacker.choose
    monkeypatch.setattr(draws, "_kept", {"last": state}, raising=False)
    bot.decide(state, decision)
    assert f"{decision.player} reached state" in attacker.leaks
