# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""GitHub builds of an endpoint: the document's Build shape and states, driven through the admin API."""

from __future__ import annotations

import pytest
from openapi_core import OpenAPI
from simhelpers import wait_for
from test_openapi_contract import CONFIG, _spec_path, check_v2

from runpod_sim.testing import SimAdminError


@pytest.fixture(scope="module")
def openapi_v2() -> OpenAPI:
    return OpenAPI.from_file_path(str(_spec_path("runpod-rest-v2-openapi.json")), config=CONFIG)


def endpoint(v2, **extra):
    body = {"name": "gh", "type": "QUEUE", "image": "registry.runpod.net/gh:old", "gpu": {"pools": ["ADA_24"]},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}, **extra}
    response = v2.post("/serverless", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_a_completed_build_is_a_release_whose_workers_come_up(sim, v2, openapi_v2):
    ep = endpoint(v2, workers={"min": 1, "max": 2})
    sim.admin.boot_workers(ep["id"])
    assert check_v2(openapi_v2, v2.get(f"/serverless/{ep['id']}/builds")) == {
        "builds": [], "pagination": {"nextCursor": None, "hasNextPage": False}}
    build = sim.admin.add_build(ep["id"], commitHash="abc1234", commitMessage="bump model", branch="main")
    assert build["status"] == "PENDING" and build["startedAt"] is None and build["error"] is None
    read = check_v2(openapi_v2, v2.get(f"/serverless/{ep['id']}/builds/{build['id']}"))
    assert read == build and read["imageName"] == f"registry.runpod.net/{ep['id']}:abc1234"
    for status in ("BUILDING", "UPLOADING", "TESTING"):
        moved = sim.admin.move_build(ep["id"], build["id"], status)
        assert moved["status"] == status and moved["startedAt"] is not None and moved["completedAt"] is None
        assert check_v2(openapi_v2, v2.get(f"/serverless/{ep['id']}/builds"))["builds"][0]["status"] == status
    done = sim.admin.move_build(ep["id"], build["id"], "COMPLETED")
    assert done["completedAt"] is not None and done["error"] is None
    releases = check_v2(openapi_v2, v2.get(f"/serverless/{ep['id']}/releases"))
    latest = releases["releases"][0]
    assert (latest["version"], latest["source"], latest["buildId"]) == (2, "GIT_BUILD", build["id"])
    assert {"field": "image", "old": "registry.runpod.net/gh:old", "new": done["imageName"]} in latest["diff"]
    assert releases["releases"][1]["source"] == "MANUAL" and releases["releases"][1]["buildId"] is None
    assert v2.get(f"/serverless/{ep['id']}").json()["image"] == done["imageName"]
    sim.admin.boot_workers(ep["id"])

    def on_new_release():
        workers = v2.get(f"/serverless/{ep['id']}/workers").json()["workers"]
        return workers and all(w["version"] == 2 and w["image"] == done["imageName"] for w in workers)

    wait_for(on_new_release)
    assert v2.get(f"/serverless/{ep['id']}/workers").json()["workers"][0]["status"] == "IDLE"


@pytest.mark.parametrize(
    ("status", "error", "expected"),
    [
        ("FAILED", None, "build failed: docker build exited with code 1"),
        ("TEST_FAILED", "test_handler.py failed", "test_handler.py failed"),
        ("CANCELLED", None, None),
        ("CANCELLED", "cancelled by a newer push", "cancelled by a newer push"),
    ],
)
def test_a_failed_build_carries_its_error_and_makes_no_release(sim, v2, openapi_v2, status, error, expected):
    ep = endpoint(v2)
    build = sim.admin.add_build(ep["id"])
    sim.admin.move_build(ep["id"], build["id"], "BUILDING")
    ended = sim.admin.move_build(ep["id"], build["id"], status, error)
    assert (ended["status"], ended["error"]) == (status, expected) and ended["completedAt"] is not None
    assert check_v2(openapi_v2, v2.get(f"/serverless/{ep['id']}/builds/{build['id']}")) == ended
    assert [r["version"] for r in v2.get(f"/serverless/{ep['id']}/releases").json()["releases"]] == [1]
    with pytest.raises(SimAdminError) as terminal:
        sim.admin.move_build(ep["id"], build["id"], "COMPLETED")
    assert terminal.value.status == 409


def test_builds_list_newest_first_and_page(sim, v2, openapi_v2):
    ep = endpoint(v2)
    builds = [sim.admin.add_build(ep["id"], commitHash=f"c{index}")["id"] for index in range(5)]
    sim.admin.configure(page_size=2)
    seen, cursor, pages = [], None, 0
    while True:
        params = {"cursor": cursor} if cursor else {}
        body = check_v2(openapi_v2, v2.get(f"/serverless/{ep['id']}/builds", params=params))
        seen += [build["id"] for build in body["builds"]]
        pages += 1
        cursor = body["pagination"]["nextCursor"]
        if not body["pagination"]["hasNextPage"]:
            break
    assert seen == builds[::-1] and pages == 3


def test_build_errors_and_admin_rules(sim, v2, openapi_v2):
    ep = endpoint(v2)
    for path in (f"/serverless/{ep['id']}/builds/build_nope", "/serverless/nope/builds"):
        missing = v2.get(path)
        assert missing.status_code == 404
        check_v2(openapi_v2, missing)
    build = sim.admin.add_build(ep["id"])
    sim.admin.move_build(ep["id"], build["id"], "UPLOADING")
    for status, error, code in (
        ("BUILDING", None, 409),  # backwards
        ("UPLOADING", None, 409),  # not forwards
        ("DONE", None, 400),
        ("TESTING", "oops", 400),  # only a failure carries an error
    ):
        with pytest.raises(SimAdminError) as refused:
            sim.admin.move_build(ep["id"], build["id"], status, error)
        assert refused.value.status == code, status
    with pytest.raises(SimAdminError) as unknown:
        sim.admin.add_build(ep["id"], repo="x")
    assert unknown.value.status == 400
