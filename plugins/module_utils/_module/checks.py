# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""How a module applies its input model (``_api.inputs``, ``_api.billing_input``) before any API call, and what a
refusal hides. Light on purpose: a read-only module (billing_info) checks its input here without pydantic."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import spec_problem

# Options whose value is a public key: refused when it is anything else (the input models), and masked in the
# failure (a private key pasted there must show nowhere).
KEY_OPTIONS = ("ssh_public_key", "key")


def input_problem(model: Any, params: dict) -> tuple[Any, str | None]:
    """``(validated input, None)`` or ``(None, message)`` for a module's params checked against ``model``."""
    try:
        return model.model_validate({key: params.get(key) for key in model.model_fields}), None
    except ValueError as error:
        return None, spec_problem(error)


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
        # Here, not at the top: the value checks (and the GPU catalog they load) only where a key is refused.
        from ansible_collections.runpod.cloud.plugins.module_utils._api.values import secret_suspects

        for option in KEY_OPTIONS:
            value = module.params.get(option)
            if isinstance(value, str):
                hidden.update(secret_suspects(value))
    runner.fail(problem, code="bad_request")
