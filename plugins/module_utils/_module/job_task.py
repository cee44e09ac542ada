# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``JobModule``: ``runpod.cloud.endpoint_job`` (docs/dev/wait-and-status.md, section 8). A job has no name, so each
task with ``input`` submits one; a wait never cancels the job it waits on: its failure says how to."""

from __future__ import annotations

import time
from typing import Any, NoReturn

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.job_inputs import job_request
from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import Endpoints
from ansible_collections.runpod.cloud.plugins.module_utils._backend.jobs import Jobs, sync_wait_ms
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine.job_poller import (
    FAILURE_CODES,
    JobPoller,
    is_terminal,
)
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter


def failure_message(job: dict) -> str:
    """Why a terminal job that did not complete fails the task; FAILED carries the worker's own error text."""
    where = f"job {job['id']} on endpoint {job['endpoint_id']}"
    status = job["status"]
    if status == "FAILED":
        return f"{where} FAILED: {job.get('error') or 'the worker reported no error text'}"
    if status == "TIMED_OUT":
        detail = f": {job['error']}" if job.get("error") else ""
        return (f"{where} TIMED_OUT: it ran longer than its execution timeout (execution_timeout, else the "
                f"endpoint's execution_timeout_ms){detail}")
    return f"{where} was CANCELLED before it finished (a cancel request, a purge or the endpoint's deletion)"


class JobModule(RunPodModule):
    """Dispatch on the options: ``input`` submits, ``id`` reads or waits, ``state: cancelled`` cancels."""

    uses = (Endpoints, Jobs)
    result_key = resource_kind = "job"

    def __init__(self, module: Any) -> None:
        super().__init__(module)
        try:
            self.request = job_request(self.params)
        except ValueError as exc:
            self.fail(str(exc), code="bad_request")
        self.endpoint_id: str = self.request["endpoint_id"] or ""
        # Cancelled by the first SIGINT/SIGTERM around the calls that are not waits (the submit).
        self.interrupt = _outcome.CancelToken()

    def run(self) -> NoReturn:
        if not self.endpoint_id:
            self.endpoint_id = self.find_endpoint(self.request["endpoint_name"])
        job_id = self.request["job_id"]
        if job_id is None:
            self.submit()
        if self.request["state"] == "cancelled":
            self.cancel(job_id)
        self.follow(job_id)

    def find_endpoint(self, name: str) -> str:
        try:
            found = self.backend.endpoints.find(name)
        except RunPodError as error:
            self.fail_api(error, f"looking up endpoint {name!r} failed")
        if not found:
            self.fail(f"no endpoint named {name!r} exists (create it with runpod.cloud.endpoint)", code="not_found")
        if len(found) > 1:
            ids = sorted(endpoint.id for endpoint in found)
            self.fail(
                f"{len(found)} endpoints are named {name!r} ({', '.join(ids)}): give endpoint_id instead",
                code="ambiguous", ids=ids,
            )
        return found[0].id

    def submit(self) -> NoReturn:
        """With ``wait``, ``/runsync`` holds the request up to one ``wait_interval``, then ``/status`` is polled."""
        if self.module.check_mode:
            self.mark_changed()
            self.exit(job=None)
        settings = self.wait_options
        started = time.monotonic()
        wait_ms = sync_wait_ms(min(settings.interval, settings.timeout)) if settings.wait else None
        with _outcome.cancel_on_signals(self.interrupt):
            if self.interrupt.cancelled:
                self.fail("interrupted before the job was submitted; nothing was submitted", code="interrupted")
            try:
                job = self.backend.jobs.submit(self.endpoint_id, self.request["body"], wait_ms=wait_ms)
            except RunPodError as error:
                self.submit_failed(error)
        self.mark_changed()
        self.result["job"] = job
        if self.interrupt.cancelled:
            self.fail(f"interrupted after job {job['id']} was submitted; {self.resource_remedy(job['id'])}",
                      code="wait_interrupted", resource_id=job["id"])
        if not settings.wait:
            self.finish(job)
        left = settings.timeout - (time.monotonic() - started)
        self.wait_for_job(JobPoller(self.backend, self.endpoint_id, job["id"], seed=job), timeout=max(left, 0.001))

    def submit_failed(self, error: RunPodError) -> NoReturn:
        where = f"endpoint {self.endpoint_id}"
        if error.maybe_created:
            self.fail(
                f"submitting a job to {where} failed ({error.message}, {error.code}), and RunPod may have queued it "
                "anyway; it was not re-sent, and without an answer its id is unknown: look at the endpoint's queue "
                f"(runpod.cloud.endpoint_info id={self.endpoint_id}) before running the task again",
                code=error.code, status=error.status,
            )
        if error.code == "not_found":
            self.fail(
                f"{where} is not known to the invoke service ({error.message}), so no job was submitted: check the id, "
                "or, right after creating the endpoint, wait for it first (runpod.cloud.endpoint with wait=true)",
                code="not_found", status=error.status,
            )
        self.fail_api(error, f"submitting a job to {where} failed")

    def read(self, job_id: str) -> dict:
        try:
            return self.backend.jobs.status(self.endpoint_id, job_id)
        except RunPodError as error:
            if error.code == "not_found":
                self.fail(
                    f"endpoint {self.endpoint_id} does not know job {job_id} ({error.message}): the id is wrong, "
                    "belongs to another endpoint, or its result has expired (RunPod keeps results for a limited time)",
                    code="not_found", status=error.status, resource_id=job_id,
                )
            self.fail_api(error, f"reading job {job_id} on endpoint {self.endpoint_id} failed", resource_id=job_id)

    def follow(self, job_id: str) -> NoReturn:
        """``id`` with ``state: present``: wait until the job ends (``wait``), else read it once."""
        if self.wait_options.wait:
            self.wait_for_job(JobPoller(self.backend, self.endpoint_id, job_id), timeout=self.wait_options.timeout)
        self.finish(self.read(job_id))

    def cancel(self, job_id: str) -> NoReturn:
        """``state: cancelled``: cancel a job that is still queued or running; a job already over is left alone."""
        job = self.read(job_id)
        self.result["job"] = job
        if is_terminal(job):
            self.exit()
        self.mark_changed()
        if self.module.check_mode:
            self.exit()
        try:
            answer = self.backend.jobs.cancel(self.endpoint_id, job_id)
        except RunPodError as error:
            self.fail_api(error, f"cancelling job {job_id} on endpoint {self.endpoint_id} failed", resource_id=job_id)
        # A job that ended between the read and the cancel keeps its own status: nothing was cancelled.
        self.result["changed"] = answer["status"] == "CANCELLED"
        self.exit(job=dict(job, status=answer["status"]))

    def wait_for_job(self, poller: JobPoller, timeout: float) -> NoReturn:
        outcome = JobWaiter(self).until(
            poller,
            label=f"job {poller.job_id} on endpoint {self.endpoint_id}",
            resource_id=poller.job_id,
            describe_last=lambda: poller.last,
            probe_interval=None,
            timeout=timeout,
        )
        self.result["wait"] = outcome.as_dict()
        self.finish(outcome.value)

    def finish(self, job: dict) -> NoReturn:
        """COMPLETED (or still active, without a wait) succeeds; FAILED, CANCELLED and TIMED_OUT fail."""
        self.result["job"] = job
        code = FAILURE_CODES.get(job["status"])
        if code is not None:
            self.fail(failure_message(job), code=code, resource_id=job["id"])
        self.exit()

    def resource_remedy(self, resource_id: str) -> str:
        where = f"endpoint_id={self.endpoint_id} id={resource_id}"
        return (
            f"job {resource_id} was not cancelled and keeps its place on endpoint {self.endpoint_id}: read or wait "
            f"for it again with runpod.cloud.endpoint_job {where}, or cancel it with runpod.cloud.endpoint_job "
            f"{where} state=cancelled"
        )


class JobWaiter(Waiter):
    """The wait for a job: its failures name the job and how to read, wait on or cancel it (never cancelled)."""

    kind = "job"
    rerun_resumes = False
    module = "endpoint_job"
    result_key = "job"

    def remedy(self, resource_id: str) -> str:
        return self.host.resource_remedy(resource_id)
