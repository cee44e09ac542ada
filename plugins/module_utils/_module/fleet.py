# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Fleets: ``count`` on the pod module, pods ``{name}-1`` .. ``{name}-N`` in one task (docs/pods.md, "Fleets"), each
run by the pod module's own code on the task's one backend (docs/dev/architecture.md, "Fleets")."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import Report
from ansible_collections.runpod.cloud.plugins.module_utils._module.batch import wait_fleet


class SharedCatalog:
    """The fleet's one catalog read (``shared_read``): the first create reads, the others get its answer or failure."""

    def __init__(self):
        self._lock = threading.Lock()
        self._answer: tuple[Any, Exception | None] | None = None

    def __call__(self, read):
        with self._lock:
            if self._answer is None:
                try:
                    self._answer = (read(), None)
                except Exception as read_error:  # the catalog is a hint: each create handles the failure
                    self._answer = (None, read_error)
        answer, failure = self._answer
        if failure is not None:
            raise failure
        return answer


class MemberFailedError(Exception):
    """A member's failure: its failure result, collected instead of ending the task."""

    def __init__(self, result):
        super().__init__(result.get("msg", ""))
        self.result = result


class MemberReport(Report):
    """A member's warnings are collected (the task gives each once); its failure is raised, never the task's end."""

    def __init__(self):
        super().__init__(None)
        self.warnings = []

    def warn(self, warning):
        self.warnings.append(warning)

    def fail(self, msg, result):
        raise MemberFailedError(dict(result, msg=msg))

    def exit(self, result):  # pragma: no cover - a member never exits
        raise AssertionError("a fleet member never exits the task")


class _Member:
    def __init__(self, owner, name, matches, catalog):
        self.name = name
        self.matches = matches
        self.report = MemberReport()
        params = dict(owner.params, name=name, count=None, wait=False)
        self.runner = type(owner)(owner.module, params=params, report=self.report, backend=owner.backend,
                                  shared_read=catalog)
        # The same name created at the same moment elsewhere: one list read for the fleet (_recheck_names).
        self.recheck = owner.recheck_name_after_create
        self.runner.recheck_name_after_create = False
        self.created = None
        self.failure = None

    def run(self):
        runner = self.runner
        try:
            try:
                if len(self.matches) > 1:
                    runner.name_guard.fail_ambiguous(self.name, self.matches)
                current = runner.seen(self.matches[0] if self.matches else None)
                if runner.params["state"] == "absent":
                    runner.absent(current)
                else:
                    resource = runner.present(current)
                    if current is None:
                        self.created = resource
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
    names = [f"{params['name']}-{index}" for index in range(1, params["count"] + 1)]
    try:
        found = owner.backend.pods.find_named(names)
    except RunPodError as error:
        owner.fail_api(error, f"listing the pods named {names[0]} .. {names[-1]} failed")
    if params["state"] != "absent" and not all(found[name] for name in names):
        owner.refuse_sshd_without_key()  # the members create without a wait: the fleet's wait asks for the key
    catalog = SharedCatalog()
    members = [_Member(owner, name, found[name], catalog) for name in names]
    workers = min(params["create_concurrency"], len(members))
    with ThreadPoolExecutor(workers, thread_name_prefix="runpod-fleet") as pool:
        list(pool.map(_Member.run, members))
    _recheck_names(owner, members, names)
    _collect(owner, members)
    failures = [dict(name=m.name, msg=m.failure.get("msg", ""), code=m.failure.get("code", "")) for m in members
                if m.failure]
    if failures:
        _fail_partly(owner, members, failures)
    if owner.should_wait() and owner.result["ids"]:
        listed = [{"name": member.name, "id": member.pod_id} for member in members]
        owner.hand_off(members=listed)  # on the controller, the action plugin runs the wait (batch.wait_fleet)
        wait_fleet(owner.waiter, listed)
    owner.exit()


def _recheck_names(owner, members, names):
    """One list read after the creates: the single pod's check (``ambiguous``, nothing deleted) for each member."""
    created = [m for m in members if m.created is not None and m.failure is None and m.recheck]
    if not created:
        return
    try:
        found = owner.backend.pods.find_named(names)
    except RunPodError as error:
        failed_read = error

        def lookup(_name):
            raise failed_read
    else:
        def lookup(name):
            return found.get(name, [])
    for member in created:
        try:
            member.runner.name_guard.refuse_concurrent_duplicates(member.created, find_by_name=lookup)
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
    warnings = dict.fromkeys(warning for m in members for warning in m.report.warnings)
    for warning in warnings:
        owner.warn(warning)


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
