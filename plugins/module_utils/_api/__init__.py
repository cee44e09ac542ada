# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""RunPod's API as data: the HTTP client and its error readers (``client``), its quota keeper (``quota``) and
log streams (``sse``); the input rules (``inputs``, import-guarding pydantic, written with ``values`` and
``catalog``: the shared models there, the pod's and cluster's in ``pod_inputs``, an endpoint's in
``endpoint_inputs``, the account modules' in ``account_inputs``, billing's without pydantic in ``billing_input``, a
job's in ``job_inputs``) and the GPU catalog facts and what RunPod cannot do (``catalog``). Answers are read by the
resources' field tables (``_vocab``).

May import: the standard library, httpx and pydantic (import-guarded), ``_vocab``; never Ansible, ``_backend``,
``_module`` or ``_rules``.
"""
