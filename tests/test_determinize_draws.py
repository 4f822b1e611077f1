"""Draws from a belief brought up to date: what each new deal may and must move."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable

from rulekit.bots.belief.deal import Deal, redeal
from rulekit.engine.game import copy_state
from rulekit.pack.loader import load_pack
from tests.test_belief import contest_state


def test_a_deal_moves_each_card_to_every_unseen_place_of_its_pool_and_no_other() -> None:
    """Kinds that lie together in a pile the Law cannot see (the deck) are one pool: a hand's
    cards may be of any type the deck holds."""
    game = load_pack("carchase").game
    state = contest_state(game)
    deal = Deal(game, state, "law")
    places: dict[str, set[tuple[str, int]]] = defaultdict(set)
    rand = random.Random(0)
    for _ in range(2000):
        drawn = copy_state(state)
        redeal(game, drawn, "law", rand, deal)
        for key, pile in drawn["zones"].items():
            assert len(pile) == len(state["zones"][key])
            for index, card in enumerate(pile):
                places[card].add((key, index))
    assert state["zones"]["hand.fugitive"]  # the Law cannot see it: its cards are dealt again
    unseen = {(key, index) for key in ("deck", "hand.fugitive")
              for index in range(len(state["zones"][key]))}
    [pool] = deal.pools  # every type lies in the deck: one pool
    assert sorted(pool) == sorted(c for key in ("deck", "hand.fugitive")
                                  for c in state["zones"][key])
    for card in pool:  # each card reaches every unseen place, and no seen one
        assert places[card] == unseen, card
    kinds = {game.layout.card_kind[card].type for card in state["zones"]["hand.fugitive"]}
    assert len(kinds) > 1


def test_states_with_the_same_cards_but_other_answers_watch_other_cards() -> None:
    """A deal watches the cards the pending decisions name: those of the answer committed."""
    game = load_pack("carchase").game
    state = contest_state(game)
    hand = state["zones"]["hand.fugitive"]
    one, two = copy_state(state), copy_state(state)
    one["committed"] = {"fugitive": hand[0]}
    two["committed"] = {"fugitive": hand[1]}
    one["pending"] = two["pending"] = [s for s in state["pending"] if s["player"] == "law"]
    watched = [{card for _, _, card in Deal(game, s, "law").watched} for s in (one, two)]
    assert watched == [{hand[0]}, {hand[1]}]


def _uniform(tables: tuple[tuple[list[int], int], ...]) -> bool:
    """Whether each table of counts (with its degrees of freedom) passes Pearson's chi-square
    test of uniformity at about the 0.1% level (the critical value by Wilson and Hilferty's
    approximation, good to a few percent for a dozen degrees of freedom or more). The cells
    of a table are equally likely if the draws are uniform."""
    for counts, freedom in tables:
        expected = sum(counts) / len(counts)
        statistic = sum((count - expected) ** 2 / expected for count in counts)
        z = 3.09  # the normal quantile of 0.999
        critical = freedom * (1 - 2 / (9 * freedom) + z * (2 / (9 * freedom)) ** 0.5) ** 3
        if statistic >= critical:
            return False
    return True


def _pool_counts(shuffle: Callable[[random.Random], list[str]], cards: list[str],
                 draws: int) -> tuple[tuple[list[int], int], ...]:
    """How often each card lands at each place (a square table whose rows and columns each
    sum to ``draws``), and how often each ordered pair of cards lands at the first two places,
    over ``draws`` shuffles of ``cards``; each table with its degrees of freedom."""
    at = {card: index for index, card in enumerate(cards)}
    size = len(cards)
    places = [0] * size * size
    pairs = [0] * size * size
    rand = random.Random(5)
    for _ in range(draws):
        order = shuffle(rand)
        for place, card in enumerate(order):
            places[at[card] * size + place] += 1
        pairs[at[order[0]] * size + at[order[1]]] += 1
    pairs = [count for index, count in enumerate(pairs) if index % (size + 1)]
    return (places, (size - 1) ** 2), (pairs, len(pairs) - 1)


def test_a_deal_orders_each_pool_uniformly_at_random() -> None:
    """Every card of a pool is as likely at each of the pool's places, and so is every pair of
    cards at two places."""
    game = load_pack("carchase").game
    state = contest_state(game)
    deal = Deal(game, state, "law")
    pool = min(deal.pools, key=len)
    assert len(pool) >= 5
    where = {card: (key, index) for key, pile in state["zones"].items()
             for index, card in enumerate(pile) if card in pool}
    places = sorted(where.values())

    def dealt(rand: random.Random) -> list[str]:
        drawn = copy_state(state)
        redeal(game, drawn, "law", rand, deal)
        return [drawn["zones"][key][index] for key, index in places]

    assert _uniform(_pool_counts(dealt, [state["zones"][k][i] for k, i in places], 6000))


def test_the_uniformity_check_catches_a_biased_shuffle() -> None:
    """The check above has the power to see the classic bias of swapping each card with any
    place (n**n ways onto n! orders), at the same number of draws."""
    cards_ = list("abcdef")

    def naive(rand: random.Random) -> list[str]:
        order = list(cards_)
        for index in range(len(order)):
            other = rand.randrange(len(order))
            order[index], order[other] = order[other], order[index]
        return order

    def fair(rand: random.Random) -> list[str]:
        order = list(cards_)
        rand.shuffle(order)
        return order

    assert _uniform(_pool_counts(fair, cards_, 6000))
    assert not _uniform(_pool_counts(naive, cards_, 6000))
