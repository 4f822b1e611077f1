"""Parse YAML text into plain values, with the place of each, by PyYAML's safe composer."""

from __future__ import annotations

import yaml
from yaml.constructor import SafeConstructor

from rulekit.errors import DuplicateKeyError, YamlSyntaxError
from rulekit.limits import MAX_INT, MAX_YAML_VALUES
from rulekit.source.document import _LINE_BREAK, JsonPath, YamlDocument, _NodeInfo
from rulekit.source.mistakes import explain

__all__ = ["convert"]

Scalar = str | int | float | bool | None

_CORE = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_CORE + t for t in ("str", "int", "float", "bool", "null"))
_TIMESTAMP, _MERGE = _CORE + "timestamp", _CORE + "merge"
_MAP, _SEQ = _CORE + "map", _CORE + "seq"
_KEY_TAGS = (_STR, _INT, _FLOAT, _BOOL, _NULL, _TIMESTAMP)
_NOT_A = {_BOOL: "a boolean", _INT: "an integer", _FLOAT: "a number"}

# How many values aliases may expand to in one file (a guard against "billion laughs").
_MAX_NODES = 1_000_000


# PyYAML's safe loader in C, if built: several times faster. A file it cannot parse is parsed
# again by the Python loader, whose words the messages quote.
_FastLoader = getattr(yaml, "CSafeLoader", None)


def _compose(text: str) -> tuple[yaml.Node | None, SafeConstructor]:
    if _FastLoader is not None:
        fast = _FastLoader(text)
        try:
            return fast.get_single_node(), fast
        except yaml.YAMLError:
            pass  # parsed again below, for the message
        finally:
            fast.dispose()
    loader = yaml.SafeLoader(text)
    try:
        return loader.get_single_node(), loader
    finally:
        loader.dispose()


def _count_values(document: YamlDocument) -> None:
    """Refuse a file of more than ``MAX_YAML_VALUES`` values, cheaply, before any is built."""
    count = 0
    try:
        for event in yaml.parse(document.text, Loader=_FastLoader or yaml.SafeLoader):
            if isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent):
                count += 1
                if count > MAX_YAML_VALUES:
                    mark = event.start_mark
                    line, column = (mark.line, mark.column) if mark is not None else (0, 0)
                    raise YamlSyntaxError(
                        f"this file holds more than {MAX_YAML_VALUES:,} values (the limit)",
                        document._at(line, column),
                        "split what it describes into smaller files, or describe less")
    except yaml.YAMLError:
        return


def convert(document: YamlDocument) -> None:
    """Parse the text of ``document`` into its data and their places; raise at the first mistake."""
    _count_values(document)
    try:
        root, loader = _compose(document.text)
        document.data = _Converter(document, loader).convert_root(root)
    except yaml.MarkedYAMLError as error:
        raise _syntax_error(document, error) from None
    except yaml.reader.ReaderError as error:
        raise _character_error(document, error) from None
    except yaml.YAMLError as error:
        raise YamlSyntaxError(f"invalid YAML: {error}", document._at(0, 0)) from None
    except RecursionError:
        raise YamlSyntaxError("the YAML is nested too deeply", document._at(0, 0)) from None


def _character_error(document: YamlDocument, error: yaml.reader.ReaderError) -> YamlSyntaxError:
    line0, column0 = _line_column(document.text, error.position)
    return YamlSyntaxError(
        f"character #x{error.character:04x} is not allowed in YAML text"
        if isinstance(error.character, int)
        else "this character is not allowed in YAML text",
        document._at(line0, column0),
        "remove it, or write it as an escape such as \\x07 inside double quotes",
    )


def _line_column(text: str, index: int) -> tuple[int, int]:
    """0-based line and column of character ``index`` of ``text``."""
    lines = _LINE_BREAK.split(text[:index])
    return len(lines) - 1, len(lines[-1])


class _Converter:
    """Turns a composed node graph into plain values, recording positions."""

    def __init__(self, document: YamlDocument, loader: SafeConstructor) -> None:
        self.document = document
        self.nodes = document._nodes
        self.loader = loader
        self.active: set[int] = set()  # ids of collection nodes being converted (cycle check)
        self.count = 0

    def convert_root(self, node: yaml.Node | None) -> object:
        """The value of the whole file."""
        if node is None:  # an empty file, or only comments
            self.nodes[()] = _NodeInfo("scalar", 0, 0, 0, 0, "", None, None, None)
            return None
        return self.convert(node, (), None)

    def record(self, node: yaml.Node, path: JsonPath, key: yaml.Node | None) -> None:
        """Note where the value at ``path`` is, and where its key is."""
        scalar = isinstance(node, yaml.ScalarNode)
        kind = "mapping" if isinstance(node, yaml.MappingNode) else \
            "sequence" if isinstance(node, yaml.SequenceNode) else "scalar"
        start, end = node.start_mark, node.end_mark
        key_line, key_column = (None, None) if key is None else \
            (key.start_mark.line, key.start_mark.column)
        self.nodes[path] = _NodeInfo(
            kind, start.line, start.column, end.line, end.column,
            (getattr(node, "style", None) or "") if scalar else "",
            node.value if scalar else None, key_line, key_column)

    def convert(self, node: yaml.Node, path: JsonPath, key: yaml.Node | None) -> object:
        """The value of ``node``, its place recorded at ``path``."""
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
            return self.collection(node, path, key)
        finally:
            self.active.discard(id(node))

    def collection(self, node: yaml.Node, path: JsonPath, key: yaml.Node | None) -> object:
        """The list or mapping of ``node``."""
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
        raise self.error(node, "unexpected YAML node")  # pragma: no cover

    def mapping(self, node: yaml.MappingNode, path: JsonPath) -> dict[str, object]:
        """A mapping: the entries of its merge key, then its own."""
        explicit, merges = self.entries(node)
        result: dict[str, object] = {}
        for merge in merges:
            result.update(self.merged(merge, path))
        for key, key_node, value_node in explicit:
            result[key] = self.convert(value_node, (*path, key), key_node)
        return result

    def entries(self, node: yaml.MappingNode
                ) -> tuple[list[tuple[str, yaml.Node, yaml.Node]], list[yaml.Node]]:
        """The entries of a mapping, and the values of its merge key."""
        explicit: list[tuple[str, yaml.Node, yaml.Node]] = []
        merges: list[yaml.Node] = []
        first_seen: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node)
            if key in first_seen:
                raise self.duplicate(key, key_node, first_seen[key])
            first_seen[key] = key_node
            if key_node.tag == _MERGE:
                merges.append(value_node)
            else:
                explicit.append((key, key_node, value_node))
        return explicit, merges

    def key(self, node: yaml.Node) -> str:
        """A mapping key: the text of a plain value; ``<<`` for a merge key."""
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(node, "a mapping key must be a plain value, not a collection")
        if node.tag == _MERGE:
            return "<<"
        if node.tag not in _KEY_TAGS:
            raise self.bad_tag(node)
        return str(node.value)

    def merged(self, node: yaml.Node, path: JsonPath) -> dict[str, object]:
        """The entries a ``<<`` key brings in; earlier mappings of a list win."""
        sources = _merge_sources(node)
        if sources is None:
            raise self.error(node, "a merge key '<<' needs a mapping or a list of mappings")
        result: dict[str, object] = {}
        for source in reversed(sources):
            value = self.convert(source, path, None)
            assert isinstance(value, dict)  # (a mapping node with the map tag)
            result.update(value)
        return result

    def scalar(self, node: yaml.ScalarNode) -> Scalar:
        """The value of a scalar, by its tag."""
        tag = node.tag
        if tag in (_STR, _TIMESTAMP, _MERGE):
            return str(node.value)
        if tag == _NULL:
            return None
        if tag not in _NOT_A:
            raise self.bad_tag(node)
        try:
            if tag == _INT:
                return self.integer(node)
            if tag == _BOOL:
                return self.loader.construct_yaml_bool(node)
            return self.loader.construct_yaml_float(node)
        except (ValueError, KeyError, IndexError):
            raise self.error(node, f"'{node.value}' is not {_NOT_A[tag]}") from None

    def integer(self, node: yaml.ScalarNode) -> int:
        """An integer within the bounds of the language."""
        value = str(node.value)
        number = None if len(value) > 64 else self.loader.construct_yaml_int(node)
        if number is None or abs(number) > MAX_INT:
            shown = value if len(value) <= 24 else f"{value[:20]}... ({len(value)} chars)"
            raise self.error(node, f"the number {shown} is too large; numbers lie "
                             f"within ±{MAX_INT:,} (±2^63 - 1)")
        return number

    def error(self, node: yaml.Node, message: str, hint: str | None = None) -> YamlSyntaxError:
        """A mistake at ``node``."""
        mark = node.start_mark
        return YamlSyntaxError(message, self.document._at(mark.line, mark.column), hint)

    def bad_tag(self, node: yaml.Node) -> YamlSyntaxError:
        """A tag that pack files may not use."""
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
        """A key given twice in one mapping."""
        mark = node.start_mark
        return DuplicateKeyError(
            f"duplicate key '{key}' (first given on line {first.start_mark.line + 1})",
            self.document._at(mark.line, mark.column),
            "a key may appear only once in a mapping; remove or rename one of them",
        )


def _merge_sources(node: yaml.Node) -> list[yaml.Node] | None:
    """The mappings a merge key brings: one, or a list of them; None for anything else."""
    sources = [node] if isinstance(node, yaml.MappingNode) else \
        list(node.value) if isinstance(node, yaml.SequenceNode) else []
    return sources if sources and all(isinstance(s, yaml.MappingNode) for s in sources) else None


_TOKEN_NAMES = {
    "'<stream end>'": "the end of the file",
    "'<stream start>'": "the start of the file",
    "<block end>": "the end of the indented block",
    "'<block mapping start>'": "a new indented mapping",
    "'<block sequence start>'": "a new indented list",
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

# Hints for PyYAML's messages: where to look (the problem, its context, or both), what to look
# for, and the hint. The first that fits is given.
_SYNTAX_HINTS = [
    ("problem", "'\\t'", "indent YAML with spaces, not tabs"),
    ("problem", "mapping values are not allowed",
     "put text that contains ': ' in quotes, or check the indentation of this line"),
    ("problem", "could not find expected ':'",
     "a key needs ': ' after it; check the indentation or quote the text"),
    ("context", "quoted scalar", "the closing quote is missing"),
    ("problem", "<block end>", "check the indentation of this line"),
    ("problem", "undefined alias", "an alias *name needs an anchor &name earlier in the file; "
     "if this is code, put it in quotes"),
    ("both", "expected a single document",
     "a pack file holds one YAML document; remove the extra '---'"),
]


def _clean(text: str) -> str:
    """PyYAML's words for a mistake, in ours."""
    text = " ".join(text.split())
    for raw, nice in _TOKEN_NAMES.items():
        text = text.replace(raw, nice)
    return text.replace(" a indented", " an indented").rstrip(".")


def _syntax_error(document: YamlDocument, error: yaml.MarkedYAMLError) -> YamlSyntaxError:
    placed = explain(document.text, error, document._at)
    if placed is not None:
        return placed
    problem = error.problem or error.context or "invalid YAML"
    context = error.context if error.problem else None
    mark = error.problem_mark or error.context_mark
    location = document._at(mark.line, mark.column) if mark is not None else document._at(0, 0)
    said = {"problem": problem, "context": context or "", "both": (context or "") + problem}
    hint = next((hint for where, words, hint in _SYNTAX_HINTS if words in said[where]), None)
    return YamlSyntaxError(_syntax_message(problem, context, mark, error.context_mark),
                           location, hint)


def _syntax_message(problem: str, context: str | None, mark: yaml.Mark | None,
                    start: yaml.Mark | None) -> str:
    """The message of a syntax error, with where its context starts."""
    if context and "single document" in context:
        return "a second YAML document starts here"
    message = _clean(problem)
    if context and start is not None and mark is not None and (
            (start.line, start.column) != (mark.line, mark.column)):
        message += f" ({_clean(context)} that starts at line {start.line + 1}, "
        message += f"column {start.column + 1})"
    return message
