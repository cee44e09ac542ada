# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 29's house rules: every input rule in the input models (``_api.inputs``), one capability check each,
one normaliser each for env, ports and args (pods, clusters, templates and endpoints agree), one rename rule, and
public keys that are public keys (a private key is refused without being echoed)."""

from __future__ import annotations

import base64

import pytest
from helpers.fakes import GPU, FakeBackend, pod_view, run_module
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _can
from ansible_collections.runpod.cloud.plugins.module_utils._api.account_inputs import (
    GpuTypeQueryInput,
    NetworkVolumeInput,
    RegistryInput,
    SshKeyInput,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.endpoint_inputs import EndpointInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import public_key_problem
from ansible_collections.runpod.cloud.plugins.module_utils._api.pod_inputs import ClusterInput, PodInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import PUBLIC_KEY_LINE, key_lines
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import input_problem
from ansible_collections.runpod.cloud.plugins.module_utils._rules import endpoint_rules as _endpoints
from ansible_collections.runpod.cloud.plugins.module_utils._rules import pod_rules as _pods
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import rename_change, wanted_name
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import fields as _norm
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TEMPLATE, TemplateView
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import EndpointView
from ansible_collections.runpod.cloud.plugins.modules import pod as pod_module
from ansible_collections.runpod.cloud.plugins.modules import ssh_key as ssh_key_module
from ansible_collections.runpod.cloud.plugins.modules.pod import ARGUMENT_SPEC as POD_SPEC

PUBLIC = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFk3q1ABxKj0f9vS4bX2d7yPq2mYk3E1c9oWn8rT5uVw me@laptop"
BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACBZN6tQAcSo9H"
PRIVATE_KEYS = [
    f"-----BEGIN OPENSSH PRIVATE KEY-----\n{BODY}\nSECRETSECRETSECRETSECRET0123456789\n"
    "-----END OPENSSH PRIVATE KEY-----\n",
    f"-----BEGIN RSA PRIVATE KEY-----\n{BODY}\n-----END RSA PRIVATE KEY-----",
    f"-----BEGIN EC PRIVATE KEY-----\n{BODY}\n-----END EC PRIVATE KEY-----",
    f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{BODY}\n-----END ENCRYPTED PRIVATE KEY-----",
    f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\n{BODY}\n",
]


def pod_params(**given):
    values = {option: spec.get("default") for option, spec in POD_SPEC.items()}
    values.update(name="web", image="img:1", gpu_type_ids=[GPU])
    values.update(given)
    return values


# --- public keys -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", PRIVATE_KEYS)
@pytest.mark.parametrize("model", [PodInput, ClusterInput])
def test_a_private_key_as_ssh_public_key_is_refused_without_echo(model, text):
    problem = input_problem(model, {"name": "web", "ssh_public_key": text})[1]
    assert problem.startswith("ssh_public_key looks like a private key")
    assert BODY not in problem and "SECRET" not in problem and "PuTTY" not in problem


@pytest.mark.parametrize("text", ["kkkk", "AAAAC3NzaC1lZDI1NTE5AAAAIFk3q1AB", "ssh-ed25519", "rsa AAAA x", BODY])
def test_anything_else_that_is_not_a_key_line_is_refused_without_echo(text):
    problem = public_key_problem(text, "ssh_public_key")
    assert problem.startswith("ssh_public_key is not an OpenSSH public key line")
    assert text not in problem.replace("ssh_public_key", "")


def test_public_keys_pass_one_or_several_with_comments_and_blank_lines():
    assert public_key_problem(PUBLIC, "ssh_public_key") is None
    assert public_key_problem(f"# laptop\n{PUBLIC}\n\necdsa-sha2-nistp256 AAAAE2Vj x\n", "key") is None
    assert public_key_problem(None, "key") is None and public_key_problem("", "key") is None
    assert "(line 2)" in public_key_problem(f"{PUBLIC}\nnot-a-key\n", "key")


KEY_TYPES = st.sampled_from(["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "sk-ssh-ed25519@openssh.com"])


@given(KEY_TYPES, st.binary(min_size=1, max_size=64), st.text(alphabet="abc@. -_19", max_size=20))
def test_every_well_formed_public_key_line_passes(key_type, blob, comment):
    line = f"{key_type} {base64.b64encode(blob).decode()}" + (f" {comment.strip()}" if comment.strip() else "")
    assert public_key_problem(line, "key") is None


@given(st.text(max_size=120))
def test_text_that_passes_is_only_key_lines_and_a_private_key_header_never_passes(text):
    if public_key_problem(text, "key") is None:
        assert all(PUBLIC_KEY_LINE.match(line) for line in key_lines(text))
    assert public_key_problem(f"{text}\n-----BEGIN OPENSSH PRIVATE KEY-----\n{text}", "key").startswith(
        "key looks like a private key")


def test_the_ssh_key_module_refuses_a_private_key_without_a_call_or_an_echo(capsys, monkeypatch):
    backend = FakeBackend()
    result = run_module(ssh_key_module, backend, capsys, monkeypatch, key=PRIVATE_KEYS[0])
    assert result["failed"] is True and result["code"] == "bad_request"
    assert result["msg"].startswith("key looks like a private key") and backend.calls == []
    dumped = str(result)
    assert BODY not in dumped and "SECRETSECRET" not in dumped


def test_the_pod_module_refuses_a_private_key_without_a_call_or_an_echo(capsys, monkeypatch):
    backend = FakeBackend()
    result = run_module(pod_module, backend, capsys, monkeypatch, name="web", image="img:1", gpu_type_ids=[GPU],
                        ssh_public_key=PRIVATE_KEYS[0])
    assert result["failed"] is True and result["code"] == "bad_request" and backend.calls == []
    assert "ssh_public_key looks like a private key" in result["msg"]
    assert BODY not in str(result) and "SECRETSECRET" not in str(result)  # invocation.module_args is masked


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"key": "ssh-ed25519 AAAA", "exclusive": True, "state": "absent"}, "exclusive applies to state=present"),
        ({"key": "# only a comment\n", "exclusive": False, "state": "present"}, "key has no key line"),
        ({"key": "", "exclusive": True, "state": "present"}, None),
    ],
)
def test_ssh_key_rules(params, message):
    problem = input_problem(SshKeyInput, params)[1]
    assert (problem is None) if message is None else problem.startswith(message)


# --- each moved rule, at the rule ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("model", "params", "message"),
    [
        (NetworkVolumeInput, {"size_gb": 9}, "size_gb must be from 10 to 4096 GB, got 9"),
        (NetworkVolumeInput, {"size_gb": 4097}, "size_gb must be from 10 to 4096 GB, got 4097"),
        (NetworkVolumeInput, {"size_gb": 10}, None),
        (RegistryInput, {"state": "present", "update_password": "always", "username": "u"},
         "replacing a credential (update_password=always) needs password"),
        (RegistryInput, {"state": "absent", "update_password": "always"}, None),
        (ClusterInput, {"pod_count": 1}, "pod_count must be 2 to 250, got 1."),
        (ClusterInput, {"pod_count": 251}, "pod_count must be 2 to 250, got 251."),
        (ClusterInput, {"gpu_count_per_pod": 0}, "gpu_count_per_pod must be at least 1."),
        (ClusterInput, {"gpu_type_id": "NVIDIA H100 80GB HBM9"}, "unknown GPU type(s) in gpu_type_id: "),
        (ClusterInput, {"wait": True, "ssh": False}, "wait: true waits until every node answers SSH"),
        (ClusterInput, {"wait": True, "ssh": True, "pod_count": 2}, None),
        (GpuTypeQueryInput, {"gpu_count": 0}, "gpu_count must be 1 or more, got 0"),
        (GpuTypeQueryInput, {"gpu_count": 1}, None),
        (PodInput, {"count": 0}, "count must be between 1 and 100, got 0."),
        (PodInput, {"count": 2, "create_concurrency": 51}, "create_concurrency must be between 1 and 50, got 51."),
        (PodInput, {"count": 2, "name": "w", "id": "p1"}, "count manages the pods"),
        (PodInput, {"count": 2}, "count needs name"),
        (PodInput, {"count": 2, "name": "a" * 190}, "name with count 2 (the pod names {name}-K) must be at most"),
        (PodInput, {"compute_type": "CPU", "volume_gb": 20}, "a CPU pod cannot have a pod volume"),
        (EndpointInput, {"container_disk_gb": 0}, "container_disk_gb must be at least 1 GB (got 0)"),
        (EndpointInput, {"gpu_type_ids": ["NVIDIA GeForce RTX 3070"]}, "GPU type 'NVIDIA GeForce RTX 3070' is not "),
        (EndpointInput, {"gpu_type_ids": ["ADA_24"], "workers_min": 0, "workers_max": 3}, None),
    ],
)
def test_each_moved_rule_has_its_message_in_the_input_model(model, params, message):
    problem = input_problem(model, params)[1]
    assert (problem is None) if message is None else problem.startswith(message), problem


@pytest.mark.parametrize(
    ("function", "args", "expected"),
    [
        (_can.cpu_pod_problem, ({"compute_type": "cpu", "volume_gb": 10},), "a CPU pod cannot have a pod volume"),
        (_can.cpu_pod_problem, ({"compute_type": "CPU", "volume_gb": 0},), None),
        (_can.gpu_on_cpu_pod_problem, ({"compute_type": "CPU", "gpu_type_ids": [GPU]},), "gpu_type_ids cannot"),
        (_can.gpu_on_cpu_pod_problem, ({"compute_type": "GPU", "gpu_type_ids": [GPU]},), None),
    ],
)
def test_capability_checks(function, args, expected):
    problem = function(*args)
    assert (problem is None) if expected is None else problem.startswith(expected)


def test_the_cuda_capability_is_one_rule_for_pods_and_endpoints():
    for kind, params in (("pod", pod_params(compute_type="CPU", gpu_type_ids=None, cpu_flavor_ids=["c"])),
                         ("endpoint", {"cpu_flavor_ids": ["c"]})):
        model = PodInput if kind == "pod" else EndpointInput
        assert "mutually exclusive (RunPod answers 400" in input_problem(
            model, dict(params, allowed_cuda_versions=["12.8"], min_cuda_version="12.4"))[1]
        assert "CUDA versions are major.minor, such as 12.8; got '12'." in input_problem(
            model, dict(params, allowed_cuda_versions=["12"]))[1]
        assert f"CUDA constraints apply to GPU {kind}s only" in input_problem(
            model, dict(params, min_cuda_version="12.4"))[1]


def test_pod_module_has_no_rule_of_its_own_left():
    assert not hasattr(pod_module.PodModule, "check_options") or (
        pod_module.PodModule.check_options is pod_module.ResourceModule.check_options)


# --- one rename rule -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("params", "expected"),
    [({"id": "x", "name": "new"}, {"name": "new"}), ({"id": "x", "name": "old"}, {}),
     ({"id": None, "name": "new"}, {}), ({"id": "x", "name": None}, {}), ({"id": "x", "name": ""}, {})],
)
def test_the_rename_rule(params, expected):
    current = pod_view(name="old")
    assert rename_change(params, current) == expected
    assert wanted_name(params, current) == expected.get("name")
    assert (_pods.pod_changes(pod_params(**params), current).get("name")) == expected.get("name")


# --- one normaliser each: pods, clusters, templates and endpoints agree ------------------------------------------
PORT = st.builds(lambda n, p, pad: f"{' ' * pad}{n}/{p}", st.integers(1, 65535),
                 st.sampled_from(["tcp", "http", "TCP", "Http"]), st.integers(0, 1))


def template_differs(have, wanted):
    current = TemplateView(id="t1", name="t", image="img:1", ports=have)
    return "ports" in TEMPLATE.changes(TEMPLATE.wanted({"ports": wanted}), current)


def endpoint_differs(have, wanted):
    current = EndpointView(id="ep1", name="ep", ports=have)
    params = {"ports": wanted, "name": "ep"}
    return "ports" in _endpoints.endpoint_changes(current, _endpoints.wanted_fields(params, None), params)


def pod_differs(have, wanted):
    return "ports" in _pods.pod_changes(pod_params(ports=wanted, ssh=False), pod_view(ports=have))


@given(st.lists(PORT, max_size=5), st.lists(PORT, max_size=5), st.randoms())
def test_pods_templates_and_endpoints_agree_on_ports(have, wanted, random):
    have = [port.strip() for port in have]
    shuffled = list(have)
    random.shuffle(shuffled)
    for candidate in (wanted, shuffled, [port.upper() for port in have], have + have[:1]):
        answers = {pod_differs(have, candidate), template_differs(have, candidate), endpoint_differs(have, candidate)}
        assert len(answers) == 1, (have, candidate)
        assert answers == {_norm.port_set(have) != _norm.port_set(candidate)}


def test_the_same_ports_in_another_order_and_case_are_no_change_for_pods_and_templates():
    have, wanted = ["22/tcp", "8888/http"], ["8888/HTTP", "22/tcp", "22/tcp"]
    assert not pod_differs(have, wanted) and not template_differs(have, wanted)  # templates used to differ


def test_ssh_adds_22_tcp_once_and_declares_port_is_one_rule():
    assert _norm.with_ssh_port([" 8888/http ", ""], True) == ["8888/http", "22/tcp"]
    assert _norm.with_ssh_port(["22/udp"], True) == ["22/udp"]
    assert _norm.with_ssh_port(None, False) == []
    assert _norm.declares_port("8888/http, 22/tcp", 22) and not _norm.declares_port(["2222/tcp"], 22)


@given(st.dictionaries(st.from_regex(r"[A-Z_][A-Z0-9_]{0,6}", fullmatch=True),
                       st.one_of(st.none(), st.integers(), st.text(max_size=5), st.floats(allow_nan=False))))
def test_env_normaliser_gives_strings_and_pods_templates_endpoints_send_the_same(env):
    expected = {key: "" if value is None else str(value) for key, value in env.items()}
    assert _norm.env_strings(env) == expected
    assert _pods.wanted_env(pod_params(env=env)) == expected
    assert TEMPLATE.wanted({"env": env})["env"] == expected
    assert _endpoints.wanted_fields({"env": env}, None)["env"] == expected


@given(st.text(alphabet="ab '\"\\-= ", max_size=16))
def test_args_normaliser_splits_like_the_shell_and_never_raises(value):
    tokens = _norm.split_args(value)
    assert all(isinstance(token, str) for token in tokens) and _norm.same_args(value, value)
    assert _norm.same_args(f"  {value}  ", value) or tokens == [value]  # blanks around never count
    assert _norm.split_args("") == _norm.split_args(None) == []


def test_pods_templates_and_endpoints_compare_args_alike():
    have, wanted = "serve  --port 8000", "serve --port  8000"
    assert "docker_args" not in _pods.pod_changes(pod_params(docker_args=wanted), pod_view(docker_args=have))
    current = TemplateView(id="t1", name="t", image="img:1", docker_args=have)
    assert not TEMPLATE.changes(TEMPLATE.wanted({"docker_args": wanted}), current)
    params = {"docker_args": wanted, "name": "ep"}
    view = EndpointView(id="ep1", name="ep", docker_args=have)
    assert "docker_args" not in _endpoints.endpoint_changes(view, _endpoints.wanted_fields(params, None), params)
