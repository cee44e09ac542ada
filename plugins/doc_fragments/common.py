# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import yaml

from ansible_collections.runpod.cloud.plugins.doc_fragments.attributes import ModuleDocFragment as _Attributes
from ansible_collections.runpod.cloud.plugins.doc_fragments.auth import ModuleDocFragment as _Auth
from ansible_collections.runpod.cloud.plugins.doc_fragments.info_selection import ModuleDocFragment as _Selection
from ansible_collections.runpod.cloud.plugins.doc_fragments.wait import ModuleDocFragment as _Wait


def _section(*fragments):
    """The fragments as one, merged as ansible merges the fragments a module extends (``add_fragments`` in
    ansible.utils.plugin_docs): options and attributes entry by entry, lists extended, anything else copied."""
    merged = {}
    for text in fragments:
        for key, value in yaml.safe_load(text).items():
            if isinstance(value, dict):
                entries = merged.setdefault(key, {})
                for name, entry in value.items():
                    entries[name] = {**entries.get(name, {}), **entry}
            elif isinstance(value, list):
                merged[key] = merged.get(key, []) + value
            else:
                merged[key] = value
    return yaml.safe_dump(merged, sort_keys=False)


class ModuleDocFragment:
    # One section per kind of module, so that a module extends one fragment. Each is the author, the auth options
    # (runpod.cloud.auth, paired with AUTH_ARGUMENT_SPEC) and the attributes every module shares
    # (runpod.cloud.attributes), plus what that kind adds; the pieces keep their own homes and pairings.
    # The sections are annotated assignments of computed text: ansible-test's yamllint reads only literal strings
    # (an unannotated assignment of a call crashes it); the pieces it lints are literal in their own files.
    DOCUMENTATION: str = _section(
        """
author:
  - runpod.cloud contributors (@runpod-cloud)
""",
        _Auth.DOCUMENTATION,
        _Attributes.DOCUMENTATION,
    )

    # A resource module with full check mode and diff (container_registry, network_volume, ssh_key, template).
    RESOURCE: str = _section(DOCUMENTATION, _Attributes.CHECK_AND_DIFF)

    # A module that only reads.
    INFO: str = _section(DOCUMENTATION, _Attributes.INFO_MODULE)

    # A module that only reads, selecting by id or name (INFO_SELECTION_SPEC).
    INFO_SELECTION: str = _section(INFO, _Selection.DOCUMENTATION)

    # A module that can wait for what it manages (WAIT_ARGUMENT_SPEC).
    WAIT: str = _section(DOCUMENTATION, _Wait.DOCUMENTATION)
