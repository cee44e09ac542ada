# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""How a module applies its input model (``_api.inputs``) before any API call, and what a refusal hides."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import KEY_OPTIONS, input_problem
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import secret_suspects


def check_input(runner: Any, model: Any) -> Any:
    """The validated input of ``runner``'s options, or ``bad_request`` with the broken rules' message.

    On a refusal every key option's value (and each of its lines) joins the module's no_log values, so the
    failure result (``invocation`` at -vvv, the message) shows none of it: a private key pasted as a public key
    is refused without being echoed anywhere.
    """
    module = runner.module
    validated, problem = input_problem(model, module.params)
    if problem is None:
        return validated
    hidden = getattr(module, "no_log_values", None)
    if hidden is not None:
        for option in KEY_OPTIONS:
            value = module.params.get(option)
            if isinstance(value, str):
                hidden.update(secret_suspects(value))
    runner.fail(problem, code="bad_request")
