# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.secrets``: account secrets on REST v2 (``/account/secrets``); ``_vocab/account_fields.SECRET`` reads the
answers. A value is write-only: it goes out in a create or an update body and never comes back (docs/dev/api-notes.md,
section 7). RunPod matches names case-insensitively (``?name=``, and a clash on create answers 409)."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import post_create
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import SECRET


class Secrets(Collection):
    def __init__(self, client):
        super().__init__(client, "account/secrets", "secrets", "secret", SECRET)

    def find(self, name, attempts=None):
        """The secrets RunPod matches to ``name`` (case-insensitively, ``?name=``)."""
        folded = name.casefold()
        return [view for view in self.list(attempts, params={"name": name}) if view.name.casefold() == folded]

    def names(self, attempts=None):
        """The casefolded names of every secret on the account: what ``secret_env`` may name."""
        return {view.name.casefold() for view in self.list(attempts)}

    def create(self, spec):
        # A 5xx or a lost connection marks the error maybe_created: the module looks the name up instead of resending.
        return SECRET.read(post_create(self.client, self.path, SECRET.body(SECRET.create_fields(spec), creating=True)))

    def update(self, secret_id, *, value=None, description=None):
        """One PATCH ("" clears the description). RunPod applies a value and a description in two steps that are not
        atomic, so a caller that must know which half failed sends them in two calls (``runpod.cloud.secret`` does)."""
        if value is None and description is None:
            raise ValueError("a secret update needs a value or a description")
        body = SECRET.body({"value": value, "description": description}, creating=False)
        return self.patch(secret_id, body)
