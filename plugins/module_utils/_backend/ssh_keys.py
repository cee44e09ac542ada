# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.sshkeys``: the account's SSH public keys (REST v2 ``/account/ssh-keys``). A file of their own: a pod create
that waits for ssh reads them, and its task should not ship the rest of the account API."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import as_dict, as_list

PATH = "account/ssh-keys"


class SshKeys:
    def __init__(self, client):
        self.client = client

    def list(self):
        payload = as_dict(self.client.request("GET", PATH))
        if not isinstance(payload.get("keys"), list):
            raise RunPodError("bad_response", None, f'expected {{"keys": [...]}} from GET /{PATH}')
        return [str(key) for key in as_list(payload["keys"])]

    def replace(self, keys):
        """PUT the whole list (RunPod has no add or remove of one key)."""
        payload = as_dict(self.client.request("PUT", PATH, json={"keys": list(keys)}))
        return [str(key) for key in as_list(payload.get("keys"))]
