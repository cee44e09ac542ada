# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The pod module's rules (``_pods``) as plain functions of the options: each message once, the order the module
checks them in, the reads the sshd check makes only when it needs them, and what differs on an existing pod."""

from __future__ import annotations

import calendar

import pytest
from helpers.fakes import GPU, pod_view

from ansible_collections.runpod.cloud.plugins.module_utils._api import pod_inputs as _pod_inputs
from ansible_collections.runpod.cloud.plugins.module_utils._api.pod_inputs import PodInput
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import input_problem
from ansible_collections.runpod.cloud.plugins.module_utils._rules import pod_rules as _pods
from ansible_collections.runpod.cloud.plugins.modules import pod_info
from ansible_collections.runpod.cloud.plugins.modules.pod import ARGUMENT_SPEC


def params(**given):
    """The pod module's options as Ansible hands them over: every option, defaults filled in."""
    values = {option: spec.get("default") for option, spec in ARGUMENT_SPEC.items()}
    values.update(name="web", image="img:1", gpu_type_ids=[GPU])
    values.update(given)
    return values


def option_problem(values):
    """The pod's input rules (``PodInput``), as the module checks them before any API call."""
    return input_problem(PodInput, values)[1]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (dict(wait=True, ssh=False),
         "wait_for: ssh waits for the pod's sshd, so it cannot be combined with ssh: false. Set ssh: true, or "
         "wait_for: running."),
        (dict(compute_type="CPU", cpu_flavor_ids=["cpu3c"]),
         "gpu_type_ids cannot be used with compute_type: CPU; use cpu_flavor_ids."),
        (dict(allowed_cuda_versions=["12.8"], min_cuda_version="12.4"),
         "allowed_cuda_versions and min_cuda_version are mutually exclusive (RunPod answers 400 when both are "
         "sent): give an exact set or a floor."),
        (dict(allowed_cuda_versions=["12", "12.8"], min_cuda_version=None),
         "CUDA versions are major.minor, such as 12.8; got '12'."),
        (dict(compute_type="CPU", gpu_type_ids=None, cpu_flavor_ids=["cpu3c"], min_cuda_version="12.4"),
         "CUDA constraints apply to GPU pods only; remove them for compute_type: CPU."),
        (dict(image=None, network_volume_id="vol-1"),
         "creating a pod needs image or template_id, but only gpu_type_ids, network_volume_id were given. Add "
         "image (or template_id)."),
    ],
)
def test_each_option_rule_has_one_message(given, message):
    assert option_problem(params(**given)) == message


def test_an_unknown_gpu_type_is_refused_with_the_catalog_hint():
    problem = option_problem(params(gpu_type_ids=["NVIDIA GeForce RTX 4090", "RTX 9999"]))
    assert problem.startswith("unknown GPU type(s) in gpu_type_ids: 'RTX 9999'; ")
    assert problem.endswith("runpod.cloud.gpu_type_info lists the ids and display names")


def test_the_first_broken_rule_is_the_message():
    problem = option_problem(params(wait=True, ssh=False, min_cuda_version="12", image=None))
    assert problem.startswith("wait_for: ssh waits for the pod's sshd")
    assert option_problem(params(min_cuda_version="12", image=None)).startswith("CUDA versions")


@pytest.mark.parametrize("given", [dict(), dict(state="absent", image=None), dict(allowed_cuda_versions=["12.8"]),
                                   dict(min_cuda_version="12.4")])
def test_good_options_pass(given):
    assert option_problem(params(**given)) is None


class Reads:
    def __init__(self, template_env=None, keys=False):
        self.env, self.keys, self.calls = template_env, keys, []

    def template_env(self, template_id):
        self.calls.append(("template", template_id))
        return self.env

    def account_has_keys(self):
        self.calls.append(("keys",))
        return self.keys


def sshd_problem(reads, **given):
    return _pods.sshd_key_problem(params(wait=True, **given), reads.template_env, reads.account_has_keys)


@pytest.mark.parametrize(
    "given", [dict(wait=False), dict(wait_for="running"), dict(own_sshd=True), dict(ssh_public_key="ssh-ed25519 A"),
              dict(env={"PUBLIC_KEY": "ssh-ed25519 A"})]
)
def test_no_read_when_the_task_itself_answers_the_sshd_question(given):
    reads = Reads()
    given = dict(given)
    wait = given.pop("wait", True)
    assert _pods.sshd_key_problem(params(wait=wait, **given), reads.template_env, reads.account_has_keys) is None
    assert reads.calls == []


def test_a_template_key_or_an_account_key_reaches_sshd():
    reads = Reads(template_env={"PUBLIC_KEY": "k"})
    assert sshd_problem(reads, template_id="t1", image=None) is None and reads.calls == [("template", "t1")]
    unreadable = Reads(template_env=None)  # the create reports a template it cannot use
    assert sshd_problem(unreadable, template_id="t1", image=None) is None
    reads = Reads(keys=True)
    assert sshd_problem(reads) is None and reads.calls == [("keys",)]


def test_no_key_anywhere_is_refused_before_the_create():
    reads = Reads(template_env={}, keys=False)
    problem = sshd_problem(reads, template_id="t1", image=None)
    assert "no SSH key is registered on the account (GET /v2/account/ssh-keys is empty)" in problem
    assert problem.endswith("or use wait_for: running. Nothing was created.")


def test_create_warnings():
    assert _pods.create_warnings(params()) == []
    cpu = _pods.create_warnings(params(wait=True, compute_type="CPU"))
    assert len(cpu) == 1 and cpu[0].startswith("CPU pods get no managed SSH from RunPod")
    (v2,) = _pods.create_warnings(params(cloud_type="COMMUNITY"))
    assert v2.startswith("Community cloud hosts do not all have a public IP")
    assert v2.endswith("use cloud_type: SECURE (REST v2 cannot ask for a public IP).")


def test_wanted_env_keeps_an_existing_key_unless_the_task_gives_one():
    assert _pods.wanted_env(params()) is None
    assert _pods.wanted_env(params(env={"A": 1, "B": None}), {"PUBLIC_KEY": "old"}) == {
        "A": "1", "B": "", "PUBLIC_KEY": "old"}
    assert _pods.wanted_env(params(ssh_public_key=" new \n"), {"PUBLIC_KEY": "old"}) == {"PUBLIC_KEY": "new"}


def test_the_spec_adds_22_and_the_key():
    spec = _pods.pod_spec(params(ssh_public_key="k", ports=["8888/http"]))
    assert spec.ports == ["8888/http", "22/tcp"] and spec.env == {"PUBLIC_KEY": "k"} and spec.gpu_count == 1
    with pytest.raises(ValueError, match="creating a GPU pod needs gpu_type_ids"):
        _pods.pod_spec(params(gpu_type_ids=None))


def test_a_create_needs_an_image_or_a_template_one_rule_one_message():
    # Checked once the lookup found nothing (ResourceModule.create_missing), before the spec is built.
    assert PodInput.create_problem(params()) is None
    assert PodInput.create_problem(params(image=None)) == (
        "creating a pod needs image or template_id. Add image (or template_id).")
    assert PodInput.create_problem(params(image=None, template_id="tpl")) is None


def test_changes_list_only_what_differs():
    pod = pod_view(docker_args="bash -c 'sleep 1'", ports=["22/TCP", "8888/http"], env={"PUBLIC_KEY": "k"})
    same = params(docker_args="bash  -c 'sleep 1'", ports=["8888/http"], env={}, container_disk_gb=None)
    assert _pods.pod_changes(same, pod) == {}
    wanted = params(id="pod-1", name="web-2", image="img:2", ports=["9000/tcp"], env={"A": "1"},
                    container_disk_gb=20, volume_mount_path="/data", registry_id="r1")
    assert _pods.pod_changes(wanted, pod) == {
        "name": "web-2", "image": "img:2", "ports": ["9000/tcp", "22/tcp"], "env": {"A": "1", "PUBLIC_KEY": "k"},
        "container_disk_gb": 20, "registry_id": "r1",  # no volume: a mount path alone is no update on v2
    }


def test_a_v2_mount_is_sent_whole():
    assert _pods.whole_mount(pod_view(volume_gb=20, volume_mount_path="/workspace"), {"volume_gb": 40}) == {
        "volume_gb": 40, "volume_mount_path": "/workspace"}
    assert _pods.whole_mount(pod_view(network_volume_id="nv1"), {"volume_mount_path": "/data"}) == {
        "volume_mount_path": "/data", "network_volume_id": "nv1"}


def test_fields_runpod_cannot_change_are_one_warning():
    assert _pods.immutable_warning(params(), pod_view()) is None
    warning = _pods.immutable_warning(params(gpu_type_ids=["NVIDIA A40"], gpu_count=2), pod_view())
    assert warning == (
        f"pod pod-1 differs from the task in fields RunPod cannot change on an existing pod: GPU type {GPU!r} is not "
        "in gpu_type_ids; gpu_count is 1, not 2. They were left as they are; delete the pod (runpod.cloud.pod "
        "id=pod-1 state=absent) and run the task again to get the new settings."
    )


@pytest.mark.parametrize(
    ("fields", "stopped", "booting"),
    [
        (dict(status="EXITED"), True, False),
        (dict(status="ERROR"), True, False),
        (dict(status="STARTING"), False, True),
        (dict(status="RUNNING"), False, False),
        (dict(status="PROVISIONING"), False, True),
        (dict(status="TERMINATED"), False, False),
        (dict(status="exited"), True, False),
    ],
)
def test_stopped_and_booting(fields, stopped, booting):
    pod = pod_view(**fields)
    assert _pods.is_stopped(pod) is stopped and _pods.is_booting(pod) is booting


# -- the GPU choice rules (gpu_requirements, max_price_per_hr), reaping, the billed cost --------------------------


def choice_params(**given):
    return {"gpu_type_ids": None, "compute_type": "GPU", "gpu_requirements": None, "max_price_per_hr": None, **given}


@pytest.mark.parametrize(("given", "needle"), [
    ({"gpu_type_ids": [GPU], "gpu_requirements": {}}, "mutually exclusive"),
    ({"gpu_requirements": {"manufacturer": "Intel"}}, "manufacturer must be one of"),
    ({"gpu_requirements": {"min_memory_gb": 80, "max_memory_gb": 24}}, "is above max_memory_gb"),
    ({"gpu_requirements": {"min_memory_gb": -1}}, "0 or more"),
    ({"gpu_requirements": {"exclude": ["NVIDIA A4O"]}}, "unknown GPU type"),
    ({"max_price_per_hr": -1.0}, "above 0"),
    ({"max_price_per_hr": 0.0}, "above 0"),
    ({"compute_type": "CPU", "max_price_per_hr": 1.0}, "GPU pods only"),
])
def test_bad_choices_are_refused(given, needle):
    assert needle in (_pod_inputs.gpu_choice_problem(choice_params(**given), "gpu_type_ids") or "")


def test_good_choices_pass():
    wanted = {"manufacturer": "nvidia", "min_memory_gb": 24, "max_memory_gb": 24}
    assert _pod_inputs.gpu_choice_problem(choice_params(gpu_requirements=wanted, max_price_per_hr=1), "x") is None


class _Pod:
    def __init__(self, name, created_at):
        self.name, self.created_at = name, created_at


def test_reap_select_keeps_old_pods_with_the_prefix_and_never_an_unreadable_age():
    now = calendar.timegm((2026, 3, 2, 12, 0, 0))
    pods = [_Pod("ci-old", "2026-03-01T00:00:00Z"), _Pod("ci-new", "2026-03-02T11:00:00Z"),
            _Pod("prod-old", "2026-03-01T00:00:00Z"), _Pod("ci-odd", "yesterday"),
            _Pod("ci-go", "2026-03-01 00:00:00.000 +0000 UTC")]
    limit = pod_info.older_than_seconds("12h", "ci-")
    assert [p.name for p in pod_info.reap_select(pods, limit, "ci-", now)] == ["ci-old", "ci-go"]
    assert [p.name for p in pod_info.reap_select(pods, None, "prod", now)] == ["prod-old"]
    with pytest.raises(ValueError, match="older_than"):
        pod_info.older_than_seconds("soon", None)
    with pytest.raises(ValueError, match="name_prefix"):
        pod_info.older_than_seconds(None, "")


def test_a_billed_cost_above_the_cap_warns():
    assert "billed 1.2 USD/h" in _pods.cost_warning(1.0, 1.2, "pod x")
    assert _pods.cost_warning(1.0, 0.9, "pod x") is None and _pods.cost_warning(None, 9, "pod x") is None
