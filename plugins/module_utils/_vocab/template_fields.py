# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The template's field table (``TEMPLATE``): its name, the container settings and ``serverless``, each sent, compared
and shown alike; ``TemplateView`` and ``TemplateSpec`` are made from it."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import container_rows
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table, name_text

TEMPLATE = Table("template", "TemplateView", (
    Col("name", "name", name_text, body="name", update=True, option=True, shown=True),
    *container_rows(shown=True),
    Col("serverless", "serverless", bool, body="serverless", update=True, option=True, diff=True, shown=True,
        default=False),
), __name__)
TemplateView = TEMPLATE.View
TemplateSpec = TEMPLATE.spec("TemplateSpec", required=("name", "image"), module=__name__)
describe_template = TEMPLATE.describe
