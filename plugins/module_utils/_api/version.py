# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The collection version, named in the User-Agent of every API request."""

from __future__ import annotations

# Keep in step with galaxy.yml.
COLLECTION_VERSION = "0.2.0"
