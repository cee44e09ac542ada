# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``sim_json`` report written to the file ``$SIM_JSON_FILE``, beside whatever stdout callback prints.

For a test that runs a script which runs ``ansible-playbook`` with the default human-readable output (``make
demo``): enable it with ``ANSIBLE_CALLBACK_PLUGINS=<this dir>`` and ``ANSIBLE_CALLBACKS_ENABLED=sim_json_file``,
then read the file with ``PlaybookResult.from_report_file``.
"""

from __future__ import annotations

DOCUMENTATION = """
    name: sim_json_file
    type: aggregate
    short_description: the sim_json report of a run, written to $SIM_JSON_FILE
    description: Records every task result like sim_json and writes them as one JSON document at the end.
"""

import importlib.util  # noqa: E402 - DOCUMENTATION comes first by Ansible convention
import json  # noqa: E402
import os  # noqa: E402
from pathlib import Path  # noqa: E402

from ansible.parsing.ajson import AnsibleJSONEncoder  # noqa: E402

SIM_JSON = Path(__file__).resolve().parents[2] / "simulator" / "ansible_plugins" / "callback" / "sim_json.py"
SPEC = importlib.util.spec_from_file_location("runpod_cloud_tests_sim_json", SIM_JSON)
SIM_JSON_MODULE = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(SIM_JSON_MODULE)


class CallbackModule(SIM_JSON_MODULE.CallbackModule):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "sim_json_file"
    CALLBACK_NEEDS_ENABLED = True

    def v2_playbook_on_stats(self, stats):
        summary = {host: stats.summarize(host) for host in sorted(stats.processed)}
        output = {"plays": self.results, "stats": summary}
        Path(os.environ["SIM_JSON_FILE"]).write_text(json.dumps(output, cls=AnsibleJSONEncoder, indent=2))
