"""The pager (``_backend/shared.py``): any split of a list into pages, short and empty ones included, gives it back;
a loop, a missing cursor and a malformed answer are refused."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import PagingError, next_cursor, walk


class Server:
    """Serves ``pages`` (lists of items) under ``key`` with opaque cursors, recording every cursor it is sent."""

    def __init__(self, pages: list[list[Any]], key: str = "pods") -> None:
        self.pages = pages
        self.key = key
        self.sent: list[str | None] = []

    def cursor(self, index: int) -> str:
        return f"c{index}x"

    def __call__(self, cursor: str | None) -> dict[str, Any]:
        self.sent.append(cursor)
        index = 0 if cursor is None else int(cursor[1:-1])
        more = index + 1 < len(self.pages)
        return {
            self.key: list(self.pages[index]),
            "pagination": {"nextCursor": self.cursor(index + 1) if more else None, "hasNextPage": more},
        }


@st.composite
def split_list(draw: st.DrawFn) -> tuple[list[int], list[list[int]]]:
    """A list and a split of it into pages, some of them empty (a page may be cut to nothing after the fact)."""
    items = draw(st.lists(st.integers(), max_size=40))
    cuts = sorted(draw(st.lists(st.integers(min_value=0, max_value=len(items)), max_size=12)))
    bounds = [0, *cuts, len(items)]
    return items, [items[start:end] for start, end in itertools.pairwise(bounds)]


@given(split_list())
def test_any_split_into_pages_gives_the_list_back(case: tuple[list[int], list[list[int]]]) -> None:
    items, pages = case
    server = Server(pages)
    assert walk(server, "pods") == items
    # The first read carries no cursor; every later one the cursor the page before it gave.
    assert server.sent == [None, *(server.cursor(index) for index in range(1, len(pages)))]


def test_an_empty_first_page_with_more_to_come_is_not_the_end() -> None:
    server = Server([[], [], ["a"], [], ["b", "c"]])
    assert walk(server, "pods") == ["a", "b", "c"]
    assert len(server.sent) == 5


def test_an_answer_without_pagination_is_a_whole_list() -> None:
    calls: list[str | None] = []

    def fetch(cursor: str | None) -> dict[str, Any]:
        calls.append(cursor)
        return {"templates": [1, 2]}

    assert walk(fetch, "templates") == [1, 2]
    assert calls == [None]


def test_a_last_page_may_say_so_with_a_cursor_left_over() -> None:
    assert walk(lambda cursor: {"pods": [1], "pagination": {"nextCursor": "z", "hasNextPage": False}}, "pods") == [1]


def test_a_repeated_cursor_is_a_loop_and_is_refused() -> None:
    answers = iter(
        [
            {"pods": [1], "pagination": {"nextCursor": "a", "hasNextPage": True}},
            {"pods": [2], "pagination": {"nextCursor": "b", "hasNextPage": True}},
            {"pods": [3], "pagination": {"nextCursor": "a", "hasNextPage": True}},
        ]
    )
    with pytest.raises(PagingError, match="repeats an earlier cursor"):
        walk(lambda cursor: next(answers), "pods")


@pytest.mark.parametrize("cursor", [None, "", 7])
def test_a_next_page_without_a_cursor_is_refused(cursor: Any) -> None:
    answer = {"pods": [1], "pagination": {"nextCursor": cursor, "hasNextPage": True}}
    with pytest.raises(PagingError, match="gives no cursor"):
        walk(lambda _cursor: answer, "pods")


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ([1, 2], "has no 'pods' list"),
        ({"pods": None}, "has no 'pods' list"),
        ({"endpoints": []}, "has no 'pods' list"),
        ({"pods": [], "pagination": "yes"}, "not an object"),
    ],
)
def test_a_malformed_answer_is_refused(answer: Any, message: str) -> None:
    with pytest.raises(PagingError, match=message):
        walk(lambda _cursor: answer, "pods")


def test_max_pages_bounds_a_walk() -> None:
    server = Server([[1], [2], [3]])
    assert walk(server, "pods", max_pages=3) == [1, 2, 3]
    with pytest.raises(PagingError, match="more than 2 pages"):
        walk(Server([[1], [2], [3]]), "pods", max_pages=2)


def test_has_next_page_must_be_true_not_truthy() -> None:
    # A string "false" is not true: the walk ends rather than follow a page the server did not promise.
    assert next_cursor({"pagination": {"nextCursor": "a", "hasNextPage": "false"}}) is None
    assert next_cursor({"pagination": None}) is None
    assert next_cursor({"pagination": {"nextCursor": "a", "hasNextPage": True}}) == "a"
