# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""The rules that tie several options together, as plain functions (pure Python; one field's are its table's,
``_vocab``): what the options ask for, what RunPod would refuse, what differs on an existing resource. The pod's
(``pod_rules``), the endpoint's (``endpoint_rules``), the secret's (``secret_rules``), the shared ones (``common``).

May import: ``_api`` and ``_vocab``; never Ansible, ``_backend`` or ``_module``.
"""
