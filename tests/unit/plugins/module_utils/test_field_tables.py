"""The field tables (``_vocab/*_fields``): every key path a table sends or reads is one RunPod's pinned document
declares in that request or answer, every option a row names is documented by its module and every shown field in
its RETURN, the document's own examples read into the views they describe, and the table mechanics."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import NETWORK_VOLUME, REGISTRY, SECRET
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import CLUSTER
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TEMPLATE
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import BUILD, ENDPOINT
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table, _equal, as_int, as_str
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD
from runpod_sim.schemas import v2_document

# table -> (the answer schema it reads, the create request, the update request, the module that fills it and whose
# RETURN key of its own name shows it).
TABLES = {
    "POD": (POD, "Pod", "CreatePodRequest", "UpdatePodRequest", "pod"),
    "ENDPOINT": (ENDPOINT, "Endpoint", "CreateEndpointRequest", "UpdateEndpointRequest", "endpoint"),
    "TEMPLATE": (TEMPLATE, "Template", "CreateTemplateRequest", "UpdateTemplateRequest", "template"),
    "CLUSTER": (CLUSTER, "Cluster", "CreateClusterRequest", "UpdateClusterRequest", "cluster"),
    "NETWORK_VOLUME": (NETWORK_VOLUME, "NetworkVolume", "CreateNetworkVolumeRequest", "UpdateNetworkVolumeRequest",
                       "network_volume"),
    "REGISTRY": (REGISTRY, "Registry", "CreateRegistryRequest", None, "container_registry"),
    "SECRET": (SECRET, "Secret", "CreateSecretRequest", "UpdateSecretRequest", "secret"),
    "BUILD": (BUILD, "Build", None, None, None),
}
STEPS = {"read": 1, "create": 2, "update": 3}
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


def table_paths(table):
    """The key paths a table's rows send at create and update, and read from answers."""
    return {"create": {row.body for row in table.rows if row.create and row.body},
            "update": {row.body for row in table.rows if row.update and row.body},
            "read": {path for row in table.rows for path in getattr(row.read, "paths", ())}}


def key_paths():
    """``(table, step, path)`` for every key path a table sends at create or update, or reads."""
    for name, (table, *_schemas) in TABLES.items():
        for step, paths in table_paths(table).items():
            for path in paths:
                yield name, step, path


@pytest.mark.parametrize(("table", "step", "path"), sorted(set(key_paths())))
def test_every_key_path_a_table_sends_or_reads_is_in_the_document_or_listed_with_its_reason(table, step, path):
    document = v2_document()
    schema_name = TABLES[table][STEPS[step]]
    assert schema_name, f"{table} {step}s {path} but RunPod has no such request"
    schema = document["components"]["schemas"][schema_name]
    assert documented(document, schema, path) != ((table, path) in UNDOCUMENTED), (table, step, path)


def test_the_list_of_undocumented_paths_holds_only_paths_a_table_reads():
    assert set(UNDOCUMENTED) <= {(table, path) for table, step, path in key_paths() if step == "read"}


def test_a_row_whose_key_the_document_lacks_fails_the_check():
    # What a RunPod rename would do to a row: the check above must fail on it.
    document = v2_document()
    renamed = Table("pod", "RenamedPod", (Col("image", "imageName", as_str, body="imageName", update=True),), __name__)
    for step, paths in table_paths(renamed).items():
        schema = document["components"]["schemas"][TABLES["POD"][STEPS[step]]]
        assert not any(documented(document, schema, path) for path in paths), step


def module_docs(name):
    from importlib import import_module

    module = import_module(f"ansible_collections.runpod.cloud.plugins.modules.{name}")
    return yaml.safe_load(module.DOCUMENTATION), yaml.safe_load(module.RETURN), module.ARGUMENT_SPEC


@pytest.mark.parametrize("table", [name for name, entry in TABLES.items() if entry[4]])
def test_every_option_a_row_names_is_an_option_of_its_module_and_every_shown_field_is_in_its_return(table):
    rows, module = TABLES[table][0].rows, TABLES[table][4]
    _documentation, returns, spec = module_docs(module)
    missing = [row.option for row in rows if row.option and row.option not in spec]
    assert not missing, f"{module} has no option {missing}"
    documented_keys = set(returns[module].get("contains", {}))
    assert {row.name for row in rows if row.shown} <= documented_keys, module


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


def test_a_row_falls_back_in_order_and_a_function_row_reads_the_whole_payload():
    table = Table("pod", "Probe", (
        Col("image", ("image", "imageName"), as_str),
        Col("vcpu_count", "cpu.0.vcpuCount", as_int),
        Col("name", lambda payload: f"named {payload.get('label')}"),
    ), __name__)
    fallback = table.values({"id": "p", "image": " ", "imageName": "img", "label": "x"})
    assert fallback == {"id": "p", "image": "img", "vcpu_count": None, "name": "named x"}
    assert table.values({"id": "p", "image": "first", "imageName": "second"})["image"] == "first"
    assert table.values({"id": "p", "cpu": [None, {"vcpuCount": "4"}]})["vcpu_count"] == 4
    assert table.read({"id": "p", "cpu": [{"vcpuCount": 4}]}).vcpu_count == 4
    # A table without a kind reads no id.
    assert "id" not in Table(None, "Part", (Col("name", "name", as_str),), __name__).values({"id": "p", "name": "n"})


def test_a_body_nests_its_paths_sends_only_what_is_set_and_refuses_what_the_step_cannot_send():
    table = Table("pod", "Probe2", (
        Col("name", "name", as_str, body="name", update=True),
        Col("gpu_count", "gpu.count", as_int, body="gpu.count", send=int),
        Col("floor", body="gpu.minCudaVersion", update=True),
        Col("locked", "locked", body="locked", create=False, update=True),
    ), __name__)
    assert table.body({"name": "a", "gpu_count": "2", "floor": ""}, creating=True) == {"name": "a", "gpu": {"count": 2}}
    # An update sends an explicit empty value: it clears.
    assert table.body({"floor": "", "locked": False}, creating=False) == {"gpu": {"minCudaVersion": ""},
                                                                          "locked": False}
    with pytest.raises(ValueError, match=r"cannot update pod field\(s\): gpu_count"):
        table.body({"gpu_count": 3}, creating=False)
    with pytest.raises(ValueError, match=r"cannot create pod field\(s\): locked"):
        table.body({"locked": True}, creating=True)


@given(st.dictionaries(st.sampled_from([row.name for row in POD.rows if row.same is _equal]),
                       st.one_of(st.none(), st.text(max_size=5), st.integers(0, 9)), max_size=6))
def test_changes_hold_exactly_the_given_diffed_fields_the_resource_lacks(wanted):
    pod = POD.read({"id": "p1"})
    changes = POD.changes(wanted, pod)
    for name, value in wanted.items():
        row = POD.by_name[name]
        expected = row.given(value) and not row.same(getattr(pod, name), value)
        assert (name in changes) == expected, (name, value)
    assert POD.changes(changes, POD.View(**{**pod.model_dump(), **changes})) == {}


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
    for table, *_rest in TABLES.values():
        payload = {path.split(".")[0]: junk for path in table_paths(table)["read"]}
        assert table.read({**payload, "id": "r1"}).id == "r1"


def test_global_networking_is_sent_read_compared_planned_and_shown_from_its_rows():
    # The field that closed issue 51: added as rows of the pod table, the module's docs and nothing else.
    from ansible_collections.runpod.cloud.plugins.module_utils._rules import pod_rules
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodSpec, describe_pod

    spec = PodSpec(name="g", image="i", gpu_type_ids=["A"], global_networking=True)
    assert POD.body(POD.create_fields(spec), creating=True)["globalNetworking"] is True
    assert "globalNetworking" not in POD.body(POD.create_fields(PodSpec(name="g", gpu_type_ids=["A"])), True)
    pod = POD.read({"id": "p1", "globalNetworking": {"enabled": True, "ip": "10.65.1.42",
                                                     "internalDns": "p1.runpod.internal"}})
    assert (pod.global_networking, pod.global_ip, pod.internal_dns) == (True, "10.65.1.42", "p1.runpod.internal")
    shown = describe_pod(pod)
    assert (shown["global_networking"], shown["global_ip"], shown["internal_dns"]) == (
        True, "10.65.1.42", "p1.runpod.internal")
    assert POD.changes({"global_networking": False}, pod) == {"global_networking": False}
    assert POD.changes({"global_networking": None}, pod) == {}
    assert POD.body({"global_networking": False}, creating=False) == {"globalNetworking": False}
    assert "global_networking" in pod_rules.PLANNED_FIELDS and "global_networking" in pod_rules.DIFF_FIELDS
