"""``determinize`` draws from what the role may know, and from nothing else.

For two states that show a role the same observation (one made from the other by changing only
what the role cannot see: hidden cards traded between its hidden piles, a hidden variable given
another value, the other player's committed answer changed), ``determinize`` with the same
generator seed gives the same state, byte for byte: both when the belief is lost (the state's
log cannot be followed, so the fallback draws from the observation alone) and when it follows
the game. States come from random games of both shipped packs.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulekit.bots.belief import Belief
from rulekit.bots.determinize import determinize
from rulekit.engine.game import Game, State, copy_state
from rulekit.pack.loader import load_pack

GAMES = Path(__file__).parent.parent / "games"
PACKS = ["carchase", "rednotice"]


@cache
def game_of(pack: str) -> Game:
    return load_pack(GAMES / pack).game


def played(game: Game, seed: int, decisions: int, half: bool) -> State:
    """A state of a random game after ``decisions`` rounds of answers; with ``half``, at the
    next question put to both players at once, only the first has answered."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    for count in range(decisions + 200):
        if game.is_over(state):
            break
        pending = game.pending(state)
        if count >= decisions and (len(pending) > 1 or not half):
            if len(pending) > 1:
                state = game.apply(state, {pending[0].player: pending[0].sample(rng)})
            break
        state = game.apply(state, {d.player: d.sample(rng) for d in pending})
    return state


def sibling(game: Game, state: State, role: str, rng: random.Random) -> State:
    """A copy of ``state`` changed only where ``role`` cannot see: two hidden cards traded,
    each hidden variable given another value (of its type where it has one), the others'
    answers changed."""
    new = copy_state(state)
    zones = new["zones"]
    owner = game.layout.card_owner
    places = [(key, i, by_card) for key, by_card in game.layout.hidden_piles[role]
              for i, card in enumerate(zones[key]) if not (by_card and owner[card] == role)]
    if len(places) > 1:
        (a, i, by_a), (b, j, by_b) = rng.sample(places, 2)
        if not ((by_a and owner[zones[b][j]] == role) or (by_b and owner[zones[a][i]] == role)):
            zones[a][i], zones[b][j] = zones[b][j], zones[a][i]
    nodes = list(game.symbols.board.nodes)
    for key, who, visibility in game.layout.values:
        if visibility == "public" or (visibility == "owner" and who == role):
            continue
        value = new["vars"][key]
        if isinstance(value, bool):
            new["vars"][key] = not value
        elif value in nodes:
            new["vars"][key] = rng.choice([n for n in nodes if n != value])
        elif isinstance(value, list):  # a value of no declared domain
            new["vars"][key] = value[1:] if value else [rng.choice(nodes)]
    for spec in new["pending"]:
        player = spec["player"]
        if player != role and player in new["committed"]:
            options = [o.id for o in game._decision(spec, state).options()
                       if o.id != new["committed"][player]]
            if options:
                new["committed"][player] = rng.choice(options)
    assert game.observe(new, role) == game.observe(state, role)
    return new


KEPT: dict[str, list[Belief]] = {}  # the beliefs determinize follows on


def forget() -> None:
    KEPT.clear()


def drawn(game: Game, state: State, role: str, seed: int, *, warm: State | None = None
          ) -> tuple[str, bool]:
    """``determinize`` with fresh beliefs (after one call on ``warm`` if given), as JSON, and
    whether the belief was lost."""
    forget()
    if warm is not None:
        determinize(game, warm, role, random.Random(seed + 1), KEPT)
    out = determinize(game, state, role, random.Random(seed), KEPT)
    lost = KEPT[role][0].lost  # the belief just used comes first
    forget()
    return json.dumps(out, sort_keys=True), lost


def changed(game: Game, state: State, role: str, seed: int) -> State:
    other = sibling(game, state, role, random.Random(seed))
    assume(other != state)
    return other


@settings(max_examples=20, deadline=None, database=None)
@given(pack=st.sampled_from(PACKS), seed=st.integers(0, 10**6), decisions=st.integers(1, 80),
       half=st.booleans(), seat=st.integers(0, 1))
def test_a_lost_belief_draws_from_the_observation_alone(pack: str, seed: int, decisions: int,
                                                        half: bool, seat: int) -> None:
    game = game_of(pack)
    role = game.roles[seat]
    state = played(game, seed, decisions, half)
    state["log"] = []  # a history the belief cannot follow (as a scenario's set-up state)
    assume(state["round"] >= 1 and not game.is_over(state))
    other = changed(game, state, role, seed)
    first, lost = drawn(game, state, role, seed)
    assert lost
    out = json.loads(first)  # shows the role what it was shown, with the pack's cards
    assert game.observe(out, role) == game.observe(state, role)
    assert sorted(c for pile in out["zones"].values() for c in pile) == \
        sorted(c for pile in state["zones"].values() for c in pile)
    assert drawn(game, other, role, seed)[0] == first
    # Beliefs kept from an earlier call on the same observation change nothing either.
    assert drawn(game, other, role, seed, warm=state)[0] == \
        drawn(game, state, role, seed, warm=state)[0]


@settings(max_examples=4, deadline=None, database=None)
@given(pack=st.sampled_from(PACKS), seed=st.integers(0, 10**6), decisions=st.integers(1, 8),
       half=st.booleans(), seat=st.integers(0, 1))
def test_a_followed_belief_draws_from_the_observation_alone(pack: str, seed: int,
                                                            decisions: int, half: bool,
                                                            seat: int) -> None:
    game = game_of(pack)
    role = game.roles[seat]
    state = played(game, seed, decisions, half)
    assume(not game.is_over(state))
    other = changed(game, state, role, seed)
    assert drawn(game, other, role, seed)[0] == drawn(game, state, role, seed)[0]


def test_the_fallback_draws_hidden_values_hands_and_the_others_answers() -> None:
    """Over a few seeds, a lost belief's draw gives the hidden variable other values than the
    real one, the other player's hand other make-ups by kind, and its committed answer other
    answers."""
    game = game_of("rednotice")
    state = played(game, 3, 30, False)
    state["log"] = []
    places = set()
    for seed in range(8):
        forget()
        places.add(determinize(game, state, "jessah", random.Random(seed))["vars"]["angela_at"])
    assert len(places - {state["vars"]["angela_at"]}) > 1
    game = game_of("carchase")
    state = played(game, 5, 3, True)
    state["log"] = []
    (other, _), = state["committed"].items()
    role = next(r for r in game.roles if r != other)
    kinds = game.layout.card_kind
    hands, answers = set(), set()
    for seed in range(8):
        forget()
        out = determinize(game, state, role, random.Random(seed))
        hands.add(tuple(sorted(str(kinds[card]) for card in out["zones"][f"hand.{other}"])))
        answers.add(out["committed"].get(other))
    forget()
    assert len(hands) > 1 and len(answers) > 1
