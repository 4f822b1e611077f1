"""A game resumed or replayed from a save: the beliefs of its bots and of its table follow the
game again.

A belief built from the last observation alone replays the whole log, where the seat's past
hands are not: in most games it loses track by the middle of the game. Resumed, a bot then
played as rollouts do, and Jessah's table (resumed or replayed) no longer showed where Angela
may be.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import helpers_play
import pytest

from rulekit.bots.agent import View
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack
from rulekit.play import open_session
from rulekit.play.restore import rebuild, seen_at_decisions
from rulekit.play.savefile import SavedGame
from rulekit.play.screen import Screen
from rulekit.sim.simulation import seat_rng

play = helpers_play.play  # the fixture


def saved_at(game: Game, seed: int, seats: dict[str, str], rounds: int, role: str,
             path: Path) -> tuple[SavedGame, State]:
    """A save of a random game of ``game`` stopped when ``role`` is asked in round ``rounds``
    (written to ``path``), and the state it stops at."""
    rand = random.Random(seed)
    state = game.new_game(seed)
    decisions: list[tuple[str, str]] = []
    while not (state["round"] >= rounds and game.decision_for(state, role) is not None):
        assert state["result"] is None
        decision = game.pending(state)[0]
        option = decision.sample(rand)
        decisions.append((decision.player, option.id))
        state = game.apply(state, {decision.player: option})
    saved = SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                      params=dict(game.params), seed=seed, seats=seats, decisions=decisions)
    path.write_text(saved.to_json())
    return saved, state


@pytest.mark.slow
@pytest.mark.parametrize(("pack", "role", "rounds", "seed"), [
    ("carchase", "law", 4, 2), ("carchase", "fugitive", 4, 3),
    ("rednotice", "jessah", 5, 0), ("rednotice", "angela", 5, 1)])
def test_a_resumed_bot_follows_the_game_again(pack: str, role: str, rounds: int, seed: int,
                                              tmp_path: Path) -> None:
    game = load_pack(pack).game
    other = next(r for r in game.roles if r != role)
    path = tmp_path / "saved.json"
    _, state = saved_at(game, seed, {role: "ismcts:iterations=4", other: "human"},
                            rounds, role, path)
    # What the bot had once resumed: a belief built from its last observation alone, with
    # the generator of the seat (the save holds none), loses Red Notice's game.
    fresh = View.of(game, role, seat_rng(seed, role), state).belief
    assert fresh.lost or pack == "carchase"  # (Car Chase's follows its cards by kinds)
    session = open_session(Screen(output=io.StringIO(), input=io.StringIO()), resume=path)
    bot = session.bots[role]
    assert bot.past  # its observations at its decisions before the save
    decision = game.decision_for(session.state_now(), role)
    assert decision is not None
    bot.decide(session.state_now(), decision)
    assert not bot.past  # followed by its belief, then let go
    belief = View.of(session.game, role, bot.rng, session.state_now(), kept=bot.kept).belief
    assert not belief.lost


def test_a_resumed_bot_that_never_asks_for_a_belief_keeps_what_it_saw(tmp_path: Path) -> None:
    """A random bot builds no belief: its observations are kept for one built later."""
    game = load_pack("carchase").game
    path = tmp_path / "saved.json"
    saved, _ = saved_at(game, 2, {"fugitive": "random", "law": "human"}, 3, "fugitive", path)
    states = rebuild(game, saved, "saved.json")
    state = states[-1]
    seen = seen_at_decisions(game, states, saved.decisions, "fugitive", 0,
                             len(saved.decisions))
    assert len(seen) == sum(1 for r, _ in saved.decisions if r == "fugitive")
    session = open_session(Screen(output=io.StringIO(), input=io.StringIO()), resume=path)
    bot = session.bots["fugitive"]
    before = len(bot.past)
    decision = game.decision_for(state, "fugitive")
    assert decision is not None
    bot.decide(state, decision)
    assert len(bot.past) == before + 1


@pytest.mark.slow
def test_the_table_of_a_resumed_game_still_shows_where_the_hidden_player_may_be(
        play: helpers_play.Play, tmp_path: Path) -> None:
    """Jessah resumes in round 5: her table shows the cities Angela may be in (the true one
    among them), as it did before the save."""
    game = load_pack("rednotice").game
    path = tmp_path / "saved.json"
    _, state = saved_at(game, 0, {"angela": "random", "jessah": "human"}, 5, "jessah", path)
    code, out, err = play(["quit", "y"], "play", "--resume", path.name, "--fast")
    assert code == 0, err
    assert "worked out again: this may take a few seconds." in out  # dozens of Jessah's turns
    shown = out[out.index("Angela may be in "):].split("\n\n")[0]
    assert game.label(state["vars"]["angela_at"]) in shown


def test_a_save_with_a_built_in_bot_and_its_parameters_resumes(
        play: helpers_play.Play, tmp_path: Path) -> None:
    """``--seat fugitive=ismcts:iterations=3`` is a built-in agent, not a plug-in to name
    again: the saved game goes on with it."""
    code, out, _ = play(["none"] * 3, "play", "carchase", "--seat", "law=human",
                        "--seat", "fugitive=ismcts:iterations=3", "--seed", "5", "--fast",
                        "--save", "game.json")
    assert code == 0 and "the game is saved to game.json" in out, out[-300:]
    code, out, err = play(["quit", "y"], "play", "--resume", "game.json", "--fast")
    assert code == 0, err
    assert "Resumed from game.json" in out
    assert "Fugitive: ismcts:iterations=3 bot" in out
    assert "worked out again" not in out  # a few turns only: no wait worth a word


@pytest.mark.slow
@pytest.mark.parametrize("keys", [None, ["r"] * 3 + ["b", "a"]], ids=["all", "by-round"])
def test_a_replay_shows_where_the_hidden_player_may_be(
        keys: list[str] | None, play: helpers_play.Play, tmp_path: Path) -> None:
    """Replayed as Jessah, at once or a round at a time, the table at the end shows where
    Angela may be, the true city among them."""
    game = load_pack("rednotice").game
    path = tmp_path / "saved.json"
    _, state = saved_at(game, 0, {"angela": "random", "jessah": "human"}, 5, "jessah", path)
    flags = ["--all"] if keys is None else []
    code, out, err = play(keys or [], "replay", path.name, "--as", "jessah", *flags)
    assert code == 0, err
    assert "Angela may be: anywhere" not in out
    shown = out[out.rindex("Angela may be in "):].split("\n\n")[0]
    assert game.label(state["vars"]["angela_at"]) in shown
