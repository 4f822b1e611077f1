"""``@record`` behaves as ``@dataclass`` for what rulekit uses: constructors, defaults,
factories, fields left out of ``__init__``, comparison, repr, ``fields()``, pickling."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import field

import pytest

from rulekit.records import record


@record
class Base:
    pos: int


@record
class Item(Base):
    name: str
    tags: list[str] = field(default_factory=list)
    note: str = field(default="", compare=False)
    size: int = 0
    cache: dict[str, int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.cache["made"] = self.size


def test_a_record_is_built_compared_and_shown_as_a_dataclass() -> None:
    item = Item(1, "a", size=3)
    assert (item.pos, item.name, item.tags, item.note, item.size) == (1, "a", [], "", 3)
    assert item.cache == {"made": 3}  # __post_init__ ran, after the fields left out of init
    assert Item(1, "a").tags is not Item(1, "a").tags
    assert Item(1, "a", note="x") == Item(1, "a", note="y") != Item(1, "b")
    assert Item(1, "a") != Base(1) and Base(1) == Base(1)
    assert repr(item) == "Item(pos=1, name='a', tags=[], note='', size=3)"
    assert [f.name for f in dataclasses.fields(item)] == ["pos", "name", "tags", "note",
                                                          "size", "cache"]
    assert pickle.loads(pickle.dumps(item)) == item == copy.deepcopy(item)
    with pytest.raises(TypeError):
        hash(item)


@pytest.mark.parametrize("make", [lambda: Item(1), lambda: Item(1, "a", [], "", 0, 9),
                                  lambda: Item(1, "a", colour="red"),
                                  lambda: Item(1, "a", cache={})])
def test_wrong_arguments_are_refused(make: object) -> None:
    with pytest.raises(TypeError):
        make()  # type: ignore[operator]
