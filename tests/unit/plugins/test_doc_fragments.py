"""Every doc fragment section that documents options is paired with an argument spec constant in
``_module/specs.py`` (names, types, defaults, choices, elements), and the per-kind sections of
``runpod.cloud.common`` are exactly what ansible makes of the fragments they stand for."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml
from ansible.utils.plugin_docs import add_fragments

from ansible_collections.runpod.cloud.plugins.module_utils._module import specs

FRAGMENTS = Path(__file__).resolve().parents[3] / "plugins" / "doc_fragments"

# (fragment, section) -> the spec constants its options document, together.
PAIRS = {
    ("auth", "DOCUMENTATION"): (specs.AUTH_ARGUMENT_SPEC,),
    ("wait", "DOCUMENTATION"): (specs.WAIT_ARGUMENT_SPEC,),
    ("wait", "POD"): (specs.POD_WAIT_ARGUMENT_SPEC,),
    ("wait", "HOST_KEYS"): (specs.HOST_KEY_ARGUMENT_SPEC,),
    ("gpu_choice", "DOCUMENTATION"): (specs.GPU_CHOICE_ARGUMENT_SPEC,),
    ("info_selection", "DOCUMENTATION"): (specs.INFO_SELECTION_SPEC,),
    ("lookup", "DOCUMENTATION"): (specs.LOOKUP_ARGUMENT_SPEC,),
    ("container", "DOCUMENTATION"): (specs.CONTAINER_ARGUMENT_SPEC,),
    ("container", "REGISTRY"): (specs.REGISTRY_ARGUMENT_SPEC,),
    ("container", "POD"): (specs.POD_CONTAINER_ARGUMENT_SPEC,),
    ("common", "DOCUMENTATION"): (specs.AUTH_ARGUMENT_SPEC,),
    ("common", "RESOURCE"): (specs.AUTH_ARGUMENT_SPEC,),
    ("common", "INFO"): (specs.AUTH_ARGUMENT_SPEC,),
    ("common", "INFO_SELECTION"): (specs.AUTH_ARGUMENT_SPEC, specs.INFO_SELECTION_SPEC),
    ("common", "WAIT"): (specs.AUTH_ARGUMENT_SPEC, specs.WAIT_ARGUMENT_SPEC),
}

# The per-kind sections of runpod.cloud.common and the fragments each one replaces in a module's list.
COMMON = {
    "DOCUMENTATION": ("runpod.cloud.auth", "runpod.cloud.attributes"),
    "RESOURCE": ("runpod.cloud.auth", "runpod.cloud.attributes", "runpod.cloud.attributes.CHECK_AND_DIFF"),
    "INFO": ("runpod.cloud.auth", "runpod.cloud.attributes", "runpod.cloud.attributes.INFO_MODULE"),
    "INFO_SELECTION": ("runpod.cloud.auth", "runpod.cloud.attributes", "runpod.cloud.attributes.INFO_MODULE",
                       "runpod.cloud.info_selection"),
    "WAIT": ("runpod.cloud.auth", "runpod.cloud.wait", "runpod.cloud.attributes"),
}
AUTHOR = ["runpod.cloud contributors (@runpod-cloud)"]


def _fragment_class(name):
    return importlib.import_module(f"ansible_collections.runpod.cloud.plugins.doc_fragments.{name}").ModuleDocFragment


def _sections():
    for path in sorted(FRAGMENTS.glob("*.py")):
        cls = _fragment_class(path.stem)
        for var in vars(cls):
            if var.isupper():
                yield path.stem, var, yaml.safe_load(getattr(cls, var))


class _Loader:
    """The part of ansible's fragment loader ``add_fragments`` uses: ``get`` a fragment by its FQCN."""

    def get(self, name):
        short = name.removeprefix("runpod.cloud.")
        if "." in short or not (FRAGMENTS / f"{short}.py").exists():
            return None
        cls = type("Fragment", (), dict(vars(_fragment_class(short))))
        cls.ansible_name = name
        return cls


def _merged(fragments):
    doc = {"extends_documentation_fragment": list(fragments)}
    add_fragments(doc, str(FRAGMENTS.parent / "modules" / "module.py"), fragment_loader=_Loader(), is_module=True)
    return doc


def test_every_section_with_options_is_paired():
    unpaired = [(name, var) for name, var, doc in _sections() if doc.get("options") and (name, var) not in PAIRS]
    assert unpaired == []
    assert {(name, var) for name, var, _doc in _sections()} >= set(PAIRS)


@pytest.mark.parametrize(("fragment", "section"), sorted(PAIRS))
def test_a_section_documents_its_specs(fragment, section):
    documented = yaml.safe_load(getattr(_fragment_class(fragment), section))["options"]
    spec = {key: value for constant in PAIRS[fragment, section] for key, value in constant.items()}
    assert set(documented) == set(spec)
    for key, entry in spec.items():
        doc = documented[key]
        assert doc.get("type", "str") == entry.get("type", "str"), key
        assert doc.get("default") == entry.get("default"), key
        assert doc.get("choices") == entry.get("choices"), key
        assert doc.get("elements") == entry.get("elements"), key
        assert set(doc.get("suboptions") or {}) == set(entry.get("options") or {}), key


@pytest.mark.parametrize("section", sorted(COMMON))
def test_a_common_section_is_what_ansible_makes_of_its_pieces(section):
    # ansible merges a module's fragments in add_fragments; a section must give the module the same documentation
    # as the list of fragments it stands for, plus the author every module shares.
    expected = _merged(COMMON[section])
    expected["author"] = AUTHOR
    assert _merged([f"runpod.cloud.common.{section}"]) == expected


def test_every_module_extends_one_common_section_and_leaves_the_author_to_it():
    for path in sorted((FRAGMENTS.parent / "modules").glob("*.py")):
        doc = yaml.safe_load(importlib.import_module(
            f"ansible_collections.runpod.cloud.plugins.modules.{path.stem}").DOCUMENTATION)
        common = [name for name in doc["extends_documentation_fragment"] if name.startswith("runpod.cloud.common")]
        assert len(common) == 1, path.stem
        assert "author" not in doc, path.stem
