# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""The ground floor: the words every layer exchanges. Records (``record``), the views and request specs
(``views``), durations (``duration``), the env/ports/args normalisers (``normalize``), derived pod status
(``podstate``), the result shapes every module shares (``shapes``), RunPod's log lines and their masking
(``log_lines``), host keys and what ``host_key_checking`` makes of them (``host_keys``) and the watch source's
diffing (``watch_events``).

May import: the standard library and ``_vocab`` itself, nothing else, not even for type hints
(tests/unit/test_architecture.py): every floor above builds on it.
"""
