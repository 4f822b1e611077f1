"""The engine's generic features for map games, on a tiny hidden-movement pack.

``tests/packs/shadow`` has a six-node map in two regions, walls placed on edges (zones per
edge), a secret position (a variable its owner alone sees), a public position with an
``on_change`` trigger that may stop for a decision, a zone whose cards each belong to a role
(``card_owner``), variables per region, a list variable, and an anytime action.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.game import Game
from rulekit.engine.vm import Runtime
from rulekit.errors import GameRuntimeError, IllegalActionError, PackErrors
from rulekit.lang.checker import Checker
from rulekit.lang.compiler import Compiler
from rulekit.lang.parser import parse_expression
from rulekit.pack.loader import load_pack
from tests.helpers_lang import plain_snippet

PACK = Path(__file__).parent / "packs" / "shadow"


@pytest.fixture(scope="module")
def game() -> Game:
    return load_pack(PACK).game


def evaluate(game: Game, state: dict[str, Any], text: str) -> Any:
    snippet = plain_snippet(text)
    expr = parse_expression(snippet)
    checker = Checker(game.symbols, snippet, context="expect")
    checker.check_expr(expr)
    assert not checker.errors, checker.errors
    fn = Compiler(game.symbols, game.program).expr(expr)
    return fn(Runtime(game.program, state), [None] * checker.nslots)


def test_graph_functions(game: Game) -> None:
    state = game.new_game(1)
    assert evaluate(game, state, "neighbors(@a)") == ["b", "d"]
    assert evaluate(game, state, "edge(@b, @a)") == "a-b"
    assert evaluate(game, state, "edge(@a, @f)") is None
    assert evaluate(game, state, "edges_of(@c)") == ["b-c", "c-f"]
    assert evaluate(game, state, "ends(edge(@f, @c))") == ["c", "f"]
    assert evaluate(game, state, "distance(@a, @f)") == 3
    assert evaluate(game, state, "nodes_in(@south)") == ["d", "e", "f"]
    assert evaluate(game, state, "@d.region == @south and @c.name == 'Cedar'") is True
    assert evaluate(game, state, "[e for e in edges() if e.long == true]") == ["c-f"]
    assert evaluate(game, state, "count(nodes()) + count(regions())") == 8


def test_zones_and_variables_per_edge_and_region(game: Game) -> None:
    state = game.new_game(1)
    assert len([k for k in state["zones"] if k.startswith("wall_on.")]) == 6
    assert state["vars"]["alarms.north"] is False and state["vars"]["alarms.south"] is False
    assert json.loads(json.dumps(state)) == state


def test_secret_position_is_seen_by_its_owner_only(game: Game) -> None:
    state = game.new_game(1)
    assert "hider_at" in game.observe(state, "hider")["vars"]
    seeker_view = game.observe(state, "seeker")
    assert "hider_at" not in seeker_view["vars"]
    assert "trail" in seeker_view["vars"] and "trail" not in game.observe(state, "hider")["vars"]
    assert "a" not in json.dumps(seeker_view["decisions"])


def test_card_owner_zone_shows_each_role_its_own_cards(game: Game) -> None:
    state = game.new_game(1)
    assert game.observe(state, "seeker")["zones"]["desk"] == {"cards": ["note_s", None],
                                                              "count": 2}
    assert game.observe(state, "hider")["zones"]["desk"] == {"cards": [None, "note_h"],
                                                             "count": 2}


def test_list_variable_and_per_region_variable(game: Game) -> None:
    state = game.new_game(1)
    state = game.apply(state, {"hider": "d"})
    assert state["vars"]["hider_at"] == "d"
    assert state["vars"]["alarms.south"] is True
    assert state["vars"]["trail"] == ["south"]


def test_on_change_trigger_stops_for_the_hiders_flight(game: Game) -> None:
    state = game.new_game(1)
    state = game.apply(state, {"hider": "d"})  # hider moves a -> d
    state = game.apply(state, {"seeker": "e"})  # seeker walks f -> e: nobody there
    assert state["vars"]["found"] == 0
    state = game.apply(state, {"seeker": "none"})  # no wall
    state = game.apply(state, {"hider": "none"})  # round 2: the hider stays in d
    state = game.apply(state, {"seeker": "d"})  # the trigger inspects d: found
    assert state["vars"]["found"] == 1
    (flight,) = game.pending(state)
    assert flight.player == "hider" and flight.prompt == "Flee to"
    assert [o.id for o in flight.options()][:3] == ["none", "a", "e"]
    state = game.apply(state, {"hider": "a"})
    assert state["vars"]["hider_at"] == "a"
    (wall,) = game.pending(state)  # then the seeker's phase goes on where it stopped
    assert wall.player == "seeker" and wall.prompt == "Block a route"


def test_anytime_action_runs_then_asks_again(game: Game) -> None:
    state = game.new_game(1)
    (move,) = game.pending(state)
    assert move.options()[-1].id == "!rest"
    assert move.find("Rest").id == "!rest"
    state = game.apply(state, {"hider": "!rest"})
    assert state["vars"]["energy"] == 0
    (again,) = game.pending(state)
    assert again.prompt == "Move to" and "!rest" not in [o.id for o in again.options()]
    with pytest.raises(IllegalActionError):
        game.apply(state, {"hider": "!rest"})
    texts = [game.format_event(e) for e in game.observe(state, "hider")["log"]]
    assert "The Hider rests." in texts
    assert "The Hider rests." not in [game.format_event(e)
                                      for e in game.observe(state, "seeker")["log"]]


def test_walls_on_edges_block_the_hider(game: Game) -> None:
    state = game.new_game(1)
    state = game.apply(state, {"hider": "none"})
    state = game.apply(state, {"seeker": "none"})
    state = game.apply(state, {"seeker": "e-f"})
    assert state["zones"]["wall_on.e-f"] == ["wall_1"]  # the top of the walls zone
    assert evaluate(game, state, "[e for e in edges() if count(wall_on[e]) > 0]") == ["e-f"]


def test_random_games_end_and_replay_identically(game: Game) -> None:
    def play(seed: int) -> str:
        rand = random.Random(seed)
        state = game.new_game(seed)
        while state["result"] is None:
            state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)},
                               in_place=True)
        return json.dumps(state, sort_keys=True)

    for seed in range(20):
        assert play(seed) == play(seed)


def test_bad_map_is_reported_with_locations(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text((PACK / "pack.yaml").read_text())
    text = (PACK / "content.yaml").read_text()
    text = text.replace("    - [e, f]\n", "    - [e, f]\n    - [f, e]\n    - [f, zz]\n")
    text = text.replace("{id: b, name: Birch, region: north}",
                        "{id: b, name: Birch, region: nort}")
    (tmp_path / "content.yaml").write_text(text)
    with pytest.raises(PackErrors) as caught:
        load_pack(tmp_path)
    messages = [(e.message, e.hint) for e in caught.value.errors]
    assert ("unknown region 'nort'", "did you mean 'north'?") in messages
    assert ("the edge f - e is given twice", "a second route between the same places needs an "
            "id of its own: {from: f, to: e, id: f_e_2}") in messages
    assert any(m.startswith("unknown node 'zz'") for m, _ in messages)


def test_a_zone_with_capacity_one_is_a_slot(tmp_path: Path) -> None:
    from tests.helpers_lang import BASE, content, locate, run

    base = BASE.replace("  discard: {visibility: public}\n",
                        "  discard: {visibility: public}\n  slot: {per: 2, capacity: 1, "
                        "visibility: public}\n")
    _, state = run(tmp_path / "ok", content(
        setup="draw 1 from deck to slot[1]\ndraw 1 from deck to slot[2]", base=base))
    assert state["zones"]["slot.1"] == ["c1"] and state["zones"]["slot.2"] == ["c2"]
    text = content(setup="draw 1 from deck to slot[1]\nmove @c2 from deck to slot[1]", base=base)
    with pytest.raises(GameRuntimeError) as caught:
        run(tmp_path / "full", text)
    assert caught.value.message == "zone 'slot' holds at most 1 card"
    assert caught.value.location is not None
    assert (caught.value.location.line, caught.value.location.column) == locate(text, "move @c2")


def test_distances_and_edges_kept_are_those_searched_each_time(
        game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekit.engine import graph

    board = game.symbols.board
    kept = graph.graph_functions(board)
    monkeypatch.setattr(graph, "CACHED_NODES", 0)  # a map too large to keep them
    searched = graph.graph_functions(board)
    nodes = [*board.nodes, "nowhere"]
    for _ in range(2):  # worked out, then kept
        for a in nodes:
            for b in nodes:
                assert kept["distance"](a, b) == searched["distance"](a, b), (a, b)
                found = next((e for o, e in board.adjacency.get(a, ()) if o == b), None)
                assert kept["edge"](a, b) == found, (a, b)
    assert kept["distance"]("a", "nowhere") == -1 and kept["distance"]("a", "a") == 0
    assert kept["distance"]("a", "f") == 3
