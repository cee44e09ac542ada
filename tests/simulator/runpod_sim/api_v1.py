# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Placeholder: filled in by the next commit."""

from __future__ import annotations


def register(sim) -> None:
    return None
