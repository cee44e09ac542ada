# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""Resource operations over REST v2: ``connection`` builds the ``Backend`` (``make_backend``): one client and the
objects of the resources a task uses, each in its own file (``pods``, ``endpoints``, ``templates``, ``clusters``,
``account``, ``secrets``, ``jobs``; ``shared`` holds what they share and the account's SSH keys, ``connection`` the GPU
catalog). ``placement`` decides where a pod or cluster create goes, ``log_reads`` reads pod and worker logs.

May import: ``_api`` and ``_vocab``; never Ansible, ``_module`` or ``_rules``.
"""
