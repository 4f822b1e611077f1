"""A leak detector: does anything a role is shown depend on what that role may not know?

At a decision point of a game, for a role R, the detector makes an *altered* state: every card
R cannot see is dealt again among the places R cannot see (each pile keeping its size, a card
only where a card of its kind was), and every variable of the other roles that R cannot see
gets another value (another node for a node, another card for a card, the other truth value,
another number). Both the real and the altered state then step back onto the pending choice and
ask it again, as ``determinize`` does. If R's observation (what R is shown, its own
decision, ``waiting_for``) differs between the two, R could tell the real secrets from others:
a leak. Variables hidden from *every* role are the engine's bookkeeping and are left alone.

``kind`` says which cards may take each other's place (what R knows of an unseen card): in
Car Chase any card may be in any hand or in the deck, in Red Notice a Check stays a Check.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulekit.engine.game import Game, State, copy_state
from rulekit.errors import GameRuntimeError

Kind = Callable[[dict[str, Any]], Any]


def by_type_and_owner(props: dict[str, Any]) -> Any:
    return props.get("type"), props.get("owner")


def any_card(props: dict[str, Any]) -> Any:
    return None


@dataclass
class LeakReport:
    games: int = 0
    points: int = 0  # decision points checked
    comparisons: int = 0  # (point, role) pairs compared
    altered: int = 0  # comparisons where the alteration changed the state
    leaks: list[str] = field(default_factory=list)


Slots = dict[Any, list[tuple[str, int]]]


def _unseen_cards(game: Game, state: State, role: str, kind: Kind) -> Slots:
    slots: Slots = {}
    cards = game.symbols.cards
    for key, owner, vis in game.layout.piles:
        if vis == "public" or (vis == "owner" and owner == role):
            continue
        for index, card in enumerate(state["zones"][key]):
            props = cards[card]
            if vis == "card_owner" and props.get("owner") == role:
                continue
            slots.setdefault(kind(props), []).append((key, index))
    return slots


def _other_value(game: Game, value: Any, rand: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rand.choice([-1, 1])
    if isinstance(value, str):
        for table in (game.symbols.board.nodes, game.symbols.board.regions,
                      game.symbols.board.edges, game.symbols.cards):
            if value in table:
                others = [k for k in table if k != value]
                return rand.choice(others) if others else value
    if isinstance(value, list) and value:
        return value[:-1]
    return value


def alter(game: Game, state: State, role: str, rand: random.Random, kind: Kind) -> State:
    """A copy of ``state`` with what ``role`` cannot see dealt or set otherwise."""
    new = copy_state(state)  # (the log is dropped by reask)
    for places in _unseen_cards(game, new, role, kind).values():
        pool = [new["zones"][key][index] for key, index in places]
        rand.shuffle(pool)
        for (key, index), card in zip(places, pool, strict=True):
            new["zones"][key][index] = card
    for key, owner, vis in game.layout.values:
        if vis == "owner" and owner is not None and owner != role:
            new["vars"][key] = _other_value(game, new["vars"][key], rand)
    return new


def reask(game: Game, state: State) -> State:
    """Step back onto the pending choice and ask it again (the answers given are dropped)."""
    new = copy_state(state)
    new["pending"] = []
    new["committed"] = {}
    new["stack"][-1]["pc"] -= 1
    return game.run(new)


def _shown(game: Game, state: State, role: str) -> str:
    seen = game.observe(state, role)
    seen["decisions"] = [{key: value for key, value in decision.items() if key != "ids"}
                         for decision in seen["decisions"]]  # ids: derived from the items
    return json.dumps(seen, sort_keys=True)


def check_point(game: Game, state: State, rand: random.Random, kind: Kind,
                report: LeakReport, where: str) -> None:
    report.points += 1
    state = {**state, "log": []}  # both share the log so far; only what follows may differ
    real = reask(game, state)
    for role in game.roles:
        altered_state = alter(game, state, role, rand, kind)
        report.comparisons += 1
        if altered_state["zones"] != state["zones"] or altered_state["vars"] != state["vars"]:
            report.altered += 1
        try:
            altered = reask(game, altered_state)
        except GameRuntimeError as exc:
            report.leaks.append(f"{where}, {role}: the altered state fails: {exc.message}")
            continue
        if _shown(game, real, role) != _shown(game, altered, role):
            asked = [s["player"] for s in real["pending"]]
            asked_alt = [s["player"] for s in altered["pending"]]
            report.leaks.append(f"{where}, {role}: shown differs (asked {asked} / {asked_alt})")


def leak_check(game: Game, *, games: int, kind: Kind, share: float = 1.0, seed: int = 0,
               max_decisions: int = 100_000, until_leak: bool = False) -> LeakReport:
    """Random games from seeds ``seed``, ``seed + 1``...; each decision point is checked for
    every role with probability ``share``; a game stops after ``max_decisions``. With
    ``until_leak``, the check stops at the first game that leaks."""
    report = LeakReport()
    for number in range(seed, seed + games):
        if until_leak and report.leaks:
            break
        rand = random.Random(number)
        state = game.new_game(number)
        report.games += 1
        step = 0
        while state["result"] is None and step < max_decisions:
            if share >= 1 or rand.random() < share:
                check_point(game, state, rand, kind, report, f"game {number} decision {step}")
            actions = {d.player: d.sample(rand) for d in game.pending(state)}
            state = game.apply(state, actions, in_place=True)
            step += 1
    return report
