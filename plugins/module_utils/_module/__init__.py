# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""The Ansible module skeleton: argument specs, the secret options and the quota budget (``specs``),
``RunPodModule`` with its input checks, failure hints and wait handoff (``base``), ``ResourceModule`` and its name
rules (``resource``), the waiters a module composes and its action plugin builds (``waiter``; one file per resource:
``pod_waiter``, ``endpoint_waiter``, ``cluster_waiter``; ``batch``, with a wait's host key step; ``controller``), pod
fleets (``fleet``), RunPod's logs in results (``log_report``) and serverless jobs (``job_task``). The controller-only
code (the inventory's host key check, local commands) is in ``plugins/plugin_utils``, which this never imports.

May import: Ansible, ``_backend``, ``_api``, ``_engine``, ``_rules`` and ``_vocab``. The only layer that knows Ansible.
"""
