"""Tests of ``rulekit play``, ``rulekit replay`` and ``rulekit map``, driven with scripted input.

Each game is played through :func:`rulekit.cli.main` with ``sys.stdin`` replaced by the lines a
person would type; the assertions are on what the screen shows and on the save files written.
Scripts that must follow the game (bots' moves, hot-seat pass screens) are worked out first by
playing the same game on the engine: the session takes the first pending decision each time,
asks bots with their seat's generator, takes forced choices itself and shows a pass screen
whenever the person at the keyboard changes.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import helpers_play
import pytest
from helpers_play import Keyboard

from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack
from rulekit.play.prompt import Choice, Command, Menu, Problem, only_option, parse_answer
from rulekit.play.render import Renderer
from rulekit.play.savefile import SavedGame, read_save, restore_rng, rng_state
from rulekit.play.screen import Screen
from rulekit.sim.simulation import play_game, seat_rng

PASS = re.compile(r"Pass to (?P<name>[^,│]+), press Enter")
GAME_OVER = re.compile(r"Game over: (?P<text>[^│\n]*?)\s*(?:│|$)", re.MULTILINE)
REVEAL = re.compile(r"Jessah captures Angela in|Angela cashes ")
COLOR = re.compile(r"\x1b\[(?:\d+;)*(?:3\d|9\d|38;5;\d+)m")

Policy = Callable[[str, Decision, int], Option]

play = helpers_play.play  # the fixture


LOADED: dict[int, Renderer] = {}  # the renderer of each game game_of loaded, by id


def game_of(pack: str | Path, **params: int) -> Game:
    loaded = load_pack(pack, {k: str(v) for k, v in params.items()})
    LOADED[id(loaded.game)] = Renderer.of(loaded)
    return loaded.game


def menu_of(game: Game, state: State, decision: Decision) -> Menu:
    """The menu of ``decision`` as the terminal shows it to its chooser."""
    render = LOADED.get(id(game)) or Renderer(game)
    return render.menu(decision, game.observe(state, decision.player))


def script_for(game: Game, seed: int, seats: dict[str, str], policy: Policy,
               max_steps: int = 100_000,
               ) -> tuple[list[str], list[tuple[str, str]], dict[str, Any]]:
    """The lines to type for a game where people choose by ``policy`` (for ``max_steps``
    decisions at most), the decisions the game will record, and its final state."""
    humans = [role for role in game.roles if seats.get(role, "random") == "human"]
    hot_seat = len(humans) > 1
    state = game.new_game(seed)
    rngs = {role: seat_rng(seed, role) for role in game.roles if role not in humans}
    lines: list[str] = []
    decisions: list[tuple[str, str]] = []
    holder: str | None = None
    step = 0
    while state["result"] is None and step < max_steps:
        pending = game.pending(state)  # (in hot seat, the person at the keyboard first)
        decision = next((d for d in pending if hot_seat and d.player == holder), pending[0])
        role = decision.player
        if role in rngs:
            option = decision.sample(rngs[role])
        else:
            if hot_seat and holder != role:
                lines.append("")  # Enter at the pass screen (a new turn)
            holder = role
            menu = menu_of(game, state, decision)
            key = helpers_play.key_of(menu, policy(role, decision, step).id)
            lines.append(key)
            answer = parse_answer(menu, key)  # of equal options, the one the menu shows
            assert isinstance(answer, Choice)
            option = answer.option
        step += 1
        state = game.apply(state, {role: option})
        decisions.append((role, option.id))
    return lines, decisions, state


def random_policy(seed: int) -> Policy:
    """Each role picks uniformly among the options that are not anytime actions."""
    rngs: dict[str, random.Random] = {}

    def choose(role: str, decision: Decision, step: int) -> Option:
        rng = rngs.setdefault(role, random.Random(f"policy:{seed}:{role}"))
        if decision.kind == "subset":
            return decision.sample(rng)
        return rng.choice([o for o in decision.options() if not o.id.startswith("!")])

    return choose


def segments(out: str) -> list[tuple[str | None, str]]:
    """The output cut at each pass screen: (the name passed to, the text shown after)."""
    parts: list[tuple[str | None, str]] = []
    last, name = 0, None
    for match in PASS.finditer(out):
        parts.append((name, out[last:match.start()]))
        name, last = match.group("name").strip(), match.end()
    parts.append((name, out[last:]))
    return parts


def saved_decisions(path: Path) -> list[tuple[str, str]]:
    return [tuple(pair) for pair in json.loads(path.read_text())["decisions"]]  # type: ignore


def game_over(out: str) -> str:
    found = GAME_OVER.findall(out)
    assert found, out[-2000:]
    return str(found[-1]).strip()


# -- Car Chase, a person against a bot --------------------------------------------------------


def test_carchase_whole_game_against_a_bot(play: Callable[..., tuple[int, str, str]],
                                           tmp_path: Path) -> None:
    game = game_of("carchase")
    lines, decisions, final = script_for(game, 7, {"law": "human"},
                                         lambda role, d, step: d.option(
                                             Menu(d, game.label).item_ids[0]
                                             if d.kind == "subset" else d.options()[0].id))
    assert all(line.isdigit() for line in lines)
    code, out, err = play(lines, "play", "carchase",
                          "--seat", "law=human,fugitive=random", "--seed", "7", "--fast",
                          "--save", "game.json")
    assert code == 0, err
    assert "The Law: person, The Fugitive: random bot" in out
    # the first screen: the Law's own hand by name, the Fugitive's as a count, a numbered menu
    first_hand = game.observe(game.new_game(7), "law")["zones"]["hand.law"]["cards"]
    screen = out.split("The Law> ")[0]
    hand = screen.split("  Your hand (", 1)[1].split("The Law: Discard")[0]
    assert all(game.label(card) in hand for card in first_hand)  # grouped by kind
    assert "The Fugitive: Cards in hand 10" in screen
    assert "The Law: Discard cards to draw replacements  (choose up to 5)" in screen
    state = game.new_game(7)
    first = menu_of(game, state, game.pending(state)[0]).entries[0]  # down the hand, shown
    assert first.key == "1" and re.search(r"^   1  " + re.escape(first.label) + "$", screen, re.M)
    # the bot's moves are shown as public events; its private choices never are
    assert re.search(r"The Fugitive (discards .* face up and draws|keeps the whole hand)", out)
    assert "The Fugitive chose" not in out and "(only The Fugitive)" not in out
    assert "The Law chose" not in out  # an answer is never restated: the story says it
    winner = game.role_names[final["result"]["winner"]]
    assert game_over(out).startswith(f"{winner} wins.")
    # at the end, what the bot held
    assert re.search(r"^What was hidden\nThe Fugitive\n  Hand: [A-Z]", out, re.M)
    assert saved_decisions(tmp_path / "game.json") == decisions
    assert "The finished game is saved to" in out


def test_bots_only_play_the_game_simulate_plays(play: Callable[..., tuple[int, str, str]],
                                                tmp_path: Path) -> None:
    game = game_of("carchase")
    record = play_game(game, 21)
    code, out, _ = play([], "play", "carchase", "--seat", "law=random,fugitive=random",
                        "--seed", "21", "--fast", "--save", "bots.json")
    assert code == 0
    assert len(saved_decisions(tmp_path / "bots.json")) == record.decisions
    winner = game.role_names[record.winner] if record.winner else "Nobody"
    assert game_over(out).startswith(f"{winner} wins.")
    assert "(only" not in out  # nobody at the screen: public events only


@pytest.mark.parametrize(("pack", "seats", "expected"), [
    ("carchase", ["fugitive=random"], "The Law: person, The Fugitive: random bot"),
    ("carchase", ["law=random"], "The Law: random bot, The Fugitive: person"),
    ("rednotice", ["jessah=random"], "Angela: person, Jessah: random bot"),
    ("rednotice", ["jessah=human"], "Angela: normal bot, Jessah: person"),
    ("rednotice", [], "Angela: person, Jessah: normal bot"),
])
def test_a_seat_given_for_a_bot_leaves_the_first_other_role_to_you(
        play: Callable[..., tuple[int, str, str]], pack: str, seats: list[str],
        expected: str) -> None:
    # As the README says: `--seat jessah=random` is you as Angela against a random Jessah,
    # not two bots playing each other.
    options = [part for seat in seats for part in ("--seat", seat)]
    code, out, err = play(["quit"], "play", pack, *options, "--seed", "4", "--fast")
    assert code == 0, err
    assert expected in out


def test_typed_answers_numbers_names_and_mistakes(play: Callable[..., tuple[int, str, str]],
                                                  tmp_path: Path) -> None:
    game = game_of("carchase")
    state = game.new_game(3)
    decision = game.pending(state)[0]
    menu = menu_of(game, state, decision)
    labels = [entry.label for entry in menu.entries]  # by key
    ids = [menu.item_ids[entry.index or 0] for entry in menu.entries]
    prefix = labels[2][:6].lower()
    assert sum(label.lower().startswith(prefix) for label in labels) == 1
    lines = ["", "0", "2 2", "help", "1 2 3 4 5 6", "zzz", f"1, {prefix}", "log",
             "save first.json", "quit"]
    code, out, err = play(lines, "play", "carchase",
                          "--seat", "law=human,fugitive=random", "--seed", "3", "--fast")
    assert code == 0, err
    assert "Type the numbers of your choice, or none (1-10); help shows how." in out
    assert "There is no item 0" in out
    assert f"{labels[1]} is chosen twice." in out
    assert "Choose between 0 and 5 items, not 6." in out  # the engine's own message
    assert "Nothing matches 'zzz'" in out
    # a number and the start of a name: legal, and the game went on to the next decision
    chosen = "+".join(i for i in menu.item_ids if i in (ids[0], ids[2]))  # in offered order
    assert saved_decisions(tmp_path / "first.json")[0] == ("law", chosen)
    assert "Log (" in out
    assert "Goodbye." in out


def test_hot_seat_carchase_whole_game(play: Callable[..., tuple[int, str, str]]) -> None:
    game = game_of("carchase", turns=3)
    seats = {"law": "human", "fugitive": "human"}
    lines, decisions, final = script_for(game, 5, seats, random_policy(5))
    code, out, err = play(lines, "play", "carchase", "--seat", "law=human",
                          "--seat", "fugitive=human", "--seed", "5", "-p", "turns=3", "--fast")
    assert code == 0, err
    parts = segments(out)
    names = [name for name, _ in parts[1:]]
    assert names == [game.role_names[role] for role in _holders(decisions, game)]
    for name, text in parts[1:]:
        other = "The Fugitive" if name == "The Law" else "The Law"
        assert f"{other} chose" not in text, text  # never the other player's private choices
        assert f"{name}> " in text and f"{other}> " not in text
    assert "(only The" not in out
    # what both may see is shown on the wiped screen, before the pass: public events only
    shared = re.findall(r"For everyone\n(.*?)Pass to", out, re.S)
    assert len(shared) > 3 and all("chose" not in text for text in shared)
    assert any(" face up and draws " in text for text in shared)
    winner = final["result"]["winner"]
    assert game_over(out).startswith(f"{game.role_names[winner]} wins.")


def _holders(decisions: list[tuple[str, str]], game: Game) -> list[str]:
    """Who got a pass screen, in order: each change of the person asked (forced choices and
    simultaneous commits included, as the session takes them)."""
    state = game.new_game(5)
    holders: list[str] = []
    for role, option in decisions:
        assert any(d.player == role for d in game.pending(state))
        if not holders or holders[-1] != role:
            holders.append(role)
        state = game.apply(state, {role: option})
    return holders


# -- Red Notice -------------------------------------------------------------------------------


def test_rednotice_against_a_bot(play: Callable[..., tuple[int, str, str]]) -> None:
    game = game_of("rednotice", goal=200000)
    lines, _, final = script_for(game, 4, {"angela": "human"}, random_policy(4))
    code, out, err = play(lines, "play", "rednotice", "--seat", "angela=human,jessah=random",
                          "--seed", "4", "-p", "goal=200000", "--fast")
    assert code == 0, err
    angela_start = next(e for e in final["log"] if e["e"] == "choice"
                        and e["player"] == "angela" and e["value"] in game.symbols.board.nodes)
    city = game.label(angela_start["value"])
    assert re.search(rf"^  Angela: {re.escape(city)} \(", out, re.M)  # her secret position
    assert "  Jessah: " in out and "; routes to " in out
    assert "Jessah chose" not in out  # the bot's private choices stay private
    assert "Jessah places a Radar on" in out  # its public moves are shown
    winner = final["result"]["winner"]
    assert game_over(out).startswith(f"{game.role_names[winner]} wins.")


def test_the_log_tells_ones_answers_as_the_menus_named_them(
        play: Callable[..., tuple[int, str, str]]) -> None:
    lines = ["1", "1", "2", "3", "3", "1r", "3", "4r", "1", "3r", "9", "log", "quit"]
    code, out, err = play(lines, "play", "rednotice", "--seat", "jessah=human,angela=random",
                          "--seed", "3", "--fast")
    assert code == 0, err
    log = out.split("Log (", 1)[1]
    assert "Jessah chose card 1, right: Security ×1 (only you)" in log  # not its space, 2
    assert "Jessah chose Jessah 3 (only you)" in log
    assert "Jessah chose Los Angeles - Mexico City (only you)" in log
    assert not re.search(r"Jessah chose \d", log)


def _angela_stays(city_index: int, seed: int) -> Policy:
    """Angela shows her first Check, starts in the ``city_index``-th city of its continent and
    never moves but where an escape makes her (RN-43); otherwise both choose at random."""
    others = random_policy(seed)

    def choose(role: str, decision: Decision, step: int) -> Option:
        if role == "angela" and decision.prompt.startswith("Choose your secret starting city"):
            return decision.options()[city_index]
        if role == "angela" and decision.prompt == "Move to (or stop)":
            return decision.option("none")
        return others(role, decision, step)

    return choose


@pytest.mark.slow
def test_hot_seat_rednotice_hides_angelas_city(play: Callable[..., tuple[int, str, str]]
                                               ) -> None:
    game = game_of("rednotice", goal=100000)
    seed = 4
    seats = {"angela": "human", "jessah": "human"}
    runs = []
    for city_index in (0, 1):
        lines, _, final = script_for(game, seed, seats, _angela_stays(city_index, seed), 300)
        code, out, err = play(lines, "play", "rednotice", "--seat", "angela=human",
                              "--seat", "jessah=human", "--seed", str(seed), "-p",
                              "goal=100000", "--fast")
        assert code == 0, err
        start = next(e["value"] for e in final["log"] if e["e"] == "choice"
                     and e["player"] == "angela" and e["value"] in game.symbols.board.nodes)
        runs.append((game.label(start), segments(out)))
    (city_a, parts_a), (city_b, parts_b) = runs
    assert city_a != city_b
    for city, parts in runs:
        angela = "".join(text for name, text in parts if name == "Angela")
        assert f"Angela: {city}" in angela  # Angela sees where she is
    jessah_a = [text for name, text in parts_a if name == "Jessah"]
    jessah_b = [text for name, text in parts_b if name == "Jessah"]
    compared = 0
    for i, (text_a, text_b) in enumerate(zip(jessah_a, jessah_b, strict=False)):
        # a capture shows at Jessah's next turn, but her turn ends at once (Angela escapes)
        if any(REVEAL.search(texts[j]) for texts in (jessah_a, jessah_b)
               for j in (i, i + 1) if j < len(texts)):
            break
        # Jessah's screens are the same wherever Angela hides: nothing of her city leaks
        assert text_a == text_b
        assert "Angela may be in " in text_a  # the cities the rules leave open to her
        assert f"Angela: {city_a}" not in text_a
        compared += 1
    assert compared >= 3, compared


def test_anytime_actions_and_number_labels_in_the_menu() -> None:
    game = game_of("rednotice")
    state = game.new_game(1)
    rng = random.Random(3)
    for _ in range(6):  # setup, until Angela places her first token
        decision = game.pending(state)[0]
        state = game.apply(state, {decision.player: decision.sample(rng)})
    decision = game.pending(state)[0]
    assert decision.prompt == "Choose a token to place" and decision.extras
    token = game.apply(state, {"angela": decision.options()[0]})
    space = game.pending(token)[0]
    menu = Menu(space, game.label)
    keys = [entry.key for entry in menu.entries]
    n = len(space.items)
    assert keys == [str(i) for i in range(1, n + 1)] + ["a"]  # lines 1..n, the action a letter
    assert [e.label for e in menu.entries[:-1]] == [game.label(item) for item in space.items]
    assert menu.entries[-1].anytime
    assert parse_answer(menu, "3") == Choice(space.options()[2])  # the third line
    answer = parse_answer(menu, "a")
    assert isinstance(answer, Choice) and answer.option.id.startswith("!")
    answer = parse_answer(menu, "spend")
    assert isinstance(answer, Choice) and answer.option.id.startswith("!")
    assert isinstance(parse_answer(menu, str(n + 1)), Problem)
    # the token menu before it: equal tokens are one line
    tokens = Menu(decision, game.label)
    labels = [e.label for e in tokens.entries if not e.anytime]
    assert len(labels) == len(set(labels)) < len(decision.items)


# -- parsing --------------------------------------------------------------------------------


def _decision(labeler: Callable[[Any], str] = str, **spec: Any) -> Decision:
    base = {"player": "red", "kind": "one", "prompt": "Pick", "items": [1, 2, 3]}
    base.update(spec)
    return Decision(base, labeler)


def test_menu_of_a_one_decision() -> None:
    def title(item: Any) -> str:
        return str(item).title()

    decision = _decision(title, items=["ace", "king", "queen", "kite"], optional=True)
    menu = Menu(decision, title)
    assert [(e.key, e.label) for e in menu.entries] == [
        ("0", "(none)"), ("1", "Ace"), ("2", "King"), ("3", "Queen"), ("4", "Kite")]
    assert parse_answer(menu, "2") == Choice(decision.option("king"))
    assert parse_answer(menu, "0") == Choice(decision.option("none"))
    assert parse_answer(menu, "qu") == Choice(decision.option("queen"))
    assert parse_answer(menu, "KITE") == Choice(decision.option("kite"))
    assert parse_answer(menu, "none") == Choice(decision.option("none"))
    assert parse_answer(menu, "king") == Choice(decision.option("king"))
    ambiguous = parse_answer(menu, "k")
    assert isinstance(ambiguous, Problem) and "several" in ambiguous.message
    assert isinstance(parse_answer(menu, "5"), Problem)
    assert parse_answer(menu, "log") == Command("log")
    assert parse_answer(menu, "save my game.json") == Command("save", "my game.json")
    assert parse_answer(menu, "?") == Command("help")


def test_a_menu_of_amounts_is_keyed_by_the_amount() -> None:
    amounts = _decision(items=[0, 1, 2])
    menu = Menu(amounts, str, ["0", "1", "2"])
    assert [(e.key, e.label) for e in menu.entries] == [("0", "0"), ("1", "1"), ("2", "2")]
    assert parse_answer(menu, "1") == Choice(amounts.option("1"))  # one, not none
    missing = parse_answer(menu, "3")
    assert isinstance(missing, Problem) and missing.message == (
        "There is no choice 3: type one of 0-2.")
    two = parse_answer(menu, "1 2")
    assert isinstance(two, Problem) and two.message == "Choose one only: type one of 0-2."


def test_any_word_of_a_name_selects_it() -> None:
    names = {"a3": "Angela 3", "a4": "Angela 4", "pow": "Angela POW!", "smug": "The Smuggler",
             "c9": "Go Airborne (C9)"}.__getitem__
    decision = _decision(names, items=["a3", "a4", "pow", "smug", "c9"])
    menu = Menu(decision, names, ["3", "4", "0", "5", "6"])  # keyed by value
    assert [e.key for e in menu.entries] == ["0", "3", "4", "5", "6"]
    for typed, wanted in [("pow", "pow"), ("4", "a4"), ("smug", "smug"), ("c9", "c9"),
                          ("angela p", "pow"), ("air", "c9"), ("0", "pow")]:
        assert parse_answer(menu, typed) == Choice(decision.option(wanted)), typed
    several = parse_answer(menu, "angela")
    assert isinstance(several, Problem) and "several" in several.message
    nothing = parse_answer(menu, "zzz")
    assert isinstance(nothing, Problem) and nothing.message == (
        "Nothing matches 'zzz': type one of 0, 3-6, or a word of a name, such as Angela POW!.")


def test_menu_of_a_subset_decision() -> None:
    names = {"a": "Apple", "b": "Banana", "c": "Cherry"}.__getitem__
    decision = _decision(names, kind="subset", items=["a", "b", "c"], min=0, max=2,
                         at_most=[[1, [True, True, False]]])
    menu = Menu(decision, names)
    assert parse_answer(menu, "1 3") == Choice(decision.option("a+c"))
    assert parse_answer(menu, "3,1") == Choice(decision.option("a+c"))
    assert parse_answer(menu, "cher, ap") == Choice(decision.option("a+c"))
    assert parse_answer(menu, "none") == Choice(decision.option("none"))
    broken = parse_answer(menu, "1 2")
    assert isinstance(broken, Problem)
    assert broken.message == ("Only 1 of Apple, Banana may be chosen together, not 2 "
                              "(Apple, Banana).")
    too_many = parse_answer(menu, "1 2 3")
    assert isinstance(too_many, Problem) and "not 3" in too_many.message
    assert helpers_play.key_of(menu, "a+c") == "1 3"
    assert parse_answer(menu, "1-2") == parse_answer(menu, "1 2")
    assert isinstance(parse_answer(menu, "all"), Problem)  # 3 items, at most 2


def test_a_single_option_is_asked_and_enter_takes_it() -> None:
    assert only_option(_decision(items=["x"])) is not None
    assert only_option(_decision(items=["x"], optional=True)) is None
    assert only_option(_decision(kind="subset", items=[], min=0, max=3)) is not None
    assert only_option(_decision(kind="subset", items=["x"], min=0, max=1)) is None
    menu = Menu(_decision(items=["x"]), str)
    assert parse_answer(menu, "") == Choice(menu.decision.options()[0])
    assert isinstance(parse_answer(Menu(_decision(items=["x", "y"]), str), ""), Problem)


# -- simultaneous decisions -------------------------------------------------------------------


def test_hot_seat_simultaneous_choices_stay_secret(play: Callable[..., tuple[int, str, str]],
                                                   duel_pack: Path) -> None:
    # Red 3, Blue 1; then whoever holds the keyboard answers first: Blue 2, Red 2; Red 3, Blue 1
    lines = ["", "3", "", "1", "2", "", "2", "3", "", "1"]
    code, out, err = play(lines, "play", duel_pack, "--seat", "red=human,blue=human",
                          "--seed", "1", "--fast")
    assert code == 0, err
    parts = segments(out)
    assert [name for name, _ in parts[1:]] == ["Red", "Blue", "Red", "Blue"]  # not 6 passes
    first_blue = parts[2][1]
    assert "Red chose" not in first_blue and "Blue chose" not in first_blue
    second_red = parts[3][1]
    assert "Red chose" not in second_red and "Blue chose" not in second_red
    assert game_over(out).startswith("Red wins.")  # 3 > 1, 2 = 2, 3 > 1


def test_a_bot_from_a_module(play: Callable[..., tuple[int, str, str]], duel_pack: Path,
                             agents_module: str) -> None:
    code, out, _ = play(["1", "2", "3"], "play", duel_pack, "--seat",
                        f"red=human,blue={agents_module}:Three", "--seed", "1", "--fast")
    assert code == 0
    assert f"Blue: {agents_module}:Three bot" in out
    assert game_over(out).startswith("Blue wins.")


# -- save and resume --------------------------------------------------------------------------


def test_no_input_at_all_leaves_no_save(play: Callable[..., tuple[int, str, str]],
                                        tmp_path: Path) -> None:
    code, out, _ = play([], "play", "carchase", "--fast")  # rulekit play carchase </dev/null
    assert code == 0
    assert "End of input before any answer: the game is not saved." in out
    assert not list(tmp_path.glob("rulekit-*.json"))


def test_resume_goes_on_to_the_same_end(play: Callable[..., tuple[int, str, str]],
                                        tmp_path: Path) -> None:
    lines = ["none"] * 80
    code, whole, _ = play(lines, "play", "carchase",
                          "--seat", "law=human,fugitive=random", "--seed", "11", "--fast",
                          "--save", "whole.json")
    assert code == 0
    code, out, _ = play(lines[:5], "play", "carchase",
                        "--seat", "law=human,fugitive=random", "--seed", "11", "--fast")
    assert code == 0
    found = re.search(r"End of input: the game is saved to (rulekit-carchase-\d{8}-\d{6}.json)",
                      out)
    assert found, out[-500:]
    autosave = tmp_path / found.group(1)
    assert f"rulekit play --resume {autosave.name}" in out
    saved = read_save(autosave)
    assert (saved.pack, saved.seed, saved.seats) == ("carchase", 11,
                                                     {"law": "human", "fugitive": "random"})
    assert sum(1 for role, _ in saved.decisions if role == "law") == 5
    code, resumed, _ = play(lines[5:], "play", "--resume", autosave.name, "--fast")
    assert code == 0
    assert f"Resumed from {autosave.name} after {len(saved.decisions)} decisions." in resumed
    assert resumed.index("\nRecap\n") < resumed.index("Your hand (")  # before the board
    assert game_over(resumed) == game_over(whole)
    assert saved_decisions(autosave) == saved_decisions(tmp_path / "whole.json")


def test_ctrl_c_leaves_the_game_saved(play: Callable[..., tuple[int, str, str]],
                                      tmp_path: Path) -> None:
    code, out, _ = play(["1", Keyboard.CTRL_C], "play", "carchase",
                        "--seat", "law=human,fugitive=random", "--seed", "2",
                        "--fast", "--save", "stopped.json")
    assert code == 130
    assert "Interrupted. The game is saved to stopped.json" in out
    assert len(read_save(tmp_path / "stopped.json").decisions) >= 1


def test_save_file_format_and_atomic_write(play: Callable[..., tuple[int, str, str]],
                                           tmp_path: Path) -> None:
    code, out, _ = play(["1", "save sub/x.json", "save mine.json", "quit"], "play",
                        "carchase", "--seat", "law=human,fugitive=random", "--seed", "4",
                        "--fast", "-p", "turns=2")
    assert code == 0
    assert "Not saved: cannot save to sub/x.json: there is no folder" in out
    data = json.loads((tmp_path / "mine.json").read_text())
    assert data["format"] == 1 and data["pack"] == "carchase" and data["seed"] == 4
    assert data["params"]["turns"] == 2
    assert data["seats"] == {"law": "human", "fugitive": "random"}
    assert data["version"] == "1.0.0" and len(data["pack_hash"]) == 16
    assert all(isinstance(d, list) and len(d) == 2 for d in data["decisions"])
    names = sorted(p.name for p in tmp_path.iterdir())  # no temp file left
    assert len(names) == 2 and names[0] == "mine.json", names
    assert re.fullmatch(r"rulekit-carchase-\d{8}-\d{6}\.json", names[1])


def test_rng_state_round_trip() -> None:
    rng = random.Random(5)
    rng.random()
    state = rng_state(rng)
    json.dumps(state)
    other = random.Random(0)
    restore_rng(other, state)
    assert other.random() == rng.random()


def test_resume_replays_on_another_pack_version(play: Callable[..., tuple[int, str, str]],
                                               make_pack: Callable[..., Path],
                                               tmp_path: Path) -> None:
    folder = make_pack("duel")
    code, _, _ = play(["3"], "play", folder, "--seed", "1", "--fast", "--save", "duel.json")
    assert code == 0
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace(
        '"Pick a number"', '"Pick a number now"'))
    code, out, _ = play(["1"], "play", "--resume", "duel.json", "--fast")
    assert code == 0
    assert "Warning: duel.json was saved with duel 1.0 (pack hash " in out
    assert "are replayed on this version" in " ".join(out.split())


@pytest.mark.parametrize("content, message", [
    ("{not json", "not a rulekit save file: bad JSON"),
    ('{"format": 1}', "'pack' must be a text"),
    ('{"format": 9}', "saved by a newer rulekit"),
    ('{"format": 1, "pack": "p", "version": "1", "pack_hash": "h", "params": {}, "seed": 1, '
     '"seats": {"red": "human"}, "decisions": [["red"]]}',
     "'decisions' must be a list of [role, option] pairs"),
    ("[]", "does not hold a JSON object"),
])
def test_bad_save_files(play: Callable[..., tuple[int, str, str]], tmp_path: Path,
                        content: str, message: str) -> None:
    (tmp_path / "bad.json").write_text(content)
    code, _, err = play([], "play", "--resume", "bad.json")
    assert code == 1
    assert message in err and err.startswith("rulekit: error: bad.json")


def test_save_with_an_illegal_decision(play: Callable[..., tuple[int, str, str]],
                                       tmp_path: Path) -> None:
    game = game_of("carchase")
    saved = SavedGame(pack="carchase", version=game.version, pack_hash=game.pack_hash,
                      params=dict(game.params), seed=1, seats={"law": "human"},
                      decisions=[("law", "no_such_card")])
    (tmp_path / "s.json").write_text(saved.to_json())
    code, _, err = play([], "replay", "s.json")
    assert code == 1
    assert "decision 1 (law: 'no_such_card') cannot be replayed" in err


def test_play_usage_errors(play: Callable[..., tuple[int, str, str]]) -> None:
    code, _, err = play([], "play")
    assert code == 1 and "rulekit: error: name the PACK to play" in err
    code, _, err = play([], "play", "carchase", "--seat", "lawe=human")
    assert code == 1 and "unknown role 'lawe' in --seat" in err and "did you mean 'law'" in err
    code, _, err = play([], "play", "carchase", "--seat", "law=nosuchbot")
    assert code == 1 and "unknown player 'nosuchbot' for law in --seat" in err
    assert "human, random, heuristic, ismcts, easy, normal, hard or package.module:Name" in err
    code, _, err = play([], "play", "carchase", "--seat", "law=humn")
    assert code == 1 and "did you mean 'human'" in err
    code, _, err = play([], "play", "--resume", "x.json", "--seed", "3")
    assert code == 1 and "--seed cannot be given with --resume" in err
    code, _, err = play([], "play", "--resume", "missing.json")
    assert code == 1 and "missing.json: no such save file" in err


# -- replay -----------------------------------------------------------------------------------


@pytest.fixture
def finished(play: Callable[..., tuple[int, str, str]], tmp_path: Path) -> Path:
    code, _, _ = play(["none"] * 80, "play", "carchase",
                      "--seat", "law=human,fugitive=random", "--seed", "8", "--fast",
                      "-p", "turns=2", "--save", "done.json")
    assert code == 0
    return tmp_path / "done.json"


def test_replay_as_one_player(play: Callable[..., tuple[int, str, str]],
                              finished: Path) -> None:
    code, out, _ = play([], "replay", finished, "--as", "law", "--all")
    assert code == 0
    assert "as seen by The Law" in out
    assert "The Law chose" in out and "The Fugitive chose" not in out
    assert " face up and draws " in out
    assert "Game over: " in out
    assert "Your hand (" in out  # the final view of that player


def test_replay_as_everyone_and_step_by_step(play: Callable[..., tuple[int, str, str]],
                                            finished: Path) -> None:
    code, out, _ = play([], "replay", finished, "--as", "all", "--all")
    assert code == 0
    assert "(only The Law)" in out and "(only The Fugitive)" in out
    code, out, _ = play(["", "", "q"], "replay", finished)
    assert code == 0
    assert "[3/" in out and "[4/" not in out and "Game over" not in out
    code, _, err = play([], "replay", finished, "--as", "lawe")
    assert code == 1 and "did you mean 'law'" in err


# -- output -----------------------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("no_color", [False, True])
def test_colour_only_on_a_terminal_and_not_with_no_color(no_color: bool,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from rich.text import Text

    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    terminal = FakeTerminal()
    screen = Screen(output=terminal, input=io.StringIO(), no_color=no_color)
    screen.show(Text("Angela", style="bold green"))
    assert bool(COLOR.search(terminal.getvalue())) is not no_color
    plain = io.StringIO()
    Screen(output=plain, input=io.StringIO()).show(Text("Angela", style="bold green"))
    assert plain.getvalue() == "Angela\n"


def test_map_command(play: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = play([], "map", "rednotice")
    assert code == 0
    assert "South America" in out
    assert re.search(r"^  Lima: .*Bogotá", out, re.M)
    code, out, _ = play([], "map", "carchase")
    assert code == 0 and "has no map" in out


def test_in_game_map_and_help(play: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = play(["map", "help", "quit"], "play", "rednotice",
                        "--seat", "angela=human,jessah=random", "--seed", "1",
                        "--fast")
    assert code == 0
    assert re.search(r"^  Lima: .*Bogotá", out, re.M)
    assert "save [FILE]" in out and "rulekit play --list" in out




def test_a_broken_bot_is_reported_and_the_game_kept(play: Callable[..., tuple[int, str, str]],
                                                    duel_pack: Path, agents_module: str,
                                                    tmp_path: Path) -> None:
    code, out, err = play(["2"], "play", duel_pack, "--seat",
                          f"red=human,blue={agents_module}:Cheater", "--seed", "1", "--fast")
    assert code == 1
    assert err.startswith("rulekit: error: the bot of blue")
    assert "the game up to here is saved" in out
    [saved] = tmp_path.glob("rulekit-duel-*.json")
    assert read_save(saved).decisions == [("red", "2")]


def test_a_broken_bot_among_bots_names_the_decision_and_seed(
        play: Callable[..., tuple[int, str, str]], duel_pack: Path, agents_module: str) -> None:
    code, out, err = play([], "play", duel_pack, "--seat",
                          f"red=random,blue={agents_module}:Cheater", "--seed", "5", "--fast")
    assert code == 1
    assert err.startswith(f"rulekit: error: the bot of blue ({agents_module}:Cheater) in the "
                          "game with seed 5 answered ")
    assert " at the decision '" in err and "Traceback" not in out + err
