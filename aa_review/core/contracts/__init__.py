"""The package's contracts against its real artifact files, for the Contracts tab and the audit.

:mod:`._compare` judges one artifact against one contract entry and knows no package;
:mod:`._entries` finds which file each entry names in a package, compares every
contracted file once and answers the pre-final checklist. The tab and the
``contracts`` audit check both start here, so they cannot disagree about a file.
"""

from __future__ import annotations

from aa_review.core.contracts._compare import (
    COLUMN_KINDS,
    JUDGED_ROWS,
    MAX_READ,
    ArtifactShape,
    Diff,
    DiffKind,
    compare,
    is_number,
    json_type,
    read_artifact,
    type_matches,
)
from aa_review.core.contracts._entries import (
    MAX_PREVIEW_BYTES,
    TRANSFER_CHECKLIST,
    CheckResult,
    ContractedFile,
    ContractEntry,
    FileCheck,
    Preview,
    check_file,
    checklist,
    compare_package,
    contract_entries,
    contract_path,
    contracted_files,
    preview,
)

__all__ = [
    "ContractEntry",
    "ContractedFile",
    "FileCheck",
    "Preview",
    "CheckResult",
    "contract_entries",
    "contracted_files",
    "contract_path",
    "check_file",
    "compare_package",
    "preview",
    "checklist",
    "MAX_PREVIEW_BYTES",
    "TRANSFER_CHECKLIST",
    "ArtifactShape",
    "Diff",
    "DiffKind",
    "COLUMN_KINDS",
    "JUDGED_ROWS",
    "MAX_READ",
    "compare",
    "is_number",
    "json_type",
    "read_artifact",
    "type_matches",
]
