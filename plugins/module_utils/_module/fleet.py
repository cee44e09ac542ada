# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Fleets: ``count`` on the pod module, pods ``{name}-1`` .. ``{name}-N`` managed in one task.

Each member runs the single-pod module's own code (create with its placement rules, adoption, update,
start/stop/restart, delete) on a member runner whose failures are collected instead of ending the task.
Members run ``create_concurrency`` at a time on the task's one backend: one HTTP client, so one quota keeper
(``_api.quota``) paces every worker by RunPod's windows and one 429 pauses them all. One list read finds every
member by name; ``wait`` is one batch wait (``BatchPodPoller``, the engine ``pod_info`` uses). See docs/pods.md
("Fleets", "Fleets and RunPod's quotas").
"""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import name_problem
from ansible_collections.runpod.cloud.plugins.module_utils._module.batch import wait_fleet

MAX_COUNT = 100
MAX_CONCURRENCY = 50
# The pod module's fleet options; paired with its DOCUMENTATION (count, create_concurrency).
FLEET_ARGUMENT_SPEC = dict(
    count=dict(type="int"),
    create_concurrency=dict(type="int", default=10),
)


def fleet_problem(params):
    """Why the fleet options cannot work (a ``bad_request`` before any API call), else None."""
    count, concurrency = params.get("count"), params.get("create_concurrency")
    if concurrency is not None and not 1 <= concurrency <= MAX_CONCURRENCY:
        return f"create_concurrency must be between 1 and {MAX_CONCURRENCY}, got {concurrency}."
    if count is None:
        return None
    if not 1 <= count <= MAX_COUNT:
        return f"count must be between 1 and {MAX_COUNT}, got {count}."
    if params.get("id"):
        return "count manages the pods {name}-1 .. {name}-N found by name, so it cannot be combined with id."
    if not params.get("name"):
        return "count needs name: the pods are named {name}-1 .. {name}-N."
    # The longest member name must be a valid name too (checked here, before any member exists).
    return name_problem(f"{params['name']}-{count}", option=f"name with count {count} (the pod names {{name}}-K)")


def member_names(base, count):
    return [f"{base}-{index}" for index in range(1, count + 1)]


@contextlib.contextmanager
def one_catalog_read(backend):
    """While the members create, the backend's ``read_gpu_catalog`` (REST v2) is read once for the whole fleet:
    every member's spec differs only by name. The members share the task's one backend (one HTTP client, so a 429
    pauses every worker); each create returns its own placement."""
    read = getattr(backend, "read_gpu_catalog", None)
    if read is None:
        yield
        return
    lock = threading.Lock()
    memo: dict[str, tuple[Any, Exception | None]] = {}

    def shared(spec=None, **kwargs):
        with lock:  # the first member reads, the others wait for its answer
            if "answer" not in memo:
                try:
                    memo["answer"] = (read(spec, **kwargs), None)
                except Exception as read_error:  # the catalog is a hint: each create handles the failure
                    memo["answer"] = (None, read_error)
        answer, failure = memo["answer"]
        if failure is not None:
            raise failure
        return answer

    backend.read_gpu_catalog = shared
    try:
        yield
    finally:
        del backend.read_gpu_catalog


class MemberFailedError(Exception):
    """A member's ``fail_json``: its failure result, collected instead of ending the task."""

    def __init__(self, result):
        super().__init__(result.get("msg", ""))
        self.result = result


class _MemberModule:
    """What a member's code sees in place of the AnsibleModule: its own name, no wait, failures raised."""

    def __init__(self, module, name):
        self.params = dict(module.params, name=name, count=None, wait=False)
        self.check_mode = module.check_mode
        self._diff = module._diff
        self.warnings = []

    def warn(self, warning):
        self.warnings.append(warning)

    def fail_json(self, **result):
        raise MemberFailedError(result)

    def exit_json(self, **result):  # pragma: no cover - a member never exits
        raise AssertionError("a fleet member never exits the task")


class _Member:
    def __init__(self, owner, name, matches):
        self.name = name
        self.matches = matches
        self.module = _MemberModule(owner.module, name)
        self.runner = type(owner)(self.module)
        self.runner._backend = owner.backend
        # The check for the same name created at the same moment elsewhere is one list read for the whole fleet,
        # after every create settled (_recheck_names), not one per member.
        self.recheck = self.runner.recheck_name_after_create
        self.runner.recheck_name_after_create = False
        self.created = None
        self.failure = None

    def run(self):
        runner = self.runner
        try:
            try:
                if len(self.matches) > 1:
                    runner.fail_ambiguous(self.name, self.matches)
                current = runner.seen(self.matches[0] if self.matches else None)
                if runner.params["state"] == "absent":
                    runner.absent(current)
                elif current is not None:
                    runner.converge(current)
                else:
                    self.created = runner.create_missing()
            except RunPodError as error:
                runner.fail_unexpected(error)
        except MemberFailedError as failed:
            self.failure = failed.result
        except Exception as error:  # a bug in one member must not hide what the others created
            self.failure = {"msg": f"unexpected error: {type(error).__name__}: {error}", "code": "internal_error"}

    @property
    def changed(self):
        return bool((self.failure or {}).get("changed", self.runner.result["changed"]))

    @property
    def pod(self):
        return self.runner.result.get("pod")

    @property
    def pod_id(self):
        return (self.pod or {}).get("id") or (self.failure or {}).get("id")


def run_fleet(owner):
    """The whole task with ``count``: every member converged concurrently, then one batch wait; exits."""
    params = owner.params
    names = member_names(params["name"], params["count"])
    try:
        found = owner.backend.find_pods_named(names)
    except RunPodError as error:
        owner.fail_api(error, f"listing the pods named {names[0]} .. {names[-1]} failed")
    members = [_Member(owner, name, found[name]) for name in names]
    workers = min(params["create_concurrency"], len(members))
    with one_catalog_read(owner.backend), ThreadPoolExecutor(workers, thread_name_prefix="runpod-fleet") as pool:
        for _done in pool.map(_Member.run, members):
            pass
    _recheck_names(owner, members, names)
    _collect(owner, members)
    failures = [dict(name=m.name, msg=m.failure.get("msg", ""), code=m.failure.get("code", "")) for m in members
                if m.failure]
    if failures:
        _fail_partly(owner, members, failures)
    if owner.should_wait() and owner.result["ids"]:
        listed = [{"name": member.name, "id": member.pod_id} for member in members]
        owner.hand_off(members=listed)  # on the controller, the action plugin runs the wait (_waits.wait_fleet)
        wait_fleet(owner, listed)
    owner.exit()


def _recheck_names(owner, members, names):
    """One list read after the creates: a member whose name another task created at the same moment fails
    (``ambiguous``, nothing deleted), with the single pod's own check and message."""
    created = [m for m in members if m.created is not None and m.failure is None and m.recheck]
    if not created:
        return
    try:
        found = owner.backend.find_pods_named(names)
    except RunPodError as error:
        failed_read = error

        def lookup(_name):
            raise failed_read
    else:
        def lookup(name):
            return found.get(name, [])
    for member in created:
        member.runner.find_by_name = lookup
        try:
            member.runner.refuse_concurrent_duplicates(member.created)
        except MemberFailedError as failed:
            member.failure = failed.result


def _collect(owner, members):
    result = owner.result
    result["changed"] = any(member.changed for member in members)
    result["pods"] = [member.pod for member in members]
    result["ids"] = [member.pod_id for member in members if member.pod_id]
    result["actions"] = [f"{action} {m.name}" for m in members for action in m.runner.result.get("actions", [])]
    diffs = [(m.name, m.runner.result["diff"]) for m in members if m.runner.result.get("diff")]
    if diffs:
        result["diff"] = {key: {name: diff[key] for name, diff in diffs} for key in ("before", "after")}
    warnings = dict.fromkeys(warning for m in members for warning in m.module.warnings)
    for warning in warnings:
        owner.module.warn(warning)


def _fail_partly(owner, members, failures):
    """Some members failed: fail after all settled, keep (and name) every pod there is, delete nothing."""
    codes = {failure["code"] for failure in failures}
    listing = "; ".join(f"{failure['name']}: {failure['msg']}" for failure in failures)
    ids = owner.result["ids"]
    kept = (
        f"Nothing was deleted: {len(ids)} pod(s) of the fleet exist (ids: {', '.join(ids)}) and bill by the second "
        f"while they run; inspect them with runpod.cloud.pod_info ids={','.join(ids)}, or run the task again "
        "(existing pods are reused, missing ones created)."
        if ids else "Nothing was deleted, and no pod of the fleet exists."
    )
    extra = {}
    quotas = [m.failure["quota"] for m in members if m.failure and m.failure.get("quota")]
    if quotas:  # the window that cannot reset within the task's budget (docs/pods.md, "Fleets and RunPod's quotas")
        extra["quota"] = quotas[0]
    owner.fail(
        f"{len(failures)} of {len(members)} pods failed: {listing}. {kept}",
        code=codes.pop() if len(codes) == 1 else "partial_failure",
        failures=failures,
        **extra,
    )
