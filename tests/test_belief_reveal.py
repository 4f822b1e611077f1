"""An answer the observer sees whole (a card shown, a place named) is followed once, with the
weight of one answer among all of them, as a brute-force enumeration of histories weighs it;
so are the ways to it through an anytime action the observer does not see (the Hider may rest
before it answers, at one question or the next: two ways to the same state, each counted)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from rulekit.bots.belief import Belief
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack
from tests.test_belief import EXHAUSTIVE, SHADOW, as_json_keys, brute_force, random_game

# After hiding, the Hider names its place or a neighbour of it in the same region, in public:
# how many it may name depends on where it is (two or three), so the weights of the places a
# name leaves differ.
SIGNAL = """    - id: signal
      do: |
        let near = [x for x in neighbors(hider_at) if x.region == hider_at.region]
        let sign = choose hider one of near + [hider_at] prompt "Name a place"
        log "The Hider names {sign}."
"""


@pytest.fixture(scope="module")
def signalling(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("packs") / "shadow"
    shutil.copytree(SHADOW, folder)
    content = folder / "content.yaml"
    text = content.read_text()
    content.write_text(text.replace("    - id: seek\n", SIGNAL + "    - id: seek\n", 1))
    return load_pack(Path(folder), {"rounds": 2}).game


def test_a_named_answer_weighs_as_in_a_brute_force_enumeration(signalling: Game) -> None:
    checked = []

    def visit(state: State) -> None:
        observation = signalling.observe(state, "seeker")
        belief = Belief(signalling, "seeker", random.Random(1), **EXHAUSTIVE)
        belief.update(observation)
        expected = brute_force(signalling, "seeker", observation, "hider_at")
        got = as_json_keys(belief.distribution("hider_at"))
        assert got.keys() == expected.keys()
        for value, weight in expected.items():
            assert got[value] == pytest.approx(weight)
        checked.append(sorted(expected.values()))

    for seed in range(4):
        random_game(signalling, seed, "seeker", visit)
    # the places were told apart by weight at some point (two places to name, or three)
    assert any(len(set(weights)) > 1 for weights in checked)
