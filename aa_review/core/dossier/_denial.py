"""Deferred operations: denied whatever the state and whoever asks (spec 8).

Nothing in aa-review implements these names; this table only decides the reason code.
"""

from __future__ import annotations

__all__ = ["DEFERRED_OPERATIONS", "denial_reason"]

DEFERRED_OPERATIONS = frozenset({
    "resolve_training_credential", "export_dataset", "start_provider_job",
    "import_checkpoint", "change_routing",
})


def denial_reason(op: object) -> str:
    """The reason code of a denied operation; every operation is denied."""
    if isinstance(op, str) and op in DEFERRED_OPERATIONS:
        return "OPERATION_DENIED_ACTIVATION_DEFERRED"
    return "OPERATION_DENIED_UNREGISTERED_OPERATION"
