# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Paired with INFO_SELECTION_SPEC and INFO_MUTUALLY_EXCLUSIVE in plugins/module_utils/_module/specs.py: change
    # them together. Each module's own description says what it reads (pod_info documents its own id and name).
    DOCUMENTATION = r"""
options:
  id:
    description:
      - Id of the resource to read. An unknown id gives an empty list, not an error.
      - Mutually exclusive with O(name). Without either, every one of the account is returned.
    type: str
  name:
    description:
      - Name of the resources to read, matched exactly (names are not unique on RunPod, so several may match).
      - Mutually exclusive with O(id).
    type: str
"""
