"""One filter syntax for rows, evidence and findings: ``type:x confidence<0.5 "text"``."""

from __future__ import annotations

from aa_review.core.query._eval import (
    EVIDENCE_FIELDS,
    FINDING_FIELDS,
    ROW_FIELDS,
    filter_evidence,
    filter_findings,
    filter_rows,
)
from aa_review.core.query._parse import QueryError, Term, parse_query, set_term, term_value

__all__ = ["QueryError", "Term", "parse_query", "filter_rows", "filter_evidence",
           "filter_findings", "set_term", "term_value", "ROW_FIELDS", "EVIDENCE_FIELDS", "FINDING_FIELDS"]
