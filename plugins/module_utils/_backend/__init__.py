# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""Resource operations over REST v2: the backend (``core``: pods, endpoints, templates; ``rest``: request bodies,
pod placement candidates, catalog reads), clusters (``clusters``), account resources (``account``), serverless jobs
on the runtime API (``jobs``), where a pod create goes (``placement``) and the factory (``factory.make_backend``).

May import: ``_api`` and ``_vocab``; never Ansible, ``_module`` or ``_rules``.
"""
