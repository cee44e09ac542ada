# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""An unknown GPU type gets RunPod's ids by model name (the console's display names included) and the pointer to
gpu_type_info: ``_api/catalog.gpu_suggestions``, ``unknown_gpu_types``."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.catalog import (
    DISPLAY_WORDS,
    GPU_TYPES,
    gpu_suggestions,
    model_words,
    unknown_gpu_types,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.pod_inputs import unknown_gpu_problem

H100S = {"NVIDIA H100 PCIe", "NVIDIA H100 80GB HBM3", "NVIDIA H100 NVL"}


@pytest.mark.parametrize(("name", "expected"), [
    ("RTX 4090", ["NVIDIA GeForce RTX 4090"]),  # the console's display name
    ("NVIDIA RTX 4090", ["NVIDIA GeForce RTX 4090"]),  # not 'NVIDIA RTX A4500', the closest spelling
    ("rtx 4090", ["NVIDIA GeForce RTX 4090"]),
    ("H100 SXM", ["NVIDIA H100 80GB HBM3"]),  # a display name with a word its id lacks
    ("A100 SXM", ["NVIDIA A100-SXM4-80GB"]),
    ("RTX 6000 Ada", ["NVIDIA RTX 6000 Ada Generation"]),
    ("MI300X", ["AMD Instinct MI300X OAM"]),
    ("A6000", ["NVIDIA RTX A6000"]),
])
def test_a_model_name_suggests_its_ids(name, expected):
    assert gpu_suggestions(name) == expected


def test_a_bare_model_suggests_every_id_of_it():
    assert set(gpu_suggestions("H100")) == H100S
    assert set(gpu_suggestions("A100")) == {"NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-80GB"}


def test_a_misspelling_without_a_known_model_gets_the_closest_spelling():
    assert gpu_suggestions("rtx4090")[0] == "NVIDIA GeForce RTX 4090"
    assert gpu_suggestions("completely different") == []


def test_the_message_names_each_unknown_id_its_suggestions_and_gpu_type_info():
    problem = unknown_gpu_problem(["RTX 4090", "NVIDIA L4", "H100"])
    assert problem.startswith("unknown GPU type(s) in gpu_type_ids: 'RTX 4090', 'H100'; ")
    assert "for 'RTX 4090' did you mean 'NVIDIA GeForce RTX 4090'?" in problem
    assert all(repr(gpu) in problem.split("for 'H100'")[1] for gpu in H100S)
    assert "A4500" not in problem
    assert "runpod.cloud.gpu_type_info" in problem
    assert unknown_gpu_problem(["NVIDIA L4"]) is None
    assert unknown_gpu_types([]) == ([], "")


WORD = st.text(st.characters(whitelist_categories=("L", "N"), max_codepoint=0x7F), min_size=1, max_size=8)


@given(st.text(max_size=40))
def test_suggestions_are_known_ids_at_most_four_and_never_raise(name):
    suggestions = gpu_suggestions(name)
    assert len(suggestions) <= 4 and len(set(suggestions)) == len(suggestions)
    assert all(gpu in GPU_TYPES for gpu in suggestions)


@given(st.sampled_from(sorted(GPU_TYPES)), st.sampled_from(["{}", "{} ", "  {}", "nvidia {}", "{}"]),
       st.booleans())
def test_every_id_in_any_case_spacing_or_vendor_prefix_suggests_itself(gpu, form, upper):
    # What a user copies from the id or the console: the id is among what its model's words suggest.
    name = form.format(" ".join(model_words(gpu)))
    assert gpu in gpu_suggestions(name.upper() if upper else name)


def _has_models(gpu, numbers):
    known = model_words(gpu) + list(DISPLAY_WORDS.get(gpu, ()))
    return all(any(have.startswith(number) for have in known) for number in numbers)


@given(st.lists(st.one_of(WORD, st.sampled_from(["rtx", "4090", "h100", "a100", "sxm", "4080", "l40"])),
                min_size=1, max_size=4))
def test_when_an_id_has_the_names_model_numbers_every_suggestion_has_them(words):
    # 4090 never suggests a 4080 (nor RTX A4500 for NVIDIA RTX 4090) when RunPod has a 4090.
    name = " ".join(words)
    numbers = [word for word in model_words(name) if re.search(r"\d", word)]
    if numbers and any(_has_models(gpu, numbers) for gpu in GPU_TYPES):
        assert all(_has_models(gpu, numbers) for gpu in gpu_suggestions(name)), name
