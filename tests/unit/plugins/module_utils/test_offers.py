"""A GPU by requirement and price (issue 33): the catalog's offers, the order by price, the cap, and the option
rules, as pure functions and through the REST v2 backend (httpx.MockTransport)."""

from __future__ import annotations

import calendar
import random

import httpx
import payloads
import pytest
from helpers.fakes import FakeClock, full_backend
from hypothesis import given
from hypothesis import strategies as st
from payloads import Router, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api import pod_inputs as _values
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend import offers as _offers
from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement as _placement
from ansible_collections.runpod.cloud.plugins.module_utils._rules import pod_rules as _pods
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.views import ClusterSpec, PodSpec

PODS, CLUSTERS, CATALOG = "/v2/pods", "/v2/clusters", "/v2/catalog/gpus"
A4090, A40, L40S, A6000, H100, MI300 = (
    "NVIDIA GeForce RTX 4090", "NVIDIA A40", "NVIDIA L40S", "NVIDIA RTX A6000", "NVIDIA H100 80GB HBM3",
    "AMD Instinct MI300X OAM",
)


def gpu(type_id, memory, secure, community=None, availability="HIGH", maker="NVIDIA", centers=None):
    entry = {"id": type_id, "name": type_id[-6:], "manufacturer": maker, "memory": memory,
             "price": {"secure": secure, "community": community if community is not None else secure / 2},
             "availability": availability}
    if centers is not None:
        entry["dataCenters"] = [{"id": dc, "name": dc, "availability": level} for dc, level in centers.items()]
    return entry


CATALOG_BODY = {"gpus": [
    gpu(A4090, 24, 0.69, 0.34), gpu(A40, 48, 0.40, 0.35), gpu(L40S, 48, 0.86, 0.30), gpu(A6000, 48, 0.49, 0.33),
    gpu(H100, 80, 2.99, 2.50), gpu(MI300, 192, 2.49, maker="AMD"),
]}


def backend_with(router):
    opts = {"api_key": "k-test-123456", "api_url": "https://rest.example.test/v2"}
    return full_backend(opts, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def pod_spec(**fields):
    return PodSpec(**{"name": "trainer", "image": "img", **fields})


def posted(router, path=PODS):
    bodies = router.bodies("POST", path)
    return [body["gpu"]["id"] if "gpu" in body else body["compute"]["gpuTypeId"] for body in bodies]


def created():
    return httpx.Response(201, json=payloads.v2_provisioning_pod())


# -- pure: offers, order, cap ------------------------------------------------------------------------------


def test_requirements_order_by_tier_price_times_count_and_ties_by_stock():
    offers = _offers.offers_from_catalog(CATALOG_BODY, "SECURE")
    wanted = _offers.Requirements(min_memory_gb=48, manufacturer="NVIDIA")
    choice = _offers.Choice(requirements=wanted, units=2)
    ranked = _offers.by_requirements(offers, wanted, choice)
    assert [o.type_id for o in ranked] == [A40, A6000, L40S, H100]  # MI300 is AMD, the 4090 has 24 GB
    assert ranked[0].price_per_hr(2) == 0.8
    # The community tier reorders: the L40S is the cheapest there.
    community = _offers.offers_from_catalog(CATALOG_BODY, "COMMUNITY")
    assert _offers.by_requirements(community, wanted, choice)[0].type_id == L40S
    # Equal prices: more stock first.
    tied = _offers.offers_from_catalog({"gpus": [gpu(A40, 48, 0.4, availability="LOW"),
                                                 gpu(A6000, 48, 0.4, availability="HIGH")]})
    assert [o.type_id for o in _offers.by_requirements(tied, wanted, choice)] == [A6000, A40]


def test_max_memory_and_exclude_narrow_the_match():
    offers = _offers.offers_from_catalog(CATALOG_BODY)
    wanted = _offers.Requirements(min_memory_gb=40, max_memory_gb=80, exclude=(A40,))
    assert [o.type_id for o in _offers.by_requirements(offers, wanted, _offers.Choice())] == [A6000, L40S, H100]


def test_a_payload_without_gpus_is_refused():
    with pytest.raises(ValueError):
        _offers.offers_from_catalog({"data": []})


@given(st.lists(st.tuples(st.floats(0.01, 50, allow_nan=False), st.sampled_from(["NONE", "LOW", "HIGH"])),
                min_size=1, max_size=8),
       st.floats(0.01, 60, allow_nan=False), st.integers(1, 8))
def test_the_cap_never_lets_a_dearer_candidate_through(rows, cap, units):
    body = {"gpus": [gpu(f"T{i}", 48, price, availability=level) for i, (price, level) in enumerate(rows)]}
    choice = _offers.Choice(requirements=_offers.Requirements(), max_price_per_hr=cap, units=units)
    try:
        ordered = _placement.order([], _placement.read_catalog(lambda: body, choice), choice)
    except RunPodError as error:
        assert error.code == "price_cap_exceeded"
        assert all(c["reason"] in ("price", "stock") for c in error.placement["dropped"])
        return
    prices = [c.price_per_hr for c in ordered.candidates]
    assert all(price <= cap + 1e-9 for price in prices)
    assert prices == sorted(prices)
    dropped = {c.type_id: c.reason for c in ordered.placement.dropped}
    for index, (price, _level) in enumerate(rows):
        listed = round(price * units, 4)
        if listed > cap + 1e-9:
            assert dropped[f"T{index}"] == "price"


# -- the backend: one catalog read, then the table ----------------------------------------------------------


def test_the_cheapest_match_in_stock_is_posted_first_and_a_400_moves_to_the_next():
    body = {"gpus": [*CATALOG_BODY["gpus"][:1], gpu(A40, 48, 0.40, availability="NONE"),
                     *CATALOG_BODY["gpus"][2:]]}
    router = Router().add("GET", CATALOG, body).add("POST", PODS, problem(400, "no instances"), created())
    requirements = {"min_memory_gb": 48, "manufacturer": "NVIDIA"}
    _pod, result = backend_with(router).pods.create(pod_spec(gpu_requirements=requirements))
    assert posted(router) == [A6000, L40S]
    assert result["gpu_type_id"] == L40S and result["price_per_hr"] == 0.86
    assert [(a["gpu_type_id"], a["price_per_hr"], a["status"]) for a in result["attempts"]] == [
        (A6000, 0.49, 400), (L40S, 0.86, 201)]
    assert result["dropped"] == [{"gpu_type_id": A40, "data_center_id": None, "price_per_hr": 0.4, "reason": "stock"}]


def test_the_cap_drops_named_types_and_refuses_with_no_post_when_none_is_left():
    router = Router().add("GET", CATALOG, CATALOG_BODY).add("POST", PODS, created())
    _pod, result = backend_with(router).pods.create(pod_spec(gpu_type_ids=[H100, L40S, A40], max_price_per_hr=0.9))
    assert posted(router) == [L40S]  # the user's order kept among those within the cap
    assert result["dropped"] == [{"gpu_type_id": H100, "data_center_id": None, "price_per_hr": 2.99,
                                  "reason": "price"}]
    router = Router().add("GET", CATALOG, CATALOG_BODY).add("POST", PODS, created())
    with pytest.raises(RunPodError) as caught:
        spec = pod_spec(gpu_requirements={"min_memory_gb": 48}, max_price_per_hr=0.5, gpu_count=2)
        backend_with(router).pods.create(spec)
    assert caught.value.code == "price_cap_exceeded" and posted(router) == []
    assert "the cheapest, NVIDIA A40, lists at 0.8 USD/h" in caught.value.message
    assert {d["reason"] for d in caught.value.placement["dropped"]} == {"price"}


def test_an_unreadable_catalog_refuses_before_any_post():
    router = Router().add("GET", CATALOG, problem(503, "down")).add("POST", PODS, created())
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(pod_spec(gpu_type_ids=[A40], max_price_per_hr=5))
    assert caught.value.code == "catalog_unavailable" and posted(router) == []
    assert caught.value.placement["catalog"].startswith("failed: ")
    # Without requirements or a cap the catalog stays a hint: the given order is posted.
    router = Router().add("GET", CATALOG, problem(503, "down")).add("POST", PODS, created())
    backend_with(router).pods.create(pod_spec(gpu_type_ids=[A40]))
    assert posted(router) == [A40]


def test_no_type_meeting_the_requirements_is_no_match():
    router = Router().add("GET", CATALOG, CATALOG_BODY)
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(pod_spec(gpu_requirements={"min_memory_gb": 500}))
    assert caught.value.code == "no_match"


def test_a_cluster_reads_cluster_stock_and_caps_the_whole_cluster():
    cluster = {"id": "c1", "name": "llm", "type": "TRAINING", "pods": []}
    router = Router().add("GET", CATALOG, CATALOG_BODY).add("POST", CLUSTERS, httpx.Response(201, json=cluster))
    spec = ClusterSpec(name="llm", image="img", gpu_requirements={"min_memory_gb": 48}, gpu_count_per_pod=2,
                       pod_count=3, max_price_per_hr=2.5)
    _cluster, result = backend_with(router).clusters.create_placed(spec)
    assert posted(router, CLUSTERS) == [A40]  # 0.40 x 2 x 3 = 2.4; the A6000 lists 2.94
    assert result["price_per_hr"] == 2.4 and {d["reason"] for d in result["dropped"]} == {"price"}
    query = dict(router.calls[0][3].url.params)
    assert query["product"] == "CLUSTER" and query["count"] == "2"


# -- option rules and reaping ---------------------------------------------------------------------------------


def params(**given):
    return {"gpu_type_ids": None, "compute_type": "GPU", "gpu_requirements": None, "max_price_per_hr": None, **given}


@pytest.mark.parametrize(("given", "needle"), [
    ({"gpu_type_ids": [A40], "gpu_requirements": {}}, "mutually exclusive"),
    ({"gpu_requirements": {"manufacturer": "Intel"}}, "manufacturer must be one of"),
    ({"gpu_requirements": {"min_memory_gb": 80, "max_memory_gb": 24}}, "is above max_memory_gb"),
    ({"gpu_requirements": {"min_memory_gb": -1}}, "0 or more"),
    ({"gpu_requirements": {"exclude": ["NVIDIA A4O"]}}, "unknown GPU type"),
    ({"max_price_per_hr": -1.0}, "above 0"),
    ({"max_price_per_hr": 0.0}, "above 0"),
    ({"compute_type": "CPU", "max_price_per_hr": 1.0}, "GPU pods only"),
])
def test_bad_choices_are_refused(given, needle):
    assert needle in (_values.gpu_choice_problem(params(**given), "gpu_type_ids") or "")


def test_good_choices_pass():
    assert _values.gpu_choice_problem(params(gpu_requirements={"manufacturer": "nvidia", "min_memory_gb": 24,
                                                               "max_memory_gb": 24}, max_price_per_hr=1), "x") is None


class _Pod:
    def __init__(self, name, created_at):
        self.name, self.created_at = name, created_at


def test_reap_select_keeps_old_pods_with_the_prefix_and_never_an_unreadable_age():
    now = calendar.timegm((2026, 3, 2, 12, 0, 0))
    pods = [_Pod("ci-old", "2026-03-01T00:00:00Z"), _Pod("ci-new", "2026-03-02T11:00:00Z"),
            _Pod("prod-old", "2026-03-01T00:00:00Z"), _Pod("ci-odd", "yesterday"),
            _Pod("ci-go", "2026-03-01 00:00:00.000 +0000 UTC")]
    limit = _pods.older_than_seconds("12h", "ci-")
    assert [p.name for p in _pods.reap_select(pods, limit, "ci-", now)] == ["ci-old", "ci-go"]
    assert [p.name for p in _pods.reap_select(pods, None, "prod", now)] == ["prod-old"]
    with pytest.raises(ValueError, match="older_than"):
        _pods.older_than_seconds("soon", None)
    with pytest.raises(ValueError, match="name_prefix"):
        _pods.older_than_seconds(None, "")


def test_a_billed_cost_above_the_cap_warns():
    assert "billed 1.2 USD/h" in _pods.cost_warning(1.0, 1.2, "pod x")
    assert _pods.cost_warning(1.0, 0.9, "pod x") is None and _pods.cost_warning(None, 9, "pod x") is None
