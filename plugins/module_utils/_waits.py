# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The waits of the waiting modules, run by the module itself or, on the controller, by its action plugin.

A waiting module subclasses its ``*Wait`` class here, so the module and the action plugin run one
``wait_for``: the results cannot drift apart. ``resume_wait`` is the controller's side of the handoff
(docs/dev/architecture.md, "Waits on the controller").
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils import _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._base import HANDOFF_KEY, ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._describe import describe_pod
from ansible_collections.runpod.cloud.plugins.module_utils._pollers import PodPoller

POD_WAIT_STATES = ("present", "running", "restarted")


def with_proven_ssh(described, proven):
    """A pod's description after a wait: the SSH address the wait proved, when the last read had none yet."""
    if described is not None and described["ssh"] is None and proven and not _podstate.known_down(
        described["runtime_status"]
    ):
        described["ssh"] = proven
        described["ssh_not_ready"] = None
    return described


class PodWait(ResourceModule):
    """What ``runpod.cloud.pod`` needs to wait: its messages, its description and the wait itself."""

    resource_kind = "pod"
    track_actions = True
    keep_deleted = False
    controller_wait = True

    def resource_remedy(self, resource_id):
        return (
            f"pod {resource_id} was kept and bills by the second while it runs: inspect it with "
            f"{self.info_hint(resource_id)}, or delete it with {self.delete_hint(resource_id)}"
        )

    def last_known_state(self):
        return self.result["pod"]["runtime_status"] if self.result.get("pod") else "unknown"

    def describe(self, resource):
        return describe_pod(resource)

    def should_wait(self):
        return super().should_wait() and self.params["state"] in POD_WAIT_STATES

    def wait_for(self, resource):
        pod_id = resource.id
        before = self.result.get("pod")  # the pod as last read before the wait (what ``seen`` described)
        wait_for = self.wait_settings.wait_for
        poller = PodPoller(self.backend, pod_id, wait_for=wait_for)
        outcome = self.wait_until(
            poller,
            label=f"{wait_for} on pod {pod_id}",
            resource_id=pod_id,
            describe_last=lambda: self.describe(poller.last_pod) if poller.last_pod is not None else before,
        )
        # No re-read after the wait: the list read the wait ended on already carries the whole pod, and one
        # less API call is one less way for a ready pod to end in a failure.
        if poller.last_pod is not None:
            self.seen(poller.last_pod)
        with_proven_ssh(self.result["pod"], (outcome.value or {}).get("ssh"))
        self.result["wait"] = outcome.as_dict()


class _WaitEndedError(Exception):
    def __init__(self, result):
        super().__init__("wait ended")
        self.result = result


class _ControllerModule:
    """The part of AnsibleModule a resumed wait uses; ``exit_json``/``fail_json`` end it with its result."""

    check_mode = False
    _diff = False

    def __init__(self, params: dict) -> None:
        self.params = params

    def warn(self, warning: str) -> None:
        """The module already gave its warnings (the connection options are the same)."""

    def exit_json(self, **result: Any) -> None:
        raise _WaitEndedError(result)

    def fail_json(self, msg: str, **result: Any) -> None:
        raise _WaitEndedError(dict(result, failed=True, msg=msg))


def resume_wait(wait_class, module_result: dict, api_key: str, progress=None, on_transition=None) -> dict:
    """Run the wait the module handed off (``module_result[HANDOFF_KEY]``) here; return the task's result.

    The module did everything but the wait; this runs the same ``wait_for`` on its result, so the result is
    what the module would have returned had it waited itself.
    """
    result = dict(module_result)
    handoff = result.pop(HANDOFF_KEY)
    module = _ControllerModule(dict(handoff["params"], api_key=api_key))
    try:
        runner = wait_class(module)
        runner.progress = progress
        runner.on_transition = on_transition
        runner.result = result
        runner.touched_id = handoff.get("touched_id")
        try:
            runner.wait_for(SimpleNamespace(id=handoff["id"], name=handoff.get("name")))
        except RunPodError as error:  # as run_module does: the structured failure, never a traceback
            runner.fail_unexpected(error)
        runner.exit()
    except _WaitEndedError as ended:
        return ended.result
    raise AssertionError("the resumed wait neither exited nor failed")  # pragma: no cover
