"""A belief renames a hidden card even where its name changes what the log says next.

On the Reveal pack a holder lays one of nine tokens face down, and it is turned up later. The
line that turns it up also says whether it beats the watcher: only t9 does, and the game then
ends at once. A belief with room for one of the holder's answers holds some other token.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.bots.belief import Belief
from rulekit.pack.loader import load_pack

REVEAL = Path(__file__).parent / "packs" / "reveal"


@pytest.mark.parametrize("seed", range(6))
def test_a_token_turned_up_is_followed_whatever_it_decides(seed: int) -> None:
    game = load_pack(REVEAL).game
    belief = Belief(game, "watcher", random.Random(seed), particles=1, frontier=1, keep=1,
                    tries=1, seeds=1)
    state = game.new_game(seed)
    state = game.apply(state, {"holder": "t9"})
    belief.update(game.observe(state, "watcher"))
    state = game.apply(state, {"watcher": "now"})
    assert state["result"] is not None  # t9 beat the watcher
    belief.update(game.observe(state, "watcher"))
    assert not belief.lost and belief.restarts == 0
    assert belief.sample(random.Random(seed))["zones"]["shown"] == ["t9"]


REVEALS = Path(__file__).parent / "packs" / "reveals"


@pytest.mark.parametrize("seed", range(6))
def test_two_tokens_turned_up_in_one_step_are_both_followed(seed: int) -> None:
    # The first token turned up changes what the step logs before the second: a belief holding
    # two other tokens renames the first, plays the step again, then renames the second.
    game = load_pack(REVEALS).game
    belief = Belief(game, "watcher", random.Random(seed), particles=1, frontier=1, keep=1,
                    tries=1, seeds=1)
    state = game.new_game(seed)
    state = game.apply(state, {"holder": "t9"})
    state = game.apply(state, {"holder": "t4"})
    belief.update(game.observe(state, "watcher"))
    state = game.apply(state, {"watcher": "now"})
    belief.update(game.observe(state, "watcher"))
    assert not belief.lost and belief.restarts == 0
    assert belief.sample(random.Random(seed))["zones"]["shown"] == ["t9", "t4"]
