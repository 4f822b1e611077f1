"""YAML text into plain values with the place of each, by PyYAML's composer (a ``SafeLoader``:
no Python tags, no other non-standard tag either); mistakes said in words, at their place.

See :mod:`rulekit.source.document` for what the values are and the decisions about keys,
values and duplicates.
"""

from __future__ import annotations

from typing import Any

import yaml

from rulekit.errors import DuplicateKeyError, YamlSyntaxError
from rulekit.limits import MAX_INT
from rulekit.source.document import _LINE_BREAK, JsonPath, YamlDocument, _NodeInfo
from rulekit.source.mistakes import explain

__all__ = ["convert"]

_CORE = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_CORE + t for t in ("str", "int", "float", "bool", "null"))
_TIMESTAMP, _MERGE = _CORE + "timestamp", _CORE + "merge"
_MAP, _SEQ = _CORE + "map", _CORE + "seq"

# How many values aliases may expand to in one file (a guard against "billion laughs").
_MAX_NODES = 1_000_000


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader; only its composer and scalar constructors are used."""


# The safe loader on libyaml (C, several times faster), when PyYAML was built with it. A file
# that fails to parse is parsed again by the Python loader, whose messages the errors quote.
_FastLoader: Any = getattr(yaml, "CSafeLoader", None)


def _compose(text: str) -> tuple[yaml.Node | None, Any]:
    """The root node of ``text`` and the loader that made it."""
    if _FastLoader is not None:
        fast = _FastLoader(text)
        try:
            return fast.get_single_node(), fast
        except yaml.YAMLError:
            pass  # parsed again below, for the message
        finally:
            fast.dispose()
    loader = _Loader(text)
    try:
        return loader.get_single_node(), loader
    finally:
        loader.dispose()


def convert(document: YamlDocument) -> None:
    """Parse the text of ``document`` into its data and the positions of its values; raises
    :class:`~rulekit.errors.YamlSyntaxError` (or :class:`~rulekit.errors.DuplicateKeyError`)
    at the first mistake."""
    text = document.text
    try:
        root, loader = _compose(text)
        document.data = _Converter(document, loader).convert_root(root)
    except yaml.MarkedYAMLError as error:
        raise _syntax_error(document, error) from None
    except yaml.reader.ReaderError as error:
        line0, column0 = _line_column(text, error.position)
        raise YamlSyntaxError(
            f"character #x{error.character:04x} is not allowed in YAML text"
            if isinstance(error.character, int)
            else "this character is not allowed in YAML text",
            document._at(line0, column0),
            "remove it, or write it as an escape such as \\x07 inside double quotes",
        ) from None
    except yaml.YAMLError as error:
        raise YamlSyntaxError(f"invalid YAML: {error}", document._at(0, 0)) from None
    except RecursionError:
        raise YamlSyntaxError("the YAML is nested too deeply", document._at(0, 0)) from None


def _line_column(text: str, index: int) -> tuple[int, int]:
    """0-based line and column of character ``index`` of ``text``."""
    before = text[:index]
    breaks = list(_LINE_BREAK.finditer(before))
    if not breaks:
        return 0, len(before)
    return len(breaks), len(before) - breaks[-1].end()


class _Converter:
    """Turns a composed node graph into plain values, recording positions."""

    def __init__(self, document: YamlDocument, loader: Any) -> None:
        self.document = document
        self.nodes = document._nodes
        self.loader = loader
        self.active: set[int] = set()  # ids of collection nodes being converted (cycle check)
        self.count = 0

    def convert_root(self, node: yaml.Node | None) -> Any:
        if node is None:  # an empty file, or only comments
            self.nodes[()] = _NodeInfo("scalar", 0, 0, 0, 0, "", None, None, None)
            return None
        return self.convert(node, (), None)

    def record(self, node: yaml.Node, path: JsonPath, key: yaml.Node | None) -> None:
        kind = (
            "mapping"
            if isinstance(node, yaml.MappingNode)
            else "sequence"
            if isinstance(node, yaml.SequenceNode)
            else "scalar"
        )
        raw = node.value if isinstance(node, yaml.ScalarNode) else None
        style = (getattr(node, "style", None) or "") if kind == "scalar" else ""
        self.nodes[path] = _NodeInfo(
            kind,
            node.start_mark.line,
            node.start_mark.column,
            node.end_mark.line,
            node.end_mark.column,
            style,
            raw,
            key.start_mark.line if key is not None else None,
            key.start_mark.column if key is not None else None,
        )

    def convert(self, node: yaml.Node, path: JsonPath, key: yaml.Node | None) -> Any:
        self.count += 1
        if self.count > _MAX_NODES:
            raise self.error(node, "the aliases of this file expand to too many values")
        if isinstance(node, yaml.ScalarNode):
            self.record(node, path, key)
            return self.scalar(node)
        if id(node) in self.active:
            raise self.error(node, "an alias refers to a value that contains it")
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                if node.tag != _SEQ:
                    raise self.bad_tag(node)
                self.record(node, path, key)
                return [self.convert(item, (*path, i), None) for i, item in enumerate(node.value)]
            if isinstance(node, yaml.MappingNode):
                if node.tag != _MAP:
                    raise self.bad_tag(node)
                result = self.mapping(node, path)
                self.record(node, path, key)
                return result
        finally:
            self.active.discard(id(node))
        raise self.error(node, "unexpected YAML node")  # pragma: no cover

    def mapping(self, node: yaml.MappingNode, path: JsonPath) -> dict[str, Any]:
        explicit: list[tuple[str, yaml.Node, yaml.Node]] = []
        merges: list[yaml.Node] = []
        first_seen: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.error(key_node, "a mapping key must be a plain value, not a collection")
            if key_node.tag == _MERGE:
                if "<<" in first_seen:
                    raise self.duplicate("<<", key_node, first_seen["<<"])
                first_seen["<<"] = key_node
                merges.append(value_node)
                continue
            if key_node.tag not in (_STR, _INT, _FLOAT, _BOOL, _NULL, _TIMESTAMP):
                raise self.bad_tag(key_node)
            key = str(key_node.value)
            if key in first_seen:
                raise self.duplicate(key, key_node, first_seen[key])
            first_seen[key] = key_node
            explicit.append((key, key_node, value_node))
        result: dict[str, Any] = {}
        for merge in merges:
            result.update(self.merged(merge, path))
        for key, key_node, value_node in explicit:
            result[key] = self.convert(value_node, (*path, key), key_node)
        return result

    def merged(self, node: yaml.Node, path: JsonPath) -> dict[str, Any]:
        """The entries a ``<<`` key brings in (earlier mappings of a list win)."""
        if isinstance(node, yaml.MappingNode):
            sources: list[yaml.Node] = [node]
        elif isinstance(node, yaml.SequenceNode):
            sources = list(node.value)
        else:
            sources = []
        if not sources or not all(isinstance(s, yaml.MappingNode) for s in sources):
            raise self.error(node, "a merge key '<<' needs a mapping or a list of mappings")
        result: dict[str, Any] = {}
        for source in reversed(sources):
            value = self.convert(source, path, None)
            result.update(value)
        return result

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        value = node.value
        if tag in (_STR, _TIMESTAMP, _MERGE):
            return value
        if tag == _NULL:
            return None
        try:
            if tag == _BOOL:
                return self.loader.construct_yaml_bool(node)
            if tag == _INT:
                number = None if len(value) > 64 else self.loader.construct_yaml_int(node)
                if number is None or abs(number) > MAX_INT:
                    shown = value if len(value) <= 24 else f"{value[:20]}... ({len(value)} chars)"
                    raise self.error(node, f"the number {shown} is too large; numbers lie "
                                     f"within ±{MAX_INT:,} (±2^63 - 1)")
                return number
            if tag == _FLOAT:
                return self.loader.construct_yaml_float(node)
        except (ValueError, KeyError, IndexError):
            kind = {_BOOL: "a boolean", _INT: "an integer", _FLOAT: "a number"}[tag]
            raise self.error(node, f"'{value}' is not {kind}") from None
        raise self.bad_tag(node)

    def error(self, node: yaml.Node, message: str, hint: str | None = None) -> YamlSyntaxError:
        mark = node.start_mark
        return YamlSyntaxError(message, self.document._at(mark.line, mark.column), hint)

    def bad_tag(self, node: yaml.Node) -> YamlSyntaxError:
        tag = str(node.tag)
        shown = "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag
        if "python/" in tag:
            message = f"the tag '{shown}' is not allowed: pack files hold plain data only"
        else:
            message = f"unsupported tag '{shown}'"
        return self.error(
            node, message, "remove the tag; only !!str, !!int, !!float, !!bool and !!null work"
        )

    def duplicate(self, key: str, node: yaml.Node, first: yaml.Node) -> DuplicateKeyError:
        mark = node.start_mark
        return DuplicateKeyError(
            f"duplicate key '{key}' (first given on line {first.start_mark.line + 1})",
            self.document._at(mark.line, mark.column),
            "a key may appear only once in a mapping; remove or rename one of them",
        )


# -- syntax errors --------------------------------------------------------------------------

_TOKEN_NAMES = {
    "'<stream end>'": "the end of the file",
    "'<stream start>'": "the start of the file",
    "<block end>": "the end of the indented block",
    "'<block mapping start>'": "a new indented mapping",
    "'<block sequence start>'": "a new indented list",
    "'<block end>'": "the end of the indented block",
    "'<scalar>'": "a value",
    "'<document start>'": "'---'",
    "'<document end>'": "'...'",
    "'?'": "a new key",
    "'<anchor>'": "an anchor",
    "'<alias>'": "an alias",
    "'<tag>'": "a tag",
    "end of stream": "end of the file",
    "character '\\t'": "a tab character",
    "the node content": "a value",
    "block collection": "indented collection",
    "block mapping": "indented mapping",
    "block sequence": "indented list",
    "flow mapping": "{...} mapping",
    "flow sequence": "[...] list",
    "flow node": "value",
    "block node": "value",
    "scalar": "value",
}


def _clean(text: str) -> str:
    text = " ".join(text.split())
    for raw, nice in _TOKEN_NAMES.items():
        text = text.replace(raw, nice)
    return text.replace(" a indented", " an indented").rstrip(".")


def _syntax_hint(problem: str, context: str) -> str | None:
    if "'\\t'" in problem:
        return "indent YAML with spaces, not tabs"
    if "mapping values are not allowed" in problem:
        return "put text that contains ': ' in quotes, or check the indentation of this line"
    if "could not find expected ':'" in problem:
        return "a key needs ': ' after it; check the indentation or quote the text"
    if "quoted scalar" in context:
        return "the closing quote is missing"
    if "<block end>" in problem:
        return "check the indentation of this line"
    if "undefined alias" in problem:
        return ("an alias *name needs an anchor &name earlier in the file; if this is code, "
                "put it in quotes")
    if "expected a single document" in context + problem:
        return "a pack file holds one YAML document; remove the extra '---'"
    return None


def _syntax_error(document: YamlDocument, error: yaml.MarkedYAMLError) -> YamlSyntaxError:
    placed = explain(document.text, error, document._at)
    if placed is not None:
        return placed
    problem = error.problem or error.context or "invalid YAML"
    context = error.context if error.problem else None
    mark = error.problem_mark or error.context_mark
    message = _clean(problem)
    cmark = error.context_mark
    if context and "single document" in context:
        message = "a second YAML document starts here"
    elif (
        context
        and cmark is not None
        and mark is not None
        and ((cmark.line, cmark.column) != (mark.line, mark.column))
    ):
        message += f" ({_clean(context)} that starts at line {cmark.line + 1}, "
        message += f"column {cmark.column + 1})"
    location = document._at(mark.line, mark.column) if mark is not None else document._at(0, 0)
    return YamlSyntaxError(message, location, _syntax_hint(problem, context or ""))
