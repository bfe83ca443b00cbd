"""Comparing two packages, or a package with the fingerprint kept when it was bound (Qt-free).

``diff(old, new)`` says what changed: rows (by stable id), evidence (by id and ref),
the rows citing changed evidence, contracts and checklists, counts, identity and,
on request, audit findings. ``fingerprint(package)`` keeps what a later diff needs
in a few MB, never a copy of the package.

Names are imported on first use (PEP 562), so that the generator, which only needs
the path notation, does not pay for the whole engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aa_review.core.util.lazy import lazy_exports

if TYPE_CHECKING:
    from aa_review.core.diff._engine import (
        audit_findings as audit_findings,
    )
    from aa_review.core.diff._engine import (
        diff as diff,
    )
    from aa_review.core.diff._findings import (
        diff_findings as diff_findings,
    )
    from aa_review.core.diff._findings import (
        finding_key as finding_key,
    )
    from aa_review.core.diff._fingerprint import (
        FINGERPRINT_FORMAT as FINGERPRINT_FORMAT,
    )
    from aa_review.core.diff._fingerprint import (
        ContractDoc as ContractDoc,
    )
    from aa_review.core.diff._fingerprint import (
        EvidenceFacts as EvidenceFacts,
    )
    from aa_review.core.diff._fingerprint import (
        Fingerprint as Fingerprint,
    )
    from aa_review.core.diff._fingerprint import (
        FingerprintError as FingerprintError,
    )
    from aa_review.core.diff._fingerprint import (
        fingerprint as fingerprint,
    )
    from aa_review.core.diff._jsonvalue import (
        changed_paths as changed_paths,
    )
    from aa_review.core.diff._jsonvalue import (
        join_key as join_key,
    )
    from aa_review.core.diff._jsonvalue import (
        json_equal as json_equal,
    )
    from aa_review.core.diff._model import (
        LEVELS as LEVELS,
    )
    from aa_review.core.diff._model import (
        ContractChange as ContractChange,
    )
    from aa_review.core.diff._model import (
        DiffCancelled as DiffCancelled,
    )
    from aa_review.core.diff._model import (
        EvidenceChange as EvidenceChange,
    )
    from aa_review.core.diff._model import (
        FieldChange as FieldChange,
    )
    from aa_review.core.diff._model import (
        FindingsDiff as FindingsDiff,
    )
    from aa_review.core.diff._model import (
        LinksDiff as LinksDiff,
    )
    from aa_review.core.diff._model import (
        PackageDiff as PackageDiff,
    )
    from aa_review.core.diff._model import (
        Place as Place,
    )
    from aa_review.core.diff._model import (
        RowChange as RowChange,
    )
    from aa_review.core.diff._model import (
        RowList as RowList,
    )
    from aa_review.core.diff._model import (
        RowMoves as RowMoves,
    )
    from aa_review.core.diff._model import (
        RowRef as RowRef,
    )
    from aa_review.core.diff._model import (
        RowsDiff as RowsDiff,
    )
    from aa_review.core.diff._model import (
        level_rank as level_rank,
    )
    from aa_review.core.diff._open import (
        open_pair as open_pair,
    )
    from aa_review.core.diff._query import (
        CHANGE_VALUES as CHANGE_VALUES,
    )
    from aa_review.core.diff._query import (
        change_masks as change_masks,
    )
    from aa_review.core.diff._query import (
        filter_diff as filter_diff,
    )
    from aa_review.core.diff._query import (
        side_masks as side_masks,
    )
    from aa_review.core.diff._report import (
        DIFF_SCHEMA_ID as DIFF_SCHEMA_ID,
    )
    from aa_review.core.diff._report import (
        to_json as to_json,
    )
    from aa_review.core.diff._report import (
        to_text as to_text,
    )

_WHERE = {
    "diff": "_engine",
    "DiffCancelled": "_model",
    "audit_findings": "_engine",
    "diff_findings": "_findings",
    "finding_key": "_findings",
    "FINGERPRINT_FORMAT": "_fingerprint",
    "ContractDoc": "_fingerprint",
    "EvidenceFacts": "_fingerprint",
    "Fingerprint": "_fingerprint",
    "FingerprintError": "_fingerprint",
    "fingerprint": "_fingerprint",
    "changed_paths": "_jsonvalue",
    "join_key": "_jsonvalue",
    "json_equal": "_jsonvalue",
    **dict.fromkeys(
        (
            "LEVELS",
            "ContractChange",
            "EvidenceChange",
            "FieldChange",
            "FindingsDiff",
            "LinksDiff",
            "PackageDiff",
            "Place",
            "RowChange",
            "RowList",
            "RowMoves",
            "RowRef",
            "RowsDiff",
            "level_rank",
        ),
        "_model",
    ),
    "open_pair": "_open",
    "CHANGE_VALUES": "_query",
    "filter_diff": "_query",
    "change_masks": "_query",
    "side_masks": "_query",
    "DIFF_SCHEMA_ID": "_report",
    "to_json": "_report",
    "to_text": "_report",
}
__all__ = list(_WHERE)


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
