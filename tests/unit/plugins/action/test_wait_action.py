# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""plugins/plugin_utils/_wait_action.py without a playbook: where the wait runs, and what the display shows.

``WaitingAction._controller_api_key`` decides whether the controller waits (it returns the key it waits
with) or the module waits by itself (``None``); ``run`` then hands off or runs the plain module. The
display tests drive the real engine with a FakeClock, so the 15 s heartbeat is seen without waiting 15 s
(docs/dev/architecture.md, "Waits on the controller").
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest
from ansible.module_utils import _internal
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar
from helpers.fakes import UNIT_API_KEY, FakeBackend, install_backend, install_clock, pod_view, run_module

from ansible_collections.runpod.cloud.plugins.module_utils._engine import poll as _wait
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.module_utils._module import controller as _controller
from ansible_collections.runpod.cloud.plugins.module_utils._module import pod_waiter as _waits
from ansible_collections.runpod.cloud.plugins.modules import pod as pod_module
from ansible_collections.runpod.cloud.plugins.plugin_utils import _wait_action
from ansible_collections.runpod.cloud.plugins.plugin_utils._wait_action import ProgressLines, WaitingAction

KEY = "rpa_ACTIONUNIT_0123456789"


class _Shell:
    tmpdir = None

    def env_prefix(self, **env):
        return " ".join(f"{name}=..." for name in env)


class _Action(WaitingAction):
    waiter_class = _waits.PodWaiter


def action(args=None, *, transport="local", check_mode=False, play_check_mode=False, environment=None,
           async_val=0, no_log=False):
    """The pod action plugin over stand-ins for the task, connection and play context Ansible gives it."""
    task = SimpleNamespace(
        args={"name": "web", "wait": True, **(args or {})},
        check_mode=check_mode,
        environment=environment,
        async_val=async_val,
        action="runpod.cloud.pod",
    )
    connection = SimpleNamespace(transport=transport, has_native_async=False, _shell=_Shell())
    play_context = SimpleNamespace(check_mode=play_check_mode, no_log=no_log)
    return _Action(task, connection, play_context, DataLoader(), Templar(loader=DataLoader()))


@pytest.fixture(autouse=True)
def controller(monkeypatch):
    """A controller with httpx and pydantic, no RUNPOD_* in its environment."""
    for name in ("RUNPOD_API_KEY", _wait_action.CONTROLLER_WAIT_ENV, _base.HANDOFF_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(_wait_action, "HAS_HTTPX", True)
    monkeypatch.setattr(_wait_action, "HAS_PYDANTIC", True)


# --- where the wait runs --------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", ["local", "ansible.builtin.local"])
def test_a_local_task_with_a_key_waits_on_the_controller(transport):
    assert action({"api_key": KEY}, transport=transport)._controller_api_key() == KEY


@pytest.mark.parametrize("transport", ["ssh", "ansible.builtin.ssh", "paramiko_ssh", "community.docker.docker",
                                       "winrm", None])
def test_another_connection_or_a_delegated_task_lets_the_module_wait(transport):
    # delegate_to another host gives the action plugin that host's connection: not the controller's process.
    assert action({"api_key": KEY}, transport=transport)._controller_api_key() is None


@pytest.mark.parametrize("where", ["task", "play"])
def test_check_mode_never_hands_off(where):
    made = action({"api_key": KEY}, check_mode=where == "task", play_check_mode=where == "play")
    assert made._controller_api_key() is None


@pytest.mark.parametrize("wait", [False, "no", "false", 0, None])
def test_no_wait_no_handoff(wait):
    assert action({"api_key": KEY, "wait": wait})._controller_api_key() is None


def test_wait_missing_is_the_modules_default_false():
    made = action({"api_key": KEY})
    del made._task.args["wait"]
    assert made._controller_api_key() is None


@pytest.mark.parametrize("wait", [True, "yes", "true", 1])
def test_any_true_spelling_of_wait_hands_off(wait):
    assert action({"api_key": KEY, "wait": wait})._controller_api_key() == KEY


def test_an_unconvertible_wait_leaves_the_refusal_to_the_module():
    assert action({"api_key": KEY, "wait": {"not": "a bool"}})._controller_api_key() is None


@pytest.mark.parametrize("value, controller", [("false", False), ("no", False), ("0", False), ("off", False),
                                               ("true", True), ("yes", True), ("1", True)])
def test_runpod_cloud_controller_wait_env(monkeypatch, value, controller):
    monkeypatch.setenv(_wait_action.CONTROLLER_WAIT_ENV, value)
    assert action({"api_key": KEY})._controller_api_key() == (KEY if controller else None)


@pytest.mark.parametrize("missing", ["HAS_HTTPX", "HAS_PYDANTIC"])
def test_a_controller_without_httpx_or_pydantic_lets_the_module_wait(monkeypatch, missing):
    monkeypatch.setattr(_wait_action, missing, False)
    assert action({"api_key": KEY})._controller_api_key() is None


def test_no_key_anywhere_lets_the_module_wait():
    # The module then reports the missing key itself, with its own message.
    assert action()._controller_api_key() is None
    assert action({"api_key": ""})._controller_api_key() is None


def test_the_key_from_the_tasks_environment_then_the_controllers(monkeypatch):
    hidden = []  # each key the controller waits with is registered as a secret (base.hide_secrets)
    monkeypatch.setattr(_wait_action, "hide_secrets", hidden.extend)
    task_env = [{"RUNPOD_API_KEY": "from-the-play"}, {"OTHER": "x"}, {"RUNPOD_API_KEY": "from-the-task"}]
    assert action(environment=task_env)._controller_api_key() == "from-the-task"
    assert action(environment={"RUNPOD_API_KEY": "one-dict"})._controller_api_key() == "one-dict"
    monkeypatch.setenv("RUNPOD_API_KEY", "from-the-controller")
    assert action()._controller_api_key() == "from-the-controller"
    # The module resolves api_key before RUNPOD_API_KEY, and the task's environment before the controller's.
    assert action(environment=task_env)._controller_api_key() == "from-the-task"
    assert action({"api_key": KEY}, environment=task_env)._controller_api_key() == KEY
    assert hidden == ["from-the-task", "one-dict", "from-the-controller", "from-the-task", KEY]


def test_a_key_from_module_defaults_is_a_task_arg_by_the_time_the_action_runs():
    # Ansible merges module_defaults into the task's args before the action plugin runs (Task.post_validate);
    # tests/integration/test_wait_progress.py proves it with group/runpod.cloud.all.
    assert action({"api_key": KEY, "wait_timeout": "5s"})._controller_api_key() == KEY


# --- run(): the handoff or the plain module -----------------------------------------------------------


@pytest.fixture
def executed(monkeypatch):
    """Record each module run (its wrap_async and the environment it got); answer with ``answer``."""
    calls = []
    answer = {"changed": True, "pod": {"id": "pod-1"}}

    def execute_module(self, task_vars=None, wrap_async=False, **kwargs):
        environment = {}
        self._compute_environment_string(raw_environment_out=environment)
        calls.append({"wrap_async": wrap_async, "environment": environment})
        return dict(answer)

    monkeypatch.setattr(_Action, "_execute_module", execute_module)
    monkeypatch.setattr(_Action, "_remove_tmp_path", lambda self, path: None)
    return calls


def test_async_runs_the_plain_module_without_a_handoff(executed, monkeypatch):
    monkeypatch.setattr(_wait_action, "resume_wait", lambda *a, **k: pytest.fail("async must not resume a wait"))
    result = action({"api_key": KEY}, async_val=60).run(task_vars={})
    assert result["changed"] is True
    assert executed == [{"wrap_async": True, "environment": {}}]


def test_a_local_wait_runs_the_module_with_the_fingerprint_then_resumes_here(executed, monkeypatch):
    handoff = {"id": "pod-1", "name": "web", "touched_id": "pod-1", "params": {}}
    resumed = []

    def execute_module(self, task_vars=None, wrap_async=False, **kwargs):
        environment = {}
        self._compute_environment_string(raw_environment_out=environment)
        executed.append(environment)
        return {"changed": True, _base.HANDOFF_KEY: handoff}

    def resume(wait_class, module_result, api_key, progress=None, on_transition=None, secrets=(), run_command=None):
        # The controller starts ssh-keyscan and ssh itself: no AnsibleModule runs there.
        assert run_command is _wait_action.run_local
        resumed.append((wait_class, api_key, progress is not None, on_transition is not None))
        return {"changed": True, "wait": {"polls": 1}}

    monkeypatch.setattr(_Action, "_execute_module", execute_module)
    monkeypatch.setattr(_wait_action, "resume_wait", resume)
    made = action({"api_key": KEY}, environment={"LANG": "C"})
    assert made.run(task_vars={}) == {"changed": True, "wait": {"polls": 1}}
    # The fingerprint, never the key, travels to the module; the task's own environment is given back after.
    assert executed == [{"LANG": "C", _base.HANDOFF_ENV: _base.key_fingerprint(KEY)}]
    assert KEY not in str(executed)
    assert made._task.environment == {"LANG": "C"}
    assert resumed == [(_waits.PodWaiter, KEY, True, True)]
    # no_log: the wait still runs here, with nothing to show.
    resumed.clear()
    action({"api_key": KEY}, no_log=True).run(task_vars={})
    assert resumed == [(_waits.PodWaiter, KEY, False, False)]


def test_the_controller_runs_a_local_tool_with_no_stdin():
    script = "read line; echo \"rc=$?\"; echo oops >&2; exit 3"  # read fails at once: stdin is empty
    assert _wait_action.run_local(["sh", "-c", script]) == (3, "rc=1\n", "oops\n")


@pytest.mark.parametrize("answer", [
    {"changed": True, "wait": {"polls": 3}},  # the module waited by itself (another key resolved there)
    {"failed": True, "msg": "creating pod 'web' failed", _base.HANDOFF_KEY: {"id": "x"}},
])
def test_a_module_that_did_not_hand_off_is_the_result(monkeypatch, answer):
    monkeypatch.setattr(_Action, "_execute_module", lambda self, task_vars=None, wrap_async=False: dict(answer))
    monkeypatch.setattr(_Action, "_remove_tmp_path", lambda self, path: None)
    monkeypatch.setattr(_wait_action, "resume_wait", lambda *a, **k: pytest.fail("nothing to resume"))
    result = action({"api_key": KEY}).run(task_vars={})
    assert _base.HANDOFF_KEY not in result
    assert {key: value for key, value in answer.items() if key != _base.HANDOFF_KEY}.items() <= result.items()


# --- what the display shows -----------------------------------------------------------------------------


class _Display:
    def __init__(self, verbosity):
        self.verbosity = verbosity
        self.lines = []

    def display(self, text):
        self.lines.append(text)


@pytest.fixture
def shown(monkeypatch):
    def install(verbosity):
        fake = _Display(verbosity)
        monkeypatch.setattr(_wait_action, "display", fake)
        return fake.lines

    return install


def _scripted(clock, *steps):
    """A poll that answers ``(until_elapsed, ready, detail)`` steps by the fake clock's elapsed time."""

    def poll():
        for until, ready, detail in steps:
            if clock.elapsed < until:
                return _wait.PollResult(ready, detail)
        return _wait.PollResult(True, steps[-1][2])

    return poll


@pytest.mark.parametrize("verbosity", [0, 1])
def test_heartbeat_every_15_seconds_and_one_line_per_change(fake_clock, shown, verbosity):
    lines = shown(verbosity)
    progress = ProgressLines("pod", "trainer-1", "abc123")
    poll = _scripted(fake_clock, (10, False, "pod status provisioning"), (47, False, "ssh port 1.2.3.4:40022 "
                     "allocated but not reachable: connection refused"), (99, True, "ssh reachable at 1.2.3.4:40022"))
    _wait.until(poll, label="ssh on pod abc123", timeout=120, interval=5, clock=fake_clock, progress=progress.line,
                on_transition=progress.transition, resource_id="abc123")
    refused = "ssh port 1.2.3.4:40022 allocated but not reachable: connection refused"
    changes = ["pod status provisioning", refused, "ssh reachable at 1.2.3.4:40022"]
    stamps = [" [+0.0s]", " [+10.0s]", " [+50.0s]"] if verbosity else ["", "", ""]
    assert lines == [
        "waiting for ssh on pod abc123 (timeout 2m0s)",
        f"pod trainer-1 (abc123): {changes[0]}{stamps[0]}",
        f"pod trainer-1 (abc123): {changes[1]}{stamps[1]}",
        f"still waiting for ssh on pod abc123 (15s elapsed): {refused}",
        f"still waiting for ssh on pod abc123 (30s elapsed): {refused}",
        f"still waiting for ssh on pod abc123 (45s elapsed): {refused}",
        f"pod trainer-1 (abc123): {changes[2]}{stamps[2]}",
        "ssh on pod abc123 ready after 50s: ssh reachable at 1.2.3.4:40022",
    ]


def test_a_pod_without_a_name_is_shown_by_its_id(shown):
    lines = shown(0)
    ProgressLines("pod", None, "abc123").transition({"elapsed": 1.25, "state": "pod status starting"})
    assert lines == ["pod abc123: pod status starting"]


@pytest.fixture
def module_side(monkeypatch):
    """Run the pod module as on a target (its warnings in its result), as tests/unit/plugins/modules does."""
    monkeypatch.setattr(_internal, "is_controller", False)


def test_a_resumed_pod_wait_shows_its_heartbeat_and_ends_like_the_modules_own_wait(
        capsys, monkeypatch, make_clock, shown, module_side):
    """The real chain: the module hands off, the controller resumes with the display wired (FakeClock)."""
    run = functools.partial(run_module, pod_module)
    args = {"name": "web", "wait": True, "wait_timeout": "2m", "wait_interval": "5s", "wait_for": "running"}
    booting, up = pod_view(runtime_reported=False), pod_view()

    def boot_after_40s(clock, seconds):
        if clock.elapsed >= 40:
            backend.pods.store["pod-1"] = up

    backend = FakeBackend(pods=[booting])
    install_clock(monkeypatch, make_clock(on_sleep=boot_after_40s))
    own = run(backend, capsys, monkeypatch, **args)

    backend = FakeBackend(pods=[booting])
    install_clock(monkeypatch, make_clock(on_sleep=boot_after_40s))
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    handed = run(backend, capsys, monkeypatch, **args)
    assert "wait" not in handed and handed[_base.HANDOFF_KEY]["id"] == "pod-1"
    install_backend(monkeypatch, backend)
    lines = shown(0)
    progress = ProgressLines("pod", "web", "pod-1")
    resumed = _controller.resume_wait(_waits.PodWaiter, handed, UNIT_API_KEY, progress=progress.line,
                                      on_transition=progress.transition)
    assert resumed == own
    heartbeats = [line for line in lines if line.startswith("still waiting for running on pod pod-1 (")]
    assert [line.split("(")[1].split(" ")[0] for line in heartbeats] == ["15s", "30s"]
    assert lines[0] == "waiting for running on pod pod-1 (timeout 2m; Ctrl-C keeps the pod, a rerun resumes)"
    assert [line for line in lines if line.startswith("pod web (pod-1): ")] == [
        f"pod web (pod-1): {entry['state']}" for entry in own["wait"]["history"]]
    assert lines[-1].startswith("running on pod pod-1 ready after 40s")
