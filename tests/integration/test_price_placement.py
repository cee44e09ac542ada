"""A GPU by requirement and price (issue 33), against the simulator: ``gpu_requirements``, ``max_price_per_hr``
and pod_info's reaping filters, with real ansible-playbook runs.

The simulator's list prices (secure, per GPU per hour): A5000 0.27, RTX 3090 0.43, L4 0.43, A40 0.40, A6000 0.49,
RTX 4090 0.69, L40S 0.86, A100 PCIe 1.64, A100 SXM 1.74, H100 PCIe 2.39, H100 SXM 2.99, H200 3.59.
"""

from __future__ import annotations

from helpers.in_process import ModuleRuns
from helpers.playbooks import play, pod_task

# (the price placement rules (module_utils), the same code on every core).

A5000, R3090, A40, A6000 = "NVIDIA RTX A5000", "NVIDIA GeForce RTX 3090", "NVIDIA A40", "NVIDIA RTX A6000"
L40S, A100, H100, A4000 = "NVIDIA L40S", "NVIDIA A100 80GB PCIe", "NVIDIA H100 80GB HBM3", "NVIDIA RTX A4000"
POSTS = r"^/v2/pods$"
IMAGE = "runpod/base:1.0"
BIG = {"min_memory_gb": 48, "manufacturer": "nvidia"}


def create(name: str, **extra) -> dict:
    return {"name": name, "image": IMAGE, "ssh": False, **extra}


def attempts(result: dict) -> list[tuple]:
    return [(a["gpu_type_id"], a["price_per_hr"], a["status"]) for a in result["placement"]["attempts"]]


def dropped(result: dict) -> list[tuple]:
    return [(d["gpu_type_id"], d["reason"]) for d in result["placement"]["dropped"]]


def test_cheapest_in_stock_a_400_moves_on_and_the_cap_on_both_forms(sim, capsys, run_playbook, tmp_path):
    """The rows run in this process (helpers.in_process: the modules' own code over real HTTP): the subject is what
    the placement rules decide, not Ansible's part of a task. The row that warns runs as a task: a warning is shown
    by the controller's display, which is Ansible's part."""
    # The cheapest 48 GB type is sold out; the A5000 has room for two 2-GPU pods (the fleet's third moves on);
    # the A4000 is billed above its list price.
    sim.admin.configure(
        out_of_stock_gpu_types=[A40],
        gpu_stock={A5000: {"*": 0, "US-TX-3": 4}},
        gpu_prices={A4000: {"billed": 0.5}},
    )
    result = ModuleRuns(sim, capsys)
    result.run("requirements - cheapest in stock", "pod", create("r-cheap", gpu_requirements=BIG))
    sim.admin.inject_fault(POSTS, "stock_out", method="POST")  # on the next create
    result.run("requirements - a 400 moves on", "pod", create("r-400", gpu_requirements=BIG))
    result.run("ids - the cap drops", "pod", create("i-cap", gpu_type_ids=[H100, L40S, A6000], max_price_per_hr=0.9))
    result.run("requirements - the cap drops", "pod", create("r-cap", gpu_requirements=BIG, max_price_per_hr=0.6))
    result.run("requirements - all over the cap", "pod",
               create("r-none", gpu_requirements={"min_memory_gb": 80}, max_price_per_hr=1.0))
    result.run("ids - all over the cap", "pod", create("i-none", gpu_type_ids=[H100, A100], max_price_per_hr=1.0))
    result.run("a fleet of 3 under the cap", "pod", create(
        "fleet", count=3, gpu_count=2, gpu_requirements={"min_memory_gb": 24, "max_memory_gb": 24},
        max_price_per_hr=1.0))
    result.run("a cluster under the cap", "cluster", {
        "name": "train", "image": IMAGE, "gpu_requirements": {"min_memory_gb": 80}, "gpu_count_per_pod": 2,
        "pod_count": 2, "max_price_per_hr": 8.0})
    result.run("a cluster over the cap", "cluster", {
        "name": "train-x", "image": IMAGE, "gpu_requirements": {"min_memory_gb": 80}, "gpu_count_per_pod": 2,
        "pod_count": 2, "max_price_per_hr": 6.0})
    warned = run_playbook(tmp_path, play(pod_task("billed above the cap warns",
                                                  create("billed", gpu_type_ids=[A4000], max_price_per_hr=0.3))))
    assert warned.rc == 0, warned.stdout + warned.stderr
    result.run("both forms refused", "pod", create("both", gpu_type_ids=[A40], gpu_requirements=BIG))
    result.run("unknown manufacturer refused", "pod", create("intel", gpu_requirements={"manufacturer": "Intel"}))
    result.run("min above max refused", "pod",
               create("minmax", gpu_requirements={"min_memory_gb": 80, "max_memory_gb": 24}))
    result.run("negative cap refused", "pod", create("neg", gpu_type_ids=[A40], max_price_per_hr=-1))
    sim.admin.inject_fault(r"^/v2/catalog/gpus$", "status", method="GET", status=503, detail="catalog down")
    result.run("unreadable catalog refuses", "pod", create("r-nocat", gpu_requirements=BIG))
    refusals = {"requirements - all over the cap", "ids - all over the cap", "a cluster over the cap",
                "both forms refused", "unknown manufacturer refused", "min above max refused", "negative cap refused",
                "unreadable catalog refuses"}
    assert result.failed() <= refusals

    cheap = result.task_result("requirements - cheapest in stock")
    assert cheap["placement"]["gpu_type_id"] == A6000 and cheap["placement"]["price_per_hr"] == 0.49
    assert dropped(cheap) == [(A40, "stock")] and attempts(cheap) == [(A6000, 0.49, 201)]
    assert cheap["pod"]["cost_per_hr"] == 0.49

    assert attempts(result.task_result("requirements - a 400 moves on")) == [(A6000, 0.49, 400), (L40S, 0.86, 201)]

    ids_cap = result.task_result("ids - the cap drops")
    assert dropped(ids_cap) == [(H100, "price")] and attempts(ids_cap) == [(L40S, 0.86, 201)]  # the user's order
    req_cap = result.task_result("requirements - the cap drops")
    assert attempts(req_cap) == [(A6000, 0.49, 201)]
    assert (L40S, "price") in dropped(req_cap) and (A40, "stock") in dropped(req_cap)

    for task, cheapest in (("requirements - all over the cap", f"{A100}, lists at 1.64"),
                           ("ids - all over the cap", f"{A100}, lists at 1.64")):
        refused = result.task_result(task)
        assert refused["failed"] and refused["code"] == "price_cap_exceeded", refused
        assert cheapest in refused["msg"] and refused["placement"]["attempts"] == []
        assert {reason for _type, reason in dropped(refused)} == {"price"}

    fleet = result.task_result("a fleet of 3 under the cap")
    assert fleet["changed"] and len(fleet["ids"]) == 3
    placed = sorted(pod["gpu"]["type"] for pod in fleet["pods"])
    assert placed == [R3090, A5000, A5000]  # the A5000 (0.54 for two) fits twice; then 3090 and L4 tie at 0.86
    assert all(pod["cost_per_hr"] <= 1.0 for pod in fleet["pods"])

    cluster = result.task_result("a cluster under the cap")
    assert cluster["changed"] and cluster["placement"]["gpu_type_id"] == A100
    assert cluster["placement"]["price_per_hr"] == 6.56  # 1.64 x 2 GPUs x 2 nodes
    assert {reason for _type, reason in dropped(cluster)} == {"price"}
    over = result.task_result("a cluster over the cap")
    assert over["failed"] and over["code"] == "price_cap_exceeded" and f"{A100}, lists at 6.56" in over["msg"]

    billed = warned.task_result("billed above the cap warns")
    assert billed["pod"]["cost_per_hr"] == 0.5 and billed["placement"]["price_per_hr"] == 0.25
    assert any("billed 0.5 USD/h, above max_price_per_hr 0.3" in warning for warning in billed["warnings"])

    for task, needle in (("both forms refused", "mutually exclusive"), ("unknown manufacturer refused", "Intel"),
                         ("min above max refused", "above max_memory_gb"), ("negative cap refused", "above 0")):
        refused = result.task_result(task)
        assert refused["failed"] and refused["code"] == "bad_request" and needle in refused["msg"], refused
        assert "placement" not in refused

    no_catalog = result.task_result("unreadable catalog refuses")
    assert no_catalog["failed"] and no_catalog["code"] == "catalog_unavailable", no_catalog
    assert no_catalog["placement"]["attempts"] == []

    names = [entry for entry in sim.admin.requests() if entry["method"] == "POST" and entry["path"] == "/v2/pods"]
    # 1 + 2 + 1 + 1 + fleet (3 creates, one of them after a 400 on the A5000) + 1 billed; none for refusals.
    assert len(names) == 10
    assert sim.admin.count("POST", r"^/v2/clusters$") == 1
    live = {p["name"] for p in sim.admin.pods() if p["status"] != "TERMINATED"}
    assert not live & {"r-none", "i-none", "both", "intel", "minmax", "neg", "r-nocat"}


def test_older_than_selects_by_age_and_the_reaper_deletes_after_check_mode(sim, run_playbook, tmp_path):
    sim.admin.seed(2, name_prefix="ci", age_seconds=3 * 86400)
    sim.admin.seed(1, name_prefix="prod", age_seconds=3 * 86400)
    sim.admin.seed(1, name_prefix="cinew", age_seconds=60)
    reaper = """
- name: Find forgotten CI pods
  runpod.cloud.pod_info:
    older_than: 1d
    name_prefix: ci-
  register: forgotten
- name: Reap them (check mode)
  runpod.cloud.pod:
    id: "{{ item.id }}"
    state: absent
  loop: "{{ forgotten.pods }}"
  check_mode: true
  register: planned
- name: Reap them
  runpod.cloud.pod:
    id: "{{ item.id }}"
    state: absent
  loop: "{{ forgotten.pods }}"
- name: Bad duration
  runpod.cloud.pod_info:
    older_than: soon
  ignore_errors: true
"""
    result = run_playbook(tmp_path, play(reaper))
    assert result.rc == 0, result.stdout + result.stderr
    found = result.task_result("Find forgotten CI pods")["pods"]
    assert sorted(pod["name"] for pod in found) == ["ci-00000", "ci-00001"]
    planned = result.task_result("Reap them (check mode)")["results"]
    assert [item["changed"] for item in planned] == [True, True]
    bad = result.task_result("Bad duration")
    assert bad["failed"] and bad["code"] == "bad_request" and "older_than" in bad["msg"]
    live = sorted(p["name"] for p in sim.admin.pods() if p["status"] != "TERMINATED")
    assert live == ["cinew-00000", "prod-00000"]
    assert sim.admin.count("DELETE", r"^/v2/pods/") == 2
