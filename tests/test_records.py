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


@record(frozen=True)
class Place:
    line: int
    column: int = 1
    note: str = field(default="", compare=False)


@dataclasses.dataclass(frozen=True)
class DataPlace:
    line: int
    column: int = 1
    note: str = dataclasses.field(default="", compare=False)


def test_a_frozen_record_behaves_as_a_frozen_dataclass() -> None:
    place, alike = Place(3, 4, "a"), DataPlace(3, 4, "a")
    for made, other in ((place, Place(3, 4, "b")), (alike, DataPlace(3, 4, "b"))):
        assert made == other and hash(made) == hash(other)  # (the note is not compared)
        assert len({made, other, type(made)(3, 5)}) == 2
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.line = 9  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            del made.line  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.fresh = 1  # type: ignore[union-attr]
        assert dataclasses.replace(made, column=7) == type(made)(3, 7)
        assert pickle.loads(pickle.dumps(made)) == made == copy.deepcopy(made)
    assert hash(place) == hash(alike) and repr(place) == repr(alike).replace("Data", "")
