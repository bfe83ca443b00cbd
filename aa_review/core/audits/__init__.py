"""The Qt-free audit engine: pure checks over an opened package, one report for window and CLI.

``audit_package`` audits one package, ``audit_corpus`` a folder of packages in
parallel, ``contamination_rows`` lists rows citing hidden evidence. Every check
is registered in ``CHECKS`` with its stable codes (documented in docs/findings.md).
"""

from __future__ import annotations

from aa_review.core.audits._codes import CODES, CodeInfo
from aa_review.core.audits._contamination import contamination_rows
from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._corpus import audit_corpus, find_packages
from aa_review.core.audits._engine import DEFAULT_CAP, AuditCancelled, audit_package
from aa_review.core.audits._model import (
    AuditDocument,
    AuditProgress,
    AuditReport,
    CheckSummary,
    CorpusEntry,
    CorpusReport,
    CorpusTotals,
    Counts,
    Identity,
)
from aa_review.core.audits._registry import CHECKS, Check, UnknownCheckError, resolve_selection

__all__ = [
    "audit_package",
    "audit_corpus",
    "find_packages",
    "contamination_rows",
    "AuditCancelled",
    "AuditContext",
    "AuditDocument",
    "AuditProgress",
    "AuditReport",
    "CheckSummary",
    "Counts",
    "Identity",
    "CorpusEntry",
    "CorpusReport",
    "CorpusTotals",
    "CHECKS",
    "Check",
    "CODES",
    "CodeInfo",
    "DEFAULT_CAP",
    "UnknownCheckError",
    "resolve_selection",
]
