# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.templates``: pod and serverless templates on REST v2 (``/templates``); ``_api/payloads.TEMPLATE`` reads
the answers."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.payloads import TEMPLATE
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection, body_keys, only, sendable

TEMPLATE_FIELDS = (
    "name", "image", "serverless", "container_disk_gb", "env", "ports", "docker_args", "cmd", "entrypoint",
    "registry_id",
)
TEMPLATE_KEYS = {"serverless": (None, "serverless")}  # beside ``shared.BODY_KEYS``


def template_body(fields, creating):
    """A template create/update body from ``TemplateSpec``-vocabulary ``fields``."""
    only(fields, TEMPLATE_FIELDS, "unknown template field(s)")
    return body_keys({key: value for key, value in fields.items() if sendable(value, creating)}, TEMPLATE_KEYS)


class Templates:
    def __init__(self, client):
        self.client = client
        self.collection = Collection(client, "templates", "templates", "template", TEMPLATE)
        self.list, self.get, self.find = self.collection.list, self.collection.get, self.collection.find

    def create(self, spec):
        return TEMPLATE.read(self.client.request("POST", "templates", json=template_body(spec.model_dump(), True)))

    def update(self, template_id, changes):
        body = template_body(dict(changes), creating=False)
        return TEMPLATE.read(self.client.request("PATCH", self.collection.at(template_id), json=body))

    def delete(self, template_id):
        self.client.request("DELETE", self.collection.at(template_id))
