"""An agent run as another program: a JSON line per decision in, an option's id out."""

from __future__ import annotations

import json
import selectors
import shlex
import subprocess

from rulekit.bots.agent import View
from rulekit.engine.decisions import Decision
from rulekit.errors import UsageError

SECONDS = 60  # the longest wait for one answer
ANSWER_CHARS = 10_000  # the longest answer line read


class ProcessAgent:
    """Asks a program, started at its first decision, to answer each decision."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("name the command to run, as in exec:python3 myagent.py")
        self._process: subprocess.Popen[str] | None = None

    def choose(self, view: View, decision: Decision) -> str:
        process = self._started()
        question = {"role": view.role, "observation": view.observation,
                    "prompt": decision.prompt, "kind": decision.kind,
                    "options": [{"id": o.id, "label": o.label} for o in decision.options()]}
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(question) + "\n")
            process.stdin.flush()
        except BrokenPipeError:
            raise self._failed(f"it ended (exit code {process.wait()})") from None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(SECONDS):
                process.kill()
                raise self._failed(f"it gave no answer in {SECONDS} s")
        answer = process.stdout.readline(ANSWER_CHARS).strip()
        if not answer:
            raise self._failed(f"it ended (exit code {process.wait()})")
        return answer

    def _started(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            try:
                self._process = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                                 stdout=subprocess.PIPE, text=True, bufsize=1)
            except OSError as exc:
                raise self._failed(f"it cannot start: {exc.strerror}") from None
        return self._process

    def _failed(self, why: str) -> UsageError:
        return UsageError(f"the agent program '{self.command}' failed: {why}",
                          "it must answer each JSON line with one option id on a line")

    def __repr__(self) -> str:
        return f"ProcessAgent({self.command!r})"


__all__ = ["ProcessAgent"]
