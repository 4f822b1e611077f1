"""The terminal: a rich console to write to, and typed lines to read (echoed when piped)."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from typing import TextIO

from rich.console import Console, RenderableType
from rich.text import Text

CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scrollback
_ESCAPE = re.compile("\x1b\\[[0-9;]*m")  # a style's code


class Screen:
    """Where a game is shown and its answers typed."""

    def __init__(self, *, output: TextIO | None = None, input: TextIO | None = None,
                 no_color: bool = False, fast: bool = False) -> None:
        self.input = input if input is not None else sys.stdin
        self.console = _console(output if output is not None else sys.stdout, no_color)
        self.fast = fast
        self.readline = False  # whether input() edits lines: its prompt's codes are marked
        if self.input is sys.stdin and _isatty(self.input):
            with contextlib.suppress(ImportError):  # line editing and history for input()
                import readline  # noqa: F401
                self.readline = True

    @property
    def is_terminal(self) -> bool:
        return self.console.is_terminal

    @property
    def input_is_terminal(self) -> bool:
        """Whether answers are typed by a person, not piped."""
        return _isatty(self.input)

    def show(self, *items: RenderableType) -> None:
        for item in items:
            self.console.print(item)

    def page(self, *items: RenderableType) -> None:
        """Show ``items``; at a terminal, a screenful at a time (Enter: more, q: stop)."""
        rows = self.lines()
        if rows is None or not self.input_is_terminal:
            self.show(*items)
            return
        with self.console.capture() as captured:
            self.show(*items)
        lines = captured.get().splitlines()
        size = max(rows - 2, 4)
        for start in range(0, len(lines), size):
            self.console.file.write("\n".join(lines[start:start + size]) + "\n")
            rest = len(lines) - start - size
            if rest > 0 and self._more(rest):
                break
        self.console.file.flush()

    def _more(self, rest: int) -> bool:
        """Whether the person stops a long text (q, or the end of the input)."""
        try:
            return self.ask(f"-- {rest} more lines: Enter, or q to stop -- ").strip().lower() \
                .startswith("q")
        except EOFError:
            return True

    def room(self, *items: RenderableType) -> int | None:
        """The lines of a terminal's screen that ``items`` leave free."""
        rows = self.lines()
        return None if rows is None else rows - self.height(*items) - 2  # a blank, the prompt

    def lines(self) -> int | None:
        """The lines of a terminal's screen; None elsewhere."""
        return self.console.size.height if self.is_terminal else None

    def height(self, *items: RenderableType) -> int:
        """The lines ``items`` take on the console."""
        console = self.console
        return sum(len(console.render_lines(item, console.options, pad=False)) for item in items)

    def blank(self) -> None:
        self.console.print()

    def error(self, message: str) -> None:
        self.console.print(Text(message, style="bold red"))

    def note(self, message: str) -> None:
        self.console.print(Text(message, style="italic"))

    def clear(self) -> None:
        """Wipe the screen and its scrollback; elsewhere, a blank line."""
        if self.is_terminal:
            self.console.file.write(CLEAR)
            self.console.file.flush()
        else:
            self.console.print()

    def pause(self, seconds: float) -> None:
        """Wait so that a person can follow (not with ``fast``)."""
        if not self.fast and seconds > 0:
            self.console.file.flush()
            time.sleep(seconds)

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read a line (at a terminal, by input(), which edits lines)."""
        stream = self.input
        if stream is sys.stdin and _isatty(stream):
            with self.console.capture() as styled:
                self.console.print(Text(prompt, style="bold"), end="")
            text = styled.get()
            if self.readline:  # codes that take no room, so that readline counts right
                text = _ESCAPE.sub(lambda code: f"\x01{code.group(0)}\x02", text)
            self.console.file.flush()
            return input(text)
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        line = stream.readline()
        if not line:
            self.console.print()
            raise EOFError
        line = line.rstrip("\r\n")
        self.console.print(Text(line))  # the echo of a scripted answer
        return line


def _console(out: TextIO, no_color: bool) -> Console:
    """A console on ``out``: styled and wrapped only on a terminal."""
    plain = no_color or os.environ.get("NO_COLOR", "") != ""  # https://no-color.org
    return Console(file=out, no_color=plain, color_system=None if plain else "auto",
                   highlight=False, emoji=False, soft_wrap=not _isatty(out), markup=False)


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
