"""An anytime action that changes what the choice it interrupted offers.

The interrupted choice is asked again from the ``if``/``elif``/``while`` tests that lead
straight into it, evaluated again: a test the action made false skips the choice (its
``else`` runs), as if the action had been taken before the test. The playout path takes the
same way as the normal path.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import Game, State
from rulekit.engine.playout import Chooser, playout
from rulekit.errors import GameRuntimeError
from rulekit.pack.loader import load_pack
from tests.helpers_lang import content, load, locate, logs
from tests.test_playout import same_game

# Alice may, at any of her decisions, put every card of the discard back into the deck;
# Bob, at any of his, put Alice's hand into the discard.
ANYTIME = """\
procedures:
  clear:
    do: |
      move all from discard to deck
      log "Alice clears the discard."
  give:
    do: |
      move all from hand[a] to discard
anytime:
  - {id: clear, role: a, label: "Clear the discard", when: "count(discard) > 0", do: clear}
  - {id: give, role: b, label: "Give", when: "count(hand[a]) > 0", do: give}
"""
SETUP = "move [c for c in deck if c.kind == \"x\"] from deck to discard"


def pack(tmp_path: Path, main: str) -> Game:
    text = content(setup=SETUP, phases={"main": main}).replace("procedures:\n", "")
    return load(tmp_path, text + ANYTIME).game


def scripted(game: Game, script: list[str]) -> dict[str, Chooser]:
    """The answers of ``script`` first; then Alice clears the discard when she may; else
    the first option."""
    left = list(script)

    def choose(decision: Decision) -> Option | str:
        if left:
            return left.pop(0)
        options = decision.options()
        return next((o for o in options if o.id == "!clear"), options[0])
    return {role: choose for role in game.roles}


def both_paths(game: Game, script: list[str] | None = None) -> State:
    """The game played with :func:`scripted` choosers on the normal path; the playout path
    must give the same game."""
    state = game.new_game(0)
    choosers = scripted(game, script or [])
    while state["result"] is None:
        game.apply(state, {d.player: choosers[d.player](d) for d in game.pending(state)},
                   in_place=True)
    fast = game.initial_state(0)
    playout(game, fast, scripted(game, script or []))
    assert same_game(fast, state)
    return state


def test_a_test_made_false_by_the_action_skips_the_choice_to_its_else(tmp_path: Path) -> None:
    game = pack(tmp_path, """\
        log "Before."
        if count(discard) > 0 {
          let c = choose a one of discard prompt "Take"
          move c from discard to hand[a]
          log "Alice takes {c}."
        } else {
          log "Nothing to take."
        }
        log "After."
    """)
    first = game.new_game(0)
    assert [o.id for o in game.pending(first)[0].options()] == ["c2", "c1", "!clear"]
    state = both_paths(game)
    assert logs(game, state) == ["Before.", "Alice clears the discard.", "Nothing to take.",
                                 "After."]


def test_an_elif_and_a_while_test_are_evaluated_again(tmp_path: Path) -> None:
    game = pack(tmp_path, """\
        while count(discard) > 0 {
          let c = choose a one of discard prompt "Take"
          move c from discard to hand[a]
        }
        log "Alice holds {count(hand[a])}."
        move [c for c in deck if c.kind == "y"] from deck to discard
        if count(discard) > 5 {
          log "Many."
        } elif count(discard) > 0 {
          let c = choose a one of discard prompt "Take"
          log "Alice takes {c}."
        } else {
          log "None left."
        }
    """)
    state = both_paths(game)
    assert logs(game, state) == ["Alice clears the discard.", "Alice holds 0.",
                                 "Alice clears the discard.", "None left."]


def test_nested_tests_are_evaluated_again_from_the_outermost(tmp_path: Path) -> None:
    game = pack(tmp_path, """\
        if count(discard) > 1 {
          if count(discard) > 0 {
            let c = choose a one of discard prompt "Take"
            log "Alice takes {c}."
          }
          log "Inner end."
        } else {
          log "Outer else."
        }
    """)
    state = both_paths(game)
    assert logs(game, state) == ["Alice clears the discard.", "Outer else."]


def test_a_loop_inside_a_test_goes_on_from_its_own_test(tmp_path: Path) -> None:
    # The outer test led into the loop once; the loop's later turns come from its own head.
    game = pack(tmp_path, """\
        move [c for c in deck if c.kind == "y"] from deck to hand[a]
        if count(hand[b]) == 0 {
          while count(discard) > 0 {
            let c = choose b one of discard prompt "Take"
            move c from discard to hand[b]
          }
        }
        log "Bob holds {count(hand[b])}."
    """)
    state = both_paths(game, ["c2", "!give"])  # Bob takes a card, then gives Alice's hand
    assert logs(game, state)[-1] == "Bob holds 4."


def test_a_choice_still_offering_something_is_asked_again_afresh(tmp_path: Path) -> None:
    game = pack(tmp_path, """\
        if count(deck) > 0 {
          let c = choose a one of discard + [c for c in deck if c.kind == "z"] prompt "Take"
          log "Alice takes {c}."
        }
    """)
    state = both_paths(game)
    assert logs(game, state) == ["Alice clears the discard.", "Alice takes Six."]


def test_a_choice_not_led_into_by_a_test_is_the_error_of_an_empty_choice(
        tmp_path: Path) -> None:
    main = """\
        if count(discard) > 0 {
          log "Something to take."
          let c = choose a one of discard prompt "Take"
        }
    """
    game = pack(tmp_path, main)
    state = game.new_game(0)
    with pytest.raises(GameRuntimeError) as info:
        game.apply(state, {"a": "!clear"})
    assert info.value.message == "a must choose, but there is nothing to choose"
    loc = info.value.location
    text = content(setup=SETUP, phases={"main": main})
    assert loc is not None and (loc.line, loc.column) == locate(text, "let c = choose")


# ------------------------------------------------------------ random games

# Choices led into by every kind of test, and anytime actions of both players that change
# what those tests read: Alice clears the discard, Bob gives Alice's hand to the discard.
GUARDS = """\
        draw 2 from deck to discard
        while count(discard) > 1 {
          let c = choose a one of discard prompt "Take"
          move c from discard to hand[a]
        }
        if count(discard) > 2 {
          log "Many."
        } elif count(discard) > 0 {
          let c = choose b one of discard prompt "Take"
          move c from discard to hand[b]
        } else {
          log "None."
        }
        if count(hand[a]) > 0 {
          if count(discard) > 0 {
            let c = choose a one of discard optional prompt "Take"
            if c != none { move c from discard to hand[a] }
          }
        }
        if count(hand[a]) > 0 {
          let c = choose b one of hand[a] prompt "Send back"
          move c from hand[a] to deck
        }
        shuffle deck
"""


def guards_pack(tmp_path: Path) -> Game:
    text = content(setup=SETUP, phases={"main": GUARDS}, rounds="4",
                   after_rounds='if count(hand[a]) > count(hand[b]) { win a "More." } '
                                'else { win b "As many." }')
    return load(tmp_path, text.replace("procedures:\n", "") + ANYTIME).game


def keen(seed: int, game: Game, keenness: float = 0.5) -> dict[str, Chooser]:
    """Random bots that take an anytime action, when one is offered, with probability
    ``keenness`` (1: whenever they can)."""
    def chooser(rand: random.Random) -> Chooser:
        def choose(decision: Decision) -> Option:
            extras = decision.extras
            if extras and rand.random() < keenness:
                return rand.choice(extras)
            return decision.sample(rand)
        return choose
    return {role: chooser(random.Random(f"{seed}:{role}")) for role in game.roles}


def played(game: Game, seed: int, choosers: dict[str, Chooser]) -> tuple[State, int]:
    """A game to its end on the normal path (every other one quiet), and its decisions."""
    state = game.new_game(seed, quiet=seed % 2 == 1)
    decisions = 0
    while state["result"] is None:
        actions = {d.player: choosers[d.player](d) for d in game.pending(state)}
        assert actions, "the game neither ended nor asked anything"
        game.apply(state, actions, in_place=True)
        decisions += len(actions)
    return state, decisions


def check_games(game: Game, seeds: range, keenness: float) -> int:
    """Play each seed on both paths: it ends with a winner, the same game on both; the
    number of anytime actions taken."""
    taken = 0
    for seed in seeds:
        state, decisions = played(game, seed, keen(seed, game, keenness))
        assert state["result"]["winner"] in game.roles, f"game {seed}: {state['result']}"
        taken += sum(e["e"] == "choice" and e["option"].startswith("!") for e in state["log"])
        fast = game.initial_state(seed, quiet=seed % 2 == 1)
        assert playout(game, fast, keen(seed, game, keenness)) == (decisions, None)
        assert same_game(fast, state), f"game {seed} differs on the playout path"
    return taken


def test_random_games_with_tests_before_choices_on_both_paths(tmp_path: Path) -> None:
    game = guards_pack(tmp_path)
    assert check_games(game, range(150), 0.5) > 150


@pytest.mark.parametrize(("name", "games", "keenness"),
                         [("rednotice", 2, 1.0), ("rednotice", 3, 0.3), ("carchase", 12, 1.0)])
def test_shipped_packs_with_keen_bots_on_both_paths(name: str, games: int,
                                                     keenness: float) -> None:
    game = load_pack(name).game
    taken = check_games(game, range(games), keenness)
    assert taken > games or not game.program.anytime
