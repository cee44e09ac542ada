# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Live progress of the batch waits (a fleet's, pod_info's) on the controller, and the same results as the
module's own wait.

One playbook runs twice against a reset simulator: through the action plugins on the controller, and with
RUNPOD_CLOUD_CONTROLLER_WAIT=false (the modules wait by themselves). It waits for a fleet of three pods whose
third boots slowly, a fleet that times out (its second pod never answers SSH), a pod_info wait for pods created
without a wait (one slow), and a pod_info wait that times out.

The interrupt runs in the background on both paths (as in test_wait_progress_services.py): once the simulator's
request log shows the fleet's wait polling a pod that refuses SSH, SIGINT goes to the process that waits; then,
once pod_info's wait polls the same pods, SIGTERM.
"""

from __future__ import annotations

import re
import signal
import time

from helpers.playbooks import Background, info_task, play, pod_task
from helpers.same_results import collect_ids, normalise
from helpers.simulated import FOREVER, fresh_account
from test_pod_wait import list_gets, wait_args

TIMEOUT_TASKS = ("fleet timeout", "info timeout")
TASKS = ("fleet", "info", *TIMEOUT_TASKS)
COUNT = re.compile(r"^(\d+)/(\d+) ready(?:; waiting for (.*))?$", re.M)

PLAYBOOK = play(
    pod_task("fleet", wait_args("crew", count=3)),
    pod_task("fleet timeout", wait_args("deafcrew", count=2, wait_timeout="3s"), ignore_errors=True),
    pod_task("create", wait_args("later", count=2, wait=False)),
    info_task("info", names="[later-1, later-2]", wait="true", wait_interval="100ms", wait_timeout="30s"),
    info_task("info timeout", ("ignore_errors: true",), names="[deafcrew-1, deafcrew-2]", wait="true",
              wait_interval="100ms", wait_timeout="2s"),
)


def _playbook(sim):
    # The api key comes from module_defaults (the collection's action group), as in test_wait_progress.py.
    defaults = f"  module_defaults:\n    group/runpod.cloud.all:\n      api_key: {sim.api_key}\n"
    return PLAYBOOK.replace("  tasks:\n", defaults + "  tasks:\n", 1)


def _configure(sim):
    # crew-3's and later-2's sshd are held (they never answer on their own) until _run releases them: after the
    # wait has shown the other pods ready, so the line naming the held pod is printed however slowly a loaded
    # machine runs the playbook. (Fixed delays were not enough: on a loaded machine later-2's 6 s had passed before
    # pod_info's first poll, so both pods were ready at once and no "1/2 ready" line came.) deafcrew-2 never answers.
    sim.admin.configure(name_overrides={"crew-3": {"ssh_delay": FOREVER}, "later-2": {"ssh_delay": FOREVER},
                                        "deafcrew-2": {"ssh_behaviour": "refused"}})


# Held pod -> (the controller's line after which it is released, the pods whose sshd must listen first on the
# module's path, which prints no lines; there the release only has to come after those pods, as the results
# compared between the paths leave out poll counts and timings).
HELD = {
    "crew-3": ("2/3 ready; waiting for crew-3", ("crew-1", "crew-2")),
    "later-2": ("1/2 ready; waiting for later-2", ("later-1",)),
}


def _listening(sim, name):
    return any(pod["name"] == name and (pod["listeners"].get("22") or {}).get("listening")
               for pod in sim.admin.pods() if pod["status"] != "TERMINATED")


def _release(sim, name):
    for pod in sim.admin.pods():
        if pod["name"] == name and pod["status"] != "TERMINATED":
            sim.admin.set_pod_behaviour(pod["id"], ssh_delay=0)


def _run(sim, path, env, *, controller):
    fresh_account(sim)
    _configure(sim)
    path.mkdir()
    run = Background(sim, path, _playbook(sim), env={"RUNPOD_API_KEY": None, **env})
    held = dict(HELD)
    deadline = time.monotonic() + 240
    while held and run.process.poll() is None and time.monotonic() < deadline:
        printed = run.stdout_path.read_text()
        for name, (line, first) in list(held.items()):
            if (line in printed) if controller else all(_listening(sim, other) for other in first):
                _release(sim, name)
                del held[name]
        time.sleep(0.05)
    result = run.result(timeout=240)
    assert result.rc == 0, result.stdout + result.stderr
    assert not held, f"never released: {held}"
    return result


def _results(result):
    tasks = {name: dict(result.task_result(name)) for name in TASKS}
    for name in ("info", "info timeout"):
        # pod_info lists pods in the API's order, and a fleet's members are created concurrently (in any order).
        for key in ("pods", "not_ready"):
            if key in tasks[name]:
                tasks[name][key] = sorted(tasks[name][key], key=lambda pod: pod["name"])
    ids = {pod["id"]: f"<{pod['name']}>" for task in tasks.values() for pod in task["pods"] if pod}
    return {name: normalise(task, ids) for name, task in tasks.items()}


def _waits(stdout):
    """The controller's lines of each wait, in task order: each block starts with the wait's first line."""
    blocks = re.split(r"^(?=waiting for (?:ssh|running status) on \d+ pods)", stdout, flags=re.M)
    return [block.splitlines() for block in blocks[1:]]


def test_batch_waits_show_each_pod_and_the_running_count_with_the_same_results(sim, tmp_path):
    live = _run(sim, tmp_path / "controller", {}, controller=True)
    plain = _run(sim, tmp_path / "module", {"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"}, controller=False)

    fleet, fleet_timeout, info, info_timeout = _waits(live.stdout)
    # The fleet: every pod's transitions named with its id, and the count each time it changed, crew-3 last.
    assert fleet[0] == "waiting for ssh on 3 pods of fleet 'crew' (timeout 30s; Ctrl-C keeps the pods, a rerun resumes)"
    pods = live.task_result("fleet")["pods"]
    for pod in pods:
        assert re.search(rf"^pod {pod['name']} \({pod['id']}\): ssh reachable at 127\.0\.0\.1:\d+$",
                         "\n".join(fleet), re.M), fleet
    counts = [line for line in fleet if COUNT.match(line)]
    ready = [int(COUNT.match(line).group(1)) for line in counts]
    assert ready == sorted(set(ready)) and ready[-1] == 3, counts  # one line per change, never backwards
    assert counts[-2:] == ["2/3 ready; waiting for crew-3", "3/3 ready"], fleet
    assert fleet[fleet.index("3/3 ready") + 1].startswith("ssh on 3 pods of fleet 'crew' ready after ")
    # The fleet that times out stays at one of two, naming the pod that never answers.
    assert "1/2 ready; waiting for deafcrew-2" in fleet_timeout, fleet_timeout
    assert any(re.match(r"^pod deafcrew-2 \(\w+\): .*refused", line) for line in fleet_timeout), fleet_timeout
    # pod_info: the same lines for pods it did not create.
    assert info[0].startswith("waiting for ssh on 2 pods (timeout ")
    assert [line for line in info if COUNT.match(line)][-2:] == ["1/2 ready; waiting for later-2", "2/2 ready"]
    assert re.search(r"^pod later-2 \(\w+\): ssh reachable at", "\n".join(info), re.M), info
    assert "1/2 ready; waiting for deafcrew-2" in info_timeout, info_timeout
    # The modules waited by themselves: none of these lines.
    assert not COUNT.search(plain.stdout) and "pod crew-1 (" not in plain.stdout, plain.stdout

    live_results, plain_results = _results(live), _results(plain)
    for name in TIMEOUT_TASKS:
        assert live_results[name]["code"] == "wait_timeout" and live_results[name]["failed"] is True
        assert [entry["name"] for entry in live_results[name]["not_ready"]] == ["deafcrew-2"]
    for name in TASKS:
        assert live_results[name] == plain_results[name], name
        assert set(live.task_result(name)["wait"]) == set(plain.task_result(name)["wait"])


# --- interrupt ---------------------------------------------------------------------------------------------------

STUCK_TASKS = ("stuck fleet", "stuck info")
STUCK = play(
    pod_task("stuck fleet", wait_args("deafcrew", count=2, wait_timeout="2m"), ignore_errors=True),
    info_task("stuck info", ("ignore_errors: true",), names="[deafcrew-1, deafcrew-2]", wait="true",
              wait_interval="100ms", wait_timeout="2m"),
)


def _until_polled(sim, bg, after, reads=4, timeout=60.0):
    """Block until both pods listen on ssh (deafcrew-2 refusing) and the wait has made ``reads`` list reads since
    then and since ``after``: deafcrew-1 has been probed ready by then, so both paths stop in the same state.
    Returns ``{name: id}``."""
    seen = {}

    def both_listening_and_read():
        pods = {pod["name"]: pod for pod in sim.admin.pods()}
        if "mapped" not in seen and len(pods) == 2 and all("22" in (pod.get("listeners") or {})
                                                           for pod in pods.values()):
            seen["mapped"] = max(time.time(), after)
        if "mapped" in seen and len(list_gets(sim, after=seen["mapped"])) >= reads:
            return {name: pod["id"] for name, pod in pods.items()}
        return None

    return bg.until(both_listening_and_read, timeout=timeout, what="the wait polled both pods")


def test_interrupted_fleet_and_pod_info_waits_give_the_same_result_on_both_paths(sim, tmp_path):
    """SIGINT (Ctrl-C) during a fleet's wait, SIGTERM during a pod_info wait, to the process that waits: the
    ansible-playbook worker on the controller path, the module with RUNPOD_CLOUD_CONTROLLER_WAIT=false. Both end
    in the same ``wait_interrupted`` result naming the pod that is not ready, and nothing is deleted."""
    runs, ids = {}, {}
    for where in ("controller", "module"):
        fresh_account(sim, name_overrides={"deafcrew-2": {"ssh_behaviour": "refused"}})
        (tmp_path / where).mkdir()
        env = {"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"} if where == "module" else None
        bg = Background(sim, tmp_path / where, STUCK, env=env)
        ids[where] = _until_polled(sim, bg, after=0.0)
        signalled = time.time()
        bg.signal_waiter(where, signal.SIGINT, "pod")
        # pod_info reads the pods that are now kept (its first read, then its polls).
        _until_polled(sim, bg, after=signalled)
        bg.signal_waiter(where, signal.SIGTERM, "pod_info")
        runs[where] = bg.result()
        assert runs[where].rc == 0, runs[where].stdout[-3000:] + runs[where].stderr[-3000:]

        deaf = ids[where]["deafcrew-2"]
        fleet, info = (runs[where].task_result(name) for name in STUCK_TASKS)
        for outcome in (fleet, info):
            assert outcome["failed"] is True and outcome["code"] == "wait_interrupted", outcome
            assert outcome["msg"].startswith("Interrupted after "), outcome["msg"]
            # The pod not ready with its last state, and the remedy: nothing deleted, how to inspect and delete.
            assert [(entry["id"], entry["name"]) for entry in outcome["not_ready"]] == [(deaf, "deafcrew-2")]
            state = outcome["not_ready"][0]["state"]
            assert "refused" in state, state
            assert f"(1 of 2 ready). Not ready: {deaf} (deafcrew-2): {state}. Nothing was deleted: " in outcome["msg"]
            assert f"runpod.cloud.pod_info ids={deaf}," in outcome["msg"]
            assert "runpod.cloud.pod id=<id> state=absent" in outcome["msg"]
            assert {"elapsed", "polls", "last_state"} <= set(outcome["wait"])
            assert sorted(pod["name"] for pod in outcome["pods"]) == ["deafcrew-1", "deafcrew-2"]
        assert fleet["changed"] is True and "waiting for ssh on 2 pods of fleet 'deafcrew'" in fleet["msg"]
        assert "waiting for ssh on 2 pods (" in info["msg"], info["msg"]
        # Nothing deleted: both pods still listed and running.
        assert sim.admin.count("DELETE") == 0
        assert sorted((pod["name"], pod["status"]) for pod in sim.admin.pods()) == [
            ("deafcrew-1", "RUNNING"), ("deafcrew-2", "RUNNING")]

    # The controller showed both waits live; the modules waited by themselves.
    live, quiet = runs["controller"].stdout, runs["module"].stdout
    deaf = ids["controller"]["deafcrew-2"]
    first = "waiting for ssh on 2 pods of fleet 'deafcrew' (timeout 2m; Ctrl-C keeps the pods, a rerun resumes)"
    assert first in live, live
    assert re.search(r"^waiting for ssh on 2 pods \(timeout ", live, re.M), live
    assert len(re.findall(rf"^pod deafcrew-2 \({deaf}\): .*refused", live, re.M)) >= 2, live
    assert not COUNT.search(quiet) and "pod deafcrew-2 (" not in quiet, quiet
    assert not re.search(r"^waiting for ssh on", quiet, re.M), quiet
    shaped = {}
    for where, run in runs.items():
        results = {name: dict(run.task_result(name)) for name in STUCK_TASKS}
        for result in results.values():
            result["pods"] = sorted(result["pods"], key=lambda pod: pod["name"])
        # <id0> is deafcrew-1 and <id1> deafcrew-2 on both paths (the data center's id comes next).
        found = collect_ids([ids[where]["deafcrew-1"], ids[where]["deafcrew-2"]], {}, "ids")
        shaped[where] = normalise(results, collect_ids(results, found))
    for name in STUCK_TASKS:
        assert shaped["controller"][name] == shaped["module"][name], name
        assert set(runs["controller"].task_result(name)["wait"]) == set(runs["module"].task_result(name)["wait"])
