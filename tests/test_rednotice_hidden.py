"""Hidden information in Red Notice (RN-47), as a property over random games.

At every decision point of random games, each player's observation must not change when the
other player's secrets are replaced in the state by other values: Angela's city, her Checks,
her Identities, her token stack and drawn tokens, her face-down tokens, her list of triggered
Radars; and for Angela's view, Jessah's Checks and tokens. The observation includes the event
log, so the log obeys the same rule. The observation must also never hold those secrets.

These checks stay in Python because they are properties over random games: every decision point
of many seeded games, with the other player's secrets swapped for other values. A scenario sets
up one given situation, so it cannot say "at every step of any game". What each player sees in
given situations is asserted by games/rednotice/scenarios/hidden.yaml (``sees``,
``never_sees``, ``log_for``, ``options_for``), which ``rulekit test rednotice`` shows.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.engine.game import Game, copy_state
from rulekit.pack.loader import load_pack


@pytest.fixture(scope="module")
def game() -> Game:
    return load_pack("rednotice").game


def _swap(state: dict[str, Any], secret: str, spare: str, rand: random.Random) -> None:
    """Swap the cards of a secret pile with cards of a hidden pile, keeping both sizes."""
    zones = state["zones"]
    pool = zones[secret] + zones[spare]
    rand.shuffle(pool)
    size = len(zones[secret])
    zones[secret], zones[spare] = pool[:size], pool[size:]


def _tokens_of(state: dict[str, Any], owner: str, game: Game) -> list[tuple[str, int]]:
    """(zone, index) of every face-down token of ``owner``."""
    found = []
    for s in range(1, 9):
        for i, card in enumerate(state["zones"][f"face_down.{s}"]):
            if game.symbols.cards[card].get("owner") == owner:
                found.append((f"face_down.{s}", i))
    return found


def hide_secrets_of(game: Game, state: dict[str, Any], owner: str,
                    rand: random.Random) -> dict[str, Any]:
    """A copy of ``state`` in which ``owner``'s secrets are replaced by other values."""
    new = copy_state(state)
    zones = new["zones"]
    if owner == "angela":
        here = new["vars"]["angela_at"]
        others = [n for n in game.symbols.board.nodes if n != here]
        new["vars"]["angela_at"] = rand.choice(others)
        new["vars"]["triggered"] = [rand.choice(list(game.symbols.board.regions))]
        _swap(new, "identities", "out", rand)
    _swap(new, f"checks.{owner}", "check_deck", rand)
    # Tokens: the drawn ones, the face-down ones and the stack share one pool of values.
    places = _tokens_of(new, owner, game)
    pool = [zones[z][i] for z, i in places] + zones[f"drawn.{owner}"] + zones[f"stack.{owner}"]
    rand.shuffle(pool)
    for z, i in places:
        zones[z][i] = pool.pop()
    size = len(zones[f"drawn.{owner}"])
    zones[f"drawn.{owner}"] = pool[:size]
    zones[f"stack.{owner}"] = pool[size:]
    return new


def assert_no_secrets(game: Game, view: dict[str, Any], other: str) -> None:
    zones = view["zones"]
    for key in (f"checks.{other}", f"stack.{other}", f"drawn.{other}", "check_deck", "out"):
        assert "cards" not in zones[key], key
    if other == "angela":
        assert "angela_at" not in view["vars"] and "triggered" not in view["vars"]
        assert "cards" not in zones["identities"]
    for s in range(1, 9):
        for card in zones[f"face_down.{s}"]["cards"]:
            assert card is None or game.symbols.cards[card]["owner"] != other


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_observations_do_not_depend_on_the_other_players_secrets(game: Game,
                                                                  seed: int) -> None:
    rand = random.Random(seed)
    state = game.new_game(seed)
    for _ in range(120):
        if state["result"] is not None:
            break
        for role, other in (("jessah", "angela"), ("angela", "jessah")):
            view = game.observe(state, role)
            assert_no_secrets(game, view, other)
            changed = hide_secrets_of(game, state, other, rand)
            assert json.dumps(game.observe(changed, role), sort_keys=True) == json.dumps(
                view, sort_keys=True
            ), f"{role}'s view depends on {other}'s secrets"
        secrets = {"jessah": secrets_of(game, state, "angela"),
                   "angela": secrets_of(game, state, "jessah")}
        seen = len(state["log"])
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
        for role, hidden in secrets.items():
            assert_log_reveals_only_what_became_public(game, state, role, hidden, seen)


def secrets_of(game: Game, state: dict[str, Any], owner: str) -> set[str]:
    """The items only ``owner`` knows: Checks, Identities, tokens in hand or face down."""
    zones = state["zones"]
    found = set(zones[f"checks.{owner}"]) | set(zones[f"drawn.{owner}"])
    found |= {zones[z][i] for z, i in _tokens_of(state, owner, game)}
    if owner == "angela":
        found |= set(zones["identities"]) | {state["vars"]["angela_at"]}
    return found


def _flatten(values: list[Any]) -> list[Any]:
    flat: list[Any] = []
    for value in values:
        flat.extend(_flatten(value) if isinstance(value, list) else [value])
    return flat


# Events in which the rules make a player show a secret card that then goes back out of sight:
# RN-08 and RN-12, the starting Check shown and put at the bottom of the Check deck; RN-28, a
# Check Jessah cashes (shown, then put at the bottom of the deck).
REVEALS_BY_RULE = ("Angela shows ", "Jessah shows ", "Jessah cashes ")


def assert_log_reveals_only_what_became_public(game: Game, state: dict[str, Any], role: str,
                                               hidden: set[str], seen: int) -> None:
    """New log events ``role`` sees name the other player's secrets only as the rules reveal
    them: the secret is public afterwards (a cashed Check, a burned Identity, a revealed
    token, the city where Angela was caught or cashed)."""
    view = game.observe(state, role)
    public = set(_flatten([z.get("cards", []) for z in view["zones"].values()]))
    public |= {v for v in view["vars"].values() if isinstance(v, str)}
    for event in state["log"][seen:]:
        if event["to"] not in (None, role) or event["e"] != "log":
            continue
        if game.format_event(event).startswith(REVEALS_BY_RULE):
            continue
        for value in _flatten(event["args"]):
            assert not (value in hidden and value not in public), (
                f"{role} is told {value!r}: {game.format_event(event)}")


def test_a_committed_choice_stays_secret_until_the_game_goes_on(game: Game) -> None:
    """Placing a face-down token shows the opponent where, never which token."""
    rand = random.Random(3)
    state = game.new_game(3)
    while state["phase"] != "programming" or not game.pending(state):
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    for _ in range(12):  # the six placements: a token, then a space, each time
        (decision,) = game.pending(state)
        actor = decision.player
        other = "jessah" if actor == "angela" else "angela"
        before = game.observe(state, other)
        state = game.apply(state, {actor: decision.sample(rand)})
        after = game.observe(state, other)
        for s in range(1, 9):
            assert all(c is None or game.symbols.cards[c]["owner"] == other
                       for c in after["zones"][f"face_down.{s}"]["cards"])
        assert after["zones"][f"drawn.{actor}"] == {"count": after["zones"][f"drawn.{actor}"]
                                                     ["count"]}
        assert before["zones"][f"stack.{actor}"] == after["zones"][f"stack.{actor}"]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_where_angela_may_be_is_public_and_always_holds_her_city(game: Game,
                                                                 seed: int) -> None:
    """``may_be`` (what a hunter is shown) is public, and whenever Jessah decides it holds
    Angela's real city: it is worked out from public facts, yet never rules out the truth."""
    rand = random.Random(seed)
    state = game.new_game(seed)
    for _ in range(400):
        if state["result"] is not None:
            break
        players = {d.player for d in game.pending(state)}
        if players == {"jessah"} and state["round"] > 0:
            may_be = game.observe(state, "jessah")["vars"]["may_be"]
            assert state["vars"]["angela_at"] in may_be
            assert 1 <= len(may_be) <= len(game.symbols.board.nodes)
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
