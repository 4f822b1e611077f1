"""Whether a player is asked never depends on data the others may not see.

A choice whose options may read non-public data is asked even with a single legal answer or
none; an anytime action is offered even where the choice is forced, never inside its own
procedure, and its ``when`` failing at run time is a located error. Tiny packs from
``helpers_lang``: zone ``hand`` is per role and seen by its owner, ``deck`` is hidden, ``discard``
public.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_lang import content, load, locate, logs, run

from rulekit.engine.game import Game, State
from rulekit.errors import GameRuntimeError


def waiting(game: Game, state: State) -> list[str]:
    return [d.player for d in game.pending(state)]


def option_ids(game: Game, state: State) -> list[str]:
    return [o.id for o in game.pending(state)[0].options()]


@pytest.mark.parametrize("choice, options", [
    ("choose a one of hand[a]", ["c1"]),                         # one card: still asked
    ("choose a one of hand[a] where it.score > 5 optional", ["none"]),   # nothing: 'none'
    ("choose a subset of hand[a] max 0", ["none"]),              # only the empty set
    ("choose a subset of hand[a] min 1", ["c1"]),                # only the whole hand
    ("choose a subset of discard where it in hand[a]", ["none"]),  # a secret in the where
    ("choose b one of [1] where top(hand[a]) != none", ["1"]),   # even another's secret
])
def test_a_choice_over_a_secret_is_asked_even_when_forced(tmp_path: Path, choice: str,
                                                          options: list[str]) -> None:
    game, state = run(tmp_path, content(setup=f"draw 1 from deck to hand[a]\nlet x = {choice}"
                                        "\nlog \"done\""))
    player = choice.split()[1]
    assert waiting(game, state) == [player]
    assert option_ids(game, state) == options
    assert game.observe(state, "a")["waiting_for"] == [player]
    assert game.observe(state, "b")["waiting_for"] == [player]
    state = game.apply(state, {player: options[0]})
    assert logs(game, state) == ["done"]


def test_a_required_choice_of_nothing_stays_an_error(tmp_path: Path) -> None:
    with pytest.raises(GameRuntimeError, match="nothing to choose"):
        run(tmp_path, content(setup="let x = choose a one of hand[a]"))


@pytest.mark.parametrize("setup", [
    # The data reaches the choice through a local, a loop, a branch, a parameter or a function.
    "let mine = hand[a]\nlet x = choose a one of mine",
    "let n = 0\nfor c in hand[a] { n += c.score }\nlet x = choose a one of range(n, 1)",
    "let n = 0\nif count(hand[a]) > 0 and top(hand[a]).score > 0 { n = 1 }\n"
    "let x = choose b one of range(n, 1)",
    "pick(hand[a])",
    "let x = choose a one of mine()",
    "let y = choose a one of [1, 2]\nlet x = choose b one of range(y, 1)",  # an answer
])
def test_secrets_are_followed_through_locals_parameters_and_functions(
        tmp_path: Path, setup: str) -> None:
    text = content(setup="draw 1 from deck to hand[a]\n" + setup,
                   procs={"pick": ("{cs: list}", "let x = choose a one of cs")},
                   functions={"mine": ("{}", "[c for c in hand[a]]")})
    game, state = run(tmp_path, text)
    if setup.startswith("let y"):
        state = game.apply(state, {"a": "1"})
    decision = game.pending(state)[0]
    assert len(decision.options()) == 1  # a single answer, asked all the same


@pytest.mark.parametrize("choice", [
    "choose a one of discard where count(hand[a]) == 1",  # sizes of piles are public
    "choose a one of discard where count(deck) == 3",
    "choose a one of [1, 2] where it == count(hand[b])",
])
def test_a_choice_over_public_data_is_still_taken_at_once(tmp_path: Path, choice: str) -> None:
    text = content(setup="draw 1 from deck to hand[a]\nmove @c2 from deck to discard\n"
                         f"draw 1 from deck to hand[b]\nlet x = {choice}\nlog \"{{x}}\"")
    game, state = run(tmp_path, text)
    assert game.is_over(state) and not game.pending(state)
    assert not [e for e in state["log"] if e["e"] == "choice"]


# ------------------------------------------------------------------ anytime actions

ANYTIME = """anytime:
  - {id: pay, role: a, label: "Pay 1", when: "%s", do: pay}
"""
PAY = ("{}", 'let c = choose a one of discard optional prompt "Take which?"\n'
             'if c != none { total += 1\nmove c from discard to hand[a]\n'
             'log "Alice pays 1 for {c}." }')


def anytime_pack(tmp_path: Path, setup: str, when: str = "total < 5") -> Game:
    text = content(setup=setup, procs={"pay": PAY}) + ANYTIME % when
    return load(tmp_path, text).game


def test_an_anytime_action_is_offered_at_a_forced_choice(tmp_path: Path) -> None:
    game = anytime_pack(tmp_path, "move [@c1, @c2] from deck to discard\n"
                                  'let x = choose a one of [7] prompt "Go"\nlog "went {x}"')
    state = game.new_game(0)
    assert option_ids(game, state) == ["7", "!pay"]
    state = game.apply(state, {"a": "!pay"})
    # Inside its own question the action is not offered again: one payment, one card.
    assert game.pending(state)[0].prompt == "Take which?"
    assert option_ids(game, state) == ["none", "c1", "c2"]
    state = game.apply(state, {"a": "c1"})
    assert game.pending(state)[0].prompt == "Go" and option_ids(game, state) == ["7", "!pay"]
    state = game.apply(state, {"a": "7"})
    assert logs(game, state) == ["Alice pays 1 for One.", "went 7"]
    assert state["vars"]["total"] == 1


def test_an_anytime_action_is_offered_at_an_empty_optional_choice(tmp_path: Path) -> None:
    game = anytime_pack(tmp_path, "move @c1 from deck to discard\n"
                                  "let x = choose a one of [] optional")
    state = game.new_game(0)
    assert option_ids(game, state) == ["none", "!pay"]


def test_without_an_anytime_action_a_forced_public_choice_is_taken(tmp_path: Path) -> None:
    game = anytime_pack(tmp_path, 'let x = choose a one of [7]\nlog "went {x}"',
                        when="total > 5")
    state = game.new_game(0)
    assert game.is_over(state) and logs(game, state) == ["went 7"]


def test_an_anytime_condition_over_a_secret_makes_every_choice_asked(tmp_path: Path) -> None:
    game = anytime_pack(tmp_path, 'let x = choose a one of [7]\nlog "went {x}"',
                        when="count(hand[a]) > 0 and top(hand[a]).score > 5")
    state = game.new_game(0)
    assert option_ids(game, state) == ["7"]  # asked, though the action is not available


def test_an_anytime_condition_failing_at_run_time_is_a_located_error(tmp_path: Path) -> None:
    when = "top(hand[a]).score > 0"
    text = content(setup="let x = choose a one of [7, 8]", procs={"pay": PAY}) + ANYTIME % when
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as info:
        state = game.new_game(0)
        game.pending(state)
    assert "none has no properties" in info.value.message
    loc = info.value.location
    assert loc is not None and loc.file.endswith("content.yaml")
    assert loc.line == locate(text, when)[0]


def test_an_anytime_condition_may_use_a_comprehension(tmp_path: Path) -> None:
    game = anytime_pack(tmp_path, "let x = choose a one of [7, 8]",
                        when="any([x > 1 for x in [1, 2]])")
    assert option_ids(game, game.new_game(0)) == ["7", "8", "!pay"]
