# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: template
short_description: Manage RunPod pod and serverless templates
version_added: 0.1.0
description:
  - Create, update and delete RunPod templates, identified by O(name).
  - A serverless endpoint (M(runpod.cloud.endpoint)) needs a serverless template, so a playbook can create
    the template with O(serverless=true) and pass its RV(template.id) to the endpoint.
  - Template names are unique on RunPod. If several templates nevertheless share O(name), the task fails and
    lists their ids instead of guessing.
  - Only the options you give are compared and changed; omitted options leave the template as it is.
extends_documentation_fragment:
  - runpod.cloud.common.RESOURCE
  - runpod.cloud.container
  - runpod.cloud.container.REGISTRY
options:
  name:
    description:
      - Name of the template; the identity used to find it.
      - At most 191 characters, without leading or trailing whitespace and without control characters;
        anything else fails with C(code=bad_request) before any API call.
    type: str
    required: true
  state:
    description:
      - V(present) creates the template or updates it in place; V(absent) deletes it.
      - RunPod refuses to delete a template that a pod or an endpoint still uses; delete those first.
    type: str
    choices: [present, absent]
    default: present
  image:
    description:
      - Container image, for example V(runpod/serverless-hello-world:latest).
      - Required with O(state=present).
  serverless:
    description:
      - Whether this is a serverless template (usable by endpoints) rather than a pod template.
      - When creating, omitting it means V(false).
    type: bool
  env:
    description:
      - Environment variables of the container. Keys are variable names; values are strings, and numbers are
        sent as text. Booleans, nulls, lists and mappings are refused with C(code=bad_request).
      - Replaces the whole set when it differs.
  ports:
    description:
      - Exposed ports such as V(8888/http) or V(22/tcp) (a port 1 to 65535, protocol V(http) or V(tcp), no port
        twice). Compared without regard to order.
  docker_args:
    description:
      - Container start command (arguments), as one string. V("") clears it.
"""

EXAMPLES = r"""
- name: Create a serverless template for an endpoint
  runpod.cloud.template:
    name: hello-worker
    image: runpod/serverless-hello-world:latest
    serverless: true
    container_disk_gb: 10
    env:
      MODEL: tiny
  register: hello_template

- name: Preview a change without making it
  runpod.cloud.template:
    name: hello-worker
    image: runpod/serverless-hello-world:v2
  check_mode: true
  diff: true

- name: Delete the template
  runpod.cloud.template:
    name: hello-worker
    state: absent
"""

RETURN = r"""
template:
  description:
    - The template after the task (the planned template with a null RV(template.id) when created in check mode;
      the deleted template with O(state=absent); null when there was nothing to delete).
  returned: always
  type: dict
  sample:
    id: 2k4zq1n8xw
    name: hello-worker
    image: runpod/serverless-hello-world:latest
    serverless: true
    container_disk_gb: 10
    env: {MODEL: tiny}
    ports: []
    docker_args: null
    cmd: []
    entrypoint: []
    registry_id: null
  contains:
    id:
      description: Template id.
      type: str
      returned: always
      sample: 2k4zq1n8xw
    name:
      description: Template name.
      type: str
      returned: always
      sample: hello-worker
    image:
      description: Container image.
      type: str
      returned: always
      sample: runpod/serverless-hello-world:latest
    serverless:
      description: Whether this is a serverless template.
      type: bool
      returned: always
      sample: true
    container_disk_gb:
      description: Container disk size in GB.
      type: int
      returned: always
      sample: 10
    env:
      description: Environment variables.
      type: dict
      returned: always
      sample: {MODEL: tiny}
    ports:
      description: Exposed ports.
      type: list
      elements: str
      returned: always
      sample: ["8888/http"]
    docker_args:
      description: Container start command, or null when the image default is used.
      type: str
      returned: always
      sample: python handler.py
    cmd:
      description: The start command in exec form (null in check mode or when the answer has none).
      type: list
      elements: str
      returned: always
      sample: [python, handler.py]
      version_added: 0.3.0
    entrypoint:
      description: The entrypoint in exec form (null in check mode or when the answer has none).
      type: list
      elements: str
      returned: always
      sample: []
      version_added: 0.3.0
    registry_id:
      description: Id of the registry credential for a private image, or null.
      type: str
      returned: always
      sample: null
      version_added: 0.2.0
diff:
  description: The template before and after the change (only the compared fields).
  returned: when changed and in diff mode
  type: dict
  sample:
    before: {image: runpod/serverless-hello-world:latest}
    after: {image: runpod/serverless-hello-world:v2}
ids:
  description: Ids of the templates sharing O(name) when the task failed because the name is ambiguous.
  returned: on ambiguity failure
  type: list
  elements: str
  sample: [2k4zq1n8xw, 9m3pq7c1vb]
code:
  description:
    - Machine-readable failure code, for example V(ambiguous) (several templates share O(name)),
      V(bad_request) or V(unauthorized).
  returned: failure
  type: str
  sample: ambiguous
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import TemplateInput
from ansible_collections.runpod.cloud.plugins.module_utils._backend.secrets import Secrets
from ansible_collections.runpod.cloud.plugins.module_utils._backend.templates import Templates
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    REGISTRY_ARGUMENT_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import (
    TEMPLATE,
    TemplateSpec,
    describe_template,
)

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    REGISTRY_ARGUMENT_SPEC,
    name=dict(type="str", required=True),
    state=dict(type="str", choices=["present", "absent"], default="present"),
    serverless=dict(type="bool"),
)


class TemplateModule(ResourceModule):
    uses = (Secrets, Templates)
    resource_kind = "template"
    input_model = TemplateInput
    id_option = None  # template names are unique on RunPod: the name is the identity
    delete_blocker = "; if a pod or an endpoint still uses it, delete those first"

    def find_by_name(self, name):
        return self.backend.templates.find(name)

    def describe(self, resource):
        return describe_template(resource)

    def build_spec(self):
        return TemplateSpec(**{"serverless": False, **TEMPLATE.wanted(self.params)})

    def create(self, spec):
        return self.backend.templates.create(spec)

    def changes(self, current):
        return TEMPLATE.changes(TEMPLATE.wanted(self.params), current)

    def update(self, current, changes):
        return self.backend.templates.update(current.id, changes)

    def delete(self, current):
        self.backend.templates.delete(current.id)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        required_if=[("state", "present", ("image",))],
        supports_check_mode=True,
    )
    run_module(TemplateModule, module)


if __name__ == "__main__":
    main()
