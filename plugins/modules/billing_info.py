# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: billing_info
short_description: Read RunPod spend by resource kind and time bucket
version_added: 0.2.0
description:
  - Read what a RunPod account spent over a time range, split into time buckets (hours, days, weeks, months or
    years), for all resources together or for one kind (pods, serverless, public endpoints, network volumes,
    Instant Clusters). One API read.
  - Amounts are in USD. The keys of RV(billing.totals) and RV(billing.records[]) depend on O(kind), see
    RV(billing.records).
  - RunPod aligns the window to bucket boundaries (a start is moved back to the start of its bucket, an end
    forward to the end of its bucket); RV(billing.start_time) and RV(billing.end_time) report the window it used.
extends_documentation_fragment:
  - runpod.cloud.common.INFO
options:
  kind:
    description:
      - What to report. V(all) is the whole account with every cost component broken out (one record per bucket);
        the other kinds give one record per resource per bucket in which it cost something (V(endpoints), RunPod's
        public endpoints, one record per bucket).
    type: str
    choices: [all, pods, serverless, endpoints, network_volumes, clusters]
    default: all
  bucket_size:
    description:
      - Length of each time bucket.
    type: str
    choices: [hour, day, week, month, year]
    default: day
  start_time:
    description:
      - Start of the range, an RFC 3339 date-time with a zone (V(2026-06-01T00:00:00Z)) or a date
        (V(2026-06-01), midnight UTC). RunPod's default is 30 days ago.
      - Mutually exclusive with O(last_n).
    type: str
  end_time:
    description:
      - End of the range (exclusive), in the same formats as O(start_time). RunPod's default is now.
      - Mutually exclusive with O(last_n).
    type: str
  last_n:
    description:
      - The last N buckets, ending with the current (unfinished) one; O(last_n=2) with O(bucket_size=day) is
        yesterday and today so far.
    type: int
  resource_id:
    description:
      - Only this pod (O(kind=pods)), serverless endpoint (O(kind=serverless)), network volume
        (O(kind=network_volumes)) or cluster (O(kind=clusters)).
    type: str
"""

EXAMPLES = r"""
- name: Spend per day for yesterday and today so far
  runpod.cloud.billing_info:
    kind: all
    bucket_size: day
    last_n: 2
  register: spend

- name: Report yesterday's GPU spend (pods, serverless workers and clusters)
  ansible.builtin.debug:
    msg: >-
      GPU spend on {{ yesterday.start_time[:10] }}:
      {{ '%.2f' | format(yesterday.pod_gpu + yesterday.serverless_gpu + yesterday.cluster_gpu) }} USD
      of {{ '%.2f' | format(yesterday.total) }} USD in all
  vars:
    yesterday: "{{ spend.billing.records[0] }}"

- name: Hourly spend of one pod over a given day
  runpod.cloud.billing_info:
    kind: pods
    resource_id: xedezhzb9la3ye
    bucket_size: hour
    start_time: "2026-06-01"
    end_time: "2026-06-02"
  register: pod_spend
"""

RETURN = r"""
billing:
  description: The spend report.
  returned: always
  type: dict
  sample:
    kind: pods
    bucket_size: day
    start_time: "2026-06-01T00:00:00Z"
    end_time: "2026-06-02T00:00:00Z"
    resource_id: null
    totals: {total: 16.56, gpu: 16.2, cpu: 0.0, disk: 0.36}
    records:
      - {start_time: "2026-06-01T00:00:00Z", end_time: "2026-06-02T00:00:00Z", resource_id: xedezhzb9la3ye,
         total: 16.56, gpu: 16.2, cpu: 0.0, disk: 0.36}
  contains:
    kind:
      description: The O(kind) reported.
      type: str
      returned: always
      sample: pods
    bucket_size:
      description: Length of each bucket.
      type: str
      returned: always
      sample: day
    start_time:
      description:
        - Start of the window RunPod used (bucket-aligned); the O(start_time) given when RunPod does not echo it
          (null when not given).
      type: str
      returned: always
      sample: "2026-06-01T00:00:00Z"
    end_time:
      description: End of the window (exclusive), as for RV(billing.start_time).
      type: str
      returned: always
      sample: "2026-06-02T00:00:00Z"
    resource_id:
      description: The O(resource_id) filter, or null.
      type: str
      returned: always
      sample: null
    totals:
      description: The amounts summed over the whole window, with the same keys as the records (no times, no id).
      type: dict
      returned: always
      sample: {total: 16.56, gpu: 16.2, cpu: 0.0, disk: 0.36}
    records:
      description:
        - One entry per bucket (O(kind=all), O(kind=endpoints)) or per resource and bucket (other kinds), oldest
          first, each with C(start_time), C(end_time), C(resource_id) (the pod, endpoint, volume or cluster id;
          null for O(kind=all) and O(kind=endpoints)) and C(total) (USD).
        - "Further amounts (USD) by O(kind): V(all): C(pod_gpu), C(pod_cpu), C(pod_disk), C(serverless_gpu),
          C(serverless_cpu), C(serverless_disk), C(serverless_fee), C(storage_standard),
          C(storage_high_performance), C(endpoint), C(cluster_gpu), C(cluster_disk), C(cluster_networking);
          V(pods): C(gpu), C(cpu), C(disk); V(serverless): C(gpu), C(cpu), C(disk), C(fee); V(network_volumes):
          C(standard), C(high_performance); V(clusters): C(gpu), C(disk), C(networking)."
      type: list
      elements: dict
      returned: always
      sample:
        - {start_time: "2026-06-01T00:00:00Z", end_time: "2026-06-02T00:00:00Z", resource_id: xedezhzb9la3ye,
           total: 16.56, gpu: 16.2, cpu: 0.0, disk: 0.36}
code:
  description: Machine-readable failure code, for example V(bad_request) (bad input).
  returned: failure
  type: str
  sample: bad_request
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.billing_input import BillingInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import Account
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, check_input, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import AUTH_ARGUMENT_SPEC, argument_spec

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    kind=dict(
        type="str", choices=["all", "pods", "serverless", "endpoints", "network_volumes", "clusters"], default="all"
    ),
    bucket_size=dict(type="str", choices=["hour", "day", "week", "month", "year"], default="day"),
    start_time=dict(type="str"),
    end_time=dict(type="str"),
    last_n=dict(type="int"),
    resource_id=dict(type="str"),
)


class BillingInfoModule(RunPodModule):
    uses = (Account,)
    result_key = "billing"
    resource_kind = "billing"

    def run(self):
        params = self.module.params
        check_input(self, BillingInput)  # every input rule, before any API call
        query = {
            option: params[option] for option in ("bucket_size", "start_time", "end_time", "last_n", "resource_id")
        }
        try:
            report = self.account.billing(params["kind"], **query)
        except ValueError as error:
            self.fail(str(error), code="bad_request")
        except RunPodError as error:
            self.fail_api(error, f"reading {params['kind']} billing failed")
        self.exit(billing=report.model_dump())


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=[("last_n", "start_time"), ("last_n", "end_time")],
        supports_check_mode=True,
    )
    run_module(BillingInfoModule, module)


if __name__ == "__main__":
    main()
