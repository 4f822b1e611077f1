"""A person's decision at the terminal: the pass screen of the hot seat, the status and the
question, the typed answers read until one is legal, the commands answered in between, the
confirmation of a subset that leaves out what may be chosen, and the stop of piped input that
is refused again and again."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from rulekit.engine.decisions import NONE_ID, Decision, Option
from rulekit.errors import IllegalActionError
from rulekit.play.cardtext import card_list, card_named
from rulekit.play.keeper import shell_path
from rulekit.play.menuview import MORE
from rulekit.play.prompt import Choice, Command, Menu, Problem, parse_answer
from rulekit.play.render import STYLE_ERROR, help_text

if TYPE_CHECKING:
    from rulekit.play.session import Session

EXIT_OK = 0
EXIT_BAD_INPUT = 1
MAX_BAD_ANSWERS = 5  # refused answers in a row before piped play stops
FIXED = 2  # lines around a question: a blank before it, the prompt
MIN_ENTRIES = 6  # the fewest lines of a menu shown under the status block


class Leave(Exception):
    """Leave the game loop with an exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def ask(session: Session, role: str, decision: Decision) -> None:
    """Ask ``role``'s person ``decision`` until a legal answer is applied."""
    stage = session.stage_now()
    passed = session.hot_seat and (session.holder != role or session.stage != stage)
    if passed:
        pass_to(session, role)  # a new phase is shown to both at once, even to go on
    session.holder = role
    session.stage = stage
    session.keeper.keep()
    game, screen = session.game, session.screen
    menu = Menu(decision, session.render.labeler(decision, game.observe(session.state_now(),
                                                                         role)))
    menu.context = session.context.text(session.state_now())
    show_turn(session, role, menu, passed)
    prompt = f"{session.render.name(role)}> "
    while True:
        try:
            text = screen.ask(prompt)
        except EOFError:
            end_of_input(session)
        answer = parse_answer(menu, text)
        if isinstance(answer, Problem):
            name = card_named(game, text) if answer.message.startswith(
                "Nothing matches") else None
            refuse(session, f"{name} cannot be chosen here: {decision.prompt}." if name
                   else answer.message)
            continue
        session.bad_answers = 0
        if isinstance(answer, Command):
            command(session, answer, role, menu)
            continue
        assert isinstance(answer, Choice)
        if not confirmed(session, menu, answer.option, prompt):
            continue
        try:
            session.apply(role, answer.option)
        except IllegalActionError as exc:
            refuse(session, exc.message)
            continue
        session.keeper.keep()  # on disk at once: a kill now loses nothing typed
        return


def pass_to(session: Session, role: str) -> None:
    """Wipe the screen, show what both may see of what happened since the last pass (the
    public events), and wait for ``role``'s player."""
    screen = session.screen
    screen.clear()
    session.feed.recent("For everyone", None)
    name = session.render.name(role)
    screen.show(Panel(Text(f"Pass to {name}, press Enter", style="bold"), expand=False))
    try:
        screen.ask(f"{name}, press Enter when ready: ")
    except EOFError:
        end_of_input(session)
    screen.clear()


def show_board(session: Session, role: str) -> None:
    obs = session.game.observe(session.state_now(), role)
    session.screen.show(session.render.header(obs, role))
    for section in session.render.view(obs, role):
        session.screen.show(section)


def show_turn(session: Session, role: str, menu: Menu, passed: bool = False) -> None:
    """The question: at the start of the person's turn after the status block and what
    happened that they were not shown yet (in hot seat, since their last turn); later in the
    same run of decisions only the new events. On a terminal, all of it fits on the screen:
    the events first give way, then a long menu goes in columns or is cut short (``more``
    lists it), and the status block last (``board`` shows it)."""
    screen, render = session.screen, session.render
    if not passed:  # (after a pass screen, the screen is wiped: no blank at its top)
        screen.blank()
    start = passed or session.last_decider != role
    question = render.decision(menu, role)
    status: list[RenderableType] = []
    if start:
        obs = session.game.observe(session.state_now(), role)
        status = [render.header(obs, role), *render.status(obs, role)]
    lines = screen.lines()
    if lines is not None:
        frame = screen.height(question.bare()) + 1  # title, hint, and a line for "more"
        alone = lines - FIXED - 1 - frame  # lines for the entries under a one-line status
        entries = lines - FIXED - screen.height(*status) - frame
        need = min(screen.height(question) - frame + 1,
                   question.rows_needed(screen.console.width))
        if status and entries < need and (alone >= need or entries < MIN_ENTRIES):
            status = [Text(f"{render.name(role)}: type board to see the table", style="dim")]
            entries = alone
        question = question.capped(max(entries, 2))
    screen.show(*status)
    room = screen.room(*status, question)  # lines left for the events, on a terminal
    session.feed.recent("Since your last turn" if start else None, role, room)
    screen.show(question)


def confirmed(session: Session, menu: Menu, option: Option, prompt: str) -> bool:
    """Whether a subset answer that leaves out items the rules let the player add is
    meant: asked once of a person at a terminal (yes goes on; the same answer typed again
    too; anything else asks the question again). Piped answers are taken as meant, so
    that a script has one line per decision."""
    screen = session.screen
    names = left_out(menu, option) if screen.input_is_terminal else []
    if not names:
        return True
    size = 0 if option.id == NONE_ID else len(option.id.split("+"))
    what = {0: "none of them", 1: "this one"}.get(size, f"these {size}")
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    screen.show(Text(f"You leave out {shown}, which you may choose now.", style=STYLE_ERROR))
    try:
        text = screen.ask(f"Choose {what}? [y/N] ")
    except EOFError:
        end_of_input(session)
    typed = text.strip().lower()
    if typed in ("y", "yes"):
        return True
    again = parse_answer(menu, text) if typed not in ("", "n", "no") else None
    if isinstance(again, Choice) and again.option.id == option.id:
        return True
    screen.show(Text(f"Back to: {menu.decision.prompt}", style="dim"))
    screen.show(session.render.decision(menu, menu.decision.player))
    return False


def refuse(session: Session, message: str) -> None:
    """Say why an answer is refused; stop after a few in a row when no person types them
    (piped input would otherwise be refused forever)."""
    screen = session.screen
    screen.show(Text(message, style=STYLE_ERROR))
    session.bad_answers += 1
    if session.bad_answers >= MAX_BAD_ANSWERS and not screen.input_is_terminal:
        screen.error(f"Stopping: {session.bad_answers} answers in a row were not "
                     f"understood, and the input is not a terminal.")
        session.keeper.tell()
        raise Leave(EXIT_BAD_INPUT)


def command(session: Session, typed: Command, role: str, menu: Menu) -> None:
    """A command typed at a prompt, answered before the question is asked again."""
    screen, keeper, render = session.screen, session.keeper, session.render
    if typed.name == "help":
        screen.show(help_text(shell_path(keeper.path)))
    elif typed.name == "log":
        session.feed.log(role, typed.argument)
    elif typed.name == "board":
        show_board(session, role)
    elif typed.name == "cards":
        screen.show(card_list(session.game, typed.argument))
    elif typed.name == "pile":
        screen.show(render.piles(session.game.observe(session.state_now(), role),
                                 typed.argument))
    elif typed.name == MORE:
        screen.show(session.render.decision(menu, role))
    elif typed.name == "map":
        screen.show(render.map())
    elif typed.name == "save":
        if typed.argument:
            keeper.copy(Path(typed.argument))
        else:
            keeper.tell()
    elif typed.name == "quit":
        keeper.tell()
        screen.note("Goodbye.")
        raise Leave(EXIT_OK)
    screen.show(Text(f"Back to: {menu.decision.prompt}", style="dim"))


def end_of_input(session: Session) -> None:
    session.keeper.tell("End of input: the game is saved")
    raise Leave(EXIT_OK)


def left_out(menu: Menu, option: Option) -> list[str]:
    """The labels of the items a subset answer leaves out that could be added to it, when
    the rules bound the choice by nothing but its items (no largest count below their number):
    leaving out what may be taken then is more likely a slip than a plan."""
    decision = menu.decision
    if not menu.subset or option.id.startswith("!") or decision.max < len(decision.items):
        return []
    chosen = set() if option.id == NONE_ID else set(option.id.split("+"))
    names: list[str] = []
    for index, item_id in enumerate(menu.item_ids):
        if item_id in chosen:
            continue
        ids = [i for i in menu.item_ids if i in chosen or i == item_id]
        try:
            decision.option("+".join(ids))
        except IllegalActionError:
            continue
        names.append(menu.item_labels[index])
    return list(dict.fromkeys(names))


__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "Leave", "ask", "left_out"]
