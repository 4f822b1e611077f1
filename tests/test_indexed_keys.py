"""The keys of indexed zones and variables, read from a table: the same keys, the same failures."""

from __future__ import annotations

import pytest

from rulekit.model.program import IndexedKeys


def test_every_index_has_its_key() -> None:
    hands = IndexedKeys("hand", "role", ["law", "fugitive"])
    slots = IndexedKeys("slots", 3, ["1", "2", "3"])
    assert hands["fugitive"] == "hand.fugitive" and slots[2] == "slots.2"


def test_an_index_out_of_range_gets_a_key_no_pile_has() -> None:
    assert IndexedKeys("slots", 3, ["1", "2", "3"])[7] == "slots.7"
    assert IndexedKeys("hand", "role", ["law"])["nobody"] == "hand.nobody"


@pytest.mark.parametrize("index", [None, 3, True])
def test_a_text_index_of_another_type_fails_as_joining_texts_fails(index: object) -> None:
    with pytest.raises(TypeError) as joined:
        "hand." + index  # type: ignore[operator]
    with pytest.raises(TypeError) as looked_up:
        IndexedKeys("hand", "role", ["law"])[index]
    assert str(looked_up.value) == str(joined.value)
