"""The candidates a choice refuses, and why (``where COND else "..."``).

A game with a log keeps them in the decision's spec, as the choice was made; a quiet game
(a simulation, a bot's search) never builds them, and the other player sees nothing."""

from __future__ import annotations

import json
from pathlib import Path

from rulekit.engine.game import Game, State, copy_state
from tests.helpers_lang import content, run

# The choice stands in a procedure (its frame above the setup's), and its reason reads a
# parameter, a local, a pile and the candidate.
REASON = '"{it} scores {it.score}, more than {limit} (of {count(hand[p])} in hand, {n} asked)"'
PICK = ("{p: role, n: int}", f"""
    let limit = n + 1
    let xs = choose p subset of hand[p] where it.score <= limit else {REASON} where it.kind != "x"
    log "{{xs}}"
""")
SETUP = "draw 6 from deck to hand[a]\npick(a, 3)\n"


def game_and_state(tmp_path: Path, seed: int = 0) -> tuple[Game, State]:
    return run(tmp_path, content(setup=SETUP, procs={"pick": PICK}), seed)


REFUSED = ["Five scores 5, more than 4 (of 6 in hand, 3 asked)",
           "Six scores 6, more than 4 (of 6 in hand, 3 asked)"]


def test_the_player_reads_the_reasons_of_the_state_its_decision_waits_in(tmp_path: Path
                                                                          ) -> None:
    game, state = game_and_state(tmp_path)
    [decision] = game.pending(state)
    assert [game.explain(why) for _, why in decision.refused()] == REFUSED
    assert decision.refusal("Six") == REFUSED[1]
    [seen] = game.observe(state, "a")["decisions"]
    assert [card for card, _ in seen["refused"]] == ["c5", "c6"]
    assert [game.explain(why) for _, why in seen["refused"]] == REFUSED
    assert list(seen)[:6] == ["player", "kind", "prompt", "items", "slot", "refused"]
    # Saved and loaded again (plain data), the state tells the same.
    loaded = json.loads(json.dumps(state))
    assert game.observe(loaded, "a") == game.observe(state, "a")
    assert game.pending(loaded)[0].refusal("five") == REFUSED[0]


def test_the_other_player_is_told_no_reason(tmp_path: Path) -> None:
    game, state = game_and_state(tmp_path)
    seen = game.observe(state, "b")
    assert seen["decisions"] == [] and seen["waiting_for"] == ["a"]
    assert "more than" not in json.dumps(seen)


def test_a_quiet_game_keeps_no_reason(tmp_path: Path) -> None:
    game, _ = game_and_state(tmp_path)
    state = game.new_game(0, quiet=True)
    [spec] = state["pending"]
    assert "refused" not in spec
    [decision] = game.pending(state)
    assert decision.refused() == [] and decision.refusal("Six") is None
    assert "refused" not in game.observe(state, "a")["decisions"][0]


LABELLED = ("{p: role, n: int}", """
    let c = choose p one of hand[p] where it.score > n + 1 else "{it} is too low" label LABEL
    log "{c}"
""".replace("LABEL", '"{it} for {it.score + score}" prompt "Play"'))


def test_labels_are_made_from_the_frame_of_the_choice(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup=SETUP, procs={"pick": LABELLED}))
    [decision] = game.pending(state)
    assert [o.label for o in decision.options()] == ["Five for 7", "Six for 8"]
    assert decision.refusal("four") == "Four is too low"
    [seen] = game.observe(state, "a")["decisions"]
    assert [game.explain(label) for label in seen["labels"]] == ["Five for 7", "Six for 8"]
    assert list(seen)[:7] == ["player", "kind", "prompt", "items", "slot", "refused", "labels"]
    assert game.observe(json.loads(json.dumps(state)), "a") == game.observe(state, "a")


def test_a_copy_of_a_state_tells_the_same_reasons(tmp_path: Path) -> None:
    game, state = game_and_state(tmp_path)
    twin = copy_state(state)  # shares the pending spec
    game.apply(state, {"a": "c3"}, in_place=True)  # the original goes on
    assert state["pending"] == []
    [again] = game.pending(twin)
    assert again.refusal("Five") == REFUSED[0]


def test_a_decision_still_reads_its_state_after_a_copy_went_on(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup=SETUP, procs={"pick": LABELLED}))
    [decision] = game.pending(state)
    after = game.apply(state, {"a": "c5"})  # a copy goes on; the state given waits still
    assert after["pending"] == [] and state["pending"]
    assert [o.label for o in decision.options()] == ["Five for 7", "Six for 8"]
    assert decision.refusal("four") == "Four is too low"
