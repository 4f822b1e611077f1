"""Whether the report of a validation still holds after its pack's files were edited.

A validation free of errors keeps, for each pack file it read, what the file means
(:mod:`rulekit.pack.meaning`), and the same with numbers left out; two lists of the places
whose numbers the report reads: those whose exact value a check read (the code of the end
conditions and of the functions they call, the defaults of the parameters they name, the
components when they may read a property: the lint's check of the end conditions on the first
state of a game, :func:`rulekit.checks.end.end_condition_reads`), and the defaults of the
parameters with their bounds (the check of the declarations); and what that check of the end
conditions found. The report holds for edited files when each one:

- is still valid YAML, and holds none of the report's warnings (their places, or the lines
  they quote, may have changed);
- and means what it meant (a comment, blank lines, the spaces of code changed): every check
  finds what it found;
- or means what it meant with its numbers left out, every default of a parameter in it is
  within its bounds, and it passes its schema: no other check reads those numbers but for
  their types (:mod:`rulekit.pack.meaning` says which) and the end conditions, which find
  what they found if every place of the first list holds the same (its code the same
  tokens), or, tried again (:func:`rulekit.checks.end.verdicts_after_edit`), when they find
  what they found then (the same end conditions hold on the first state of a game).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.source.store import sha256

if TYPE_CHECKING:
    from rulekit.source.document import JsonPath, YamlDocument

class Reads:
    """The places whose numbers a validation's report reads (see the module's documentation):
    ``exact`` (True marks code) and ``bounds`` (the spec of the parameter whose default is
    there); and ``verdicts``, whether each end condition holds on the first state of a game
    (:func:`rulekit.checks.end.end_verdicts`), which reads the first."""

    def __init__(self, exact: Sequence[tuple[YamlDocument, JsonPath, bool]] = (),
                 bounds: Sequence[tuple[YamlDocument, JsonPath, dict[str, Any]]] = (),
                 verdicts: Sequence[bool] = ()) -> None:
        self.exact = list(exact)
        self.bounds = list(bounds)
        self.verdicts = list(verdicts)


def parameter_bounds(manifest: YamlDocument | None) -> list[tuple[YamlDocument, JsonPath,
                                                                 dict[str, Any]]]:
    """Where the default of each parameter of a (merged) manifest is written, with its spec."""
    params = manifest.data.get("parameters") if manifest is not None else None
    if manifest is None or not isinstance(params, dict):
        return []
    return [(*manifest.resolve(("parameters", name, "default")), spec)
            for name, spec in params.items() if isinstance(spec, dict)]


def record(documents: Sequence[YamlDocument], texts: dict[str, str], reads: Reads,
           before: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """What the cache keeps of the files a validation read (their texts as now, by full path):
    ``meanings``, ``exact``, ``bounds``, and the places of their plain numbers (``numbers``,
    :mod:`rulekit.pack.digits`) with their ``data``, each by full path; None if one was edited
    meanwhile. ``before``: what was kept of the files whose texts are the same as then."""
    kept: dict[str, Any] = {"meanings": {}, "exact": {}, "bounds": {}, "numbers": {},
                            "data": {}, "verdicts": reads.verdicts}
    for doc in documents:
        path = str(doc.path.resolve())
        if texts.get(path) != doc.text:
            return None
        _keep(kept, path, doc, before)
    for doc, at, is_code in reads.exact:
        kept["exact"].setdefault(str(doc.path.resolve()), []).append(
            [list(at), is_code, _exact(doc.data, at, is_code)])
    for doc, at, spec in reads.bounds:
        kept["bounds"].setdefault(str(doc.path.resolve()), []).append(
            [list(at), spec.get("min"), spec.get("max")])
    if any(path not in kept["meanings"] for path in (*kept["exact"], *kept["bounds"])):
        return None
    return kept


def _keep(kept: dict[str, Any], path: str, doc: YamlDocument,
          before: dict[str, Any] | None = None) -> None:
    """Keep the meanings and the plain numbers of ``doc`` (the file at ``path``), or those
    of ``before`` when its text was the same and read alike."""
    from rulekit.pack.digits import places
    from rulekit.pack.meaning import meanings

    code = sorted(doc.code_paths, key=json.dumps)
    same = before is not None and path in before["meanings"]
    if same and before is not None and before["meanings"][path][:3] == [
            doc.display_name, doc.schema, [list(at) for at in code]] \
            and before["meanings"][path][3] is not None:
        for key in ("meanings", "numbers", "data"):
            kept[key][path] = before[key][path]
        return
    kept["meanings"][path] = [doc.display_name, doc.schema, code, *meanings(doc)]
    numbers = places(doc)
    kept["numbers"][path] = numbers
    kept["data"][path] = doc.data if numbers is not None else None


def _exact(data: Any, at: JsonPath, is_code: bool) -> str:
    """A digest of the value at ``at`` of ``data`` (of code: its tokens)."""
    from rulekit.pack.meaning import code_tokens, value_at

    value = value_at(data, at)
    tokens = code_tokens(value) if is_code and isinstance(value, str) else None
    text = json.dumps(["code", tokens] if tokens is not None else ["data", value])
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


HOLDS, AGAIN, NO = "holds", "again", "no"
"""What an edited file tells of the report: it holds; it holds if the end conditions find what
they found (numbers they read changed); it may not."""


def still_holds(changed: dict[str, bytes], kept: dict[str, Any], placed: set[str],
                verdicts: Callable[[dict[str, YamlDocument]], list[bool] | None]
                ) -> dict[str, Any] | None:
    """What the cache keeps of the ``changed`` files (their bytes now, by full path) if the
    report kept with ``kept`` (as :func:`record` made it) holds for them; None if it may not
    (``placed``: the files its warnings are in; ``verdicts``: what the end conditions find
    now, or None, given the documents of the changed files, asked when numbers they read
    changed)."""
    from rulekit.pack.find import display_path
    from rulekit.source.textfile import decode_text

    found: dict[str, Any] = {key: {} for key in ("meanings", "numbers", "data", "exact")}
    given: dict[str, YamlDocument] = {}
    again = False
    for path, data in changed.items():
        name = kept["meanings"][path][0]
        if name in placed or display_path(Path(path)) != name:
            return None
        text = decode_text(data, name)
        verdict = _renumbered(path, text, kept, found, given)
        if verdict is None:
            verdict = _reparsed(path, text, kept, found, given)
        if verdict == NO:
            return None
        again = again or verdict == AGAIN
    if again and verdicts(given) != kept["verdicts"]:
        return None
    return found


def _guards(path: str, data: Any, kept: dict[str, Any], found: dict[str, Any]) -> str:
    """AGAIN if a place of ``exact`` in the file at ``path`` (whose data is now ``data``)
    holds another value, else HOLDS; the places are kept with their values now."""
    places = kept["exact"].get(path, [])
    now = [[at, is_code, _exact(data, tuple(at), bool(is_code))] for at, is_code, _ in places]
    found["exact"][path] = now
    return AGAIN if any(a[2] != b[2] for a, b in zip(places, now, strict=True)) else HOLDS


def _renumbered(path: str, text: str, kept: dict[str, Any], found: dict[str, Any],
                given: dict[str, YamlDocument]) -> str | None:
    """What ``text``, the file at ``path`` now, tells of the report if it differs from the
    text validated only in its plain numbers (what is kept of it is put in ``found``, its
    document with no positions in ``given``); None if it differs elsewhere too."""
    from rulekit.pack.digits import renumbered, reread
    from rulekit.source.schemafast import passes

    numbers = kept["numbers"].get(path)
    digits = reread(text, numbers) if numbers is not None else None
    if numbers is None or digits is None:
        return None
    name, schema, code_paths, _, blind = kept["meanings"][path]
    bounds = {tuple(at): (lo, hi) for at, lo, hi in kept["bounds"].get(path, [])}
    for place, new in zip(numbers["places"], digits, strict=True):
        at = tuple(place[2])
        if new != place[4] and at in bounds and _outside(int(new), *bounds[at]):
            return NO
    data = kept["data"][path]
    found["numbers"][path] = renumbered(numbers, data, digits)
    found["data"][path] = data
    found["meanings"][path] = [name, schema, code_paths, None, blind]
    if not passes(data, schema):
        return NO
    from rulekit.source.document import YamlDocument

    given[path] = YamlDocument(Path(path), name, text, json.loads(json.dumps(data)))
    return _guards(path, data, kept, found)


def _outside(value: Any, lo: Any, hi: Any) -> bool:
    from rulekit.pack.params import outside_bounds

    return isinstance(value, bool) or not isinstance(value, (int, float)) \
        or outside_bounds(value, {"min": lo, "max": hi})


def _reparsed(path: str, text: str, kept: dict[str, Any], found: dict[str, Any],
              given: dict[str, YamlDocument]) -> str:
    """What ``text``, the file at ``path`` now, tells of the report, parsed (what is kept of
    it is put in ``found``, its document in ``given``)."""
    from rulekit.pack.meaning import value_at
    from rulekit.source.document import parse_yaml
    from rulekit.source.schemafast import passes

    name, schema, code_paths, digest, blind = kept["meanings"][path]
    doc = parse_yaml(text, Path(path), name, keep=False)
    doc.schema = str(schema)
    doc.code_paths = {tuple(p) for p in code_paths}
    _keep(found, path, doc)
    given[path] = doc
    if found["meanings"][path][3] == digest:  # (the same data passes the same schema)
        return _guards(path, doc.data, kept, found)
    if found["meanings"][path][4] != blind:
        return NO
    for at, lo, hi in kept["bounds"].get(path, []):
        if _outside(value_at(doc.data, tuple(at)), lo, hi):
            return NO
    if not passes(doc.data, doc.schema):  # (no schema bounds a number slot today)
        return NO
    return _guards(path, doc.data, kept, found)


__all__ = ["AGAIN", "HOLDS", "NO", "Reads", "parameter_bounds", "record", "still_holds"]
