# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cursor pagination (autumn 2026 document): the cursor codec, and the paged lists over real HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from simhelpers import pod_body

from runpod_sim.app import ApiError
from runpod_sim.paging import CursorError, decode_cursor, encode_cursor, page
from runpod_sim.testing import SimAdminError

# -- the codec (pure) ------------------------------------------------------------------------------------------
keys = st.lists(st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text()), max_size=3)
params = st.dictionaries(st.text(max_size=8), st.one_of(st.booleans(), st.text(max_size=8)), max_size=2)


@given(st.text(min_size=1, max_size=20), params, keys)
def test_a_cursor_decodes_to_its_key_for_its_own_query(operation: str, query: dict[str, Any], key: list[Any]) -> None:
    cursor = encode_cursor(operation, query, key)
    assert decode_cursor(cursor, operation, query) == key
    assert set(cursor) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")  # URL-safe


@given(st.text(min_size=1, max_size=20), params, keys, st.text(min_size=1, max_size=20))
def test_a_cursor_is_foreign_to_another_operation(operation: str, query: dict, key: list, other: str) -> None:
    cursor = encode_cursor(operation, query, key)
    if other != operation:
        with pytest.raises(CursorError, match="another operation"):
            decode_cursor(cursor, other, query)
    with pytest.raises(CursorError, match="another operation"):
        decode_cursor(cursor, operation, {**query, "includeClusterPods": "changed"})


@given(params, keys, st.data())
def test_an_edited_cursor_is_malformed(query: dict, key: list, data: st.DataObject) -> None:
    cursor = encode_cursor("listPods", query, key)
    index = data.draw(st.integers(min_value=0, max_value=len(cursor) - 1))
    replacement = data.draw(st.sampled_from("AQgw-_9z").filter(lambda char: char != cursor[index]))
    edited = cursor[:index] + replacement + cursor[index + 1 :]
    try:
        decoded = decode_cursor(edited, "listPods", query)
    except CursorError:
        return
    # Base64 can map two texts to one byte string only through the unused low bits of the last character.
    assert index == len(cursor) - 1 and decoded == key


@pytest.mark.parametrize("text", ["", "x", "not a cursor!", "AAAA", "eyJvIjoibGlzdFBvZHMifQ"])
def test_a_garbage_cursor_is_malformed(text: str) -> None:
    with pytest.raises(CursorError, match="malformed"):
        decode_cursor(text, "listPods", {})


def test_a_cursor_signed_by_another_simulator_is_malformed() -> None:
    cursor = encode_cursor("listPods", {}, [1], secret=b"another process")
    with pytest.raises(CursorError, match="malformed"):
        decode_cursor(cursor, "listPods", {})


@given(
    st.sets(st.integers(), max_size=30),
    st.one_of(st.integers(min_value=1, max_value=8), st.just(1000)),
    st.one_of(st.none(), st.integers(min_value=1, max_value=8), st.integers(min_value=1, max_value=1000)),
    st.sets(st.integers(), max_size=5),
)
def test_a_walk_gives_every_item_once_in_order(items: set, page_size: int, limit: int | None, late: set) -> None:
    """Whatever the page size and limit, following the cursors lists every item once, sorted; an item added
    between two pages is listed exactly when it sorts after the page already read (keyset paging never repeats)."""
    current, seen, cursor, expected = set(items), [], None, set(items)
    while True:
        query = {key: value for key, value in (("cursor", cursor), ("limit", limit)) if value is not None}
        chosen, pagination = page(
            list(current), lambda item: (item,), query, operation="op", params={}, page_size=page_size
        )
        assert len(chosen) <= min(page_size, limit or 1000)
        if cursor is None and pagination["hasNextPage"]:
            current |= late  # created after the first page was read
            expected |= {item for item in late if item > chosen[-1]}
        seen += chosen
        if not pagination["hasNextPage"]:
            assert pagination["nextCursor"] is None
            break
        cursor = pagination["nextCursor"]
    assert seen == sorted(expected)


@pytest.mark.parametrize("query", [{"limit": "0"}, {"limit": "x"}, {"cursor": ""}, {"cursor": "AAAAAAAAAAAA"}])
def test_page_refuses_a_bad_query_with_a_422(query: dict) -> None:
    with pytest.raises(ApiError) as refused:
        page([1, 2], lambda item: (item,), query, operation="op", params={}, page_size=1000)
    assert refused.value.status == 422 and refused.value.errors


def test_the_page_size_knob_is_checked(sim):
    for bad in (0, 1001, "2", True):
        with pytest.raises(SimAdminError) as refused:
            sim.admin.configure(page_size=bad)
        assert refused.value.status == 400 and "page_size" in refused.value.message
    assert sim.admin.configure(page_size=3)["page_size"] == 3


# -- over HTTP ---------------------------------------------------------------------------------------------------
def walk(v2: httpx.Client, path: str, key: str, **query: Any) -> list[dict[str, Any]]:
    """Every page of a list, as read (the items and the pagination block of each)."""
    pages, cursor = [], None
    while True:
        params = {**query, **({"cursor": cursor} if cursor else {})}
        response = v2.get(path, params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        pages.append(body)
        if not body["pagination"]["hasNextPage"]:
            assert body["pagination"]["nextCursor"] is None
            return pages
        cursor = body["pagination"]["nextCursor"]
        assert len(pages) < 100, "the pages loop"


def ids(pages: list[dict[str, Any]], key: str) -> list[str]:
    return [item["id"] for page in pages for item in page[key]]


def test_the_default_page_is_the_whole_list_with_a_final_pagination_block(sim, v2):
    sim.admin.seed(5)
    body = v2.get("/pods").json()
    assert len(body["pods"]) == 5 and body["pagination"] == {"nextCursor": None, "hasNextPage": False}
    assert v2.get("/templates").json() == {"templates": [], "pagination": {"nextCursor": None, "hasNextPage": False}}


def test_pods_page_newest_first_and_a_walk_sees_each_pod_once(sim, v2):
    sim.admin.configure(page_size=2, create_latency=0)
    created = [v2.post("/pods", json=pod_body(name=f"p{index}")).json()["id"] for index in range(5)]
    seeded = sim.admin.seed(3)  # three pods created in the same instant: the insertion order breaks the tie
    pages = walk(v2, "/pods", "pods")
    assert [len(page["pods"]) for page in pages] == [2, 2, 2, 2]
    listed = ids(pages, "pods")
    assert sorted(listed) == sorted(created + seeded)
    assert listed[:3] == seeded[::-1]
    assert [pod_id for pod_id in listed if pod_id in created] == created[::-1]


def test_the_clients_limit_applies_below_the_server_page_size(sim, v2):
    sim.admin.seed(7)
    pages = walk(v2, "/pods", "pods", limit=3)
    assert [len(page["pods"]) for page in pages] == [3, 3, 1]
    sim.admin.configure(page_size=2)
    assert [len(page["pods"]) for page in walk(v2, "/pods", "pods", limit=3)] == [2, 2, 2, 1]


def test_a_pod_created_between_two_pages_does_not_shift_the_walk(sim, v2):
    sim.admin.configure(page_size=2, create_latency=0)
    seeded = sim.admin.seed(4)
    first = v2.get("/pods").json()
    newcomer = v2.post("/pods", json=pod_body(name="late")).json()["id"]
    rest = walk(v2, "/pods", "pods", cursor=first["pagination"]["nextCursor"])
    listed = ids([first, *rest], "pods")
    assert sorted(listed) == sorted(seeded) and newcomer not in listed  # newest first: it sorts before page 1


@pytest.mark.parametrize("limit", ["0", "1001", "-1", "ten", "2.5"])
def test_a_limit_out_of_range_is_a_422(sim, v2, limit):
    for path in ("/pods", "/serverless", "/templates"):
        response = v2.get(path, params={"limit": limit})
        assert response.status_code == 422, (path, response.text)
        body = response.json()
        assert response.headers["content-type"].startswith("application/problem+json")
        assert body["status"] == 422 and body["errors"][0].startswith("$.limit: ")


def test_builds_take_a_limit_up_to_100(sim, v2):
    endpoint = _endpoint(v2)
    assert v2.get(f"/serverless/{endpoint['id']}/builds", params={"limit": "100"}).status_code == 200
    refused = v2.get(f"/serverless/{endpoint['id']}/builds", params={"limit": "101"})
    assert refused.status_code == 422 and "maximum of 100" in refused.json()["errors"][0]


def test_a_malformed_or_foreign_cursor_is_a_422(sim, v2):
    sim.admin.configure(page_size=1)
    sim.admin.seed(3)
    v2.post("/templates", json={"name": "a", "image": "i"})
    v2.post("/templates", json={"name": "b", "image": "i"})
    pod_cursor = v2.get("/pods").json()["pagination"]["nextCursor"]
    template_cursor = v2.get("/templates").json()["pagination"]["nextCursor"]
    member_cursor = v2.get("/pods", params={"includeClusterPods": "true"}).json()["pagination"]["nextCursor"]
    assert pod_cursor and template_cursor and member_cursor
    for path, cursor, extra in (
        ("/pods", template_cursor, {}),  # another operation
        ("/templates", pod_cursor, {}),
        ("/pods", member_cursor, {}),  # other parameters
        ("/pods", pod_cursor, {"includeClusterPods": "true"}),
        ("/pods", pod_cursor[:-3], {}),  # cut short
        ("/pods", "bm90LWEtY3Vyc29y", {}),  # not one of ours
        ("/pods", "", {}),
    ):
        response = v2.get(path, params={"cursor": cursor, **extra})
        assert response.status_code == 422, (path, cursor, extra)
        assert response.json()["errors"][0].startswith("$.cursor: ")
    # The cursors themselves are good for their own query.
    assert v2.get("/pods", params={"cursor": pod_cursor}).status_code == 200
    assert v2.get("/pods", params={"cursor": member_cursor, "includeClusterPods": "true"}).status_code == 200


CLUSTER = {
    "name": "c",
    "type": "SLURM",
    "compute": {"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 8, "podCount": 4},
    "image": "runpod/pytorch:2.8.0",
}


def test_cluster_members_are_cut_after_the_page_so_pages_run_short_or_empty(sim, v2):
    sim.admin.configure(page_size=2, create_latency=0)
    older = v2.post("/pods", json=pod_body(name="older")).json()["id"]
    assert v2.post("/clusters", json=CLUSTER).status_code == 201
    newer = v2.post("/pods", json=pod_body(name="newer")).json()["id"]
    pages = walk(v2, "/pods", "pods")
    # Six pods newest first: newer, four members (created together), older; pages of two, members removed.
    assert [[pod["id"] for pod in page["pods"]] for page in pages] == [[newer], [], [older]]
    assert [page["pagination"]["hasNextPage"] for page in pages] == [True, True, False]
    every = walk(v2, "/pods", "pods", includeClusterPods="true")
    assert [len(page["pods"]) for page in every] == [2, 2, 2]
    assert sum(1 for page in every for pod in page["pods"] if "cluster" in pod) == 4


def _endpoint(v2: httpx.Client, name: str = "e", **extra: Any) -> dict[str, Any]:
    body = {"name": name, "type": "QUEUE", "image": "img", "gpu": {"pools": ["ADA_24"]},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}, **extra}
    response = v2.post("/serverless", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_endpoints_templates_and_releases_page_too(sim, v2):
    sim.admin.configure(page_size=2)
    endpoints = [_endpoint(v2, f"e{index}")["id"] for index in range(3)]
    templates = [v2.post("/templates", json={"name": f"t{index}", "image": "i"}).json()["id"] for index in range(2)]
    assert ids(walk(v2, "/serverless", "endpoints"), "endpoints") == endpoints  # creation order
    listed = ids(walk(v2, "/templates", "templates"), "templates")
    assert len(listed) == 5 and listed[-2:] == templates  # the endpoints' bound templates, then these
    for image in ("img:2", "img:3", "img:4"):
        v2.patch(f"/serverless/{endpoints[0]}", json={"image": image})
    pages = walk(v2, f"/serverless/{endpoints[0]}/releases", "releases")
    assert [[release["version"] for release in page["releases"]] for page in pages] == [[4, 3], [2, 1]]
    assert all(page["rollout"] == pages[0]["rollout"] and page["endpointVersion"] == 4 for page in pages)
    # A release cursor belongs to its endpoint.
    cursor = pages[0]["pagination"]["nextCursor"]
    refused = v2.get(f"/serverless/{endpoints[1]}/releases", params={"cursor": cursor})
    assert refused.status_code == 422
