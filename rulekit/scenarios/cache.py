"""The scenario files of a pack, checked (:mod:`rulekit.scenarios.check`) or found checked before.

What the checks of a scenario file read of its pack is its *interface*: the manifest, the rule
ids, and the merged sections but the statement lists (the ``do`` of procedures and phases,
``setup``, ``after_rounds``), which a scenario file cannot name, and but the values of the
number slots (a property of a component, a parameter's default:
:func:`rulekit.pack.meaning.slots_of`), of which the checks read only the types. A file found
free of mistakes is kept in a :class:`~rulekit.source.store.Store` by its text and that interface,
with the names of its scenarios; while both are unchanged (say, after an edit of a
procedure's code, or of a card's score), ``rulekit validate`` neither reads nor checks it
again. A file with a mistake is never kept, nor are the files of a run that found one, and
names given twice are looked at afresh.
"""

from __future__ import annotations

import json
from typing import Any

from rulekit.errors import PackError, PackFileError
from rulekit.pack.loader import LoadedPack
from rulekit.source.document import read_text
from rulekit.source.store import Store, sha256

# (text of a scenario file, interface of its pack) -> the names of its scenarios
_checked = Store("scenario-checks")


def interface(pack: LoadedPack) -> str:
    """A digest of what the checks of a scenario file read of ``pack``."""
    from rulekit.pack.meaning import numbers_left_out, slots_of

    data: dict[str, Any] = dict(pack.content.data) if pack.content is not None else {}
    data = numbers_left_out(data, slots_of(data, "content"))
    data.pop("setup", None)
    procedures = data.get("procedures")
    if isinstance(procedures, dict):
        data["procedures"] = {name: _without(proc, "do") for name, proc in procedures.items()}
    flow = data.get("flow")
    if isinstance(flow, dict):
        flow = _without(flow, "after_rounds")
        if isinstance(flow.get("phases"), list):
            flow["phases"] = [_without(phase, "do") for phase in flow["phases"]]
        data["flow"] = flow
    manifest = numbers_left_out(pack.manifest, slots_of(pack.manifest, "pack"))
    text = json.dumps([manifest, [rule for rule, _ in pack.rules], data], default=repr)
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _without(value: Any, key: str) -> Any:
    return {k: v for k, v in value.items() if k != key} if isinstance(value, dict) else value


def check_scenario_files(pack: LoadedPack) -> tuple[list[PackError], int]:
    """Every mistake in the scenario files of ``pack``, and how many scenarios they hold;
    raises :class:`~rulekit.errors.PackErrors` for a file that cannot be read."""
    files = pack.scenario_files
    shape = interface(pack)
    names: list[str] = []
    for path in files:
        try:
            found = _checked.get_object((read_text(path), shape))
        except PackFileError:
            found = None
        if not isinstance(found, list):
            break
        names.extend(found)
    else:
        if len(set(names)) == len(names):
            return [], len(names)
    from rulekit.scenarios.check import check_scenarios  # only when some file is not known
    from rulekit.scenarios.file import load_scenarios

    scenarios = load_scenarios(files)
    errors = check_scenarios(pack, scenarios)
    if not errors:
        for path in files:
            docs = [s.doc for s in scenarios if s.doc.path == path]
            if docs:
                _checked.put_object((docs[0].text, shape),
                                    [s.name for s in scenarios if s.doc.path == path])
    return errors, len(scenarios)
