"""A search weighs a choice of cards it draws anew at each iteration by kind.

At a Car Chase contest the Law cannot see the Fugitive's hand, so each iteration deals it
again and the Fugitive's subsets seldom recur. The search weighs them as nothing, as many
cards as allowed, or a subset at random, so that what playing all is worth adds up.
"""

from __future__ import annotations

import random

import pytest

from rulekit.bots import belief as beliefs
from rulekit.bots import ismcts
from rulekit.bots.agent import View
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import seat_rng


def first_contest(game: Game, seed: int) -> State:
    """A random game of ``seed`` up to its first contest (both players choosing cards)."""
    state = game.new_game(seed)
    rand = random.Random(seed)
    while len(game.pending(state)) < 2:
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    return state


@pytest.mark.parametrize("seed", range(3))
def test_the_fugitive_of_the_laws_search_plays_its_hand_by_kind(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_pack("carchase").game
    state = first_contest(game, seed)
    roots: list[ismcts._Node] = []
    search = ismcts.IsmctsAgent._search

    def kept(self: ismcts.IsmctsAgent, *args: object) -> tuple[ismcts._Node, random.Random]:
        root, rng = search(self, *args)  # type: ignore[arg-type]
        roots.append(root)
        return root, rng

    monkeypatch.setattr(ismcts.IsmctsAgent, "_search", kept)
    view = View.of(game, "law", seat_rng(seed, "law"), state, kept=beliefs.SeatBelief())
    (decision,) = [d for d in game.pending(state) if d.player == "law"]
    ismcts.IsmctsAgent(iterations=300).choose(view, decision)
    fugitive = roots[0].stats["fugitive"]
    visits = {answer: entry[0] for answer, entry in fugitive.items()}
    labels = {ismcts.ANY_LARGEST, ismcts.ANY_SUBSET, "none"}
    assert sum(visits[a] for a in labels if a in visits) > 0.75 * sum(visits.values())
    assert max(visits, key=lambda a: visits[a]) == ismcts.ANY_LARGEST


def test_a_mixed_answer_never_holds_back_a_card_of_an_answer_as_good() -> None:
    # At a contest, some cards and the same with one held back score alike (the search cannot
    # tell them apart): the mix plays them all. Another answer as good is still drawn.
    game = load_pack("carchase").game
    for seed in range(40):
        state = first_contest(game, seed)
        (decision,) = [d for d in game.pending(state) if d.player == "law"]
        n = len(decision.items)
        ids = [decision.subset_option(chosen).id for chosen in
               ([*range(n - 1)], [*range(1, n - 1)], [0, n - 1])] if n >= 3 else []
        if ids and all(decision.legal_option(i) is not None for i in ids):
            break
    else:
        raise AssertionError("no contest offers three cards to play")
    some, held, other = ids
    stats = {some: [100.0, 50.0, 100.0], held: [95.0, 47.5, 100.0], other: [90.0, 45.0, 100.0]}
    answers = set()
    for draw in range(60):
        view = View.of(game, "law", random.Random(draw), state, kept=beliefs.SeatBelief())
        answers.add(ismcts._mixed(view, decision, stats, set()).id)
    assert answers == {some, other}
