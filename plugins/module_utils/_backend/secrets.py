# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.secrets``: account secrets (``/account/secrets``). A value is write-only, never read back
(docs/dev/api-notes.md, section 7); RunPod matches names case-insensitively (``?name=``, a clash on create is 409)."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import post_create
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import SECRET


class Secrets:
    def __init__(self, client):
        self.client = client
        self.collection = c = Collection(client, "account/secrets", "secrets", "secret", SECRET)
        self.list, self.get, self.delete = c.list, c.get, c.delete

    def find(self, name, attempts=None):
        """The secrets RunPod matches to ``name`` (case-insensitively, ``?name=``)."""
        return [view for view in self.list(attempts, params={"name": name}) if view.name.casefold() == name.casefold()]

    def names(self, attempts=None):
        """The casefolded names of every secret on the account: what ``secret_env`` may name."""
        return {view.name.casefold() for view in self.list(attempts)}

    def create(self, spec):
        body = SECRET.body(SECRET.create_fields(spec), creating=True)
        return SECRET.read(post_create(self.client, self.collection.path, body))

    def update(self, secret_id, *, value=None, description=None):
        """One PATCH ("" clears the description). RunPod applies a value and a description in two steps that are not
        atomic, so a caller that must know which half failed sends them in two calls (``runpod.cloud.secret`` does)."""
        if value is None and description is None:
            raise ValueError("a secret update needs a value or a description")
        body = SECRET.body({"value": value, "description": description}, creating=False)
        return self.collection.patch(secret_id, body)
