# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Bad input to every module that creates or finds by name, and bad connection options: each is refused with a
``bad_request`` that names the mistake, before the module builds an API client (``run_module`` with no backend
fails the test if one is built). tests/integration/test_hostile_input.py runs a few of these through
ansible-playbook and the simulator, whose request log shows that none reached the API."""

from __future__ import annotations

import importlib
import json

import pytest
from helpers.fakes import run_module
from helpers.paths import REPO_ROOT

GPU = "NVIDIA GeForce RTX 4090"
POD = {"image": "runpod/base:1.0", "gpu_type_ids": [GPU]}
CPU_POD = {"image": "runpod/base:1.0", "compute_type": "CPU", "cpu_flavor_ids": ["cpu3c"], "ssh": False}
CLUSTER = {"type": "TRAINING", "gpu_type_id": GPU, "pod_count": 2, "image": "runpod/base:1.0"}
WHITESPACE = "leading or trailing whitespace"

# (module, args, what the message must name)
REFUSED = {
    "trailing space": ("pod", {"name": "t ", **POD}, [WHITESPACE]),
    "yaml block newline": ("pod", {"name": "t\n", **POD}, [WHITESPACE]),
    "leading space on absent": ("pod", {"name": " t", "state": "absent"}, [WHITESPACE]),
    "empty name": ("pod", {"name": "", **POD}, ["name must not be empty"]),
    "1000 characters": ("pod", {"name": "x" * 1000, **POD}, ["at most 191 characters"]),
    "control character": ("pod", {"name": "a\tb", **POD}, ["control character"]),
    "port without protocol": ("pod", {"name": "t", "ports": ["22"], **POD}, ["'22'", "22/tcp"]),
    "port not a number": ("pod", {"name": "t", "ports": ["abc/tcp"], **POD}, ["abc/tcp"]),
    "port out of range": ("pod", {"name": "t", "ports": ["99999/tcp"], **POD}, ["1 to 65535"]),
    "unknown protocol": ("pod", {"name": "t", "ports": ["8080/ftp"], **POD}, ["http or tcp"]),
    "duplicate port": ("pod", {"name": "t", "ports": ["8080/http", "8080/http"], **POD}, ["more than once"]),
    "gpu_count 0": ("pod", {"name": "t", "gpu_count": 0, **POD}, ["gpu_count", "at least 1"]),
    "gpu_count absurd": ("pod", {"name": "t", "gpu_count": 1000000000, **POD}, ["gpu_count", "at most"]),
    "volume absurd": ("pod", {"name": "t", "volume_gb": 1000000000000, **POD}, ["volume_gb"]),
    "disk negative": ("pod", {"name": "t", "container_disk_gb": -5, **POD}, ["container_disk_gb"]),
    "env key": ("pod", {"name": "t", "env": {"NOT-A-NAME": "x"}, **POD}, ["NOT-A-NAME"]),
    "env value": ("pod", {"name": "t", "env": {"X": {"x": [1, 2]}}, **POD}, ["env value of X", "string"]),
    "data center": ("pod", {"name": "t", "data_center_ids": ["us tx 3; rm"], **POD}, ["data_center_ids"]),
    # A CPU pod's vCPUs (a power of two from 2) and no pod volume (from tests/integration/test_documented_api.py,
    # where the strict simulator shows the valid CPU pod's POST alone).
    "cpu odd vcpus": ("pod", {"name": "cpu", "vcpu_count": 3, **CPU_POD}, ["power of two"]),
    "cpu one vcpu": ("pod", {"name": "cpu", "vcpu_count": 1, **CPU_POD}, ["vcpu_count"]),
    "cpu pod volume": ("pod", {"name": "cpu", "volume_gb": 20, **CPU_POD}, ["volume_gb"]),
    # The pod's own input rules (from tests/integration/test_pod_lifecycle.py, which runs the first of them through
    # ansible-playbook, where the action plugin would hand the wait to the controller).
    "pod wait_timeout out of range": ("pod", {"name": "web", "wait": True, "wait_timeout": "200000d", **POD},
                                      ["invalid wait_timeout", "out of range"]),
    "pod bad wait_interval": ("pod", {"name": "web", "wait": True, "wait_interval": "abc", **POD},
                              ["invalid wait_interval", "supported formats"]),
    "pod wait with ssh false": ("pod", {"name": "web", "wait": True, "ssh": False, **POD},
                                ["cannot be combined with ssh: false"]),
    "pod unknown gpu": ("pod", {"name": "web", "image": "runpod/base:1.0", "gpu_type_ids": ["NVIDIA RTX 4090"]},
                        ["unknown GPU type", "did you mean"]),
    "pod no image": ("pod", {"name": "web", "gpu_type_ids": [GPU]}, ["needs image or template_id"]),
    "template trailing space": ("template", {"name": "tpl ", "image": "x"}, [WHITESPACE]),
    "template bad port": ("template", {"name": "tpl", "image": "x", "ports": ["80"]}, ["'80'", "80/tcp"]),
    "template env value": ("template", {"name": "tpl", "image": "x", "env": {"A": ["1"]}}, ["env value of A"]),
    "template negative disk": ("template", {"name": "tpl", "image": "x", "container_disk_gb": 0},
                               ["container_disk_gb"]),
    # A cluster's nodes are pods, and take the pods' container rules.
    "cluster trailing space": ("cluster", {"name": "train ", **CLUSTER}, [WHITESPACE]),
    "cluster bad port": ("cluster", {"name": "train", "ports": ["8888"], **CLUSTER}, ["'8888'", "8888/tcp"]),
    "volume trailing space": ("network_volume", {"name": "data ", "size_gb": 10, "data_center_id": "EU-RO-1"},
                              [WHITESPACE]),
    "registry newline": ("container_registry", {"name": "hub\n", "username": "robot", "password": "pw"},
                         [WHITESPACE]),
    # Secrets (RunPod's name rule, one home: _api/values.secret_name_problem) and secret_env on the four container
    # modules; a variable in both env and secret_env.
    "secret reserved prefix": ("secret", {"name": "RunPod_token", "value": "long-value"}, ["RUNPOD", "reserves"]),
    "secret digit first": ("secret", {"name": "1token", "value": "long-value"}, ["'1token'", "letter or _"]),
    "secret space": ("secret", {"name": "hf token", "value": "long-value"}, ["'hf token'"]),
    "secret too long": ("secret", {"name": "s" * 192, "value": "long-value"}, ["at most 191"]),
    "secret empty value": ("secret", {"name": "s", "value": ""}, ["value must not be empty"]),
    "pod secret_env name": ("pod", {"name": "t", "secret_env": {"HF": "runpod_x"}, **POD}, ["secret_env HF"]),
    "pod secret_env key": ("pod", {"name": "t", "secret_env": {"HF-TOKEN": "hf"}, **POD}, ["HF-TOKEN"]),
    "pod env and secret_env": ("pod", {"name": "t", "env": {"HF": "x"}, "secret_env": {"HF": "hf"}, **POD},
                               ["HF given in both env and secret_env"]),
    "template secret_env name": ("template", {"name": "tpl", "image": "x", "secret_env": {"A": "a b"}},
                                 ["secret_env A"]),
    "cluster secret_env clash": ("cluster", {"name": "train", "env": {"A": "1"}, "secret_env": {"A": "a"},
                                             **CLUSTER}, ["A given in both"]),
    "endpoint secret_env name": ("endpoint", {"name": "ep", "image": "x", "secret_env": {"A": "/a"}},
                                 ["secret_env A", "letter or _"]),
    # endpoint_job's input rules (from tests/integration/test_endpoint_job.py, which runs one of them through
    # ansible-playbook and shows in the simulator's request log that it made no request).
    "job endpoint id and name": ("endpoint_job", {"endpoint_id": "ep1", "endpoint_name": "x", "input": {}},
                                 ["exactly one of endpoint_id and endpoint_name"]),
    "job input and id": ("endpoint_job", {"endpoint_id": "ep1", "input": {}, "id": "job-1"}, ["not both"]),
    "job cancel without id": ("endpoint_job", {"endpoint_id": "ep1", "state": "cancelled"},
                              ["state=cancelled needs id"]),
    "job neither input nor id": ("endpoint_job", {"endpoint_id": "ep1"}, ["give input"]),
    "job execution_timeout": ("endpoint_job", {"endpoint_id": "ep1", "input": {}, "execution_timeout": "1s"},
                              ["execution_timeout must be between 5 seconds"]),
    "job ttl": ("endpoint_job", {"endpoint_id": "ep1", "input": {}, "ttl": "8d"}, ["ttl must be between 10 seconds"]),
    "job webhook scheme": ("endpoint_job", {"endpoint_id": "ep1", "input": {}, "webhook": "ftp://example.com/done"},
                           ["http or https URL"]),
    "job webhook credentials": ("endpoint_job",
                                {"endpoint_id": "ep1", "input": {}, "webhook": "https://user:pw@example.com/done"},
                                ["user name or password"]),
    "job id whitespace": ("endpoint_job", {"endpoint_id": "ep1", "id": "job 1"}, ["whitespace"]),
    "job low_priority on a read": ("endpoint_job", {"endpoint_id": "ep1", "id": "job-1", "low_priority": True},
                                   ["apply to a new job"]),
    "job wait_timeout": ("endpoint_job", {"endpoint_id": "ep1", "input": {}, "wait_timeout": "soon"},
                         ["invalid wait_timeout"]),
    # Two forms of one command (issue 43): docker_args beside cmd or entrypoint, on every container module.
    "pod docker_args and cmd": ("pod", {"name": "t", "docker_args": "python x.py", "cmd": ["python", "x.py"], **POD},
                                ["docker_args and cmd", "not both"]),
    "template docker_args and entrypoint": ("template", {"name": "tpl", "image": "x", "docker_args": "x",
                                                         "entrypoint": ["/bin/sh"]}, ["docker_args and entrypoint"]),
    "endpoint docker_args and cmd": ("endpoint", {"name": "ep", "image": "x", "gpu_type_ids": [GPU], "docker_args": "",
                                                  "cmd": [], "entrypoint": ["sh"]},
                                     ["docker_args and cmd and entrypoint"]),
    "cluster docker_args and cmd": ("cluster", {"name": "train", "docker_args": "x", "cmd": ["x"], **CLUSTER},
                                    ["docker_args and cmd"]),
    # gpu_requirements' host floors: at least 1, and pods only (RunPod's cluster create takes none).
    "pod ram floor 0": ("pod", {"name": "t", "image": "x", "gpu_requirements": {"min_ram_per_gpu_gb": 0}},
                        ["gpu_requirements.min_ram_per_gpu_gb must be 1 or more"]),
    "pod vcpu floor negative": ("pod", {"name": "t", "image": "x", "gpu_requirements": {"min_vcpus_per_gpu": -2}},
                                ["gpu_requirements.min_vcpus_per_gpu must be 1 or more"]),
    "cluster ram floor": ("cluster", {"name": "train", "type": "TRAINING", "pod_count": 2, "image": "x",
                                      "gpu_requirements": {"min_ram_per_gpu_gb": 64}},
                          ["min_ram_per_gpu_gb applies to pods only"]),
    "endpoint_info builds above a page": ("endpoint_info", {"builds": 101}, ["builds must be between 0 and 100"]),
    "endpoint_info negative builds": ("endpoint_info", {"name": "ep", "builds": -1}, ["got -1"]),
    # Three mistakes at once: all three named in one refusal.
    "endpoint three mistakes": (
        "endpoint",
        {"name": "ep", "template_id": "t", "gpu_type_ids": ["NVIDIA GeForce RTX 3070"], "workers_min": 4,
         "workers_max": 2, "wait": True, "scaler_type": "REQUEST_COUNT", "idle_timeout": 5},
        ["workers_min (4) must not be larger than workers_max (2)", "not offered to serverless endpoints",
         "idle_timeout cannot be set beside scaler_type REQUEST_COUNT"],
    ),
}
# Refused by Ansible's argument spec (choices, unknown options, mutually_exclusive) before the module's own code
# runs: no "code" in the result (from tests/integration/test_pod_lifecycle.py).
SPEC_REFUSED = {
    "pod unknown cloud": ("pod", {"name": "web", "cloud_type": "PRIVATE", **POD},
                          ["value of cloud_type must be one of"]),
    # REST v1's spot option is gone with it: an unknown option like any other.
    "pod removed v1 option": ("pod", {"name": "web", "interruptible": True, **POD},
                              ["Unsupported parameters", "interruptible"]),
    "pod image and template": ("pod", {"name": "web", "template_id": "tpl", **POD}, ["mutually exclusive"]),
    "endpoint unknown wait_for": ("endpoint", {"name": "ep", "wait_for": "built"}, ["ready, rollout, build"]),
    "cmd not a list of strings": ("pod", {"name": "web", "cmd": {"a": 1}, **POD}, ["cmd"]),
}
BAD_TIMEOUTS = ["-1", "nan", "inf", "0", "1e300"]


def _module(name):
    return importlib.import_module(f"ansible_collections.runpod.cloud.plugins.modules.{name}")


def _refused(result, label):
    assert result["failed"] is True and result["code"] == "bad_request", (label, result)
    assert result.get("changed", False) is False, label
    assert "None" not in result["msg"] and "Remove id" not in result["msg"], (label, result["msg"])
    return result["msg"]


@pytest.mark.parametrize("label", sorted(REFUSED))
def test_bad_module_input_is_refused_before_any_client_is_built(label, capsys, monkeypatch):
    module, args, needles = REFUSED[label]
    message = _refused(run_module(_module(module), None, capsys, monkeypatch, **args), label)
    for needle in needles:
        assert needle in message, (label, message)


@pytest.mark.parametrize("label", sorted(SPEC_REFUSED))
def test_input_the_argument_spec_refuses_builds_no_client(label, capsys, monkeypatch):
    module, args, needles = SPEC_REFUSED[label]
    result = run_module(_module(module), None, capsys, monkeypatch, **args)
    assert result["failed"] is True and result.get("changed", False) is False, (label, result)
    for needle in needles:
        assert needle in result["msg"], (label, result["msg"])


# The options each module requires of its argument spec (checked before the key).
REQUIRED_ARGS = {"ssh_key": {"key": "ssh-ed25519 AAAA k"}, "template": {"name": "t", "image": "i"}}
REQUIRED_ARGS.update((name, {"name": "n"}) for name in (
    "secret", "pod", "cluster", "container_registry", "endpoint", "network_volume"))
MODULES = sorted(path.stem for path in REPO_ROOT.joinpath("plugins", "modules").glob("[a-z]*.py"))


@pytest.mark.parametrize("name", MODULES)
def test_no_api_key_names_the_option_the_variable_and_module_defaults(name, capsys, monkeypatch):
    # Not Ansible's "missing required arguments: api_key", which never mentions the environment variable.
    monkeypatch.delenv("RUNPOD_API_KEY", raising=False)
    result = run_module(_module(name), None, capsys, monkeypatch, api_key="", **REQUIRED_ARGS.get(name, {}))
    assert result["failed"] is True and result["code"] == "no_credentials", result
    for needle in ("api_key", "RUNPOD_API_KEY", "module_defaults", "group/runpod.cloud.all"):
        assert needle in result["msg"], result["msg"]


@pytest.mark.parametrize("value", BAD_TIMEOUTS)
def test_a_request_timeout_that_is_not_a_positive_finite_number_is_refused(value, capsys, monkeypatch):
    result = run_module(_module("pod_info"), None, capsys, monkeypatch, request_timeout=value)
    assert "request_timeout must be a number of seconds above 0" in _refused(result, value)
    assert "Traceback" not in json.dumps(result)
