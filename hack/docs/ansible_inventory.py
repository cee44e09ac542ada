"""Write an offline intersphinx inventory for the ansible-core docs labels the generated pages use.

antsibull-docs' pages link to a few labels of the Ansible documentation (``common_return_values``,
``ansible_configuration_settings``, ...). Sphinx resolves them through intersphinx, which would download
``objects.inv`` from docs.ansible.com. The docs build is offline, so this writes a small inventory with the
same labels and their real URLs instead. Add a label here when the build reports ``undefined label``.

Usage: python hack/docs/ansible_inventory.py OUTPUT_FILE
"""

from __future__ import annotations

import sys
import zlib

# label -> (page, anchor, title) under https://docs.ansible.com/projects/ansible/devel/
LABELS = {
    "ansible_configuration_settings": ("reference_appendices/config.html", "", "Ansible Configuration Settings"),
    "common_return_values": ("reference_appendices/common_return_values.html", "", "Return Values"),
    "module_defaults": ("playbook_guide/playbooks_module_defaults.html", "", "Module defaults"),
    "check_mode_dry": ("playbook_guide/playbooks_checkmode.html", "", "Validating tasks: check mode and diff mode"),
    "playbooks_vault": ("playbook_guide/playbooks_vault.html", "", "Using encrypted variables and files"),
    "vault_guide_index": ("vault_guide/index.html", "", "Protecting sensitive data with Ansible vault"),
    "playbooks_loops": ("playbook_guide/playbooks_loops.html", "", "Loops"),
    "intro_inventory": ("inventory_guide/intro_inventory.html", "", "How to build your inventory"),
    "intro_dynamic_inventory": ("inventory_guide/intro_dynamic_inventory.html", "", "Working with dynamic inventory"),
    "inventory_plugins": ("plugins/inventory.html", "", "Inventory plugins"),
    "using_inventory": ("plugins/inventory.html", "#using-inventory-plugins", "Using inventory plugins"),
    "collections_installing": ("collections_guide/collections_installing.html", "", "Installing collections"),
    "collections": ("collections_guide/index.html", "", "Using Ansible collections"),
    "playbooks_environment": ("playbook_guide/playbooks_environment.html", "", "Setting the remote environment"),
    "playbooks_reuse_roles": ("playbook_guide/playbooks_reuse_roles.html", "", "Roles"),
}


def render() -> bytes:
    header = (
        "# Sphinx inventory version 2\n"
        "# Project: Ansible\n"
        "# Version: devel\n"
        "# The remainder of this file is compressed using zlib.\n"
    ).encode()
    lines = []
    for label, (page, anchor, title) in sorted(LABELS.items()):
        lines.append(f"{label} std:label -1 {page}{anchor} {title}\n")
    return header + zlib.compress("".join(lines).encode())


if __name__ == "__main__":
    with open(sys.argv[1], "wb") as handle:
        handle.write(render())
