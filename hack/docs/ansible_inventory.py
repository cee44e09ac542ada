"""Write an offline intersphinx inventory for the Ansible documentation the generated pages link to.

antsibull-docs' pages link to the Ansible docsite: labels such as ``common_return_values``, ansible.builtin
plugin pages (``M(ansible.builtin.add_host)``) and ansible-core's configuration environment variables
(``ANSIBLE_CACHE_PLUGIN``). Sphinx resolves these through intersphinx, which would download ``objects.inv``
from docs.ansible.com. The docs build is offline, so this writes an inventory with the same names and their
real URLs, derived from the installed ansible-core (its plugins and ``config/base.yml``) plus a few labels.

Usage: python hack/docs/ansible_inventory.py OUTPUT_FILE
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

import ansible
import yaml

# label -> (page, title) under https://docs.ansible.com/projects/ansible/devel/
LABELS = {
    "ansible_configuration_settings": ("reference_appendices/config.html", "Ansible Configuration Settings"),
    "common_return_values": ("reference_appendices/common_return_values.html", "Return Values"),
    "module_defaults": ("playbook_guide/playbooks_module_defaults.html", "Module defaults"),
    "check_mode_dry": ("playbook_guide/playbooks_checkmode.html", "Validating tasks: check mode and diff mode"),
    "playbooks_vault": ("playbook_guide/playbooks_vault.html", "Using encrypted variables and files"),
    "playbooks_loops": ("playbook_guide/playbooks_loops.html", "Loops"),
    "intro_inventory": ("inventory_guide/intro_inventory.html", "How to build your inventory"),
    "intro_dynamic_inventory": ("inventory_guide/intro_dynamic_inventory.html", "Working with dynamic inventory"),
    "inventory_plugins": ("plugins/inventory.html", "Inventory plugins"),
    "collections_installing": ("collections_guide/collections_installing.html", "Installing collections"),
    "playbooks_environment": ("playbook_guide/playbooks_environment.html", "Setting the remote environment"),
    "playbooks_reuse_roles": ("playbook_guide/playbooks_reuse_roles.html", "Roles"),
    # The note on a module page whose module has an action plugin (pod: the wait runs on the controller).
    "action_plugins": ("plugins/action.html", "Action plugins"),
}

PLUGIN_DIRS = (
    "become",
    "cache",
    "callback",
    "cliconf",
    "connection",
    "httpapi",
    "inventory",
    "lookup",
    "netconf",
    "shell",
    "strategy",
    "vars",
    "filter",
    "test",
)


def entries() -> list[str]:
    root = Path(ansible.__file__).resolve().parent
    lines = [f"{label} std:label -1 {page} {title}" for label, (page, title) in LABELS.items()]
    plugins = [("module", p.stem) for p in (root / "modules").glob("*.py")]
    for kind in PLUGIN_DIRS:
        for path in (root / "plugins" / kind).glob("*"):
            if path.suffix in (".py", ".yml") and not path.stem.startswith("_"):
                plugins.append((kind, path.stem))
    for kind, name in sorted(set(plugins)):
        label = f"ansible_collections.ansible.builtin.{name}_{kind}"
        lines.append(f"{label} std:label -1 collections/ansible/builtin/{name}_{kind}.html {name}")
    config = yaml.safe_load((root / "config" / "base.yml").read_text())
    for setting in config.values():
        for env in (setting or {}).get("env", []) or []:
            name = env.get("name") if isinstance(env, dict) else None
            if name:
                lines.append(f"{name} std:envvar -1 reference_appendices/config.html#envvar-{name} -")
    return sorted(set(lines))


def render() -> bytes:
    header = (
        b"# Sphinx inventory version 2\n"
        b"# Project: Ansible\n"
        b"# Version: devel\n"
        b"# The remainder of this file is compressed using zlib.\n"
    )
    return header + zlib.compress("".join(f"{line}\n" for line in entries()).encode())


if __name__ == "__main__":
    with open(sys.argv[1], "wb") as handle:
        handle.write(render())
