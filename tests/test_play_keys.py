"""Every menu of several seeded games of both packs, as the terminal shows it: its keys, an
amount, a token's value and any word of a name select what they say, and no key is a number
that names another line."""

from __future__ import annotations

import random

import pytest

from rulekit.engine.decisions import Decision
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack
from rulekit.play.prompt import COMMANDS, Choice, Menu, _words, parse_answer
from rulekit.play.render import Renderer


def menus(pack: str, seed: int) -> list[tuple[Game, Menu, State]]:
    """The menu of every decision of a game played at random."""
    loaded = load_pack(pack)
    game, render = loaded.game, Renderer.of(loaded)
    state = game.new_game(seed)
    rng = random.Random(seed)
    seen: list[tuple[Game, Menu, State]] = []
    while state["result"] is None:
        decision: Decision = game.pending(state)[0]
        seen.append((game, render.menu(decision, game.observe(state, decision.player)), state))
        options = [o for o in decision.options() if not o.id.startswith("!")]
        state = game.apply(state, {decision.player: rng.choice(options)})
    return seen


def chosen(menu: Menu, typed: str) -> str | None:
    answer = parse_answer(menu, typed)
    return answer.option.id if isinstance(answer, Choice) else None


@pytest.mark.slow
@pytest.mark.parametrize("pack, seed", [("rednotice", 1), ("rednotice", 2), ("rednotice", 3),
                                        ("carchase", 1), ("carchase", 2), ("carchase", 3)])
def test_keys_amounts_values_and_words_select_what_they_say(pack: str, seed: int) -> None:
    checked = {"amount": 0, "value": 0, "word": 0}
    for game, menu, _ in menus(pack, seed):
        decision = menu.decision
        lines = [e for e in menu.entries if e.option is not None and not e.anytime]
        if menu.subset:
            lines = [e for e in menu.entries if e.index is not None]
        for entry in lines:
            wanted = entry.option.id if entry.option is not None else \
                menu.item_ids[entry.index or 0]
            assert chosen(menu, entry.key) == wanted, (decision.prompt, entry)
            item = decision.items[entry.index] if entry.index is not None else None
            if type(item) is int and entry.label == str(item):  # an amount: typed as itself
                assert entry.key == str(item), (decision.prompt, entry)
                checked["amount"] += 1
            props = game.symbols.cards.get(item) if isinstance(item, str) else None
            if props and props.get("type") == "token" and not props.get("pow"):
                assert chosen(menu, str(props["value"])) == wanted, entry  # by its value
                checked["value"] += 1
            others = [_words(e.label) for e in lines if e.label != entry.label]
            for word in _words(entry.label):
                if word in (*COMMANDS, "none", "all") or any(
                        w.startswith(word) for ws in others for w in ws):
                    continue
                # a number that is another line's key would mean that line: never so
                assert not any(e.key == word and e.label != entry.label for e in lines), \
                    (decision.prompt, word, [e.label for e in lines])
                assert chosen(menu, word) == wanted, (decision.prompt, word, entry.label)
                checked["word"] += 1
    assert checked["word"] > 20
    if pack == "rednotice":
        assert checked["amount"] > 3 and checked["value"] > 10


@pytest.mark.slow
def test_regions_come_before_routes_in_a_menu_of_both() -> None:
    both = [menu for _, menu, _ in menus("rednotice", 2)
            if menu.decision.prompt.startswith("Place a Barrier on a route or a Radar")]
    assert any(len(menu.entries) > 10 for menu in both)
    regions = ["North America", "South America", "Europe", "Africa", "Asia", "Oceania"]
    for menu in both:
        lines = [(e.key, e.label.split(" [")[0]) for e in menu.entries if e.index is not None]
        shown = [label for _, label in lines if label in regions]
        assert [label for _, label in lines[:len(shown)]] == shown  # the regions first
        assert all(key == str(regions.index(label) + 1) for key, label in lines[:len(shown)])
        assert all(int(key) > len(regions) for key, _ in lines[len(shown):])  # routes after


def test_a_hand_is_keyed_in_the_order_the_status_lists_it() -> None:
    from rich.console import Console

    loaded = load_pack("carchase")
    game, render = loaded.game, Renderer.of(loaded)
    state = game.new_game(4)
    decision = game.pending(state)[0]
    obs = game.observe(state, decision.player)
    console = Console(width=200, no_color=True)
    with console.capture() as captured:
        console.print(*render.table.status(obs, decision.player))
    status = captured.get()
    menu = render.menu(decision, obs)
    labels = [e.label for e in menu.entries]
    assert [e.key for e in menu.entries] == [str(n) for n in range(1, len(labels) + 1)]
    assert labels == sorted(labels, key=status.index)  # keys 1..10 read down the hand
