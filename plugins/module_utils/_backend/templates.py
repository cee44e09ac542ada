# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.templates``: pod and serverless templates on REST v2 (``/templates``); bodies and answers follow
``_vocab/container_fields.TEMPLATE``."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TEMPLATE


class Templates:
    def __init__(self, client):
        self.client = client
        self.collection = c = Collection(client, "templates", "templates", "template", TEMPLATE)
        self.list, self.get, self.find, self.delete = c.list, c.get, c.find, c.delete

    def create(self, spec):
        body = TEMPLATE.body(spec.model_dump(), creating=True)
        return TEMPLATE.read(self.client.request("POST", "templates", json=body))

    def update(self, template_id, changes):
        return self.collection.patch(template_id, TEMPLATE.body(dict(changes), creating=False))
