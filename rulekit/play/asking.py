"""A person's decision at the terminal, asked until a legal answer, commands answered meanwhile."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from rulekit.engine.decisions import NONE_ID, Decision, Option
from rulekit.errors import IllegalActionError
from rulekit.play.commands import answer_command, card_named
from rulekit.play.menuview import MenuBlock, first_named, menu_block
from rulekit.play.prompt import NOTHING_MATCHES, Choice, Command, Menu, Problem, parse_answer
from rulekit.play.styles import STYLE_ERROR, STYLE_HIDDEN

if TYPE_CHECKING:
    from rulekit.play.screen import Screen
    from rulekit.play.session import Session

EXIT_OK = 0
EXIT_BAD_INPUT = 1
MAX_BAD_ANSWERS = 5  # refused answers in a row before piped play stops
FIXED = 2  # lines around a question: a blank before it, the prompt
MIN_ENTRIES = 6  # the fewest lines of a menu shown under the status block
SHOWN_LEFT_OUT = 4  # items left out named in a confirmation; the rest counted


class Leave(Exception):
    """Leave the game loop with an exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def ask(session: Session, role: str, decision: Decision) -> None:
    """Ask ``role``'s person ``decision`` until a legal answer is applied."""
    state = session.state_now()
    stage = state.get("round"), state.get("phase")
    new_stage = session.stage != stage
    passed = session.hot_seat and session.holder != role
    if passed:
        pass_to(session, role)
    session.holder = role
    session.stage = stage
    session.keeper.keep()
    menu = session.render.menu(decision, session.game.observe(state, role))
    menu.context = session.context.text(state, role)
    if not passed:  # (a pass screen wiped the screen: no blank at its top)
        session.screen.blank()
    show_turn(session, role, menu, passed or new_stage)
    prompt = f"{session.render.name(role)}> "
    while not _answered(session, role, menu, prompt):
        pass
    session.keeper.keep()  # on disk at once: a kill now loses nothing typed


def _answered(session: Session, role: str, menu: Menu, prompt: str) -> bool:
    """Read one line; whether it was a legal answer, now applied."""
    text = read_line(session, prompt)
    answer = parse_answer(menu, text)
    if isinstance(answer, Problem):
        refuse(session, _refusal(session, menu, answer, text))
        return False
    session.bad_answers = 0
    if isinstance(answer, Command):
        if not answer_command(session, answer, role, menu):
            raise Leave(EXIT_OK)
        return False
    return _applied(session, role, menu, answer)


def _refusal(session: Session, menu: Menu, problem: Problem, text: str) -> str:
    name = card_named(session.game, text) if problem.message.startswith(NOTHING_MATCHES) else None
    if name is None:
        return problem.message
    return f"{name} cannot be chosen here: {menu.decision.prompt}. Type {menu.keys_text()}."


def _applied(session: Session, role: str, menu: Menu, answer: Choice) -> bool:
    if not confirmed(session, menu, answer.option):
        return False
    try:
        session.apply(role, answer.option)
    except IllegalActionError as exc:
        refuse(session, exc.message)
        return False
    return True


def read_line(session: Session, prompt: str) -> str:
    """One line typed at ``prompt``. At the end of the input, the game is saved and left."""
    try:
        return session.screen.ask(prompt)
    except EOFError:
        end_of_input(session)


def pass_to(session: Session, role: str) -> None:
    """Wipe the screen, show the public events since the last pass, and wait for Enter."""
    screen = session.screen
    screen.clear()
    session.feed.recent("For everyone", None)
    name = session.render.name(role)
    screen.show(Panel(Text(f"Pass to {name}, press Enter", style="bold"), expand=False))
    read_line(session, f"{name}, press Enter when ready: ")
    screen.clear()


def show_turn(session: Session, role: str, menu: Menu, start: bool = False) -> None:
    """The question, after the status (at a ``start``) and the events not shown yet."""
    screen, render = session.screen, session.render
    turn = session.last_decider != role  # (else a new round or phase of one's own turn)
    start = start or turn
    status: list[RenderableType] = []
    if start:
        obs = session.game.observe(session.state_now(), role)
        status = [render.header(obs, role), *render.status(obs, role)]
    status, question = _fitted(screen, render.name(role), status, menu_block(render, menu, role))
    screen.show(*status)
    room = screen.room(*status, question)  # lines left for the events, on a terminal
    session.feed.recent("Since your last turn" if turn else None, role, room)
    screen.show(question)


def _fitted(screen: Screen, name: str, status: list[RenderableType], question: MenuBlock
            ) -> tuple[list[RenderableType], MenuBlock]:
    """The status and the question, the status cut from its end to let the menu show."""
    lines = screen.lines()
    if lines is None:
        return status, question
    frame = screen.height(question.bare()) + 1  # title, hint, and a line for "more"
    need = min(screen.height(question) - frame + 1, question.rows_needed(screen.console.width))
    note = Text("  (more of the table: type board)", style=STYLE_HIDDEN)

    def room(shown: list[RenderableType]) -> int:
        return lines - FIXED - screen.height(*shown) - frame

    def cut(rows: int) -> list[RenderableType] | None:
        """The most of the status (its header at least) that leaves ``rows`` lines."""
        return next(([*status[:k], note] for k in range(len(status) - 1, 0, -1)
                     if room([*status[:k], note]) >= rows), None)

    kept = status
    if status and room(status) < need:
        kept = cut(need) or (status if room(status) >= MIN_ENTRIES else
                             cut(MIN_ENTRIES) or [Text(f"{name}: type board to see the table",
                                                       style=STYLE_HIDDEN)])
    return kept, question.capped(max(room(kept), 2))


def confirmed(session: Session, menu: Menu, option: Option) -> bool:
    """Whether a subset answer leaving out items one may add is meant (asked on a terminal)."""
    screen = session.screen
    names = left_out(menu, option) if screen.input_is_terminal else []
    if not names:
        return True
    shown = first_named(names, SHOWN_LEFT_OUT)
    screen.show(Text(f"You leave out {shown}, which you may choose now.", style=STYLE_ERROR))
    text = read_line(session, f"Choose {_these(option)}? [y/N] ")
    if _meant(menu, option, text):
        return True
    screen.show(Text(f"Back to: {menu.decision.prompt}", style=STYLE_HIDDEN))
    screen.show(menu_block(session.render, menu, menu.decision.player))
    return False


def _these(option: Option) -> str:
    size = 0 if option.id == NONE_ID else len(option.id.split("+"))
    return {0: "none of them", 1: "this one"}.get(size, f"these {size}")


def _meant(menu: Menu, option: Option, text: str) -> bool:
    typed = text.strip().lower()
    if typed in ("y", "yes"):
        return True
    if typed in ("", "n", "no"):
        return False
    again = parse_answer(menu, text)
    return isinstance(again, Choice) and again.option.id == option.id


def refuse(session: Session, message: str) -> None:
    """Say why an answer is refused. Piped input stops after a few refusals in a row."""
    screen = session.screen
    screen.show(Text(message, style=STYLE_ERROR))
    session.bad_answers += 1
    if session.bad_answers >= MAX_BAD_ANSWERS and not screen.input_is_terminal:
        screen.error(f"Stopping: {session.bad_answers} answers in a row were not "
                     f"understood, and the input is not a terminal.")
        session.keeper.tell()
        raise Leave(EXIT_BAD_INPUT)


def end_of_input(session: Session) -> NoReturn:
    """Save the game and leave; a new game nobody answered in leaves no file."""
    answered = any(role in session.humans for role, _ in session.decisions)
    if session.keeper.automatic and session.resumed_from is None and not answered:
        session.keeper.discard()
        session.screen.note("End of input before any answer: the game is not saved.")
    else:
        session.keeper.tell("End of input: the game is saved")
    raise Leave(EXIT_OK)


def left_out(menu: Menu, option: Option) -> list[str]:
    """The items one could add to a subset answer, when only the items bound the choice."""
    decision = menu.decision
    if not menu.subset or option.id.startswith("!") or decision.max < len(decision.items):
        return []
    chosen = set() if option.id == NONE_ID else set(option.id.split("+"))
    names = [menu.item_labels[index] for index, item_id in enumerate(menu.item_ids)
             if item_id not in chosen and _may_add(menu, chosen, item_id)]
    return list(dict.fromkeys(names))


def _may_add(menu: Menu, chosen: set[str], item_id: str) -> bool:
    ids = [i for i in menu.item_ids if i in chosen or i == item_id]
    try:
        menu.decision.option("+".join(ids))
    except IllegalActionError:
        return False
    return True
