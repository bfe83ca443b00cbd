"""The Qt-free audit engine: pure checks over an opened package, one report for window and CLI.

``audit_package`` audits one package, ``audit_corpus`` a folder of packages in
parallel, ``contamination_rows`` lists rows citing hidden evidence. Every check
is registered in ``CHECKS`` with its stable codes (documented in docs/findings.md).

Names are imported on first use, so that the row pass's worker processes, which
import one submodule, do not pay for the whole engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aa_review.core.util.lazy import lazy_exports

if TYPE_CHECKING:
    from aa_review.core.audits._codes import (
        CODES as CODES,
    )
    from aa_review.core.audits._codes import (
        CodeInfo as CodeInfo,
    )
    from aa_review.core.audits._contamination import (
        contamination_positions as contamination_positions,
    )
    from aa_review.core.audits._contamination import (
        contamination_rows as contamination_rows,
    )
    from aa_review.core.audits._contamination import (
        row_names as row_names,
    )
    from aa_review.core.audits._context import (
        AuditContext as AuditContext,
    )
    from aa_review.core.audits._corpus import (
        audit_corpus as audit_corpus,
    )
    from aa_review.core.audits._corpus import (
        find_packages as find_packages,
    )
    from aa_review.core.audits._engine import (
        DEFAULT_CAP as DEFAULT_CAP,
    )
    from aa_review.core.audits._engine import (
        AuditCancelled as AuditCancelled,
    )
    from aa_review.core.audits._engine import (
        audit_package as audit_package,
    )
    from aa_review.core.audits._model import (
        AuditDocument as AuditDocument,
    )
    from aa_review.core.audits._model import (
        AuditProgress as AuditProgress,
    )
    from aa_review.core.audits._model import (
        AuditReport as AuditReport,
    )
    from aa_review.core.audits._model import (
        CheckSummary as CheckSummary,
    )
    from aa_review.core.audits._model import (
        CorpusEntry as CorpusEntry,
    )
    from aa_review.core.audits._model import (
        CorpusReport as CorpusReport,
    )
    from aa_review.core.audits._model import (
        CorpusTotals as CorpusTotals,
    )
    from aa_review.core.audits._model import (
        Counts as Counts,
    )
    from aa_review.core.audits._model import (
        Identity as Identity,
    )
    from aa_review.core.audits._model import (
        findings_line as findings_line,
    )
    from aa_review.core.audits._registry import (
        CHECKS as CHECKS,
    )
    from aa_review.core.audits._registry import (
        Check as Check,
    )
    from aa_review.core.audits._registry import (
        UnknownCheckError as UnknownCheckError,
    )
    from aa_review.core.audits._registry import (
        resolve_selection as resolve_selection,
    )

_WHERE = {
    "audit_package": "_engine",
    "AuditCancelled": "_engine",
    "DEFAULT_CAP": "_engine",
    "audit_corpus": "_corpus",
    "find_packages": "_corpus",
    "contamination_rows": "_contamination",
    "contamination_positions": "_contamination",
    "row_names": "_contamination",
    "AuditContext": "_context",
    "AuditDocument": "_model",
    "AuditProgress": "_model",
    "AuditReport": "_model",
    "CheckSummary": "_model",
    "Counts": "_model",
    "Identity": "_model",
    "CorpusEntry": "_model",
    "CorpusReport": "_model",
    "CorpusTotals": "_model",
    "findings_line": "_model",
    "CHECKS": "_checks",
    "Check": "_registry",
    "UnknownCheckError": "_registry",
    "resolve_selection": "_registry",
    "CODES": "_codes",
    "CodeInfo": "_codes",
}
__all__ = list(_WHERE)


# the registry is empty until the checks are imported
__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals(), first={"_registry": "_checks"})
