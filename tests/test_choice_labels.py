"""A pack names the options of a choice (``choose ... label "{it} ({it.kind})"``): the chooser
reads the pack's words in ``pending()``, at the ``rulekit play`` prompt and in a bot's log; an
option's id stays the item's id; a label says only what the chooser sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers_lang import content, load_errors, locate, run, write_pack
from tests.helpers_play import play  # noqa: F401  (a fixture)

DEAL = "draw 4 from deck to hand[a]\n"
ONE = DEAL + 'let c = choose a one of hand[a] optional label "{it} ({it.kind}{it.score})"\n' \
    'log "{c}"\n'
SUBSET = DEAL + ('let xs = choose a subset of hand[a] where it.kind == "x" or it.score > 2 '
                 'label "{it}: {it.score} of {count(hand[a])}" max 2\nlog "{xs}"\n')


def test_the_options_of_a_choice_carry_the_packs_labels_and_keep_their_ids(
        tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup=ONE))
    [decision] = game.pending(state)
    assert [(o.id, o.label) for o in decision.options()] == [
        ("none", "(none)"), ("c1", "One (x1)"), ("c2", "Two (x2)"), ("c3", "Three (y3)"),
        ("c4", "Four (y4)")]
    # what a player may type: the id, the label or a unique start of it
    assert decision.find("c3").label == "Three (y3)"
    assert decision.find("four (y").id == "c4"
    state = game.apply(state, {"a": "c2"})
    assert [e["option"] for e in state["log"] if e["e"] == "choice"] == ["c2"]


def test_a_subset_names_each_item_by_its_label(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup=SUBSET))
    [decision] = game.pending(state)
    option = decision.option("c1+c4")
    assert option.label == "One: 1 of 4 + Four: 4 of 4"
    assert option.value == ["c1", "c4"]


def test_a_quiet_game_computes_no_labels(tmp_path: Path) -> None:
    game, _ = run(tmp_path, content(setup=ONE))
    state = game.new_game(0, quiet=True)
    [decision] = game.pending(state)
    assert "labels" not in state["pending"][0]
    assert decision.option("c1").label == "One"  # the item's own name


@pytest.mark.parametrize(("code", "needle", "message"), [
    (DEAL + 'let c = choose a one of hand[a] label "{it.colour}"\nlog "{c}"\n',
     "it.colour", "no card has the property 'colour'"),
    (DEAL + 'let c = choose a one of hand[a] label "{it} {scroe}"\nlog "{c}"\n',
     "scroe", "unknown name 'scroe'"),
    (DEAL + 'let c = choose a one of hand[a] label "{it"\nlog "{c}"\n',
     "{it", "unclosed '{' in log text"),
    # a label tells the chooser only what they see: public data, their own piles, the
    # candidate, and no other local variable (its value may come from a secret)
    (DEAL + 'let c = choose a one of hand[a] label "{it}, then {first(deck)}"\nlog "{c}"\n',
     "first(deck)", "a label is told to the chooser, who may not see this"),
    (DEAL + 'let c = choose b one of [1, 2] label "{it}: {hand[a]}"\nlog "{c}"\n',
     "hand[a]", "a label is told to the chooser, who may not see this"),
    (DEAL + 'let peek = first(deck)\nlet c = choose a one of [1, 2] label "{it} {peek}"\n'
     'log "{c}"\n', "peek}", "a label is told to the chooser, who may not see this"),
])
def test_labels_are_checked_when_the_pack_loads(tmp_path: Path, code: str, needle: str,
                                                message: str) -> None:
    text = content(setup=code)
    errors = load_errors(tmp_path, text)
    assert errors[0].message.startswith(message), errors[0].message
    loc = errors[0].location
    assert loc is not None and (loc.line, loc.column) == locate(text, needle, after="label")


def test_a_misplaced_label_is_a_syntax_error_where_it_stands(tmp_path: Path) -> None:
    text = content(setup=DEAL + 'let c = choose a one of hand[a] label it.name\nlog "{c}"\n')
    errors = load_errors(tmp_path, text)
    loc = errors[0].location
    assert loc is not None and (loc.line, loc.column) == locate(text, "it.name", after="label")


Play = Callable[..., tuple[int, str, str]]


def test_the_player_reads_the_labels_at_the_prompt(play: Play, tmp_path: Path) -> None:  # noqa: F811
    folder = write_pack(tmp_path / "labelled", content(setup=ONE))
    code, out, _ = play(["three", "quit"], "play", folder, "--seat", "a=human,b=random",
                        "--no-color")
    assert code == 0, out
    menu = out.split("Alice: Choose one\n", 1)[1].split("Type a number", 1)[0]
    assert menu.splitlines() == ["  0  (none)", "  1  One (x1)", "  2  Two (x2)",
                                 "  3  Three (y3)", "  4  Four (y4)"]
    assert "Alice> three\n  -- Setup --\n  Three\n" in out  # a typed start of a label


def test_the_references_example_offers_what_the_reference_says(tmp_path: Path) -> None:
    from rulekit.pack.loader import load_pack
    from tests.test_docs_examples import _reference_examples, _write_sandbox

    [example] = [e for e in _reference_examples() if " label \"" in e]
    game = load_pack(_write_sandbox(tmp_path / "sandbox", example)).game
    [decision] = game.pending(game.new_game(0))
    assert [(o.id, o.label) for o in decision.options()] == [("dock", "Dock (South)"),
                                                             ("tower", "Tower (North)")]
    assert decision.find("Tower (N").id == "tower"


def test_a_label_may_read_the_public_map(tmp_path: Path) -> None:
    from rulekit.pack.loader import load_pack
    from tests.test_docs_examples import _write_sandbox

    code = ('let dest = choose runner one of neighbors(@mill) label "{it}: {distance(it, @mill)}'
            ' away, {count(neighbors(it))} routes by {edge(it, @mill)}" prompt "Move to"')
    game = load_pack(_write_sandbox(tmp_path / "sandbox", code)).game
    [decision] = game.pending(game.new_game(0))
    assert decision.options()[0].label.startswith("Dock: 1 away, ")
