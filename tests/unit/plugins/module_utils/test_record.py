"""``_vocab.record.Record``, the plain base of the views and specs (what pydantic did for them, kept)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from payloads import partial

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import RegistrySpec
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import (
    EndpointRelease,
    Rollout,
    WorkerSummary,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import (
    PodSpec,
    PodView,
    PortMapping,
    SshAddress,
)


def test_defaults_are_fresh_per_instance_and_unknown_keys_are_ignored():
    first, second = PodView(id="a", surprise="new API field"), PodView(id="b")
    first.actions.append("stop")
    assert second.actions == [] and second.env == {} and second.status == ""
    assert not hasattr(first, "surprise")


def test_a_missing_required_field_is_refused():
    with pytest.raises(ValueError, match="PodView: id is required"):
        PodView(name="no id")


def test_nested_records_come_back_from_their_dump():
    pod = PodView(
        id="p", runtime_ports=[PortMapping(private=22, public=40022, ip="203.0.113.9", type="tcp")],
        ssh_direct=SshAddress(host="203.0.113.9", port=40022),
    )
    again = PodView.model_validate(pod.model_dump(mode="json"))
    assert again == pod
    assert isinstance(again.runtime_ports[0], PortMapping) and isinstance(again.ssh_direct, SshAddress)
    release = EndpointRelease.model_validate({"version": 3, "rollout": {"in_progress": True, "workers_total": 2}})
    assert release.rollout == Rollout(in_progress=True, workers_total=2)


def test_dump_include_exclude_and_copy_leave_the_original_alone():
    pod = PodView(id="p", name="n", status="RUNNING")
    assert pod.model_dump(include={"id", "name"}) == {"id": "p", "name": "n"}
    assert "status" not in pod.model_dump(exclude={"status"})
    renamed = pod.model_copy(update={"name": "m"})
    assert (renamed.name, pod.name) == ("m", "n") and renamed != pod


def test_equality_is_by_type_and_fields():
    assert WorkerSummary(total=1) == WorkerSummary(total=1)
    assert WorkerSummary(total=1) != WorkerSummary(total=2)
    assert Rollout() != WorkerSummary()


def test_repr_never_shows_a_registry_password():
    text = repr(RegistrySpec(name="r", username="bot", password="hunter2-secret"))
    assert "hunter2-secret" not in text and "bot" not in text and "name='r'" in text


def test_a_spec_checks_its_rules_on_construction_and_construct_skips_them():
    # That a create needs an image or a template is the input model's (PodInput.create_problem, test_pods.py).
    with pytest.raises(ValueError, match="creating a GPU pod needs gpu_type_ids"):
        PodSpec(name="x", image="img")
    spec = PodSpec(name="x", image="img", compute_type="CPU", cpu_flavor_ids=["cpu3c"])
    assert spec.vcpu_count == 2 and "22/tcp" in spec.ports
    assert partial(PodSpec, name="x").image is None


@given(st.lists(st.tuples(st.integers(1, 65535), st.one_of(st.none(), st.integers(1, 65535)))),
       st.dictionaries(st.text(min_size=1, max_size=8), st.text(max_size=8), max_size=4))
def test_any_view_survives_a_dump_and_validate_round_trip(ports, env):
    pod = PodView(id="p", env=env, runtime_ports=[PortMapping(private=a, public=b) for a, b in ports])
    assert PodView.model_validate(pod.model_dump()) == pod
