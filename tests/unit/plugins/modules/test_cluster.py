# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.cluster without an API: refusals before any call, fixed settings, rename, 5xx-create adoption;
runpod.cloud.cluster_info's selection (the one ``RunPodModule.select`` every ``_info`` module uses)."""

from __future__ import annotations

import functools
import json

import pytest
from helpers.fakes import FakeBackend, check_fake_matches_interface, real_backend, run_module

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import ClusterView
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView
from ansible_collections.runpod.cloud.plugins.modules import cluster as cluster_module
from ansible_collections.runpod.cloud.plugins.modules import cluster_info as cluster_info_module

GPU = "NVIDIA H100 80GB HBM3"
CREATE = {"name": "train", "gpu_type_id": GPU, "pod_count": 2, "image": "img:1"}


class FakeClusterBackend(FakeBackend):
    """The shared FakeBackend with clusters and members (``FakeClusters``); a create that fails with
    ``create_error`` leaves a cluster behind first, as a 5xx after the API made one would."""

    def __init__(self, clusters=(), members=(), create_error=None):
        super().__init__(clusters=clusters, members=members)
        self.clusters.create_error = create_error


def view(cluster_id="c1", **fields):
    values = {"id": cluster_id, "name": "train", "type": "TRAINING", "gpu_type_id": GPU, "gpu_count_per_pod": 1,
              "pod_count": 2}
    values.update(fields)
    return ClusterView(**values)


KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK0 k"


def node(rank, **fields):
    values = {"id": f"p{rank}", "name": f"train-node-{rank}", "status": "RUNNING", "image": "img:1",
              "ports": ["22/tcp"], "env": {"PUBLIC_KEY": KEY}, "cluster_id": "c1", "cluster_rank": rank,
              "cluster_ip": f"10.65.0.{rank + 2}"}
    values.update(fields)
    return PodView(**values)


run = functools.partial(run_module, cluster_module)
run_info = functools.partial(run_module, cluster_info_module)


@pytest.mark.parametrize(
    "args, text",
    [
        (dict(CREATE, api_version="v1"), "RunPod retired REST v1 on 2026-11-15"),
        ({**CREATE, "pod_count": 1}, "pod_count must be 2 to 250"),
        ({**CREATE, "gpu_type_id": "NVIDIA H100 80GB HBM9"}, "unknown GPU type"),
        (dict(CREATE, wait=True, ssh=False), "needs ssh: true"),
    ],
)
def test_refused_before_any_backend_exists(capsys, monkeypatch, args, text):
    result = run(None, capsys, monkeypatch, **args)
    assert result["failed"] is True and result["code"] == "bad_request" and text in result["msg"]


def test_a_create_without_a_container_or_a_count_names_both(capsys, monkeypatch):
    backend = FakeClusterBackend()
    args = {key: value for key, value in CREATE.items() if key not in ("image", "pod_count")}
    result = run(backend, capsys, monkeypatch, **args)
    assert result["failed"] is True and result["code"] == "bad_request"
    assert result["msg"] == "no cluster named 'train' exists, and creating one needs image or template_id and pod_count"
    assert [call[0] for call in backend.calls] == ["find_clusters"]


def test_settings_fixed_at_creation_fail_clearly_and_change_nothing(capsys, monkeypatch):
    backend = FakeClusterBackend([view()], [node(0), node(1)])
    changed = {**CREATE, "image": "img:2", "gpu_count_per_pod": 8, "env": {"A": "1"}, "ports": ["8888/http"]}
    result = run(backend, capsys, monkeypatch, **changed)
    assert result["failed"] is True and result["code"] == "conflict" and result["id"] == "c1"
    for text in ("gpu_count_per_pod is 1, not 8", "image is 'img:1', not 'img:2'", "env differs in A",
                 "ports are ['22/tcp'], not ['22/tcp', '8888/http']", "Nothing was changed"):
        assert text in result["msg"]
    assert [call[0] for call in backend.calls] == ["find_clusters", "list_cluster_pods"]


def test_rerun_is_a_no_op_and_id_renames(capsys, monkeypatch):
    backend = FakeClusterBackend([view()], [node(1), node(0)])
    same = run(backend, capsys, monkeypatch, **dict(CREATE, ssh_public_key=KEY))
    assert same["changed"] is False and [pod["rank"] for pod in same["pods"]] == [0, 1]
    assert same["pods"][0]["primary"] is True and same["pods"][1]["cluster_ip"] == "10.65.0.3"
    renamed = run(backend, capsys, monkeypatch, id="c1", name="train-2")
    assert renamed["changed"] is True and renamed["actions"] == ["update"] and renamed["cluster"]["name"] == "train-2"
    assert ("rename_cluster", "c1", "train-2") in backend.calls


def test_a_5xx_create_adopts_the_cluster_listed_by_name(capsys, monkeypatch):
    backend = FakeClusterBackend(create_error=RunPodError("server_error", 502, "bad gateway", maybe_created=True))
    result = run(backend, capsys, monkeypatch, **CREATE)
    assert result["changed"] is True and result["actions"] == ["adopt"] and result["cluster"]["id"] == "c-late"
    assert sum(call[0] == "create_cluster" for call in backend.calls) == 1
    assert "adopted it instead of creating another" in json.dumps(result["warnings"])


def test_fake_clusters_match_the_real_ones():
    check_fake_matches_interface(FakeBackend().clusters, real_backend().clusters)


def two_clusters():
    return FakeClusterBackend([view("c1"), view("c2", name="eval")], [node(0), node(1)])


@pytest.mark.parametrize(
    "args, ids, read",
    [
        ({}, ["c1", "c2"], "list_clusters"),
        ({"name": "eval"}, ["c2"], "find_clusters"),
        ({"name": "nothing"}, [], "find_clusters"),
        ({"id": "c1"}, ["c1"], "get_cluster"),
        ({"id": "c-unknown"}, [], "get_cluster"),  # an unknown id is an empty list, not an error
    ],
)
def test_info_selects_by_id_else_name_else_all(capsys, monkeypatch, args, ids, read):
    backend = two_clusters()
    result = run_info(backend, capsys, monkeypatch, **args)
    assert result["changed"] is False and [cluster["id"] for cluster in result["clusters"]] == ids
    assert backend.calls[0][0] == read
    assert [len(cluster["pods"]) for cluster in result["clusters"]] == [2] * len(ids)
    assert backend.count("list_cluster_pods") == len(ids)


def test_info_without_pods_reads_no_members(capsys, monkeypatch):
    backend = two_clusters()
    result = run_info(backend, capsys, monkeypatch, pods=False)
    assert [cluster["pods"] for cluster in result["clusters"]] == [[], []]
    assert [call[0] for call in backend.calls] == ["list_clusters"]


@pytest.mark.parametrize("args, read", [({}, "list_clusters"), ({"name": "eval"}, "find_clusters"),
                                        ({"id": "c1"}, "get_cluster")])
def test_info_read_failure_is_the_message_of_every_info_module(capsys, monkeypatch, args, read):
    backend = two_clusters()
    backend.errors[read] = RunPodError("server_error", 503, "upstream unavailable")
    result = run_info(backend, capsys, monkeypatch, **args)
    assert result["failed"] is True and result["code"] == "server_error" and result["status"] == 503
    assert result["msg"] == "reading clusters failed: upstream unavailable (server_error)"
    assert result["clusters"] is None and "exception" not in result


def test_info_refused_on_v1_before_any_call(capsys, monkeypatch):
    backend = two_clusters()
    result = run_info(backend, capsys, monkeypatch, api_version="v1")
    assert result["failed"] is True and result["code"] == "bad_request"
    assert "RunPod retired REST v1 on 2026-11-15" in result["msg"]
    assert backend.calls == []


class KnownSecrets:
    """The account's secrets as ``backend.secrets.names()`` answers them."""

    def names(self, attempts=None):
        return {"hf_token"}


def test_secret_env_is_compared_as_the_nodes_env(capsys, monkeypatch):
    placeholder = {"HF_TOKEN": "{{ RUNPOD_SECRET_hf_token }}"}
    backend = FakeClusterBackend([view()], [node(0), node(1)])
    backend.secrets = KnownSecrets()
    result = run(backend, capsys, monkeypatch, **CREATE, secret_env={"HF_TOKEN": "hf_token"})
    # Nodes made without the secret: env is fixed at create, so the task fails and changes nothing.
    assert result["failed"] is True and result["code"] == "conflict" and "env differs in HF_TOKEN" in result["msg"]
    backend = FakeClusterBackend([view()], [node(0, env=placeholder), node(1, env=placeholder)])
    backend.secrets = KnownSecrets()
    same = run(backend, capsys, monkeypatch, **CREATE, secret_env={"HF_TOKEN": "hf_token"})
    assert same["changed"] is False and [call[0] for call in backend.calls] == ["find_clusters", "list_cluster_pods"]
    created = FakeClusterBackend()
    created.secrets = KnownSecrets()
    run(created, capsys, monkeypatch, **CREATE, secret_env={"HF_TOKEN": "hf_token"})
    (spec,) = [call[1] for call in created.calls if call[0] == "create_cluster"]
    assert spec["env"] == placeholder


def test_terminate_after_is_a_lease_in_every_nodes_env_and_fixed_at_create(capsys, monkeypatch):
    created = FakeClusterBackend()
    run(created, capsys, monkeypatch, **CREATE, env={"A": "1"}, terminate_after="12h")
    (spec,) = [call[1] for call in created.calls if call[0] == "create_cluster"]
    assert spec["env"] == {"A": "1", "RUNPOD_CLOUD_TERMINATE_AFTER": "43200"}
    lease = {"A": "1", "RUNPOD_CLOUD_TERMINATE_AFTER": "43200"}
    backend = FakeClusterBackend([view()], [node(0, env=lease), node(1, env=lease)])
    other = run(backend, capsys, monkeypatch, **CREATE, env={"A": "1"}, terminate_after="1d")
    assert other["failed"] is True and "env differs in RUNPOD_CLOUD_TERMINATE_AFTER" in other["msg"]
    assert [call[0] for call in backend.calls] == ["find_clusters", "list_cluster_pods"]  # nothing changed
