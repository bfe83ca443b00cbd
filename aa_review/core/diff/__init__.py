"""Comparing two packages, or a package with the fingerprint kept when it was bound (Qt-free).

``diff(old, new)`` says what changed: rows (by stable id), evidence (by id and ref),
the rows citing changed evidence, contracts and checklists, counts, identity and,
on request, audit findings. ``fingerprint(package)`` keeps what a later diff needs
in a few MB, never a copy of the package.

Names are imported on first use (PEP 562), so that the generator, which only needs
the path notation, does not pay for the whole engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aa_review.core.diff._engine import audit_findings, diff
    from aa_review.core.diff._findings import diff_findings, finding_key
    from aa_review.core.diff._fingerprint import (
        FINGERPRINT_FORMAT,
        ContractDoc,
        EvidenceFacts,
        Fingerprint,
        FingerprintError,
        fingerprint,
    )
    from aa_review.core.diff._jsonvalue import changed_paths, join_key, json_equal
    from aa_review.core.diff._model import (
        LEVELS,
        ContractChange,
        EvidenceChange,
        FieldChange,
        FindingsDiff,
        LinksDiff,
        PackageDiff,
        Place,
        RowChange,
        RowList,
        RowMoves,
        RowRef,
        RowsDiff,
        level_rank,
    )
    from aa_review.core.diff._open import open_pair
    from aa_review.core.diff._query import CHANGE_VALUES, change_masks, filter_diff
    from aa_review.core.diff._report import DIFF_SCHEMA_ID, to_json, to_text

_WHERE = {
    "diff": "_engine", "audit_findings": "_engine",
    "diff_findings": "_findings", "finding_key": "_findings",
    "FINGERPRINT_FORMAT": "_fingerprint", "ContractDoc": "_fingerprint",
    "EvidenceFacts": "_fingerprint", "Fingerprint": "_fingerprint",
    "FingerprintError": "_fingerprint", "fingerprint": "_fingerprint",
    "changed_paths": "_jsonvalue", "join_key": "_jsonvalue", "json_equal": "_jsonvalue",
    **dict.fromkeys(("LEVELS", "ContractChange", "EvidenceChange", "FieldChange",
                     "FindingsDiff", "LinksDiff", "PackageDiff", "Place", "RowChange",
                     "RowList", "RowMoves", "RowRef", "RowsDiff", "level_rank"), "_model"),
    "open_pair": "_open",
    "CHANGE_VALUES": "_query", "filter_diff": "_query", "change_masks": "_query",
    "DIFF_SCHEMA_ID": "_report", "to_json": "_report", "to_text": "_report",
}
__all__ = list(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
