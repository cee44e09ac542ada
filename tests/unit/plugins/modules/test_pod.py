# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod without an API: pre-API refusals, check mode, diff and the 5xx-create adoption logic."""

from __future__ import annotations

import functools
import json

import pytest
from helpers.fakes import GPU, FakeBackend, pod_view, run_module

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import V1_RETIRED
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.modules import pod as pod_module

run = functools.partial(run_module, pod_module)


CREATE = {"name": "web", "image": "img:1", "gpu_type_ids": [GPU]}


@pytest.mark.parametrize(
    "args, text",
    [
        (dict(CREATE, wait=True, wait_timeout="200000d"), 'invalid wait_timeout: invalid duration "200000d"'),
        (dict(CREATE, wait=True, wait_interval="0s"), "invalid wait_interval"),
        (dict(CREATE, wait=True, wait_interval="20m"), "must not be longer than wait_timeout"),
        (dict(CREATE, wait=True, ssh=False), "cannot be combined with ssh: false"),
        (dict(CREATE, wait=True, wait_for="login", ssh=False), "wait_for: login waits for the pod's sshd"),
        (dict(CREATE, wait=True, wait_for="login"), "wait_for: login logs in with ssh_private_key_file"),
        (dict(CREATE, wait_for="login", ssh_private_key_file="/k", count=2), "with count, use wait_for: ssh"),
        (dict(CREATE, name="web\n"), "leading or trailing whitespace"),
        (dict(CREATE, gpu_count=0), "gpu_count must be at least 1"),
        (dict(CREATE, ports=["8888"]), "write it as 8888/tcp or 8888/http"),
        (dict(CREATE, gpu_type_ids=["NVIDIA GeForce RTX 4099"]), "did you mean 'NVIDIA GeForce RTX 4090'"),
        (dict(CREATE, compute_type="CPU"), "gpu_type_ids cannot be used with compute_type: CPU"),
        ({"name": "web", "cpu_flavor_ids": ["cpu3c"], "compute_type": "CPU"}, "needs image or template_id"),
        (dict(CREATE, allowed_cuda_versions=["12.8"], min_cuda_version="12.4"), "are mutually exclusive"),
        (dict(CREATE, allowed_cuda_versions=["12"]), "CUDA versions are major.minor, such as 12.8; got '12'"),
        (dict(CREATE, min_cuda_version="12.x"), "got '12.x'"),
        ({"name": "web", "image": "i", "compute_type": "CPU", "cpu_flavor_ids": ["cpu3c"],
          "allowed_cuda_versions": ["12.8"]}, "CUDA constraints apply to GPU pods only"),
    ],
)
def test_refused_before_any_backend_exists(capsys, monkeypatch, args, text):
    result = run(None, capsys, monkeypatch, **args)
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert text in result["msg"]


@pytest.mark.parametrize("version", ["v1", "V1 ", "v3"])
@pytest.mark.parametrize("args", [CREATE, {"name": "web", "state": "absent"}, {"id": "pod-1", "state": "stopped"}])
def test_any_api_version_but_v2_fails_with_the_retirement_message_before_any_call(
    capsys, monkeypatch, args, version
):
    backend = FakeBackend(pods=[pod_view()])
    result = run(backend, capsys, monkeypatch, **dict(args, api_version=version))
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert "RunPod retired REST v1 on 2026-11-15" in result["msg"] and V1_RETIRED in result["msg"]
    assert backend.calls == []


def test_api_version_v2_is_still_accepted(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view()])
    result = run(backend, capsys, monkeypatch, name="web", api_version="v2")
    assert result.get("failed") is not True and result["pod"]["id"] == "pod-1"
    assert [call[0] for call in backend.calls] == ["find_pods"]
    # ... as a deprecated option, removed in 1.0.0.
    (deprecation,) = result["deprecations"]
    assert "'api_version' is deprecated" in json.dumps(deprecation) and deprecation["version"] == "1.0.0"


@pytest.mark.parametrize("option", ["support_public_ip", "interruptible", "graphql_url"])
def test_the_removed_v1_options_are_unsupported(capsys, monkeypatch, option):
    value = "https://graphql.example.test/graphql" if option == "graphql_url" else True
    backend = FakeBackend()
    result = run(backend, capsys, monkeypatch, **dict(CREATE, **{option: value}))
    assert result["failed"] is True and "Unsupported parameters" in result["msg"] and option in result["msg"]
    assert backend.calls == []


def test_create_puts_the_key_in_env_and_declares_22(capsys, monkeypatch):
    backend = FakeBackend()
    args = dict(CREATE, ports=["8888/http"], ssh_public_key="ssh-ed25519 AAA x\n")
    result = run(backend, capsys, monkeypatch, **args)
    (spec,) = [call[1] for call in backend.calls if call[0] == "create_pod"]
    # After the create, one list read looks for the same name created at the same moment by another task.
    assert [call[0] for call in backend.calls] == ["find_pods", "create_pod", "find_pods"]
    assert spec["ports"] == ["8888/http", "22/tcp"]
    assert spec["env"] == {"PUBLIC_KEY": "ssh-ed25519 AAA x"}
    assert spec["start_ssh"] is True and spec["gpu_count"] == 1
    assert result["actions"] == ["create"] and result["pod"]["id"] == "pod-new"


def test_check_mode_update_reports_diff_without_mutating(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view(env={"PUBLIC_KEY": "k", "A": "1"})])
    args = {**CREATE, "image": "img:2", "env": {"A": "2"}}
    result = run(backend, capsys, monkeypatch, check_mode=True, diff=True, **args)
    assert backend.mutations() == []
    assert result["changed"] is True and result["actions"] == ["update"]
    assert result["updated_fields"] == ["image", "env"]
    # PUBLIC_KEY set at create is kept when neither env nor ssh_public_key names it.
    assert result["diff"]["after"]["env"] == {"A": "2", "PUBLIC_KEY": "k"}
    assert result["diff"]["before"]["image"] == "img:1" and result["diff"]["after"]["image"] == "img:2"


@pytest.mark.parametrize("check_mode, verb", [(False, "restarts"), (True, "would restart")])
def test_an_env_change_on_a_running_pod_warns_that_the_container_restarts(capsys, monkeypatch, check_mode, verb):
    backend = FakeBackend(pods=[pod_view(env={"A": "1"})])
    result = run(backend, capsys, monkeypatch, check_mode=check_mode, **dict(CREATE, env={"A": "2"}))
    assert result["updated_fields"] == ["env"]
    assert f"updating pod pod-1 ('web') (env) {verb} its container" in json.dumps(result["warnings"])


@pytest.mark.parametrize("pod, args", [(pod_view(status="EXITED", env={"A": "1"}), {"env": {"A": "2"}}),
                                       (pod_view(env={"A": "1"}), {"env": {"A": "1"}})])
def test_no_restart_warning_for_a_stopped_pod_or_no_change(capsys, monkeypatch, pod, args):
    result = run(FakeBackend(pods=[pod]), capsys, monkeypatch, **dict(CREATE, state="present", **args))
    assert "its container" not in json.dumps(result.get("warnings", []))


def test_unchanged_pod_is_not_patched_and_port_order_does_not_matter(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view(ports=["22/tcp", "8888/http"], docker_args="sleep  infinity")])
    result = run(backend, capsys, monkeypatch, **dict(CREATE, ports=["8888/http"], docker_args="sleep infinity"))
    assert result["changed"] is False and result["actions"] == [] and backend.mutations() == []


def test_state_transitions_on_a_stopped_pod(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view(status="EXITED")])
    present = run(backend, capsys, monkeypatch, name="web")
    assert present["changed"] is False and backend.mutations() == []
    check = run(backend, capsys, monkeypatch, check_mode=True, diff=True, name="web", state="running")
    assert check["actions"] == ["start"] and check["diff"]["after"]["status"] == "RUNNING"
    assert backend.mutations() == []
    restarted = run(backend, capsys, monkeypatch, name="web", state="restarted")
    assert restarted["actions"] == ["start"] and backend.mutations() == [("start_pod", "pod-1")]


def test_restart_skips_a_pod_that_is_still_booting(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view(status="STARTING")])
    result = run(backend, capsys, monkeypatch, name="web", state="restarted")
    assert result["changed"] is False and backend.mutations() == []
    assert "still booting" in json.dumps(result["warnings"])


def test_absent_tolerates_a_pod_deleted_meanwhile(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view()])
    backend.errors["delete_pod"] = RunPodError("not_found", 404, "pod not found")
    result = run(backend, capsys, monkeypatch, name="web", state="absent")
    assert result["changed"] is True and result["pod"] is None
    assert backend.mutations() == [("delete_pod", "pod-1")]


def test_5xx_create_with_nothing_listed_fails_without_a_second_post(capsys, monkeypatch):
    backend = FakeBackend()
    backend.errors["create_pod"] = RunPodError("server_error", 502, "bad gateway", maybe_created=True)
    result = run(backend, capsys, monkeypatch, **CREATE)
    assert result["failed"] is True and result["code"] == "server_error" and result["changed"] is False
    assert [call[0] for call in backend.calls] == ["find_pods", "create_pod", "find_pods"]
    assert "no pod with that name is listed" in result["msg"]


def test_5xx_create_with_an_unreadable_list_fails_naming_the_risk(capsys, monkeypatch):
    backend = FakeBackend()
    backend.errors["create_pod"] = RunPodError("network_error", None, "connection reset", maybe_created=True)
    # The lookup before the create works; the one after it (to adopt a pod the create may have made) fails.
    backend.errors["find_pods"] = [None, RunPodError("server_error", 503, "unavailable")]
    result = run(backend, capsys, monkeypatch, **CREATE)
    assert result["failed"] is True and result["changed"] is True and result["code"] == "network_error"
    assert "check with runpod.cloud.pod_info" in result["msg"]
    assert sum(1 for call in backend.calls if call[0] == "create_pod") == 1


def test_non_5xx_create_error_is_not_adopted(capsys, monkeypatch):
    backend = FakeBackend()
    backend.errors["create_pod"] = RunPodError("bad_request", 400, "image is required")
    result = run(backend, capsys, monkeypatch, **CREATE)
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert [call[0] for call in backend.calls] == ["find_pods", "create_pod"]


def test_a_same_name_pod_created_at_the_same_moment_is_reported_and_nothing_deleted(capsys, monkeypatch):
    backend = FakeBackend()
    original = backend.pods.create

    def create_while_another_task_does(spec, shared_read=None):
        backend.pods.store["pod-other"] = pod_view("pod-other", name=spec.name)  # the other fork's pod
        return original(spec)

    backend.pods.create = create_while_another_task_does
    result = run(backend, capsys, monkeypatch, **CREATE)
    assert result["failed"] is True and result["code"] == "ambiguous" and result["changed"] is True
    created = result["id"]
    assert result["pod"]["id"] == created and result["ids"] == sorted([created, "pod-other"])
    assert "Nothing was deleted" in result["msg"] and "run_once" in result["msg"]
    assert [call[0] for call in backend.mutations()] == ["create_pod"]


def test_renaming_onto_another_pods_name_is_refused(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view("pod-1", name="a"), pod_view("pod-2", name="b")])
    result = run(backend, capsys, monkeypatch, id="pod-1", name="b")
    assert result["failed"] is True and result["code"] == "conflict" and result["changed"] is False
    assert result["id"] == "pod-1" and result["ids"] == ["pod-2"]
    assert backend.mutations() == []
    # A name nobody else carries is a plain rename.
    result = run(backend, capsys, monkeypatch, id="pod-1", name="c")
    assert result["changed"] is True and [call[0] for call in backend.mutations()] == ["update_pod"]


def test_an_unreadable_create_answer_is_adopted_by_name(capsys, monkeypatch):
    backend = FakeBackend()
    original = backend.pods.create

    def create_then_garble(spec, shared_read=None):
        original(spec)
        raise RunPodError("bad_response", 201, "the API answered 201 with a body that is not JSON")

    backend.pods.create = create_then_garble
    result = run(backend, capsys, monkeypatch, **CREATE)
    assert result["changed"] is True and result["actions"] == ["adopt"] and result["pod"]["name"] == "web"


# --- the handoff to the controller (plugins/action/pod.py) -----------------------------------------------------


def test_the_module_hands_off_its_wait_only_for_the_key_the_controller_holds(capsys, monkeypatch):
    from helpers.fakes import UNIT_API_KEY

    backend = FakeBackend(pods=[pod_view()])
    args = {"name": "web", "wait": True, "wait_timeout": "2m", "wait_interval": "1s", "wait_for": "running"}
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    handed = run(backend, capsys, monkeypatch, **args)
    handoff = handed[_base.HANDOFF_KEY]
    assert "wait" not in handed and handed["pod"]["id"] == "pod-1"
    assert handoff["id"] == "pod-1" and handoff["name"] == "web" and handoff["touched_id"] is None
    assert handoff["params"]["wait_timeout"] == "2m" and handoff["params"]["wait_for"] == "running"
    assert "api_key" not in handoff["params"]
    # Another key on the controller: the module waits by itself (its own result has the wait block).
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint("another-key"))
    waited = run(FakeBackend(pods=[pod_view()]), capsys, monkeypatch, **args)
    assert _base.HANDOFF_KEY not in waited and waited["wait"]["ready_detail"]


def test_the_controller_finishes_a_handed_off_wait_with_the_modules_own_result(capsys, monkeypatch):
    from helpers.fakes import UNIT_API_KEY, FakeClock, install_backend, install_clock

    from ansible_collections.runpod.cloud.plugins.module_utils._module import controller as _controller
    from ansible_collections.runpod.cloud.plugins.module_utils._module import pod_waiter as _waits

    # Both results carry ``elapsed``: on a real clock a loaded machine makes them differ.
    install_clock(monkeypatch, FakeClock())
    args = {"name": "web", "wait": True, "wait_timeout": "2m", "wait_interval": "1s", "wait_for": "running"}
    own = run(FakeBackend(pods=[pod_view()]), capsys, monkeypatch, **args)
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    backend = FakeBackend(pods=[pod_view()])
    handed = run(backend, capsys, monkeypatch, **args)
    install_backend(monkeypatch, backend)
    lines, changes = [], []
    resumed = _controller.resume_wait(_waits.PodWaiter, handed, UNIT_API_KEY, progress=lines.append,
                                      on_transition=changes.append)
    assert resumed == own
    assert lines[0] == "waiting for running on pod pod-1 (timeout 2m; Ctrl-C keeps the pod, a rerun resumes)"
    assert "ready after" in lines[-1]
    assert [entry["state"] for entry in changes] == [entry["state"] for entry in own["wait"]["history"]]
