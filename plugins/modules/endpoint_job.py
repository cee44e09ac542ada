# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: endpoint_job
short_description: Run a job on a RunPod serverless endpoint and wait for its result, or read or cancel a job
version_added: 0.2.0
description:
  - Submits a job to a queue endpoint through RunPod's serverless runtime API (C(/run), or C(/runsync) while
    waiting) and waits until it ends; reads or waits on an existing job by O(id); or cancels one with
    O(state=cancelled).
  - The smoke test after a deploy - the job's RV(job.output) is the worker's answer, and a job that does not
    complete fails the task with a code that tells the worker's failure (V(job_failed), with the worker's error
    text) from a slow queue (V(wait_timeout)). See C(docs/endpoints.md), "Smoke-testing a deploy".
  - Jobs have no name, so they are not idempotent - every run of a task with O(input) submits a new job (and
    bills for it). Keep the job id (RV(job.id)) to read or cancel that job later.
  - A wait never cancels the job it waits on. When O(wait_timeout) passes, on an interrupt or on a fatal API
    error the task fails with C(code), the job id as C(id), the job as last read and how to read or cancel it.
extends_documentation_fragment:
  - runpod.cloud.common
attributes:
  check_mode:
    support: full
    details:
      - Check mode submits and cancels nothing. A task with O(input) reports C(changed=true) and RV(job) null; with
        O(id) the job is read once (a cancel reports C(changed=true) if the job is still queued or running).
  diff_mode:
    support: none
notes:
  - "Statuses (RunPod's runtime API): C(IN_QUEUE), C(IN_PROGRESS) and then one of C(COMPLETED) (the task
    succeeds), C(FAILED) (C(code=job_failed), the message carries the worker's error), C(CANCELLED)
    (C(code=job_cancelled)) or C(TIMED_OUT) (C(code=job_timed_out): the job ran longer than its execution
    timeout)."
  - While waiting, the job is submitted with C(/runsync), which RunPod holds open up to one O(wait_interval)
    (1 to 90 seconds), so a job that ends within it costs a single request. Longer jobs are then read with
    C(/status) on the wait engine's cadence until O(wait_timeout).
  - The job's input goes to RunPod and to the worker. Ansible shows module arguments and results in its
    output and logs, so set C(no_log=true) on a task whose input or output is secret.
  - A 5xx or a lost connection while submitting is not retried - RunPod may have queued the job anyway, and
    without its answer the job id is unknown. Look at the endpoint's queue before running such a task again.
options:
  endpoint_id:
    description:
      - Id of the endpoint that runs the job. Exactly one of O(endpoint_id) and O(endpoint_name) is required.
    type: str
  endpoint_name:
    description:
      - Name of the endpoint that runs the job, looked up with one read of the endpoint list. No endpoint with
        that name fails with C(code=not_found), several with C(code=ambiguous) and their ids.
    type: str
  input:
    description:
      - The job's input object, as the worker's handler receives it (C(job["input"])). Submits a new job.
      - Must be plain JSON data of at most 10 MB; mutually exclusive with O(id).
    type: dict
  id:
    description:
      - Id of an existing job (RV(job.id) of an earlier task). With O(state=present) the task reads the job, or
        with O(wait=true) waits until it ends; with O(state=cancelled) it cancels the job.
    type: str
  state:
    description:
      - V(present) submits a job (O(input)) or reads an existing one (O(id)).
      - V(cancelled) cancels the job O(id) if it is still queued or running; a job that already ended is left
        as it is (C(changed=false)), so the task can be rerun.
    type: str
    choices: [present, cancelled]
    default: present
  execution_timeout:
    description:
      - The job's execution timeout (RunPod's C(policy.executionTimeout)); a job that runs longer ends
        C(TIMED_OUT). Without it the endpoint's own timeout applies.
      - A duration such as V(90s) or V(10m), or a number of seconds, from 5 seconds to 7 days.
    type: raw
  ttl:
    description:
      - How long RunPod keeps the job, queued or running, before it drops it (C(policy.ttl)); RunPod's default is
        a day. A duration or a number of seconds, from 10 seconds to 7 days.
    type: raw
  low_priority:
    description:
      - Queue the job behind normal jobs, so that it never makes the endpoint start more workers
        (C(policy.lowPriority)).
    type: bool
  webhook:
    description:
      - An http or https URL RunPod calls with the job's result when it ends. Without credentials in the URL.
    type: str
  wait:
    description:
      - Whether to wait until the job ends. V(false) returns right after the submit (or one read of O(id)).
      - Ignored in check mode.
    type: bool
    default: true
  wait_timeout:
    description:
      - How long to wait at most, the submit included.
      - A duration such as V(90s), V(10m), V(1h30m) or V(7d), or a number of seconds. Checked before any API
        call.
    type: raw
    default: 10m
  wait_interval:
    description:
      - Average time between C(/status) reads while waiting, in the same format as O(wait_timeout); also how
        long C(/runsync) may hold the submit. Reads come sooner right after the job changed status, and a wait
        that lasts T makes at most T / O(wait_interval) + 3 reads.
    type: raw
    default: 5s
seealso:
  - module: runpod.cloud.endpoint
  - module: runpod.cloud.endpoint_info
"""

EXAMPLES = r"""
- name: Smoke-test the endpoint after a deploy
  runpod.cloud.endpoint_job:
    endpoint_name: sdxl
    input:
      prompt: a lighthouse at dawn
      steps: 4
    execution_timeout: 2m
    wait_timeout: 5m
  register: smoke

- name: Check the answer
  ansible.builtin.assert:
    that: smoke.job.output.images | length == 1

- name: A job whose input is secret
  runpod.cloud.endpoint_job:
    endpoint_id: a1b2c3d4e5f6g7
    input:
      api_token: "{{ vault_token }}"
  no_log: true

- name: Submit without waiting, keep the id
  runpod.cloud.endpoint_job:
    endpoint_id: a1b2c3d4e5f6g7
    input: {batch: 17}
    wait: false
  register: queued

- name: Wait for it later
  runpod.cloud.endpoint_job:
    endpoint_id: a1b2c3d4e5f6g7
    id: "{{ queued.job.id }}"
    wait_timeout: 1h

- name: Cancel it
  runpod.cloud.endpoint_job:
    endpoint_id: a1b2c3d4e5f6g7
    id: "{{ queued.job.id }}"
    state: cancelled
"""

RETURN = r"""
job:
  description:
    - The job as RunPod last reported it. Null for a job planned in check mode.
  returned: always
  type: dict
  contains:
    id:
      description: The job id.
      type: str
      returned: always
      sample: 3f1c8a2e-6d1b-4a77-9a0e-1c2d3e4f5a6b-u1
    status:
      description: C(IN_QUEUE), C(IN_PROGRESS), C(COMPLETED), C(FAILED), C(CANCELLED) or C(TIMED_OUT).
      type: str
      returned: always
      sample: COMPLETED
    output:
      description: What the worker's handler returned (null until the job completed).
      type: raw
      returned: always
      sample: {images: [s3://bucket/out.png]}
    error:
      description: The error text of a failed or timed out job, null otherwise.
      type: str
      returned: always
      sample: null
    delay_time:
      description: Milliseconds the job spent in the queue, as RunPod reports it (null when not reported).
      type: int
      returned: always
      sample: 1240
    execution_time:
      description: Milliseconds the job ran on a worker, as RunPod reports it (null when not reported).
      type: int
      returned: always
      sample: 3310
    endpoint_id:
      description: The endpoint that runs the job.
      type: str
      returned: always
      sample: a1b2c3d4e5f6g7
wait:
  description:
    - How the wait went, with the same keys on success and on failure - C(elapsed) (whole seconds), C(polls)
      (reads, the submit counted as the first), C(probes) (always 0), C(history) (the status changes
      C({elapsed, state})) and C(last_state). A successful wait also returns C(ready_detail).
  returned: when the task waited
  type: dict
  sample:
    elapsed: 7
    polls: 3
    probes: 0
    history: [{elapsed: 0.0, state: "job 3f1c-u1 IN_QUEUE"}, {elapsed: 6.9, state: "job 3f1c-u1 COMPLETED"}]
    last_state: "job 3f1c-u1 COMPLETED (queued 1.24 s, running 3.31 s)"
    ready_detail: "job 3f1c-u1 COMPLETED (queued 1.24 s, running 3.31 s)"
code:
  description:
    - Machine-readable failure code - V(job_failed), V(job_cancelled), V(job_timed_out), V(wait_timeout),
      V(wait_interrupted), V(not_found), V(ambiguous), V(bad_request), V(unauthorized), V(forbidden) and the
      other API error codes.
  returned: failure
  type: str
  sample: job_failed
id:
  description: Id of the job the failure concerns; the job is never cancelled by a failed task.
  returned: failure, when a job is concerned
  type: str
  sample: 3f1c8a2e-6d1b-4a77-9a0e-1c2d3e4f5a6b-u1
ids:
  description: Ids of the endpoints sharing O(endpoint_name) when the task failed with V(ambiguous).
  returned: on ambiguity failure
  type: list
  elements: str
  sample: [a1b2c3d4e5f6g7, h8i9j0k1l2m3n4]
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.job_task import JobModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    argument_spec,
)

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    endpoint_id=dict(type="str"),
    endpoint_name=dict(type="str"),
    input=dict(type="dict"),
    id=dict(type="str"),
    state=dict(type="str", choices=["present", "cancelled"], default="present"),
    execution_timeout=dict(type="raw"),
    ttl=dict(type="raw"),
    low_priority=dict(type="bool"),
    webhook=dict(type="str"),
    wait=dict(type="bool", default=True),
)


def main():
    # endpoint_id XOR endpoint_name and input XOR id are input rules (_api/job_inputs.py): they fail with
    # code=bad_request like every other rule, before any API call.
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, supports_check_mode=True)
    run_module(JobModule, module)


if __name__ == "__main__":
    main()
