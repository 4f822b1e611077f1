"""A pack's scenario files read ahead, in a forked process, while this one loads the pack.

Reading a scenario file does not depend on its pack: its YAML, the check of its data against
its schema and the syntax trees of its ``expect`` code are found from its text alone, and kept
in the stores of :mod:`rulekit.source.store`. Where processes can be forked, on more than one core,
when the scenario files of the pack not stored yet (say, on a fresh machine) are big enough
for it to pay (:data:`MIN_CHARACTERS`), :func:`read_ahead` forks a process that reads them
one by one, taking each from a counter shared with this process
(:class:`rulekit.sim.fork.SharedCounter`), while this one loads the pack. Once it has,
:meth:`Ahead.join` reads here those not taken yet, waits for the other process to finish the
one it reads, and puts what that stored (:func:`rulekit.source.store.added`) in the stores of this
process, where the checks of the scenario files then find it, as after an earlier run. The
checks run here, alike in any case: the other process stores only results free of errors,
and tells nothing else; if it fails, or cannot be started, this process does all the work
itself (a file it took and did not finish is read by its checks).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from rulekit.errors import PackError
from rulekit.sim import fork as forked
from rulekit.source.document import is_stored, load_yaml, parse_yaml, read_text
from rulekit.source.store import add, added, added_from_now

WAIT_SECONDS = 30.0  # at most, for the other process (its files are bounded in size)
MIN_CHARACTERS = 16 * 1024  # in the scenario files not stored, for a fork to pay: it costs a
# few ms, and this process reads what the other has not taken once it has loaded the pack, so
# that neither waits for the other but to finish one file. On 2 cores, Car Chase's 48 kB took
# 15-30 ms less (of 240-350 ms), Red Notice's 98 kB 25-35 ms less.


def read_ahead(folder: Path) -> Ahead | None:
    """The scenario files of the pack in ``folder`` read in a forked process
    (:mod:`rulekit.sim.fork`), or None where that does not pay (one core, no fork, threads
    running, every file stored already) or cannot be done."""
    if not _can_fork():
        return None
    files = _unstored(folder)
    if not files:
        return None
    counter = forked.SharedCounter(len(files))
    process = forked.start(lambda: _read_taken(files, counter))
    if process is None:
        counter.close()
        return None
    return Ahead(process, files, counter)


class Ahead:
    """The process that reads ahead, seen from this one."""

    def __init__(self, process: forked.Forked, files: list[Path],
                 counter: forked.SharedCounter) -> None:
        self.process = process
        self.files = files
        self.counter: forked.SharedCounter | None = counter

    def join(self) -> None:
        """Read here the files the other process has not taken, wait for it, and put what it
        stored in this process's stores (nothing, if it failed)."""
        counter = self.counter
        with contextlib.suppress(Exception):  # (a file left unread is read by its checks)
            while counter is not None and (index := counter.take(WAIT_SECONDS)) is not None:
                _read(self.files[index])
        ok, found = self.process.result(WAIT_SECONDS)
        if ok and isinstance(found, dict):
            add(found)
        self.stop()

    def stop(self) -> None:
        """End the other process, if it still runs (what it stored is not used)."""
        self.process.stop()
        if self.counter is not None:
            self.counter.close()
            self.counter = None


def _can_fork() -> bool:
    return forked.can_fork()


def _unstored(folder: Path) -> list[Path]:
    """The pack's scenario files (as its manifest names them), if those not stored hold at
    least :data:`MIN_CHARACTERS`; none if the manifest cannot be read."""
    from rulekit.pack.find import OutsideError, display_path, glob_files

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


def _read_taken(files: list[Path], counter: forked.SharedCounter) -> dict[str, Any]:
    """Read the files taken from ``counter`` one by one, until none is left (in the other
    process): what that stored, by store."""
    added_from_now()
    while (index := counter.take()) is not None:
        _read(files[index])
    return added()


def _read(path: Path) -> None:
    """Read one scenario file as its checks do, storing what they would store."""
    from rulekit.lang.parser import parse_expression, plain_snippet
    from rulekit.source.schema import validate_document

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
