# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The account secret's field table (``SECRET``): the value is write-only (no row reads it, the spec's never shows in
a repr), RunPod returns only when it last changed."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table, as_str, name_text

SECRET = Table("secret", "SecretView", (
    Col("name", "name", name_text, body="name", option=True, shown=True),
    Col("value", body="value", update=True, option=True, default="", secret=True),
    Col("description", "description", as_str, body="description", update=True, option=True, shown=True),
    Col("created_at", "createdAt", as_str, shown=True),
    Col("value_last_updated_at", "valueLastUpdatedAt", as_str, shown=True),
), __name__)
SecretView = SECRET.View
SecretSpec = SECRET.spec("SecretSpec", module=__name__)
describe_secret = SECRET.describe
