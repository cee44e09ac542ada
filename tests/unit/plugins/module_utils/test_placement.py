"""Placement (``_backend/placement.py``): the choice read from the spec, the catalog's offers, the order by stock,
requirements and price, the cap, and the createPod table, as pure functions and through the REST v2 backend
(httpx.MockTransport)."""

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
from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement as _placement
from ansible_collections.runpod.cloud.plugins.module_utils._backend.placement import Candidate, Choice
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import ClusterSpec
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodSpec

PODS, CLUSTERS, CATALOG = "/v2/pods", "/v2/clusters", "/v2/catalog/gpus"
A4090, A40, L40S, A6000, H100, MI300 = (
    "NVIDIA GeForce RTX 4090", "NVIDIA A40", "NVIDIA L40S", "NVIDIA RTX A6000", "NVIDIA H100 80GB HBM3",
    "AMD Instinct MI300X OAM",
)
A, B, C = A4090, L40S, A40
NO_STOCK = problem(400, "no instances available")


def gpu(type_id, availability="HIGH", centers=None, memory=48, secure=None, community=None, maker="NVIDIA"):
    entry = {"id": type_id, "availability": availability, "manufacturer": maker, "memory": memory}
    if secure is not None:
        entry["price"] = {"secure": secure, "community": community if community is not None else secure / 2}
    if centers is not None:
        entry["dataCenters"] = [{"id": dc, "name": dc, "availability": level} for dc, level in centers.items()]
    return entry


def catalog(*gpus):
    return {"gpus": list(gpus)}


PRICED = catalog(
    gpu(A4090, memory=24, secure=0.69, community=0.34), gpu(A40, secure=0.40, community=0.35),
    gpu(L40S, secure=0.86, community=0.30), gpu(A6000, secure=0.49, community=0.33),
    gpu(H100, memory=80, secure=2.99, community=2.50), gpu(MI300, memory=192, secure=2.49, maker="AMD"),
)


def backend_with(router):
    opts = {"api_key": "k-test-123456", "api_url": "https://rest.example.test/v2"}
    return full_backend(opts, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def spec(**fields):
    return PodSpec(**{"name": "trainer", "image": "img", "gpu_type_ids": [A, B, C], **fields})


def created():
    return httpx.Response(201, json=payloads.v2_provisioning_pod())


def stock_of(payload):
    """``{type id: {None: overall rank, data center: rank}}`` of a catalog answer, as placement ranks it."""
    return {type_id: offer.stock for type_id, offer in _placement.offers_from_catalog(payload).items()}


def posted(router, path=PODS):
    return [(body["gpu"]["id"], (body.get("dataCenterIds") or [None])[0]) if "gpu" in body
            else (body["compute"]["gpuTypeId"], None) for body in router.bodies("POST", path)]


def types(candidates):
    return [c.type_id for c in candidates]


# -- pure: the choice, the offers, the order ---------------------------------------------------------------------


def test_cross_keeps_the_user_order_and_drops_repeats():
    assert _placement.cross([A, B, A]) == [Candidate(A), Candidate(B)]
    assert _placement.cross([A, B], ["EU-RO-1", "US-TX-3"]) == [
        Candidate(A, "EU-RO-1"), Candidate(A, "US-TX-3"), Candidate(B, "EU-RO-1"), Candidate(B, "US-TX-3"),
    ]


def test_the_choice_is_read_once_from_the_spec():
    gpu_pod = _placement.choose(spec(gpu_type_ids=[A], data_center_ids=["EU-RO-1"], gpu_count=2, cloud_type="community",
                                     allowed_cuda_versions=["12.8"]))
    assert gpu_pod.candidates == [Candidate(A, "EU-RO-1")] and (gpu_pod.units, gpu_pod.cloud) == (2, "COMMUNITY")
    assert gpu_pod.query == {"cloud": "community", "count": 2, "cuda_versions": ["12.8"], "min_cuda_version": None}
    cpu_pod = _placement.choose(PodSpec(name="c", image="img", compute_type="CPU", cpu_flavor_ids=["cpu3c"]))
    assert cpu_pod.candidates == [Candidate("cpu3c")] and cpu_pod.query is None  # no GPU catalog
    cluster = _placement.choose(ClusterSpec(name="llm", image="img", gpu_requirements={"manufacturer": "nvidia"},
                                            gpu_count_per_pod=2, pod_count=3, data_center_ids=["EU-RO-1"]),
                                "clusters")
    assert cluster.candidates == [] and (cluster.units, cluster.pin, cluster.centers) == (6, False, ("EU-RO-1",))
    assert cluster.requirements == {"min_memory_gb": None, "max_memory_gb": None, "manufacturer": "NVIDIA",
                                    "exclude": ()}
    assert cluster.query == {"cloud": "SECURE", "count": 2, "product": "CLUSTER"}


def test_by_stock_drops_no_stock_keeps_type_order_and_breaks_ties_by_stock():
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
def test_by_stock_is_a_stable_filter_of_the_user_order_without_data_centers(levels, wanted):
    stock = stock_of(catalog(*(gpu(t, level) for t, level in levels.items())))
    kept, dropped = _placement.by_stock(_placement.cross(wanted), stock)
    assert types(kept) == [t for t in wanted if _catalog.stock_rank(levels.get(t))]
    assert sorted(kept + dropped, key=lambda c: wanted.index(c.type_id)) == _placement.cross(wanted)


@pytest.mark.parametrize("payload", [None, [], {"gpus": "x"}, {"data": []}, "text"])
def test_a_catalog_that_is_not_a_gpu_list_is_refused(payload):
    with pytest.raises(ValueError):
        stock_of(payload)


@pytest.mark.parametrize(("requirements", "cloud", "units", "order"), [
    # cheapest first for the tier, times the unit: MI300 is AMD, the 4090 has 24 GB
    ({"min_memory_gb": 48, "manufacturer": "nvidia"}, "SECURE", 2, [A40, A6000, L40S, H100]),
    ({"min_memory_gb": 48, "manufacturer": "NVIDIA"}, "COMMUNITY", 2, [L40S, A6000, A40, H100]),  # another tier
    ({"min_memory_gb": 40, "max_memory_gb": 80, "exclude": [A40]}, "SECURE", 1, [A6000, L40S, H100]),
])
def test_requirements_choose_the_types_cheapest_first(requirements, cloud, units, order):
    choice = Choice(requirements=_placement.wanted(requirements), cloud=cloud, units=units)
    kept, placement = _placement.order(choice, lambda: PRICED)
    assert types(kept) == order and placement.catalog == "read"
    assert kept[0].price_per_hr == _placement.offers_from_catalog(PRICED, cloud)[order[0]].price_per_hr(units)


def test_equal_prices_rank_more_stock_first():
    tied = catalog(gpu(A40, "LOW", secure=0.4), gpu(A6000, "HIGH", secure=0.4))
    kept, _placement_so_far = _placement.order(Choice(requirements=_placement.wanted({})), lambda: tied)
    assert types(kept) == [A6000, A40]


@given(st.lists(st.tuples(st.floats(0.01, 50, allow_nan=False), st.sampled_from(["NONE", "LOW", "HIGH"])),
                min_size=1, max_size=8),
       st.floats(0.01, 60, allow_nan=False), st.integers(1, 8))
def test_the_cap_never_lets_a_dearer_candidate_through(rows, cap, units):
    body = catalog(*(gpu(f"T{i}", level, secure=price) for i, (price, level) in enumerate(rows)))
    choice = Choice(requirements=_placement.wanted({}), max_price_per_hr=cap, units=units)
    try:
        kept, placement = _placement.order(choice, lambda: body)
    except RunPodError as error:
        assert error.code == "price_cap_exceeded"
        assert all(c["reason"] in ("price", "stock") for c in error.placement["dropped"])
        return
    prices = [c.price_per_hr for c in kept]
    assert all(price <= cap + 1e-9 for price in prices)
    assert prices == sorted(prices)
    dropped = {c.type_id: c.reason for c in placement.dropped}
    for index, (price, _level) in enumerate(rows):
        if round(price * units, 4) > cap + 1e-9:
            assert dropped[f"T{index}"] == "price"


def test_only_a_cap_or_requirements_refuse_a_failed_read_and_nothing_read_keeps_the_given_order():
    def failed():
        return {"nope": 1}

    kept, placement = _placement.order(Choice(_placement.cross([A, B])), failed)
    assert kept == [Candidate(A), Candidate(B)]
    assert placement.catalog == "failed: the catalog answer has no gpus list; candidates kept in the given order"
    with pytest.raises(RunPodError) as caught:
        _placement.order(Choice(_placement.cross([A, B]), max_price_per_hr=1.0), failed)
    assert caught.value.code == "catalog_unavailable" and caught.value.placement["catalog"] == (
        "failed: the catalog answer has no gpus list")
    kept, placement = _placement.order(Choice(_placement.cross([B, A])))
    assert kept == [Candidate(B), Candidate(A)] and placement.catalog == "not read"


@pytest.mark.parametrize(
    ("status", "action"),
    [(400, "next"), (402, "stop"), (403, "skip"), (409, "raise"), (422, "raise"), (429, "raise"), (500, "raise"),
     (503, "raise"), (None, "raise")],
)
def test_the_table(status, action):
    assert _placement.action_for(RunPodError("x", status, "something went wrong")) == action
    # The text never matters: a 500 that reads like a stock-out is still not moved past.
    assert _placement.action_for(RunPodError("x", status, "no instances available")) == action


# -- the backend: one catalog read, then one POST per candidate by the table ---------------------------------------


def test_one_catalog_read_drops_types_without_stock_before_any_post():
    router = Router().add("GET", CATALOG, catalog(gpu(A, "NONE"), gpu(B, "NONE"), gpu(C, "LOW")))
    router.add("POST", PODS, created())
    _pod, result = backend_with(router).pods.create(spec(allowed_cuda_versions=["12.8"]))
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


def test_a_cpu_pod_reads_no_catalog():
    router = Router().add("POST", PODS, created())
    cpu = PodSpec(name="c", image="img", compute_type="CPU", cpu_flavor_ids=["cpu3c", "cpu5c"])
    _pod, result = backend_with(router).pods.create(cpu)
    assert router.count("GET", CATALOG) == 0 and result["catalog"] == "not read"
    assert [body["cpu"]["id"] for body in router.bodies("POST", PODS)] == ["cpu3c"]


@pytest.mark.parametrize("failure", [problem(500, "catalog down"), httpx.ConnectError("refused"), {"nope": 1}])
@pytest.mark.parametrize("priced", [False, True])
def test_a_failed_catalog_read_refuses_only_a_priced_create(failure, priced):
    router = Router().add("GET", CATALOG, failure).add("POST", PODS, created())
    create = spec(min_cuda_version="12.4", max_price_per_hr=5 if priced else None)
    if priced:
        with pytest.raises(RunPodError) as caught:
            backend_with(router).pods.create(create)
        assert caught.value.code == "catalog_unavailable" and posted(router) == []
        assert caught.value.placement["catalog"].startswith("failed: ")
        return
    _pod, placement = backend_with(router).pods.create(create)  # the catalog is a hint: the given order is posted
    assert posted(router) == [(A, None)]
    assert router.count("GET", CATALOG) == 1  # one attempt
    assert placement["catalog"].startswith("failed: ")
    assert router.bodies("POST", PODS)[0]["gpu"]["minCudaVersion"] == "12.4"


@pytest.mark.parametrize(("answers", "statuses", "code", "says"), [
    ([NO_STOCK, created()], [400, 201], None, None),  # stock gone between the catalog and the create
    ([problem(402, "balance too low"), created()], [402], "insufficient_balance", "insufficient balance: balance too"),
    ([problem(403, "pool restricted"), NO_STOCK, problem(403, "pool restricted")], [403, 400, 403], "forbidden",
     "no candidate could be created (NVIDIA GeForce RTX 4090: pool restricted (403); NVIDIA L40S: no instances"),
    ([NO_STOCK, NO_STOCK, problem(400, "dataCenterIds: unknown X")], [400, 400, 400], "no_capacity",
     "problem with the request itself: dataCenterIds: unknown X"),
    ([problem(502, "bad gateway")], [502], "server_error", "bad gateway"),  # maybe created: never re-sent
])
def test_each_answer_to_a_create_as_the_table_says(answers, statuses, code, says):
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B), gpu(C))).add("POST", PODS, *answers)
    if code is None:
        _pod, placement = backend_with(router).pods.create(spec())
    else:
        with pytest.raises(RunPodError) as caught:
            backend_with(router).pods.create(spec())
        assert caught.value.code == code and says in caught.value.message
        assert caught.value.maybe_created is (statuses[-1] == 502)
        placement = caught.value.placement
        assert placement["gpu_type_id"] is None
    assert [a["status"] for a in placement["attempts"]] == statuses
    assert posted(router) == [(t, None) for t in [A, B, C][:len(statuses)]]


def test_data_centers_are_crossed_and_ordered_by_stock():
    router = Router().add("GET", CATALOG, catalog(gpu(A, "HIGH", {"EU-RO-1": "LOW", "US-TX-3": "HIGH"})))
    router.add("POST", PODS, NO_STOCK, created())
    _pod, placement = backend_with(router).pods.create(
        spec(gpu_type_ids=[A], data_center_ids=["EU-RO-1", "US-TX-3", "CA-MTL-1"]))
    assert posted(router) == [(A, "US-TX-3"), (A, "EU-RO-1")]
    assert placement["data_center_id"] == "EU-RO-1"


def test_catalog_without_stock_anywhere_posts_nothing():
    router = Router().add("GET", CATALOG, catalog(gpu(A, "NONE"))).add("POST", PODS, created())
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec(gpu_type_ids=[A, B]))
    assert caught.value.code == "no_capacity" and router.count("POST", PODS) == 0
    assert caught.value.message.startswith(f"the catalog shows no stock for any candidate ({A}, {B})")
    assert len(caught.value.placement["dropped"]) == 2


def test_429_is_backed_off_by_the_client_and_the_same_candidate_resumes():
    router = Router().add("GET", CATALOG, catalog(gpu(A), gpu(B)))
    router.add("POST", PODS, problem(429, "slow", headers={"Retry-After": "3"}), created())
    backend = backend_with(router)
    backend.pods.create(spec(gpu_type_ids=[A, B]))
    assert posted(router) == [(A, None), (A, None)]
    assert backend.client.clock.sleeps == [3.0]


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


# -- the backend with requirements and a cap -----------------------------------------------------------------------


def test_the_cheapest_match_in_stock_is_posted_first_and_a_400_moves_to_the_next():
    body = catalog(*PRICED["gpus"][:1], gpu(A40, "NONE", secure=0.40), *PRICED["gpus"][2:])
    router = Router().add("GET", CATALOG, body).add("POST", PODS, NO_STOCK, created())
    _pod, result = backend_with(router).pods.create(
        spec(gpu_type_ids=[], gpu_requirements={"min_memory_gb": 48, "manufacturer": "NVIDIA"}))
    assert posted(router) == [(A6000, None), (L40S, None)]
    assert result["gpu_type_id"] == L40S and result["price_per_hr"] == 0.86
    assert [(a["gpu_type_id"], a["price_per_hr"], a["status"]) for a in result["attempts"]] == [
        (A6000, 0.49, 400), (L40S, 0.86, 201)]
    assert result["dropped"] == [{"gpu_type_id": A40, "data_center_id": None, "price_per_hr": 0.4, "reason": "stock"}]


def test_the_cap_drops_named_types_and_refuses_with_no_post_when_none_is_left():
    router = Router().add("GET", CATALOG, PRICED).add("POST", PODS, created())
    _pod, result = backend_with(router).pods.create(spec(gpu_type_ids=[H100, L40S, A40], max_price_per_hr=0.9))
    assert posted(router) == [(L40S, None)]  # the user's order kept among those within the cap
    assert result["dropped"] == [{"gpu_type_id": H100, "data_center_id": None, "price_per_hr": 2.99,
                                  "reason": "price"}]
    router = Router().add("GET", CATALOG, PRICED).add("POST", PODS, created())
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec(gpu_type_ids=[], gpu_requirements={"min_memory_gb": 48},
                                              max_price_per_hr=0.5, gpu_count=2))
    assert caught.value.code == "price_cap_exceeded" and posted(router) == []
    assert "the cheapest, NVIDIA A40, lists at 0.8 USD/h for 2 GPU(s) (5 candidate(s)" in caught.value.message
    assert {d["reason"] for d in caught.value.placement["dropped"]} == {"price"}


def test_no_type_meeting_the_requirements_is_no_match():
    router = Router().add("GET", CATALOG, PRICED)
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(spec(gpu_type_ids=[], gpu_requirements={"min_memory_gb": 500,
                                                                                 "manufacturer": "amd"}))
    assert caught.value.code == "no_match" and caught.value.placement["catalog"] == "read"
    assert "(6 types) meets gpu_requirements min_memory_gb=500, manufacturer=AMD; nothing" in caught.value.message


def test_a_cluster_reads_cluster_stock_and_caps_the_whole_cluster():
    cluster = {"id": "c1", "name": "llm", "type": "TRAINING", "pods": []}
    router = Router().add("GET", CATALOG, PRICED).add("POST", CLUSTERS, httpx.Response(201, json=cluster))
    create = ClusterSpec(name="llm", image="img", gpu_requirements={"min_memory_gb": 48}, gpu_count_per_pod=2,
                         pod_count=3, max_price_per_hr=2.5, data_center_ids=["EU-RO-1"])
    _cluster, result = backend_with(router).clusters.create_placed(create)
    assert posted(router, CLUSTERS) == [(A40, None)]  # 0.40 x 2 x 3 = 2.4; the A6000 lists 2.94
    assert router.bodies("POST", CLUSTERS)[0]["dataCenterIds"] == ["EU-RO-1"]  # every center, in the body
    assert result["price_per_hr"] == 2.4 and {d["reason"] for d in result["dropped"]} == {"price"}
    query = dict(router.calls[0][3].url.params)
    assert query["product"] == "CLUSTER" and query["count"] == "2"
