"""A pack's scenario files read ahead, in a forked process, while this one loads the pack.

Reading a scenario file does not depend on its pack: its YAML, the check of its data against
its schema and the syntax trees of its ``expect`` code are found from its text alone, and kept
in the stores of :mod:`rulekit.stored`. Where processes can be forked, on more than one core,
when the scenario files of the pack not stored yet (say, on a fresh machine) are big enough
for it to pay (:data:`MIN_CHARACTERS`), :func:`read_ahead` forks a process that reads them,
and that hands back what it stored (:func:`rulekit.stored.added`); :meth:`Ahead.join` puts
that in the stores of this process, where the checks of the scenario files then find it, as
after an earlier run. The checks run here, alike in any case: the other process stores only
results free of errors, and tells nothing else; if it fails, or cannot be started, this
process does all the work itself.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import time
from pathlib import Path

from rulekit.errors import PackError
from rulekit.stored import add, added
from rulekit.yamlsource import is_stored, load_yaml, parse_yaml, read_text

WAIT_SECONDS = 30.0  # at most, for the other process (its files are bounded in size)
MIN_CHARACTERS = 64 * 1024  # in the scenario files not stored, for a fork to pay: on 2 cores,
# 98 kB of them (123 scenarios) took 25-35 ms less, 48 kB (58) about as long as without a fork


def read_ahead(folder: Path) -> Ahead | None:
    """The scenario files of the pack in ``folder`` read in a forked process, or None where
    that does not pay (one core, no fork, threads running, every file stored already) or
    cannot be done."""
    if not _can_fork():
        return None
    files = _unstored(folder)
    if not files:
        return None
    try:
        reader, writer = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the other process: it never returns from here
        os.close(reader)
        _child(writer, files)
    os.close(writer)
    return Ahead(pid, reader)


class Ahead:
    """The process that reads ahead, seen from this one."""

    def __init__(self, pid: int, reader: int) -> None:
        self.pid: int | None = pid
        self.reader = reader

    def join(self) -> None:
        """Wait for the other process, and put what it stored in this process's stores
        (nothing, if it failed)."""
        if self.pid is None:
            return
        data = _read_all(self.reader, time.monotonic() + WAIT_SECONDS)
        ok = self._end(kill=data is None)
        if ok and data:
            with contextlib.suppress(Exception):  # a message cut short: nothing to add
                found = pickle.loads(data)
                if isinstance(found, dict):
                    add(found)

    def stop(self) -> None:
        """End the other process, if it still runs (what it stored is not used)."""
        if self.pid is not None:
            self._end(kill=True)

    def _end(self, kill: bool) -> bool:
        """Reap the other process (killed first if ``kill``); whether it ended well."""
        pid, self.pid = self.pid, None
        assert pid is not None
        with contextlib.suppress(OSError):
            os.close(self.reader)
        if kill:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            _, status = os.waitpid(pid, 0)
        except OSError:
            return False
        return not kill and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _can_fork() -> bool:
    if not hasattr(os, "fork"):
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if not cores or cores < 2:
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _unstored(folder: Path) -> list[Path]:
    """The pack's scenario files (as its manifest names them), if those not stored hold at
    least :data:`MIN_CHARACTERS`; none if the manifest cannot be read."""
    from rulekit.pack.files import OutsideError, display_path, glob_files

    try:
        manifest = load_yaml(folder / "pack.yaml", display_path(folder / "pack.yaml"))
        patterns = manifest.data.get("scenarios") if isinstance(manifest.data, dict) else None
        files: list[Path] = []
        for pattern in patterns if isinstance(patterns, list) else []:
            if isinstance(pattern, str):
                files.extend(m for m in glob_files(folder, (folder,), pattern) if m not in files)
        texts = [read_text(path) for path in files]
        if sum(len(text) for text in texts if not is_stored(text)) < MIN_CHARACTERS:
            return []
    except (PackError, OutsideError, OSError):
        return []
    return files


def _child(writer: int, files: list[Path]) -> None:
    """Read ``files``, send what was stored down ``writer``, and exit (never returning, never
    running this process's exit handlers, never writing to its streams)."""
    code = 1
    try:
        for path in files:
            _read(path)
        data = pickle.dumps(added(), pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(writer, view):]
        code = 0
    except BaseException:  # (any failure: this process does the work itself)
        code = 1
    finally:
        os._exit(code)


def _read(path: Path) -> None:
    """Read one scenario file as its checks do, storing what they would store."""
    from rulekit.lang.parser import parse_expression, plain_snippet
    from rulekit.schema import validate_document

    try:
        doc = parse_yaml(read_text(path), path, path.as_posix())
    except PackError:
        return
    if not isinstance(doc.data, dict) or validate_document(doc, "scenarios"):
        return
    for scenario in doc.data.get("scenarios") or []:
        for text in scenario.get("expect") or []:
            with contextlib.suppress(PackError):
                parse_expression(plain_snippet(str(text)))


def _read_all(fd: int, deadline: float) -> bytes | None:
    """Everything written to ``fd`` until it is closed; None if that takes past ``deadline``
    (or reading fails)."""
    chunks: list[bytes] = []
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except (OSError, ValueError):
        return None
