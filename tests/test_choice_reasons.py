"""A pack says why a choice refuses an answer (``where COND else "..."``, ``at most K where COND
else "..."``, ``min N else "..."``): the player reads the pack's words, not the engine's."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.engine.decisions import Decision
from rulekit.errors import IllegalActionError
from rulekit.pack.loader import load_pack
from tests.helpers_lang import content, load_errors, locate, run
from tests.helpers_play import play  # noqa: F401  (a fixture)

DEAL = "draw 6 from deck to hand[a]\n"
CHOICE = (DEAL + 'let xs = choose a subset of hand[a] where it.kind != "z" else '
          '"{it} is a {it.kind} card: never playable" where it.score > 1 '
          'at most 1 where it.kind == "x" else "Only one x card, not {count(hand[a])}" '
          'min 1 else "Play at least one card" max 3 else "Three cards at most"\n'
          'log "{xs}"\n')


def test_each_rule_says_why_it_refuses_an_answer(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup=CHOICE))
    [decision] = game.pending(state)
    assert [o.label for o in decision.options()][:3] == ["Two", "Three", "Four"]
    for answer, why in [
        ("c5", "Five is a z card: never playable"),         # the first 'where' refuses it
        ("c2+c6", "Six is a z card: never playable"),
        ("c1", None),                                       # the second 'where', without reason
        ("c2+c1", None),
        ("none", "Play at least one card"),
        ("c2+c3+c4+c1", None),
        ("c3+c4", ""),                                      # legal
    ]:
        if why == "":
            decision.option(answer)
            continue
        with pytest.raises(IllegalActionError) as info:
            decision.option(answer)
        if why is not None:
            assert info.value.message == why
        else:
            assert "Five" not in info.value.message and "Play" not in info.value.message
    # a typed name, as the terminal reads it
    with pytest.raises(IllegalActionError) as info:
        decision.find("fiv")
    assert info.value.message == "Five is a z card: never playable"


def test_a_broken_at_most_rule_and_max_say_the_packs_words(tmp_path: Path) -> None:
    setup = CHOICE.replace("where it.score > 1 ", "")
    game, state = run(tmp_path, content(setup=setup))
    [decision] = game.pending(state)
    with pytest.raises(IllegalActionError) as info:
        decision.option("c1+c2")
    assert info.value.message == "Only one x card, not 6"
    with pytest.raises(IllegalActionError) as info:
        decision.option("c1+c3+c4+c6")
    assert info.value.message == "Six is a z card: never playable"
    assert decision.option("c1+c3+c4").value == ["c1", "c3", "c4"]  # 3 is the max
    with pytest.raises(IllegalActionError) as info:
        decision.option("c1+c2+c3+c4")
    assert info.value.message == "Three cards at most"


def test_a_one_choice_says_why_a_candidate_is_refused(tmp_path: Path) -> None:
    code = DEAL + ('let c = choose a one of hand[a] where it.score % 2 == 0 else '
                   '"{it} is odd ({it.score})" optional\nlog "{c}"\n')
    game, state = run(tmp_path, content(setup=code))
    [decision] = game.pending(state)
    with pytest.raises(IllegalActionError) as info:
        decision.option("c3")
    assert info.value.message == "Three is odd (3)"
    assert decision.option("c4").value == "c4"


@pytest.mark.parametrize(("code", "needle", "message"), [
    (DEAL + 'let xs = choose a subset of hand[a] at most 1 where it.kind == "x" else '
     '"not {it}"\nlog "{xs}"\n', "it}", "unknown name 'it'"),
    (DEAL + 'let c = choose a one of hand[a] where it.score > 1 else "no {it.colour}"\n'
     'log "{c}"\n', "it.colour", "no card has the property 'colour'"),
    (DEAL + 'let c = choose a one of hand[a] where it.score > 1 else "no {it"\nlog "{c}"\n',
     "{it", "unclosed '{' in log text"),
    # a reason must not tell the chooser what they may not see
    (DEAL + 'let c = choose b one of hand[a] where it.score > 1 else "no {it}"\nlog "{c}"\n',
     '"no {it}"', "a reason on 'where' names the candidate it refuses, and the chooser may not "
     "see every candidate of this list"),
    (DEAL + 'let c = choose a one of hand[a] where it.score > 1 else "no: {first(deck)}"\n'
     'log "{c}"\n', "first(deck)", "a reason is told to the chooser, who may not see this"),
    (DEAL + 'let xs = choose a subset of hand[a] min 1 else "{hand[b]}"\nlog "{xs}"\n',
     "hand[b]", "a reason is told to the chooser, who may not see this"),
])
def test_reasons_are_checked_when_the_pack_loads(tmp_path: Path, code: str, needle: str,
                                                 message: str) -> None:
    text = content(setup=code)
    errors = load_errors(tmp_path, text)
    assert errors[0].message.startswith(message)
    loc = errors[0].location
    assert loc is not None and (loc.line, loc.column) == locate(text, needle, after="else")


Play = Callable[..., tuple[int, str, str]]


def test_the_player_reads_why_a_card_cannot_be_played(play: Play) -> None:  # noqa: F811
    # Seed 3: the Law holds Smokey (a Capture card) and two Location cards in the Search phase.
    from rulekit.play.render import Renderer

    loaded = load_pack("carchase")
    game = loaded.game
    state = game.new_game(3)
    search = game.pending(state)[0]
    while not search.prompt.startswith("Play"):  # both discard none: the hands as dealt
        state = game.apply(state, {search.player: search.option("none")})
        search = game.pending(state)[0]
    menu = Renderer.of(loaded).menu(search, game.observe(state, "law"))
    places = " ".join(e.key for e in menu.entries if e.index is not None and game.symbols.cards[
        str(search.items[e.index])]["type"] == "L")
    code, out, _ = play(["none", "smokey", places, "none", "quit"], "play", "carchase",
                        "--seat", "law=human,fugitive=random", "--seed", "3", "--no-color")
    assert code == 0
    lines = out.splitlines()
    assert lines[lines.index("The Law> smokey") + 1] == \
        "Smokey (Capture) cannot be played in the Search phase."
    assert lines[lines.index(f"The Law> {places}") + 1] == \
        "Only one Location card may be played per phase."


def test_the_references_example_says_what_the_reference_says(tmp_path: Path) -> None:
    from rulekit.pack.loader import load_pack
    from tests.test_docs_examples import _reference_examples, _write_sandbox

    [example] = [e for e in _reference_examples() if " else \"" in e]
    game = load_pack(_write_sandbox(tmp_path / "sandbox", example)).game
    [decision] = game.pending(game.new_game(0))
    for answer, why in [("Bridge + Tunnel", "Only one Location card at a time"),
                        ("bust, raid, bridge", "Play two cards at most")]:
        with pytest.raises(IllegalActionError) as info:
            decision.find(answer)
        assert info.value.message == why


def _ids_to_try(decision: Decision, rand: random.Random) -> list[str]:
    """Ids of every kind: the legal ones, and ids that break each rule (unknown items, an
    item twice, out of order, too few or too many, anytime actions that are not offered)."""
    ids = [o.id for o in decision.options()][:40]
    items = [str(i) for i in decision.items] + ["nowhere", "none", "", "!nothing"]
    for _ in range(40):
        ids.append("+".join(rand.choice(items) for _ in range(rand.randint(1, 5))))
    if len(ids) > 2:
        ids.append(f"{ids[2]}+{ids[2]}")
        ids.append("+".join(reversed(ids[-2].split("+"))))
    return ids


@pytest.mark.parametrize("pack", ["carchase", "rednotice"])
def test_a_legal_option_is_found_without_a_reason_exactly_when_option_finds_it(pack: str
                                                                              ) -> None:
    """``Decision.legal_option`` (a search trying its past answers) is ``option`` without
    the reason: the same option for every legal id, None for every id ``option`` refuses."""
    game = load_pack(pack).game
    rand = random.Random(5)
    tried = refused = 0
    for seed in range(3):
        state = game.new_game(seed)
        for _ in range(60):
            if state["result"] is not None:
                break
            decisions = game.pending(state)
            for decision in decisions:
                for option_id in _ids_to_try(decision, rand):
                    found = decision.legal_option(option_id)
                    try:
                        option = decision.option(option_id)
                    except IllegalActionError:
                        assert found is None, option_id
                        refused += 1
                    else:
                        assert found is not None and (found.id, found.value) == (
                            option.id, option.value), option_id
                    tried += 1
            state = game.apply(state, {d.player: d.sample(rand) for d in decisions})
    assert tried > 1000 and 100 < refused < tried
