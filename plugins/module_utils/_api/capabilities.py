# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What RunPod cannot do: each check takes the options (or a spec's values) and says why RunPod would refuse them.
The input models call them before any API call; a backend calls ``cpu_pod_problem`` again before sending a spec
built elsewhere. The user-facing list is docs/docsite/rst/guide_input_checks.rst."""

from __future__ import annotations

import re

CUDA_VERSION = re.compile(r"\A\d+\.\d+\Z")


def cpu_pod_problem(values):
    """Why a CPU pod's ``values`` cannot be created (RunPod has no persistent pod volume on a CPU pod); or None."""
    if str(values.get("compute_type") or "").upper() == "CPU" and values.get("volume_gb"):
        return ("a CPU pod cannot have a pod volume on REST v2 (volume_gb); attach a network volume "
                "(network_volume_id) or remove volume_gb.")
    return None


def cuda_problems(allowed, floor, cpu, kind, remedy):
    """The CUDA constraints RunPod refuses (400 / 422) for a ``kind`` (pod, endpoint) that ``cpu`` or not, in the
    order a task should fix them; ``remedy`` ends the CPU message (how to drop them for that kind)."""
    allowed = list(allowed or [])
    problems = []
    if allowed and floor:
        problems.append(
            "allowed_cuda_versions and min_cuda_version are mutually exclusive (RunPod answers 400 when both "
            "are sent): give an exact set or a floor."
        )
    bad = [version for version in [*allowed, *([floor] if floor else [])] if not CUDA_VERSION.match(str(version))]
    if bad:
        problems.append(f"CUDA versions are major.minor, such as 12.8; got {', '.join(repr(v) for v in bad)}.")
    if (allowed or floor) and cpu:
        problems.append(f"CUDA constraints apply to GPU {kind}s only; {remedy}.")
    return problems


def gpu_on_cpu_pod_problem(values):
    if str(values.get("compute_type") or "").upper() == "CPU" and values.get("gpu_type_ids"):
        return "gpu_type_ids cannot be used with compute_type: CPU; use cpu_flavor_ids."
    return None


def scaler_problems(values):
    """What RunPod refuses beside a scaler type (serverless endpoints)."""
    problems = []
    scaler = (values.get("scaler_type") or "").upper()
    if scaler == "REQUEST_COUNT" and values.get("idle_timeout") is not None:
        problems.append(
            "idle_timeout cannot be set beside scaler_type REQUEST_COUNT: RunPod refuses idleTimeout for that "
            "scaler; remove idle_timeout"
        )
    if values.get("type") == "LOAD_BALANCER" and scaler == "QUEUE_DELAY":
        problems.append("a LOAD_BALANCER endpoint scales on REQUEST_COUNT only; scaler_type QUEUE_DELAY is refused")
    return problems
