# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.jobs``: serverless jobs on the runtime API (docs/dev/api-notes.md, section 6) over the backend's client."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError, post_create
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import quote_id
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import as_dict, as_int, as_str


def read_job(payload, endpoint_id):
    """The ``job`` result of ``runpod.cloud.endpoint_job`` (times in ms); no id or status is ``bad_response``."""
    payload = as_dict(payload)
    job_id, status = as_str(payload.get("id")), as_str(payload.get("status"))
    if not job_id or not status:
        raise RunPodError("bad_response", None, "the runtime API answered without a job id and status")
    error = payload.get("error")
    return {
        "id": job_id,
        "status": status.upper(),
        "output": payload.get("output"),
        "error": error if error is None or isinstance(error, str) else str(error),
        "delay_time": as_int(payload.get("delayTime")),
        "execution_time": as_int(payload.get("executionTime")),
        "endpoint_id": endpoint_id,
    }


def sync_wait_ms(seconds):
    """The ``wait`` of a ``/runsync`` that may hold the request ``seconds``, in RunPod's 1-90 s (docs/dev/api-notes.md,
    section 6; the JavaScript SDK clamps to it); None under a second (then ``/run``)."""
    wanted = int(seconds * 1000)
    return None if wanted < 1000 else min(wanted, 90000)


class Jobs:
    """The job calls over ``client`` on ``serverless_url`` (a ``/runsync`` may hold past ``request_timeout``)."""

    def __init__(self, client, serverless_url, request_timeout):
        self.client, self.base, self.request_timeout = client, str(serverless_url).rstrip("/"), float(request_timeout)

    def _url(self, endpoint_id, *parts):
        return "/".join([self.base, quote_id(endpoint_id), *(quote_id(part) for part in parts)])

    def submit(self, endpoint_id, body, wait_ms=None):
        """``/run``, or ``/runsync?wait=<wait_ms>`` (terminal when the job ended within the wait). Sent once: a 5xx or
        a lost connection is raised ``maybe_created`` (the job may be queued, and without its id nobody can name it)."""
        if wait_ms is None:
            return read_job(post_create(self.client, self._url(endpoint_id, "run"), body), endpoint_id)
        payload = post_create(self.client, self._url(endpoint_id, "runsync"), body, params={"wait": int(wait_ms)},
                              timeout=self.request_timeout + wait_ms / 1000.0)
        return read_job(payload, endpoint_id)

    def status(self, endpoint_id, job_id, attempts=None):
        return read_job(self.client.request("GET", self._url(endpoint_id, "status", job_id), attempts=attempts),
                        endpoint_id)

    def cancel(self, endpoint_id, job_id):
        """The job after ``POST /cancel/{job}`` (``CANCELLED``, or the status of a job already over)."""
        return read_job(self.client.request("POST", self._url(endpoint_id, "cancel", job_id)), endpoint_id)
