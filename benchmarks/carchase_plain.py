"""Car Chase written by hand in plain Python, random player against random player.

This is the yardstick of the engine's speed: what a user would write for this one game, with
no engine at all (lists of ints, ``random.Random``). It follows the rules checklist
(CC-01 to CC-18) and plays each choice the way the engine's random agent does: a subset drawn
uniformly among the legal ones.
"""

from __future__ import annotations

import random

# The card list (CC-04): (type, score) for each of the 78 cards.
FUG, INV, CHASE, CAPTURE, ESCAPE, LOC = range(6)
_COUNTS = {FUG: 13, INV: 13, CHASE: 19, CAPTURE: 13, ESCAPE: 13, LOC: 7}
_SCORES = {
    FUG: [5, 4, 8, 12, 11, 1, 3, 9, 7, 10, 6, 2, 13],
    INV: [3, 1, 4, 5, 6, 2, 7, 10, 12, 11, 8, 9, 13],
    CHASE: [2, 1, 6, 4, 2, 1, 5, 4, 3, 10, 5, 7, 6, 7, 3, 9, 8, 8, 9],
    CAPTURE: [10, 9, 5, 6, 8, 13, 12, 7, 11, 4, 1, 3, 2],
    ESCAPE: [10, 9, 8, 7, 1, 6, 5, 2, 3, 4, 11, 12, 13],
    LOC: [1, 2, 3, 4, 5, 6, 7],
}
TYPE = [t for t in range(6) for _ in range(_COUNTS[t])]
SCORE = [s for t in range(6) for s in _SCORES[t]]
TURNS, HAND_SIZE, DISCARD_LIMIT = 7, 10, 5
# The contests after the Draw phase: (Law's card type, Fugitive's card type).
CONTESTS = [(INV, FUG), (CHASE, CHASE), (CAPTURE, ESCAPE)]


def draw(deck: list[int], discard: list[int], hand: list[int], n: int,
         rand: random.Random) -> None:
    """Draw ``n`` cards; an empty deck is rebuilt from the shuffled discard pile (CC-05)."""
    for _ in range(n):
        if not deck:
            if not discard:
                return
            deck.extend(discard)
            discard.clear()
            rand.shuffle(deck)
        hand.append(deck.pop())


def random_subset(cards: list[int], most: int, rand: random.Random) -> list[int]:
    """A subset of at most ``most`` cards, uniform among those subsets."""
    while True:
        bits = rand.getrandbits(len(cards)) if cards else 0
        if bits.bit_count() <= most:
            return [c for i, c in enumerate(cards) if bits >> i & 1]


def random_play(hand: list[int], kind: int, rand: random.Random) -> list[int]:
    """Cards of ``kind`` and Locations, at most one Location, uniform among those subsets."""
    allowed = [c for c in hand if TYPE[c] == kind or TYPE[c] == LOC]
    while True:
        bits = rand.getrandbits(len(allowed)) if allowed else 0
        chosen = [c for i, c in enumerate(allowed) if bits >> i & 1]
        if sum(1 for c in chosen if TYPE[c] == LOC) <= 1:
            return chosen


def play(seed: int) -> tuple[str, int]:
    """One game from ``seed``; (winner, turns played)."""
    rand = random.Random(seed)
    deck = list(range(len(TYPE)))
    rand.shuffle(deck)
    discard: list[int] = []
    law: list[int] = []
    fugitive: list[int] = []
    for turn in range(1, TURNS + 1):
        discard.extend(law)  # CC-07
        discard.extend(fugitive)
        law.clear()
        fugitive.clear()
        draw(deck, discard, law, HAND_SIZE, rand)  # CC-08
        draw(deck, discard, fugitive, HAND_SIZE, rand)
        for hand in (law, fugitive):  # CC-09
            out = random_subset(hand, DISCARD_LIMIT, rand)
            for card in out:
                hand.remove(card)
            discard.extend(out)
            draw(deck, discard, hand, len(out), rand)
        for law_kind, fugitive_kind in CONTESTS:  # CC-10 to CC-16
            law_cards = random_play(law, law_kind, rand)
            fugitive_cards = random_play(fugitive, fugitive_kind, rand)
            for card in law_cards:
                law.remove(card)
            for card in fugitive_cards:
                fugitive.remove(card)
            discard.extend(law_cards)  # CC-17
            discard.extend(fugitive_cards)
            if sum(SCORE[c] for c in law_cards) <= sum(SCORE[c] for c in fugitive_cards):
                break
        else:
            return "law", turn  # CC-02
    return "fugitive", TURNS  # CC-03
