# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Paired with LOOKUP_ARGUMENT_SPEC in plugins/module_utils/_module/specs.py: change both together. A module
    # replaces an option's description where it has more to say (what a rename does, what blocks a delete).
    DOCUMENTATION = r"""
options:
  id:
    description:
      - Id of an existing resource. Takes precedence over O(name) for the lookup. An O(id) never creates.
    type: str
  name:
    description:
      - Name of the resource, the usual key. The resource is looked up by this name when O(id) is not given, and
        a new resource gets this name.
    type: str
  state:
    description:
      - V(present) makes sure the resource exists; V(absent) deletes it. A resource that is already gone is not an
        error.
    type: str
    choices: [present, absent]
    default: present
"""
