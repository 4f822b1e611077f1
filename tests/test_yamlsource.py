"""Tests of rulekit.source.document: safe loading, positions, and positions inside text values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulekit.errors import DuplicateKeyError, Location, PackFileError, YamlSyntaxError
from rulekit.source.document import YamlDocument, load_yaml

Loader = Callable[[str], YamlDocument]


@pytest.fixture
def load(tmp_path: Path) -> Loader:
    """Write a YAML text to a file and load it, displayed as games/t/flow.yaml."""

    def _load(text: str) -> YamlDocument:
        path = tmp_path / "flow.yaml"
        path.write_text(text, encoding="utf-8")
        return load_yaml(path, "games/t/flow.yaml")

    return _load


def value_at(doc: YamlDocument, path: tuple[str | int, ...]) -> Any:
    value = doc.data
    for key in path:
        value = value[key]
    return value


def style_of(doc: YamlDocument, path: tuple[str | int, ...]) -> str:
    """The YAML style of the scalar at ``path``: '' for plain text or another value."""
    info = doc.node(path)
    return info.style if info is not None and info.kind == "scalar" else ""


def char_at(loc: Location) -> str:
    assert loc.source_line is not None
    return loc.source_line[loc.column - 1 : loc.column]


# -- data ----------------------------------------------------------------------------------


def test_plain_data(load: Loader) -> None:
    doc = load("a: 1\nb: [x, 2.5, true, null]\nc: {d: e}\n")
    assert doc.data == {"a": 1, "b": ["x", 2.5, True, None], "c": {"d": "e"}}
    assert doc.display_name == "games/t/flow.yaml"
    assert doc.text.startswith("a: 1")


def test_yaml_1_1_scalars_like_safe_loader(load: Loader) -> None:
    doc = load("a: yes\nb: off\nc: 0x10\nd: ~\ne: 1_000\nf: .5\ng: '1'\nh: 2024-01-31\n")
    assert doc.data == {
        "a": True,
        "b": False,
        "c": 16,
        "d": None,
        "e": 1000,
        "f": 0.5,
        "g": "1",
        "h": "2024-01-31",  # timestamps stay text: data is plain JSON-like values
    }


def test_a_value_written_again_is_read_as_the_first_time(load: Loader) -> None:
    text = "a: [yes, 'yes', 1, '1', null, ~, 1.5, x]\nyes: 1\n'1': yes\n"
    expected = {"a": [True, "yes", 1, "1", None, None, 1.5, "x"], "yes": 1, "1": True}
    assert load(text).data == expected
    assert load(text + "b: [yes, 'yes', 1, '1', null, ~]\n").data == {
        **expected, "b": [True, "yes", 1, "1", None, None]}


def test_keys_are_always_text(load: Loader) -> None:
    doc = load("1: a\nyes: b\n~: c\n")
    assert doc.data == {"1": "a", "yes": "b", "~": "c"}


def test_empty_file_and_comments_only(load: Loader) -> None:
    for text in ("", "# only a comment\n", "\n\n"):
        doc = load(text)
        assert doc.data is None
        assert (doc.location(()).line, doc.location(()).column) == (1, 1)


def test_default_display_name(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\n")
    assert load_yaml(path).display_name == path.as_posix()


def test_anchors_aliases_and_merge_keys(load: Loader) -> None:
    doc = load(
        "base: &base {visibility: hidden, per_role: false}\n"
        "zones:\n"
        "  deck: *base\n"
        "  hand:\n"
        "    <<: *base\n"
        "    per_role: true\n"
    )
    assert doc.data["zones"]["deck"] == {"visibility": "hidden", "per_role": False}
    assert doc.data["zones"]["hand"] == {"visibility": "hidden", "per_role": True}
    # The explicit key is located where it is written, the merged one at the anchor.
    assert doc.location(("zones", "hand", "per_role")).line == 6
    assert doc.location(("zones", "hand", "visibility")).line == 1


def test_crlf_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\r\nb:\r\n  - c\r\n")
    doc = load_yaml(path, "x.yaml")
    assert doc.data == {"a": 1, "b": ["c"]}
    loc = doc.location(("b", 0))
    assert (loc.line, loc.column, loc.source_line) == (3, 5, "  - c")


# -- locations -----------------------------------------------------------------------------

NESTED = """\
flow:
  phases:
    - id: draw
      do: |
        draw 1 from deck to hand[p]
    - {id: search, name: Search}
"""


def test_location_and_key_location(load: Loader) -> None:
    doc = load(NESTED)
    loc = doc.location(("flow", "phases", 0, "id"))
    assert (loc.file, loc.line, loc.column) == ("games/t/flow.yaml", 3, 11)
    assert loc.source_line == "    - id: draw"
    key = doc.key_location(("flow", "phases", 0, "id"))
    assert (key.line, key.column) == (3, 7)
    flow_key = doc.key_location(("flow", "phases", 1, "name"))
    assert (flow_key.line, flow_key.column) == (6, 20)
    assert char_at(doc.location(("flow", "phases", 1, "name"))) == "S"
    seq = doc.location(("flow", "phases"))
    assert (seq.line, seq.column) == (3, 5)
    assert str(loc) == "games/t/flow.yaml:3:11"


def test_unknown_path_falls_back_to_nearest_ancestor(load: Loader) -> None:
    doc = load(NESTED)
    assert doc.location(("flow", "phases", 0, "nope", 3)) == doc.location(("flow", "phases", 0))
    assert doc.location(("flow", "phases", 9)) == doc.location(("flow", "phases"))
    assert doc.key_location(("flow", "missing")) == doc.key_location(("flow",))
    root = doc.location(("nothing",))
    assert (root.line, root.column) == (1, 1)


def test_list_item_key_location_is_the_item(load: Loader) -> None:
    doc = load("a:\n  - x\n  - y\n")
    assert doc.key_location(("a", 1)) == doc.location(("a", 1))
    assert doc.location(("a", 1)).line == 3


def test_scalar_styles(load: Loader) -> None:
    doc = load("p: plain\nl: |\n  x\nf: >\n  x\nd: \"x\"\ns: 'x'\nn: [1]\n")
    styles = {key: style_of(doc, (key,)) for key in "plfdsn"}
    assert styles == {"p": "", "l": "|", "f": ">", "d": '"', "s": "'", "n": ""}
    loc = doc.location(("d",))
    assert (loc.line, loc.column) == (6, 4)
    assert doc.raw_text(("l",)) == "x\n"


# -- text_location -------------------------------------------------------------------------

BLOCKS = """\
flow:
  phases:
    - id: draw
      do: |
        x = 1
        if ready {
          draw 1 from deck to hand[p]
        }
    - id: keep
      do: |+
        a

        b

    - id: strip
      do: |2-
          two more
        back
setup: |2
    indented by the indicator
  normal
plain: count(deck) > 1
dq: "count(deck) == 0"
sq: 'it''s'
anchored: &a !!str   tagged value
folded: >
  one two
  three

  four
    more
  five
multi: first line
  second line

  after blank
mq: "quoted
  folded"
"""


@pytest.mark.parametrize(
    ("path", "line", "column", "file_line", "file_column"),
    [
        # A `do: |` block: value line 2 column 5 is file line 6, shifted by 8 spaces.
        (("flow", "phases", 0, "do"), 2, 5, 6, 13),
        (("flow", "phases", 0, "do"), 1, 1, 5, 9),
        (("flow", "phases", 0, "do"), 3, 3, 7, 11),
        (("flow", "phases", 0, "do"), 4, 1, 8, 9),
        # Past the end of a line: same line, further right.
        (("flow", "phases", 0, "do"), 1, 7, 5, 15),
        (("flow", "phases", 1, "do"), 3, 1, 13, 9),
        (("flow", "phases", 2, "do"), 1, 3, 17, 11),
        (("flow", "phases", 2, "do"), 2, 1, 18, 9),
        (("setup",), 1, 3, 20, 5),
        (("setup",), 2, 1, 21, 3),
        (("plain",), 1, 1, 22, 8),
        (("plain",), 1, 7, 22, 14),
        (("dq",), 1, 1, 23, 6),
        (("dq",), 1, 15, 23, 20),
        (("sq",), 1, 1, 24, 6),
        (("anchored",), 1, 1, 25, 22),
    ],
)
def test_text_location_exact(
    load: Loader,
    path: tuple[str | int, ...],
    line: int,
    column: int,
    file_line: int,
    file_column: int,
) -> None:
    doc = load(BLOCKS)
    loc = doc.text_location(path, line, column)
    assert (loc.line, loc.column) == (file_line, file_column)
    assert loc.file == "games/t/flow.yaml"
    assert loc.source_line == BLOCKS.splitlines()[file_line - 1]


def every_position(value: str) -> list[tuple[int, int, str]]:
    return [
        (number, index + 1, char)
        for number, text in enumerate(value.split("\n"), start=1)
        for index, char in enumerate(text)
    ]


@pytest.mark.parametrize(
    "path",
    [
        ("flow", "phases", 0, "do"),
        ("flow", "phases", 1, "do"),
        ("flow", "phases", 2, "do"),
        ("setup",),
        ("plain",),
        ("dq",),
        ("anchored",),
        ("folded",),
        ("multi",),
        ("mq",),
    ],
)
def test_text_location_points_at_the_same_character(
    load: Loader, path: tuple[str | int, ...]
) -> None:
    doc = load(BLOCKS)
    value = value_at(doc, path)
    assert isinstance(value, str)
    for line, column, char in every_position(value):
        loc = doc.text_location(path, line, column)
        if char == " " and style_of(doc, path) in ("", ">", '"'):
            continue  # a folded line break has no character of its own
        assert char_at(loc) == char, (path, line, column)


def test_text_location_folded_and_multiline(load: Loader) -> None:
    doc = load(BLOCKS)
    assert doc.data["folded"] == "one two three\nfour\n  more\nfive\n"
    loc = doc.text_location(("folded",), 1, 9)  # 'three', on the second file line
    assert (loc.line, loc.column) == (28, 3)
    assert doc.data["multi"] == "first line second line\nafter blank"
    loc = doc.text_location(("multi",), 2, 1)
    assert (loc.line, loc.column) == (36, 3)


def test_text_location_quoted_ignores_escapes(load: Loader) -> None:
    doc = load('when: "a \\"b\\" c"\n')
    assert doc.data["when"] == 'a "b" c'
    loc = doc.text_location(("when",), 1, 3)
    assert (loc.line, loc.column) == (1, 10)


def test_text_location_of_a_non_text_path_falls_back(load: Loader) -> None:
    doc = load(NESTED)
    assert doc.text_location(("flow", "phases"), 2, 3) == doc.location(("flow", "phases"))
    assert doc.text_location(("flow", "nope"), 1, 1) == doc.location(("flow",))


def test_text_location_in_literal_block_with_blank_lines(load: Loader) -> None:
    text = "do: |\n  a\n\n    b\n  c\n"
    doc = load(text)
    assert doc.data["do"] == "a\n\n  b\nc\n"
    loc = doc.text_location(("do",), 3, 3)
    assert (loc.line, loc.column, char_at(loc)) == (4, 5, "b")
    loc = doc.text_location(("do",), 4, 1)
    assert (loc.line, loc.column, char_at(loc)) == (5, 3, "c")


# -- errors --------------------------------------------------------------------------------


def test_duplicate_key(load: Loader) -> None:
    with pytest.raises(DuplicateKeyError) as info:
        load("zones:\n  deck: {visibility: hidden}\n  discard: {}\n  deck: {}\n")
    error = info.value
    assert error.location is not None
    assert (error.location.line, error.location.column) == (4, 3)
    assert "'deck'" in error.message
    assert "line 2" in error.message
    assert error.location.source_line == "  deck: {}"
    assert "games/t/flow.yaml:4:3" in str(error)


def test_duplicate_key_in_flow_mapping(load: Loader) -> None:
    with pytest.raises(DuplicateKeyError) as info:
        load("a: {b: 1, b: 2}\n")
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (1, 11)


def test_same_key_in_different_mappings_is_fine(load: Loader) -> None:
    doc = load("- id: a\n- id: b\n")
    assert doc.data == [{"id": "a"}, {"id": "b"}]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("a: b: c\n", 1, 5, "mapping values are not allowed"),
        ("a:\n\tb: 1\n", 2, 1, "tab"),
        ("a: [1,\n", 2, 1, "expected"),
        ("a: 'x\n", 2, 1, "end of the file"),
        ("- a\nb: 1\n", 2, 1, "expected"),
        ("a: 1\n---\nb: 2\n", 2, 1, "second YAML document"),
        ("a: *nowhere\n", 1, 4, "undefined alias"),
    ],
)
def test_syntax_error_location(load: Loader, text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load(text)
    error = info.value
    assert error.location is not None
    assert (error.location.line, error.location.column) == (line, column)
    assert words in error.message
    assert "\n" not in error.message
    assert "<unicode string>" not in str(error)


def test_tab_indentation_hint(load: Loader) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load("a:\n\tb: 1\n")
    assert info.value.hint is not None and "spaces" in info.value.hint


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object/apply:os.system ['echo hi']\n",
        "a: !!python/name:os.system\n",
        "a: !include other.yaml\n",
        "a: !!binary aGVsbG8=\n",
        "a: !!set {x}\n",
    ],
)
def test_non_standard_tags_are_refused(load: Loader, text: str) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load(text)
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (1, 4)
    assert "tag" in info.value.message


def test_standard_tags_work(load: Loader) -> None:
    doc = load("a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: !!bool yes\ne: !!null ''\n")
    assert doc.data == {"a": "12", "b": 7, "c": 1.0, "d": True, "e": None}


def test_bad_explicit_scalar(load: Loader) -> None:
    with pytest.raises(YamlSyntaxError, match="not an integer"):
        load("a: !!int abc\n")


def test_recursive_alias_refused(load: Loader) -> None:
    with pytest.raises(YamlSyntaxError, match="alias"):
        load("a: &x [1, *x]\n")


def test_collection_key_refused(load: Loader) -> None:
    with pytest.raises(YamlSyntaxError, match="key"):
        load("? [a, b]\n: 1\n")


def test_control_character(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\nb: \x07\n")
    with pytest.raises(YamlSyntaxError) as info:
        load_yaml(path, "x.yaml")
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (2, 4)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PackFileError) as info:
        load_yaml(tmp_path / "nope.yaml", "games/t/nope.yaml")
    assert "games/t/nope.yaml" in str(info.value)
    assert "not found" in info.value.message


def test_directory_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(PackFileError, match="not a file"):
        load_yaml(tmp_path)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(PackFileError) as info:
        load_yaml(path, "x.yaml")
    assert "UTF-8" in info.value.message
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (2, 7)


@pytest.mark.parametrize("style", ['"', "'"])
def test_text_location_in_quoted_text_with_escapes_and_folding(tmp_path: Path,
                                                               style: str) -> None:
    """Quoted text as a YAML writer makes it (escaped line breaks, ``\\n``, folded lines):
    every character maps to where it is written in the file."""
    import random

    import yaml

    rng = random.Random(5)
    alphabet = list("abc xyz{}()=+-\n\n  \t\"'\\é#:")
    checked = 0
    for trial in range(150):
        value = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 60)))
        text = yaml.dump({"k": {"do": value}}, default_style=style,
                         width=rng.choice([10, 20, 80]), allow_unicode=True)
        path = tmp_path / f"q{trial}.yaml"
        path.write_text(text, encoding="utf-8")
        doc = load_yaml(path)
        assert doc.data["k"]["do"] == value
        for line, column, char in every_position(value):
            if char in " \t\"'\\":
                continue  # written as an escape, or a folded break
            assert char_at(doc.text_location(("k", "do"), line, column)) == char, text
            checked += 1
    assert checked > 1000


def test_text_location_after_escaped_line_breaks(load: Loader) -> None:
    text = 'do: "if a {\\n  b = 1\\n\\\n  } else {\\n  c = 2\\n}"\n'
    doc = load(text)
    assert doc.data["do"] == "if a {\n  b = 1\n} else {\n  c = 2\n}"
    loc = doc.text_location(("do",), 4, 5)  # the "=" of "c = 2"
    assert (loc.line, char_at(loc)) == (2, "=")
    assert loc.column == text.split("\n")[1].index("c = 2") + 3


# --------------------------------------------------------- mistakes of people writing code


def test_an_unquoted_at_sign_says_to_quote_the_code(load: Loader) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load("flow:\n  end_when:\n    - when: @key in hand\n      winner: a\n")
    assert str(info.value).splitlines() == [
        "games/t/flow.yaml:3:13: a YAML value cannot start with '@'",
        "        - when: @key in hand",
        "                ^",
        "hint: put the code in quotes (key: \"@id in hand\"), or write it on the next lines "
        "after 'key: |'",
    ]


@pytest.mark.parametrize("indent", [1, 4])
def test_a_dedented_line_in_a_block_says_the_block_ended_early(load: Loader,
                                                               indent: int) -> None:
    text = ("procedures:\n"
            "  turn:\n"
            "    do: |\n"
            "      let x = 1\n"
            + " " * indent + "log \"{x}\"\n"
            "      pass\n"
            "    params: {}\n")
    with pytest.raises(YamlSyntaxError) as info:
        load(text)
    assert str(info.value).splitlines() == [
        f"games/t/flow.yaml:5:{indent + 1}: the block under 'do: |' ended early: this line "
        "is less indented than the lines above it",
        " " * 4 + " " * indent + "log \"{x}\"",
        " " * 4 + " " * indent + "^",
        "hint: indent it by 6 spaces, like the lines of the block",
    ]


def test_a_block_that_ends_as_yaml_means_it_is_read(load: Loader) -> None:
    doc = load("a:\n  do: |\n    pass\n  when: |-\n    x\nb: 1\n")
    assert doc.data == {"a": {"do": "pass\n", "when": "x"}, "b": 1}


@pytest.mark.parametrize(("value", "column", "message"), [
    ("%x + 1", 13, "a YAML value cannot start with '%'"),
    ("[c for c in hand[a]] == []", 13,
     "YAML reads a value that starts with '[' as a list, and this code is not one"),
])
def test_code_that_yaml_reads_otherwise_says_to_quote_it(load: Loader, value: str, column: int,
                                                         message: str) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load(f"flow:\n  end_when:\n    - when: {value}\n      winner: a\n")
    err = info.value
    assert err.message == message
    assert err.location is not None and (err.location.line, err.location.column) == (3, column)
    assert err.hint is not None and err.hint.startswith("put the code in quotes")


def test_a_list_with_a_mistake_is_not_taken_for_code(load: Loader) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load("covers: [a, b\nnext: 1\n")
    assert "code" not in info.value.message and "quotes" not in (info.value.hint or "")
