# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""The ground floor: the words every layer exchanges. Records (``record``); the field tables, each field declared
once (``fields``, the mechanism and the env/ports/args normalisers; ``container_fields``, the rows pods, clusters,
templates and endpoints share, and the template's table; ``pod_fields``, ``endpoint_fields``, ``cluster_fields``,
``account_fields`` for network volumes, registry credentials and secrets); a failed API call (``api_error``),
durations (``duration``), derived pod status, leases and utilization (``podstate``), log lines and their masking
(``log_lines``), host keys (``host_keys``) and the watch source's diffing (``watch_events``).

May import: the standard library and ``_vocab`` itself, nothing else, not even for type hints
(tests/unit/test_architecture.py): every floor above builds on it.
"""
