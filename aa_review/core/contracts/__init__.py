"""The package's contracts against its real artifact files, for the Contracts tab and the audit.

:mod:`._compare` judges one artifact against one contract entry and knows no package;
:mod:`._entries` finds which file each entry names in a package, compares every
contracted file once and answers the pre-final checklist. The tab and the
``contracts`` audit check both start here, so they cannot disagree about a file.

Names are imported on first use, so that a worker process comparing a large artifact,
which imports :mod:`._filecheck`, does not pay for the package reader (pydantic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aa_review.core.util.lazy import lazy_exports

if TYPE_CHECKING:
    from aa_review.core.contracts._compare import (
        COLUMN_KINDS as COLUMN_KINDS,
    )
    from aa_review.core.contracts._compare import (
        JUDGED_ROWS as JUDGED_ROWS,
    )
    from aa_review.core.contracts._compare import (
        MAX_READ as MAX_READ,
    )
    from aa_review.core.contracts._compare import (
        ArtifactShape as ArtifactShape,
    )
    from aa_review.core.contracts._compare import (
        Diff as Diff,
    )
    from aa_review.core.contracts._compare import (
        DiffKind as DiffKind,
    )
    from aa_review.core.contracts._compare import (
        compare as compare,
    )
    from aa_review.core.contracts._compare import (
        is_number as is_number,
    )
    from aa_review.core.contracts._compare import (
        json_type as json_type,
    )
    from aa_review.core.contracts._compare import (
        read_artifact as read_artifact,
    )
    from aa_review.core.contracts._compare import (
        type_matches as type_matches,
    )
    from aa_review.core.contracts._entries import (
        MAX_PREVIEW_BYTES as MAX_PREVIEW_BYTES,
    )
    from aa_review.core.contracts._entries import (
        TRANSFER_CHECKLIST as TRANSFER_CHECKLIST,
    )
    from aa_review.core.contracts._entries import (
        CheckResult as CheckResult,
    )
    from aa_review.core.contracts._entries import (
        ContractEntry as ContractEntry,
    )
    from aa_review.core.contracts._entries import (
        Preview as Preview,
    )
    from aa_review.core.contracts._entries import (
        check_file as check_file,
    )
    from aa_review.core.contracts._entries import (
        checklist as checklist,
    )
    from aa_review.core.contracts._entries import (
        compare_package as compare_package,
    )
    from aa_review.core.contracts._entries import (
        contract_entries as contract_entries,
    )
    from aa_review.core.contracts._entries import (
        contract_path as contract_path,
    )
    from aa_review.core.contracts._entries import (
        contracted_files as contracted_files,
    )
    from aa_review.core.contracts._entries import (
        preview as preview,
    )
    from aa_review.core.contracts._filecheck import (
        ContractedFile as ContractedFile,
    )
    from aa_review.core.contracts._filecheck import (
        FileCheck as FileCheck,
    )

_WHERE = {
    "ContractEntry": "_entries",
    "ContractedFile": "_filecheck",
    "FileCheck": "_filecheck",
    "Preview": "_entries",
    "CheckResult": "_entries",
    "contract_entries": "_entries",
    "contracted_files": "_entries",
    "contract_path": "_entries",
    "check_file": "_entries",
    "compare_package": "_entries",
    "preview": "_entries",
    "checklist": "_entries",
    "MAX_PREVIEW_BYTES": "_entries",
    "TRANSFER_CHECKLIST": "_entries",
    "ArtifactShape": "_compare",
    "Diff": "_compare",
    "DiffKind": "_compare",
    "COLUMN_KINDS": "_compare",
    "JUDGED_ROWS": "_compare",
    "MAX_READ": "_compare",
    "compare": "_compare",
    "is_number": "_compare",
    "json_type": "_compare",
    "read_artifact": "_compare",
    "type_matches": "_compare",
}
__all__ = list(_WHERE)


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
