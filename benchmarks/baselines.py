"""Scripted players of the shipped games: yardsticks for the bots' strength.

They know one game each and play it the simple way a person would at first. They belong
here, not in ``rulekit/``, since the engine knows no game. Seat them by name, with this folder
on ``sys.path``: ``--agents fugitive=baselines:CarChaseGreedy``.
"""

from __future__ import annotations

from rulekit import Decision, Option, View

# The card types each role of Car Chase can play (CC-10 to CC-13), Locations included.
USEFUL = {"law": {"I", "C", "P", "L"}, "fugitive": {"F", "C", "E", "L"}}
KEEP_SCORE = 5  # a useful card scoring this or more is kept at the exchange


class CarChaseGreedy:
    """Plays every card a phase allows, and exchanges its weakest cards.

    In a contest it takes the legal play with the highest total (so the best Location). At the
    exchange it discards, weakest first, the cards its role cannot play and those scoring
    under ``KEEP_SCORE``.
    """

    def choose(self, view: View, decision: Decision) -> Option:
        cards = view.game.symbols.cards
        score = {card_id: int(cards[str(card_id)]["score"]) for card_id in decision.items}
        if decision.prompt.startswith("Discard"):
            useful = USEFUL[view.role]
            weak = [(cards[str(c)]["type"] not in useful, score[c], i)
                    for i, c in enumerate(decision.items)]
            weak = [w for w in weak if w[0] or w[1] < KEEP_SCORE]
            return decision.subset_option(_first(weak, decision.max))
        return max(decision.options(), key=lambda o: sum(score[c] for c in _cards(o)))


def _first(weak: list[tuple[bool, int, int]], most: int) -> list[int]:
    """The positions of the ``most`` weakest cards, useless ones first, in increasing order."""
    ranked = sorted(weak, key=lambda w: (not w[0], w[1]))
    return sorted(i for _, _, i in ranked[:most])


def _cards(option: Option) -> list[object]:
    value = option.value
    return value if isinstance(value, list) else []
