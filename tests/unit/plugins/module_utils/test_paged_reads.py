"""The backend's list reads walk every page of RunPod's cursor-paged lists (docs/dev/api-notes.md, section 7.1):
short and empty pages do not end a walk, only ``hasNextPage`` does; each cursor goes back with its own query."""

from __future__ import annotations

import random
from urllib.parse import parse_qs

import httpx
import payloads
import pytest
from helpers.fakes import FakeClock, full_backend
from payloads import Router, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError

API = "https://rest.example.test/v2"
PODS = "/v2/pods"


def backend_with(router):
    opts = {"api_key": "k-test-123456", "api_url": API, "serverless_url": "https://sls.example.test/sls"}
    return full_backend(opts, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def query(request):
    return {key: values[-1] for key, values in parse_qs(request.url.query.decode()).items()}


class Pages:
    """A paged list answer: ``pages`` is the item lists page by page; page ``n`` is fetched with cursor ``c<n>``
    (the first without one) and a cursor of any other query (``params`` differ) is refused with 422."""

    def __init__(self, key, pages, params=None, extra=None):
        self.key, self.pages, self.params, self.extra = key, pages, dict(params or {}), dict(extra or {})
        self.seen = []

    def __call__(self, request):
        asked = query(request)
        cursor = asked.pop("cursor", None)
        self.seen.append(cursor)
        index = 0 if cursor is None else int(cursor[1:])
        if asked != self.params or not 0 <= index < len(self.pages):
            return problem(422, "the cursor was issued for another query")
        more = index + 1 < len(self.pages)
        pagination = {"nextCursor": f"c{index + 1}" if more else None, "hasNextPage": more}
        return httpx.Response(200, json={**self.extra, self.key: self.pages[index], "pagination": pagination})


def pods(*names):
    return [payloads.v2_pod(id=f"id-{name}", name=name) for name in names]


def test_pod_list_walks_short_and_empty_pages_until_has_next_page_is_false():
    # Cluster members are cut after the page: page 2 is empty and page 3 short, yet more follow.
    answer = Pages("pods", [pods("a", "b"), [], pods("c"), [None], pods("d", "e")])
    router = Router().add("GET", PODS, answer)
    backend = backend_with(router)
    assert [pod.name for pod in backend.pods.list()] == ["a", "b", "c", "d", "e"]
    assert answer.seen == [None, "c1", "c2", "c3", "c4"]  # each cursor the page before gave, once
    assert backend.requests_made == 5


def test_cluster_members_query_sends_its_parameter_with_every_page():
    answer = Pages("pods", [pods("a"), pods("b"), pods("c")], params={"includeClusterPods": "true"})
    router = Router().add("GET", PODS, answer)
    listed = backend_with(router).pods.list(include_cluster_pods=True)
    assert [pod.name for pod in listed] == ["a", "b", "c"]
    assert answer.seen == [None, "c1", "c2"]


def test_name_lookup_finds_a_pod_on_page_three():
    router = Router().add("GET", PODS, Pages("pods", [pods("x", "y"), pods("z"), pods("web")]))
    backend = backend_with(router)
    assert [pod.id for pod in backend.pods.find("web")] == ["id-web"]
    found = backend.pods.find_named(["web", "x", "none"])
    assert {name: [pod.id for pod in found[name]] for name in found} == {"web": ["id-web"], "x": ["id-x"], "none": []}


def test_select_applies_to_every_page():
    router = Router().add("GET", PODS, Pages("pods", [pods("a", "b"), [], pods("c", "d")]))
    picked = backend_with(router).pods.list(select=lambda _id, name: name in ("b", "d"))
    assert [pod.name for pod in picked] == ["b", "d"]


def test_a_failed_page_fails_the_whole_read_never_a_partial_list():
    # A wait that took a partial list would count the pods on the lost pages as gone.
    answer = Pages("pods", [pods("a"), pods("b")])
    router = Router().add("GET", PODS, answer.__call__, problem(503, "busy"), answer.__call__)
    backend = backend_with(router)
    with pytest.raises(RunPodError) as caught:
        backend.pods.list(attempts=1)  # a poll: one attempt per page
    assert caught.value.code == "server_error"
    assert router.count("GET", PODS) == 2


def test_a_page_is_retried_alone_without_attempts_one():
    answer = Pages("pods", [pods("a"), pods("b")])
    router = Router().add("GET", PODS, answer.__call__, problem(503, "busy"), answer.__call__)
    assert [pod.name for pod in backend_with(router).pods.list()] == ["a", "b"]
    assert answer.seen == [None, "c1"]  # the retry sent page 2's cursor again, not a new walk


@pytest.mark.parametrize(
    "second",
    [
        {"pods": [], "pagination": {"nextCursor": "c1", "hasNextPage": True}},  # a loop
        {"pods": [], "pagination": {"nextCursor": None, "hasNextPage": True}},  # more, but no cursor
        {"items": []},
    ],
)
def test_a_walk_it_cannot_follow_is_bad_response(second):
    first = {"pods": pods("a"), "pagination": {"nextCursor": "c1", "hasNextPage": True}}
    router = Router().add("GET", PODS, first, second)
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.list()
    assert caught.value.code == "bad_response"
    assert router.count("GET", PODS) == 2


def test_an_unpaged_answer_is_the_whole_list():
    router = Router().add("GET", PODS, {"pods": pods("a", "b")})
    backend = backend_with(router)
    assert [pod.name for pod in backend.pods.list()] == ["a", "b"]
    assert backend.requests_made == 1


def test_endpoint_and_template_lists_walk_their_pages():
    endpoints = Pages("endpoints", [[payloads.v2_endpoint(id="e1", name="one")], [],
                                    [payloads.v2_endpoint(id="e2", name="two")]])
    templates = Pages("templates", [[payloads.v2_template(id="t1", name="a")],
                                    [payloads.v2_template(id="t2", name="b")]])
    router = Router().add("GET", "/v2/serverless", endpoints).add("GET", "/v2/templates", templates)
    backend = backend_with(router)
    assert [endpoint.id for endpoint in backend.endpoints.list()] == ["e1", "e2"]
    assert [endpoint.id for endpoint in backend.endpoints.find("two")] == ["e2"]
    assert [template.id for template in backend.templates.find("b")] == ["t2"]
    assert endpoints.seen == [None, "c1", "c2", None, "c1", "c2"] and templates.seen == [None, "c1"]


def test_the_current_release_may_sit_on_a_later_page():
    # Newest first; after a rollback the endpoint runs version 1, which is on the last page.
    extra = {"endpointVersion": 1, "rollout": {"inProgress": False, "workersOnLatest": 1, "workersTotal": 1}}
    release = {"source": "UPDATE", "createdAt": "2026-11-01T00:00:00Z", "diff": []}
    history = Pages("releases", [[{**release, "id": "r3", "version": 3}], [{**release, "id": "r2", "version": 2}],
                                 [{**release, "id": "r1", "version": 1, "source": "CREATE"}]], extra=extra)
    router = Router().add("GET", "/v2/serverless/ep1/releases", history)
    current = backend_with(router).endpoints.release("ep1")
    assert (current.version, current.id, current.source) == (1, "r1", "CREATE")
    assert history.seen == [None, "c1", "c2"]


def test_a_refused_cursor_fails_that_read_and_the_next_read_starts_over():
    answer = Pages("pods", [pods("a"), pods("b")])
    refused = problem(422, "Request validation failed.", errors=["$.cursor: the cursor is malformed"])
    router = Router().add("GET", PODS, answer.__call__, refused, answer.__call__)
    backend = backend_with(router)
    with pytest.raises(RunPodError) as caught:
        backend.pods.list(attempts=1)
    assert caught.value.code == "unprocessable"
    assert [pod.name for pod in backend.pods.list(attempts=1)] == ["a", "b"]
    assert answer.seen == [None, None, "c1"]  # a fresh walk; the refused cursor's query was never repeated
