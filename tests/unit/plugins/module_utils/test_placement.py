"""Placement: candidates, catalog ordering, and the createPod retry table (pure functions and the REST v2 loop)."""

from __future__ import annotations

import random

import httpx
import payloads
import pytest
from helpers.fakes import FakeClock, full_backend
from hypothesis import given
from hypothesis import strategies as st
from payloads import Router, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend import offers as _offers
from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement as _placement
from ansible_collections.runpod.cloud.plugins.module_utils._backend.placement import Candidate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.views import PodSpec

PODS = "/v2/pods"
CATALOG = "/v2/catalog/gpus"
A, B, C = "NVIDIA GeForce RTX 4090", "NVIDIA L40S", "NVIDIA A40"


def backend_with(router):
    opts = {"api_key": "k-test-123456", "api_url": "https://rest.example.test/v2"}
    return full_backend(opts, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def spec(**fields):
    return PodSpec(**{"name": "trainer", "image": "img", "gpu_type_ids": [A, B, C], **fields})


def gpu(type_id, availability="HIGH", centers=None):
    entry = {"id": type_id, "availability": availability}
    if centers is not None:
        entry["dataCenters"] = [{"id": dc, "name": dc, "availability": level} for dc, level in centers.items()]
    return entry


def catalog(*gpus):
    return {"gpus": list(gpus)}


def created():
    return httpx.Response(201, json=payloads.v2_provisioning_pod())


def stock_of(payload):
    """``{type id: {None: overall rank, data center: rank}}`` of a catalog answer, as placement ranks it."""
    return {type_id: offer.stock for type_id, offer in _offers.offers_from_catalog(payload).items()}


def posted(router):
    return [(body["gpu"]["id"], (body.get("dataCenterIds") or [None])[0]) for body in router.bodies("POST", PODS)]


# -- pure functions --------------------------------------------------------------------------------------------


def test_cross_keeps_the_user_order_and_drops_repeats():
    assert _placement.cross([A, B, A]) == [Candidate(A), Candidate(B)]
    assert _placement.cross([A, B], ["EU-RO-1", "US-TX-3"]) == [
        Candidate(A, "EU-RO-1"), Candidate(A, "US-TX-3"), Candidate(B, "EU-RO-1"), Candidate(B, "US-TX-3"),
    ]


def test_order_drops_no_stock_keeps_type_order_and_breaks_ties_by_stock():
    stock = stock_of(catalog(
        gpu(A, "LOW", {"EU-RO-1": "LOW", "US-TX-3": "HIGH"}),
        gpu(B, "NONE"),
        gpu(C, "HIGH", {"EU-RO-1": "MEDIUM"}),
    ))
    kept, dropped = _placement.by_stock(_placement.cross([C, A, B], ["EU-RO-1", "US-TX-3"]), stock)
    # C before A (the user's order) although A has more stock; within A, US-TX-3 (HIGH) before EU-RO-1 (LOW).
    assert kept == [Candidate(C, "EU-RO-1"), Candidate(A, "US-TX-3"), Candidate(A, "EU-RO-1")]
    assert set(dropped) == {Candidate(C, "US-TX-3"), Candidate(B, "EU-RO-1"), Candidate(B, "US-TX-3")}


LEVELS = st.sampled_from(["NONE", "LOW", "MEDIUM", "HIGH", None])


@given(st.dictionaries(st.sampled_from([A, B, C, "X"]), LEVELS), st.permutations([A, B, C, "X"]))
def test_order_is_a_stable_filter_of_the_user_order_without_data_centers(levels, wanted):
    stock = stock_of(catalog(*(gpu(t, level) for t, level in levels.items())))
    kept, dropped = _placement.by_stock(_placement.cross(wanted), stock)
    assert [c.type_id for c in kept] == [t for t in wanted if _catalog.stock_rank(levels.get(t))]
    assert sorted(kept + dropped, key=lambda c: wanted.index(c.type_id)) == _placement.cross(wanted)


@pytest.mark.parametrize("payload", [None, [], {"gpus": "x"}, "text"])
def test_a_catalog_that_is_not_a_gpu_list_is_refused(payload):
    with pytest.raises(ValueError):
        stock_of(payload)


@pytest.mark.parametrize(
    ("status", "action"),
    [(400, "next"), (402, "stop"), (403, "skip"), (422, "raise"), (429, "raise"), (500, "raise"), (503, "raise"),
     (None, "raise")],
)
def test_the_table(status, action):
    assert _placement.action_for(RunPodError("x", status, "something went wrong")) == action
    # The text never matters: a 500 that reads like a stock-out is still not moved past.
    assert _placement.action_for(RunPodError("x", status, "no instances available")) == action


def test_one_path_for_priced_and_plain_choices_only_a_cap_or_requirements_refuse_a_failed_read():
    failed = _placement.read_catalog(lambda: {"nope": 1}, _offers.Choice())
    assert isinstance(failed.failure, ValueError) and failed.offers is None
    plain = _placement.order(_placement.cross([A, B]), failed, _offers.Choice())
    assert plain.candidates == [Candidate(A), Candidate(B)]
    assert plain.placement.catalog == "failed: the catalog answer has no gpus list; candidates kept in the given order"
    with pytest.raises(RunPodError) as caught:
        _placement.order(_placement.cross([A, B]), failed, _offers.Choice(max_price_per_hr=1.0))
    assert caught.value.code == "catalog_unavailable"
    assert caught.value.placement["catalog"] == "failed: the catalog answer has no gpus list"
    unread = _placement.order(_placement.cross([B, A]), _placement.NOT_READ, _offers.Choice())
    assert unread.candidates == [Candidate(B), Candidate(A)] and unread.placement.catalog == "not read"
    assert not _placement.wants_catalog([], _offers.Choice()) and not _placement.wants_catalog(
        [Candidate(A)], _offers.Choice(gpu=False))
    assert _placement.wants_catalog([], _offers.Choice(max_price_per_hr=1.0))


# -- the v2 loop with a catalog -----------------------------------------------------------------------------------


def test_one_catalog_read_drops_types_without_stock_before_any_post():
    router = Router().add("GET", CATALOG, catalog(gpu(A, "NONE"), gpu(B, "NONE"), gpu(C, "LOW")))
    router.add("POST", PODS, created())
    backend = backend_with(router)
    _pod, result = backend.pods.create(spec(allowed_cuda_versions=["12.8"]))
    assert posted(router) == [(C, None)]
    assert router.count("GET", CATALOG) == 1
    query = dict(router.calls[0][3].url.params)
    assert query == {"include": "AVAILABILITY", "product": "POD", "cloud": "SECURE", "cudaVersions": "12.8"}
    assert router.bodies("POST", PODS)[0]["gpu"]["allowedCudaVersions"] == ["12.8"]
    assert result["gpu_type_id"] == C and result["catalog"] == "read"
    assert result["dropped"] == [
        {"gpu_type_id": A, "data_center_id": None, "price_per_hr": None, "reason": "stock"},
        {"gpu_type_id": B, "data_center_id": None, "price_per_hr": None, "reason": "stock"},
    ]
    assert result["attempts"] == [
        {"gpu_type_id": C, "data_center_id": None, "price_per_hr": None, "status": 201, "detail": "created"}
    ]


@pytest.mark.parametrize("failure", [problem(500, "catalog down"), httpx.ConnectError("refused"), {"nope": 1}])
def test_a_failed_catalog_read_never_blocks_the_create(failure):
    router = Router().add("GET", CATALOG, failure).add("POST", PODS, created())
    backend = backend_with(router)
    _pod, placement = backend.pods.create(spec(min_cuda_version="12.4"))
    assert posted(router) == [(A, None)]
    assert router.count("GET", CATALOG) == 1  # one attempt: the catalog is a hint
    assert placement["catalog"].startswith("failed: ")
    assert router.bodies("POST", PODS)[0]["gpu"]["minCudaVersion"] == "12.4"


def test_stock_out_between_catalog_and_create_moves_on():
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B), gpu(C)))
    router.add("POST", PODS, problem(400, "no instances available"), created())
    backend = backend_with(router)
    _pod, placement = backend.pods.create(spec())
    assert posted(router) == [(A, None), (B, None)]
    assert [a["status"] for a in placement["attempts"]] == [400, 201]


def test_data_centers_are_crossed_and_ordered_by_stock():
    router = Router().add("GET", CATALOG, catalog(gpu(A, "HIGH", {"EU-RO-1": "LOW", "US-TX-3": "HIGH"})))
    router.add("POST", PODS, problem(400, "no instances available"), created())
    backend = backend_with(router)
    _pod, placement = backend.pods.create(spec(gpu_type_ids=[A], data_center_ids=["EU-RO-1", "US-TX-3", "CA-MTL-1"]))
    assert posted(router) == [(A, "US-TX-3"), (A, "EU-RO-1")]
    assert placement["data_center_id"] == "EU-RO-1"


def test_402_stops_at_once_with_insufficient_balance():
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B), gpu(C)))
    router.add("POST", PODS, problem(402, "balance too low"), created())
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec())
    assert caught.value.code == "insufficient_balance" and caught.value.status == 402
    assert posted(router) == [(A, None)]
    assert caught.value.placement["attempts"][0]["status"] == 402 and caught.value.placement["gpu_type_id"] is None


def test_403_skips_the_candidate_and_a_mix_of_403_and_400_is_not_no_capacity():
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B), gpu(C)))
    router.add("POST", PODS, problem(403, "pool restricted"), problem(400, "no instances available"),
               problem(403, "pool restricted"))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec())
    assert posted(router) == [(A, None), (B, None), (C, None)]
    assert caught.value.code == "forbidden"
    assert [a["status"] for a in caught.value.placement["attempts"]] == [403, 400, 403]


def test_every_400_is_no_capacity_with_the_last_detail_quoted():
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B)))
    router.add("POST", PODS, problem(400, "no instances available"), problem(400, "dataCenterIds: unknown X"))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec(gpu_type_ids=[A, B]))
    assert caught.value.code == "no_capacity"
    assert caught.value.message.endswith("problem with the request itself: dataCenterIds: unknown X")


def test_catalog_without_stock_anywhere_posts_nothing():
    router = Router().add("GET", CATALOG, catalog(gpu(A, "NONE"))).add("POST", PODS, created())
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec(gpu_type_ids=[A, B]))
    assert caught.value.code == "no_capacity" and router.count("POST", PODS) == 0
    assert len(caught.value.placement["dropped"]) == 2


def test_429_is_backed_off_by_the_client_and_the_same_candidate_resumes():
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B)))
    router.add("POST", PODS, problem(429, "slow", headers={"Retry-After": "3"}), created())
    backend = backend_with(router)
    backend.pods.create(spec(gpu_type_ids=[A, B]))
    assert posted(router) == [(A, None), (A, None)]
    assert backend.client.clock.sleeps == [3.0]


def test_5xx_is_maybe_created_and_never_re_posted():
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B))).add("POST", PODS, problem(502, "bad gateway"))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec(gpu_type_ids=[A, B]))
    assert caught.value.maybe_created is True and posted(router) == [(A, None)]
    assert caught.value.placement["attempts"] == [
        {"gpu_type_id": A, "data_center_id": None, "price_per_hr": None, "status": 502, "detail": "bad gateway"}
    ]


# -- gpu_type_info's filters (_catalog) -----------------------------------------------------------------------------


def described(type_id, memory, price, stock, centers=None):
    raw = gpu(type_id, stock, centers)
    raw.update(memory=memory, price={"secure": price, "community": price / 2}, name=type_id[-4:])
    return _catalog.describe_gpu_type(raw)


def test_select_gpu_types_applies_every_filter_and_keeps_the_ids_order():
    types = [
        described(A, 24, 0.69, "HIGH", {"US-TX-3": "HIGH"}),
        described(B, 24, 0.43, "LOW", {"EU-RO-1": "LOW"}),
        described(C, 48, 0.27, "NONE"),
    ]
    assert [g["id"] for g in _catalog.select_gpu_types(types, min_stock="LOW")] == [A, B]
    assert [g["id"] for g in _catalog.select_gpu_types(types, min_memory_gb=48)] == [C]
    assert [g["id"] for g in _catalog.select_gpu_types(types, max_price=0.5)] == [B, C]
    assert [g["id"] for g in _catalog.select_gpu_types(types, max_price=0.3, cloud_type="COMMUNITY")] == [B, C]
    assert [g["id"] for g in _catalog.select_gpu_types(types, ids=[C, A])] == [C, A]
    in_europe = _catalog.select_gpu_types(types, data_center_ids=["EU-RO-1"])
    assert [(g["id"], g["stock"], g["stock_by_data_center"]) for g in in_europe] == [(B, "LOW", {"EU-RO-1": "LOW"})]
    assert types[0]["prices"]["secure"] == {"on_demand": 0.69, "spot": None}


def test_a_created_pod_the_answer_does_not_describe_still_reports_its_placement():
    # 201 without a pod in it: the pod exists and bills; the error says where it went (the module adopts it by name).
    router = Router().add("GET", CATALOG, catalog(gpu(A))).add("POST", PODS, httpx.Response(201, json={"no": "id"}))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec())
    assert caught.value.code == "bad_response"
    assert caught.value.placement["gpu_type_id"] == A and caught.value.placement["attempts"][-1]["status"] == 201


def test_a_fleets_creates_share_its_one_catalog_read_and_each_reports_its_own_placement():
    from ansible_collections.runpod.cloud.plugins.module_utils._module.fleet import SharedCatalog

    router = Router().add("GET", CATALOG, catalog(gpu(A, "NONE"), gpu(B)))
    router.add("POST", PODS, lambda request: created())
    backend, shared = backend_with(router), SharedCatalog()
    tried = [backend.pods.create(spec(name=f"crew-{n}", gpu_type_ids=[A, B]), shared_read=shared)[1] for n in (1, 2)]
    assert router.count("GET", CATALOG) == 1 and posted(router) == [(B, None), (B, None)]
    assert [(t["gpu_type_id"], t["catalog"], len(t["dropped"]), len(t["attempts"])) for t in tried] == [
        (B, "read", 1, 1), (B, "read", 1, 1)]
