"""Deferred operations: denied whatever the state and whoever asks (spec 8).

Nothing in aa-review implements these names; this table only decides the reason code.
"""

from __future__ import annotations

__all__ = ["DEFERRED_OPERATIONS", "denial_reason", "denial_words"]

DEFERRED_OPERATIONS = frozenset(
    {
        "resolve_training_credential",
        "export_dataset",
        "start_provider_job",
        "import_checkpoint",
        "change_routing",
    }
)


def denial_reason(op: object) -> str:
    """The reason code of a denied operation; every operation is denied."""
    if isinstance(op, str) and op in DEFERRED_OPERATIONS:
        return "OPERATION_DENIED_ACTIVATION_DEFERRED"
    return "OPERATION_DENIED_UNREGISTERED_OPERATION"


_WORDS = {
    "OPERATION_DENIED_ACTIVATION_DEFERRED": "activation is deferred: no deferred operation is "
    "performed, whatever the dossier's state (spec 8)",
    "OPERATION_DENIED_UNREGISTERED_OPERATION": "not a registered operation (spec 8)",
}


def denial_words(code: str) -> str:
    """A denial's reason code in words (the code itself when it is not one of spec 8)."""
    return _WORDS.get(code, code)
