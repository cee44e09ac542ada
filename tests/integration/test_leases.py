"""Leases and idle stop enforced from the controller, against the simulator: the shipped playbook
``runpod.cloud.enforce_leases`` (one ``ansible-playbook`` run that creates the pods with ``runpod.cloud.pod``, reads
them with ``pod_info`` and then imports the playbook) and the shipped rulebook ``runpod.cloud.enforce_leases`` (one
``ansible-rulebook`` run). No test waits for a lease to pass: the simulator's admin API moves a pod's ``createdAt``
back (``/_sim/pods/{id}/age``) and scripts its utilization; the idle stop uses a 2 s ``idle_stop_after``."""

from __future__ import annotations

import pytest
from helpers.rulebook import finish, start_rulebook, wait_for

GPU = "NVIDIA GeForce RTX 4090"


def test_the_playbook_stops_a_pod_past_its_stop_after_and_leaves_a_pod_without_a_lease(sim, run_playbook, tmp_path):
    admin = f"{sim.base_url}/_sim/pods"
    playbook = f"""
- hosts: localhost
  gather_facts: false
  tasks:
    - name: A pod with a lease
      runpod.cloud.pod: {{name: leased, image: "runpod/base:1.0", gpu_type_ids: ["{GPU}"], stop_after: 1h,
                         terminate_after: 2h}}
      register: leased
    - name: A pod without one
      runpod.cloud.pod: {{name: free, image: "runpod/base:1.0", gpu_type_ids: ["{GPU}"]}}
      register: free
    - name: Both running
      runpod.cloud.pod_info: {{ids: ["{{{{ leased.pod.id }}}}", "{{{{ free.pod.id }}}}"], wait: true,
                              wait_for: running}}
    - name: Script the leased pod's utilization
      ansible.builtin.uri: {{url: "{admin}/{{{{ leased.pod.id }}}}/utilization", method: POST,
                            body_format: json, body: {{gpus: [{{util: 0, memoryUtil: 12}}], cpu: 7, memory: 9}}}}
    - name: Read it before its deadline
      runpod.cloud.pod_info: {{name: leased}}
      register: before
    - name: Nothing expired yet
      runpod.cloud.pod_info: {{lease_expired: true}}
      register: none_expired
    - name: Its creation moves 90 minutes back, past stop_after
      ansible.builtin.uri: {{url: "{admin}/{{{{ leased.pod.id }}}}/age", method: POST, body_format: json,
                            body: {{seconds: 5400}}}}
    - name: Now expired
      runpod.cloud.pod_info: {{lease_expired: true}}
      register: expired
    - name: Idle now
      runpod.cloud.pod_info: {{idle: true}}
      register: idle

- name: The shipped playbook
  ansible.builtin.import_playbook: runpod.cloud.enforce_leases
"""
    result = run_playbook(tmp_path, playbook)
    assert result.rc == 0, result.stdout + result.stderr
    leased = result.task_result("A pod with a lease")["pod"]
    free_id = result.task_result("A pod without one")["pod"]["id"]
    assert leased["lease"]["stop_after"] == 3600 and leased["lease"]["terminate_after"] == 7200
    assert leased["lease"]["action"] == "stop" and leased["lease"]["expired"] is False
    assert result.task_result("A pod without one")["pod"]["lease"] is None
    booted = sim.admin.pod(leased["id"])["boot_env"]  # the container's env: what the pod's watchdog reads
    assert (booted["RUNPOD_CLOUD_STOP_AFTER"], booted["RUNPOD_CLOUD_TERMINATE_AFTER"]) == ("3600", "7200")
    before = result.task_result("Read it before its deadline")["pods"][0]
    assert before["utilization"] == {"gpus": [{"util": 0, "memory_util": 12}], "cpu": 7, "memory": 9}
    assert 3000 < before["lease"]["seconds_left"] <= 3600 and before["lease"]["cost_so_far"] >= 0
    assert before["lease"]["cost_to_deadline"] == pytest.approx(before["cost_per_hr"] * before["lease"][
        "seconds_left"] / 3600, abs=1e-3)
    assert result.task_result("Nothing expired yet")["pods"] == []
    expired = result.task_result("Now expired")["pods"]
    assert [(pod["id"], pod["lease"]["action"], pod["lease"]["expired"]) for pod in expired] == [
        (leased["id"], "stop", True)]
    assert {pod["name"] for pod in result.task_result("Idle now")["pods"]} == {"leased", "free"}  # both read 0 %

    enforced = result.task_result("Stop or terminate each as its lease says")["results"]
    assert [item["item"]["id"] for item in enforced] == [leased["id"]]
    assert enforced[0]["changed"] and enforced[0]["pod"]["status"] == "EXITED"
    label = " ".join(enforced[0]["_ansible_item_label"].split())
    assert f"stop pod leased ({leased['id']}): rule stop_after, deadline {expired[0]['lease']['deadline']}" == label
    assert sim.admin.pod(leased["id"])["status"] == "EXITED"
    assert sim.admin.pod(free_id)["status"] == "RUNNING"  # no lease: never touched
    stops = [r for r in sim.admin.requests() if r["method"] == "POST" and r["path"].endswith("/action")]
    assert [r["path"] for r in stops] == [f"/v2/pods/{leased['id']}/action"]


def test_the_rulebook_stops_at_the_deadline_and_after_idle_and_leaves_busy_and_unleased_pods(sim, tmp_path):
    (leased,) = sim.admin.seed(1, name_prefix="leased", env={"RUNPOD_CLOUD_STOP_AFTER": "3600"})
    (idle,) = sim.admin.seed(1, name_prefix="idle", env={"RUNPOD_CLOUD_IDLE_STOP_AFTER": "2"})
    (busy,) = sim.admin.seed(1, name_prefix="busy", env={"RUNPOD_CLOUD_IDLE_STOP_AFTER": "2",
                                                         "RUNPOD_CLOUD_IDLE_BELOW": "50"})
    (free,) = sim.admin.seed(1, name_prefix="free")
    sim.admin.set_utilization(busy, gpus=[80])
    process = start_rulebook(sim, tmp_path, "enforce_leases",
                             "runpod_watch_interval: 1s\nrunpod_watch_run_time: 20s\n")
    try:
        wait_for(lambda: sim.admin.pod(idle)["status"] == "EXITED" or process.poll() is not None, 60, "the idle stop")
        assert process.poll() is None, process.communicate()[0]
        assert sim.admin.pod(leased)["status"] == "RUNNING"  # its deadline is an hour away
        sim.admin.age_pod(leased, 3601)
        wait_for(lambda: sim.admin.pod(leased)["status"] == "EXITED" or process.poll() is not None, 60,
                 "the lease stop")
    finally:
        output = finish(process)
    assert process.returncode == 0, output
    assert sim.admin.pod(busy)["status"] == "RUNNING"  # 80 % is above its idle_below of 50
    assert sim.admin.pod(free)["status"] == "RUNNING"  # no lease: never touched
    actions = [r["path"] for r in sim.admin.requests() if r["method"] in ("POST", "DELETE") and "/v2/" in r["path"]]
    assert sorted(actions) == sorted([f"/v2/pods/{leased}/action", f"/v2/pods/{idle}/action"])
    text = " ".join(output.split())
    assert f"lease of pod leased-00000 ({leased}): rule stop_after, deadline" in text
    assert f"lease of pod idle-00000 ({idle}): rule idle_stop_after, deadline" in text
    assert sim.api_key not in output
