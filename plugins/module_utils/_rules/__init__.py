# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""Per-resource rules as plain functions of the options (pure Python): what the pod (``pods``) and endpoint
(``endpoints``) options ask for (and the rules every resource shares, ``common``), what RunPod would refuse, and
what differs on an existing resource.

May import: ``_api`` and ``_vocab``; never Ansible, ``_backend`` or ``_module``.
"""
