"""Comparing two packages, or a package with the fingerprint kept when it was bound (Qt-free).

``diff(old, new)`` says what changed: rows (by stable id), evidence (by id and ref),
the rows citing changed evidence, contracts and checklists, counts, identity and,
on request, audit findings. ``fingerprint(package)`` keeps what a later diff needs
in a few MB, never a copy of the package.
"""

from __future__ import annotations

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
from aa_review.core.diff._query import CHANGE_VALUES, filter_diff
from aa_review.core.diff._report import DIFF_SCHEMA_ID, to_json, to_text

__all__ = [
    "diff", "fingerprint", "Fingerprint", "FingerprintError", "FINGERPRINT_FORMAT",
    "PackageDiff", "RowsDiff", "RowList", "RowMoves", "RowRef", "RowChange", "Place",
    "EvidenceChange", "EvidenceFacts", "LinksDiff", "ContractChange", "ContractDoc",
    "FieldChange", "FindingsDiff", "LEVELS", "level_rank", "diff_findings", "finding_key",
    "audit_findings", "changed_paths", "json_equal", "join_key", "open_pair", "filter_diff",
    "CHANGE_VALUES", "to_json", "to_text", "DIFF_SCHEMA_ID",
]
