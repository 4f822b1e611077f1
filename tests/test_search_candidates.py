"""The shortcuts a search takes over a subset choice's answers give what the long way gives."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rulekit.bots import ismcts
from rulekit.bots.ismcts import _items_of
from rulekit.bots.rollout import largest_option, largest_subset
from rulekit.engine.decisions import NONE_ID, Decision
from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game


def subset_decisions(pack: str, games: int) -> list[Decision]:
    """The subset choices met along random games of ``pack``."""
    game = load_pack(pack).game
    found: list[Decision] = []
    for index in range(games):
        rand = random.Random(index)
        state = game.new_game(derive(3, index))
        while state["result"] is None and len(found) < 60 * (index + 1):
            decisions = game.pending(state)
            found += [d for d in decisions if d.kind == "subset"]
            state = game.apply(state, {d.player: d.sample(rand) for d in decisions},
                               in_place=True)
    return found


def test_an_answer_ruled_out_by_its_items_is_never_legal() -> None:
    """The ids a search passes over (those naming an item ``Decision.offered`` lacks) are
    only ids ``legal_option`` refuses: ids of other decisions' answers (other hands), tried
    on each decision."""
    decisions = subset_decisions("carchase", 3)  # (Red Notice has no subset choice)
    assert len(decisions) > 20
    rand = random.Random(0)
    ids = [d.sample(rand).id for d in decisions for _ in range(4)]
    ruled_out = legal = 0
    for decision in decisions:
        own = [decision.sample(rand).id for _ in range(10)]
        for option_id in rand.sample(ids, min(len(ids), 40)) + own:
            if not _items_of(option_id) <= decision.offered:
                ruled_out += 1
                assert decision.legal_option(option_id) is None, option_id
            elif decision.legal_option(option_id) is not None:
                legal += 1
    assert ruled_out and legal  # both ways met


def test_a_largest_subset_as_an_option_is_the_option_its_id_names() -> None:
    rand = random.Random(1)
    for decision in subset_decisions("carchase", 2):
        chosen = largest_subset(decision, rand)
        if len(chosen) < decision.min:
            continue
        option = decision.subset_option(chosen)
        named = decision.option(option.id)
        assert (option.id, option.value) == (named.id, named.value)


def _plain_candidates(decision: Decision, stats: dict[str, list[float]], rng: random.Random
                      ) -> list[str]:
    """What a node weighs, the long way: every id tried there looked up, no memo."""
    if decision.kind == "one" or len(decision.items) <= 4:
        return [option.id for option in decision.options()]
    found: dict[str, str] = {}
    for option_id in stats:
        option = decision.legal_option(option_id)
        if option is not None:
            found[option_id] = option.id
            if len(found) >= ismcts.WIDTH:
                return list(found.values())
    for _ in range(2 * ismcts.LARGEST):
        largest = largest_option(decision, rng)
        if largest is not None:
            found.setdefault(largest.id, largest.id)
    if decision.min == 0:
        found.setdefault(NONE_ID, NONE_ID)
    for _ in range(2 * ismcts.WIDTH):
        if len(found) >= ismcts.WIDTH:
            break
        option = decision.sample(rng)
        found.setdefault(option.id, option.id)
    return list(found.values())


@pytest.mark.parametrize("role", ["law", "fugitive"])
def test_a_search_weighs_what_the_long_way_gives(role: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """At every node of whole searches, the candidates (with the memo of earlier visits and
    the ids passed over by their items) are those of the long way, and draw the same random
    numbers."""
    fast = ismcts._candidates
    calls = []

    def checked(decision: Decision, stats: dict[str, list[float]], rng: random.Random,
                memo: ismcts._Memo, rank: Callable[[], list[str]]) -> list[str]:
        twin = random.Random()
        twin.setstate(rng.getstate())
        want = _plain_candidates(decision, dict(stats), twin)
        got = fast(decision, stats, rng, memo, list)  # (no ranked subsets: checked apart)
        assert got == want and rng.getstate() == twin.getstate(), decision
        calls.append(len(memo.legal) > 0)
        return got

    monkeypatch.setattr(ismcts, "_candidates", checked)
    game = load_pack("carchase").game
    for seed in range(2):
        play_game(game, seed, {role: "ismcts:iterations=150"})
    assert len(calls) > 1000 and any(calls)  # the memo was used
