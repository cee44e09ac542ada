"""The table-driven payload readers (``_payloads``): every path a table reads is one RunPod documents, the OpenAPI
document's own examples read into the views they describe, and the table mechanics (fallbacks, function cells)."""

from __future__ import annotations

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._api import payloads as _payloads
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.payloads import (
    CLUSTER,
    ENDPOINT,
    NETWORK_VOLUME,
    POD,
    REGISTRY,
    TEMPLATE,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.readers import Table, as_int, as_str, via
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.views import PodView
from runpod_sim.schemas import v2_document

# table -> the REST v2 schema it reads.
SCHEMAS = {
    "POD": "Pod",
    "ENDPOINT": "Endpoint",
    "TEMPLATE": "Template",
    "CLUSTER": "Cluster",
    "NETWORK_VOLUME": "NetworkVolume",
    "REGISTRY": "Registry",
    "SECRET": "Secret",
}
# Paths read although the document does not declare them, each with its reason.
UNDOCUMENTED = {
    ("NETWORK_VOLUME", "dataCenterId"): "a fallback to the retired REST v1 name, kept since the first account reader",
}


def _deref(document, node):
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        target = document
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def _branches(document, node):
    """``node`` and every schema it combines (allOf/anyOf/oneOf), references resolved."""
    node = _deref(document, node)
    if not isinstance(node, dict):
        return []
    found = [node]
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(key, []):
            found += _branches(document, sub)
    return found


def _children(document, nodes, key):
    found = []
    for branch in (branch for node in nodes for branch in _branches(document, node)):
        if key.isdigit() and "items" in branch:
            found.append(branch["items"])
        elif key in branch.get("properties", {}):
            found.append(branch["properties"][key])
    return found


def documented(document, schema, path):
    nodes = [schema]
    for key in path.split("."):
        nodes = _children(document, nodes, key)
        if not nodes:
            return False
    return True


def example(document, node, depth=0):
    """An instance of ``node`` built from the document's own ``example``/``examples`` values."""
    branches = _branches(document, node)
    is_array = any(branch.get("type") == "array" for branch in branches)
    for branch in branches:
        value = branch.get("example", (branch.get("examples") or [None])[0])
        # An array whose example is a comma-separated string is built from its items.
        if value is not None and (not is_array or isinstance(value, list)):
            return value
    properties = {}
    for branch in branches:
        properties.update(branch.get("properties", {}))
    if properties and depth < 6:
        return {key: example(document, schema, depth + 1) for key, schema in properties.items()}
    for branch in branches:
        if is_array and "items" in branch:
            item = example(document, branch["items"], depth + 1)
            return [] if item is None else [item]
        if "enum" in branch:
            return branch["enum"][0]
    return None


def schema_example(name):
    document = v2_document()
    return example(document, document["components"]["schemas"][name])


def read_paths():
    """``(table, path)`` for every document path a table reads."""
    for table_name in SCHEMAS:
        for _field, cell in getattr(_payloads, table_name).cells:
            for path in cell.paths if isinstance(cell, via) else ():
                yield table_name, path


@pytest.mark.parametrize(("table", "path"), sorted(set(read_paths())))
def test_every_path_a_table_reads_is_in_the_document_or_listed_with_its_reason(table, path):
    document = v2_document()
    schema = document["components"]["schemas"][SCHEMAS[table]]
    assert documented(document, schema, path) != ((table, path) in UNDOCUMENTED), (table, path)


def test_the_list_of_undocumented_paths_holds_only_paths_a_table_reads():
    assert set(UNDOCUMENTED) <= set(read_paths())


def test_the_pod_example_reads_into_the_pod_it_describes():
    pod = POD.read(schema_example("Pod"))
    assert (pod.id, pod.name, pod.status) == ("pod_abc123", "my-training-pod", "PROVISIONING")
    # The autumn 2026 document's example command (its ``args``; the arrays are read only when ``args`` is absent).
    assert (pod.image, pod.container_disk_gb, pod.ports, pod.env, pod.docker_args) == (
        "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", 50, ["8888/http", "22/tcp"],
        {"JUPYTER_PASSWORD": "hunter2"}, "--model meta-llama/Llama-3-8B --max-model-len 8192")
    # The example carries both gpu and cpu: a pod with a GPU is a GPU pod.
    assert (pod.compute_type, pod.gpu_type, pod.gpu_count, pod.cpu_flavor, pod.vcpu_count) == (
        "GPU", "NVIDIA GeForce RTX 4090", 1, "cpu5c", 4)
    assert (pod.volume_gb, pod.volume_mount_path, pod.network_volume_id) == (20, "/workspace", "vol_xyz")
    assert (pod.cloud_type, pod.data_center_id, pod.cost_per_hr, pod.locked) == ("SECURE", "US-TX-3", 0.35, False)
    assert (pod.runtime_reported, pod.uptime_seconds) == (True, 3600)
    assert [(p.private, p.public, p.type, p.ip) for p in pod.runtime_ports] == [(8888, 43210, "http", "45.23.12.1")]
    assert pod.ssh_proxy.command == "ssh 7h9k2m4n6p-64411eb2@ssh.runpod.io" and pod.ssh_direct.port == 22
    assert (pod.cluster_id, pod.cluster_rank, pod.cluster_role, pod.cluster_ip) == (
        "cluster_abc123", 0, "SLURM_CONTROLLER", "10.65.0.2")
    assert (pod.template_id, pod.registry_id, pod.created_at, pod.actions) == (
        None, None, "2026-03-13T20:00:00Z", ["start"])


def test_the_endpoint_examples_read_into_the_endpoints_they_describe():
    v2 = ENDPOINT.read(schema_example("Endpoint"))
    assert (v2.id, v2.name, v2.type, v2.gpu_pools, v2.gpu_count) == (
        "ep_abc123", "my-inference", "QUEUE", ["ADA_24"], 1)
    assert (v2.workers_min, v2.workers_max, v2.idle_timeout) == (0, 5, 5)
    # The scaler value is the one of the scaler type (REQUEST_COUNT: requestCount).
    assert (v2.scaler_type, v2.scaler_value, v2.flashboot) == ("REQUEST_COUNT", 4.0, False)
    assert (v2.network_volume_id, v2.data_center_ids, v2.execution_timeout_ms) == ("vol_abc", ["US-TX-3"], 300000)
    assert (v2.cpu_flavor_ids, v2.vcpu_count, v2.template_id, v2.gpu_type_ids) == (["cpu5c"], 4, None, [])
    assert (v2.image, v2.container_disk_gb, v2.env) == (
        "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", 50, {"JUPYTER_PASSWORD": "hunter2"})


def test_the_template_example_reads_into_the_template_it_describes():
    v2 = TEMPLATE.read(schema_example("Template"))
    assert (v2.id, v2.name, v2.image, v2.serverless, v2.container_disk_gb, v2.ports) == (
        "tpl_abc", "My PyTorch Template", "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", False, 50,
        ["8888/http", "22/tcp"])


def test_the_cluster_volume_and_registry_examples_read_into_their_views():
    cluster = CLUSTER.read(schema_example("Cluster"))
    assert (cluster.id, cluster.type, cluster.gpu_type_id, cluster.gpu_count_per_pod, cluster.pod_count) == (
        "cluster_abc123", "TRAINING", "NVIDIA H100 80GB HBM3", 8, 4)
    assert (cluster.template_id, cluster.pods_total, cluster.pods_by_status) == (
        "tpl_abc", 4, {"RUNNING": 3, "PROVISIONING": 1})
    assert (cluster.vxlan_id, cluster.primary_pod_id, cluster.primary_status) == (42, "pod_node0", "PROVISIONING")
    volume = NETWORK_VOLUME.read(schema_example("NetworkVolume"))
    assert (volume.size_gb, volume.data_center_id, volume.type) == (50, "EU-RO-1", "STANDARD")
    # The fallback to the retired REST v1 name, and no tier when RunPod does not report one.
    legacy = NETWORK_VOLUME.read({"id": "v1", "size": 50, "dataCenterId": "EU-RO-1"})
    assert (legacy.data_center_id, legacy.type) == ("EU-RO-1", None)
    registry = REGISTRY.read(schema_example("Registry"))
    assert registry.id and registry.name


def test_a_cell_falls_back_in_order_and_a_function_cell_reads_the_whole_payload():
    table = Table(
        PodView,
        "pod",
        (
            ("image", as_str, ("image", "imageName")),
            ("vcpu_count", as_int, "cpu.0.vcpuCount"),
            ("name", None, lambda payload: f"named {payload.get('label')}"),
        ),
    )
    fallback = table.values({"id": "p", "image": " ", "imageName": "img", "label": "x"})
    assert fallback == {"id": "p", "image": "img", "vcpu_count": None, "name": "named x"}
    assert table.values({"id": "p", "image": "first", "imageName": "second"})["image"] == "first"
    assert table.values({"id": "p", "cpu": [None, {"vcpuCount": "4"}]})["vcpu_count"] == 4
    assert table.read({"id": "p", "cpu": [{"vcpuCount": 4}]}).vcpu_count == 4
    # A table without a kind reads no id.
    assert "id" not in Table(PodView, None, (("name", as_str, "name"),)).values({"id": "p", "name": "n"})


@pytest.mark.parametrize(("payload", "message"), [
    ({"name": "x"}, "the API returned a pod without an id"),
    ({"id": ""}, "the API returned a pod without an id"),
    (["p1"], "expected a pod object, got list"),
])
def test_a_pod_without_an_id_is_a_bad_response(payload, message):
    with pytest.raises(RunPodError, match=message) as caught:
        POD.read(payload)
    assert caught.value.code == "bad_response"


@pytest.mark.parametrize("junk", [None, "", 0, 1.5, True, [], {}, [None], {"id": 3}, "x"])
def test_any_mistyped_field_reads_as_not_said_never_an_exception(junk):
    for table_name in SCHEMAS:
        table = getattr(_payloads, table_name)
        payload = {"id": "r1", **dict.fromkeys(
            path.split(".")[0] for _f, cell in table.cells if isinstance(cell, via) for path in cell.paths
        )}
        payload = {key: (junk if key != "id" else "r1") for key in payload}
        assert table.read(payload).id == "r1"
