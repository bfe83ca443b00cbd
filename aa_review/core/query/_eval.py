"""Evaluating parsed queries over the core's columns (numpy), never row by row in Python."""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.query._parse import QueryError, Term, parse_query

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package, RowIndex

__all__ = ["filter_rows", "filter_evidence", "filter_findings", "ROW_FIELDS", "EVIDENCE_FIELDS",
           "FINDING_FIELDS"]

ROW_FIELDS = {
    "type": "data type (data_type), exact or with * wildcards",
    "file": "row file name, substring",
    "task": "source task id, substring",
    "id": "row id, substring",
    "line": "line number in its file (numeric)",
    "confidence": "row confidence (numeric)",
    "quality": "quality_score (numeric)",
    "evidence": "an evidence id the row cites, or the number of evidence ids (numeric)",
    "evidence.visibility": "cites evidence of this visibility (visible, hidden_excluded)",
    "evidence.type": "cites evidence of this evidence_type",
    "evidence.ref": "cites evidence whose ref contains this",
    "finding": "has a finding with this code (prefix, e.g. privacy)",
    "severity": "has a finding of at least this severity",
}
EVIDENCE_FIELDS = {
    "id": "evidence id, substring", "ref": "ref, substring", "type": "evidence_type",
    "visibility": "visibility", "resolves": "yes/no", "confidence": "numeric",
    "cited": "number of rows citing it (numeric)", "finding": "has a finding with this code",
}
FINDING_FIELDS = {
    "code": "finding code, prefix", "severity": "at least this severity",
    "file": "a location's file, substring", "row": "a location's row id, substring",
    "evidence": "a location's evidence id, substring", "quirk": "yes/no",
}
_ALIASES = {"data_type": "type", "row_id": "id", "evidence_id": "id", "quality_score": "quality"}
_NUMERIC = {"line", "confidence", "quality", "cited"}


def _field(term: Term, fields: dict[str, str], query: str) -> str:
    name = _ALIASES.get(term.field or "", term.field or "")
    if name not in fields:
        near = difflib.get_close_matches(name, list(fields), n=1)
        hint = f" (did you mean '{near[0]}'?)" if near else ""
        raise QueryError(query, term.column, f"unknown field '{term.field}'{hint}; "
                         f"known: {', '.join(sorted(fields))}")
    return name


def _number(term: Term, query: str) -> float:
    try:
        return float(term.value)
    except ValueError:
        raise QueryError(query, term.column, f"'{term.field}' compares numbers; "
                         f"'{term.value}' is not one") from None


def _compare(col: np.ndarray, term: Term, query: str) -> np.ndarray:
    x = _number(term, query)
    op = "=" if term.op == ":" else term.op
    return {"<": col < x, "<=": col <= x, ">": col > x, ">=": col >= x, "=": col == x,
            "!=": col != x}[op]


def _text_match(names: Sequence[str], value: str, exact: bool) -> np.ndarray:
    v = value.lower()
    if any(c in v for c in "*?["):
        return np.array([fnmatch.fnmatchcase(n.lower(), v) for n in names], dtype=bool)
    return np.array([(n.lower() == v) if exact else (v in n.lower()) for n in names], dtype=bool)


def _id_contains(ix: RowIndex, value: str) -> np.ndarray:
    return np.char.find(ix.row_id_folded(), value.lower().encode("utf-8")) >= 0


def filter_rows(pkg: Package, query: str,
                row_findings: Callable[[str, str | None], np.ndarray] | None = None
                ) -> np.ndarray | None:
    """Positions of the rows matching ``query`` (None: the query keeps every row).

    ``row_findings(code_prefix, min_severity)`` returns a boolean mask over rows;
    without it, ``finding:``/``severity:`` terms raise QueryError.
    """
    terms = parse_query(query)
    if not terms:
        return None
    ix = pkg.index
    n = len(ix)
    mask = np.ones(n, dtype=bool)
    for t in terms:
        if t.field is None:
            m = _id_contains(ix, t.value)
            for table, col in ((ix.data_types, ix.data_type), (ix.files, ix.file),
                               (ix.tasks, ix.task)):
                m |= _text_match(table, t.value, exact=False)[col] if len(table) else False
        else:
            name = _field(t, ROW_FIELDS, query)
            m = _row_term(pkg, name, t, query, row_findings)
        mask &= ~m if t.negated else m
    return np.flatnonzero(mask)


def _row_term(pkg: Package, name: str, t: Term, query: str,
              row_findings: Callable[[str, str | None], np.ndarray] | None) -> np.ndarray:
    ix = pkg.index
    if name in _NUMERIC:
        col = {"line": ix.line, "confidence": ix.confidence, "quality": ix.quality}[name]
        return _compare(col, t, query)
    if name == "type":
        return _text_match(ix.data_types, t.value, exact=True)[ix.data_type] if len(ix) else \
            np.zeros(0, bool)
    if name == "file":
        return _text_match([f.rsplit("/", 1)[1] for f in ix.files], t.value, False)[ix.file]
    if name == "task":
        return _text_match(ix.tasks, t.value, False)[ix.task] if len(ix) else np.zeros(0, bool)
    if name == "id":
        return _id_contains(ix, t.value)
    if name == "evidence":
        if t.op != ":" or t.value.replace(".", "", 1).isdigit():
            return _compare(ix.n_evidence, t, query)
        wanted = np.array([t.value.lower() in e.lower() for e in ix.evidence_ids], dtype=bool)
        return _rows_citing_any(pkg, wanted)
    if name.startswith("evidence."):
        attr = {"evidence.visibility": "visibility", "evidence.type": "evidence_type",
                "evidence.ref": "ref"}[name]
        exact = attr != "ref"
        vals = [(getattr(pkg.evidence_at(i), attr, None) or "") if pkg.evidence_at(i) else ""
                for i in range(len(ix.evidence_ids))]
        return _rows_citing_any(pkg, _text_match(vals, t.value, exact))
    if row_findings is None:
        raise QueryError(query, t.column, f"'{t.field}:' needs an audit; run the audit first")
    if name == "finding":
        return row_findings(t.value, None)
    return row_findings("", t.value)


def _rows_citing_any(pkg: Package, wanted_evidence: np.ndarray) -> np.ndarray:
    """Rows citing any evidence in the boolean mask, via the distinct evidence sets."""
    ix = pkg.index
    set_hit = np.array([bool(wanted_evidence[s].any()) if len(s) else False for s in ix.sets],
                       dtype=bool)
    return set_hit[ix.set_code] if len(ix.sets) else np.zeros(len(ix), bool)


def filter_evidence(pkg: Package, query: str, cited: np.ndarray,
                    evidence_findings: Callable[[str], np.ndarray] | None = None
                    ) -> np.ndarray | None:
    """Positions (into ``index.evidence_ids``) of matching evidence items."""
    terms = parse_query(query)
    if not terms:
        return None
    ix = pkg.index
    items = [pkg.evidence_at(i) for i in range(len(ix.evidence_ids))]
    mask = np.ones(len(items), dtype=bool)
    for t in terms:
        if t.field is None:
            m = np.array([t.value.lower() in (ix.evidence_ids[i] + " " + (e.ref if e else ""))
                          .lower() for i, e in enumerate(items)], dtype=bool)
        else:
            name = _field(t, EVIDENCE_FIELDS, query)
            if name in ("confidence", "cited"):
                col = cited if name == "cited" else np.array(
                    [e.confidence if e and e.confidence is not None else np.nan for e in items])
                m = _compare(col, t, query)
            elif name == "finding":
                if evidence_findings is None:
                    raise QueryError(query, t.column, "'finding:' needs an audit; run it first")
                m = evidence_findings(t.value)
            else:
                attr = {"id": None, "ref": "ref", "type": "evidence_type",
                        "visibility": "visibility", "resolves": "resolves"}[name]
                vals = [ix.evidence_ids[i] if attr is None else
                        _as_text(getattr(e, attr, None) if e else None) for i, e in enumerate(items)]
                m = _text_match(vals, t.value, exact=name in ("type", "visibility", "resolves"))
        mask &= ~m if t.negated else m
    return np.flatnonzero(mask)


def _as_text(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "" if v is None else str(v)


def filter_findings(findings: Sequence[Finding], query: str) -> list[int]:
    """Positions of the findings matching ``query``."""
    from aa_review.core.findings import Severity

    terms = parse_query(query)
    keep = list(range(len(findings)))
    for t in terms:
        if t.field is None:
            pred: Callable[[Finding], bool] = lambda f, v=t.value.lower(): v in (
                f"{f.code} {f.message} {f.location.short()}".lower()) or (
                len(f.locations) > 1 and _any_location_has(f, v))
        else:
            name = _field(t, FINDING_FIELDS, query)
            v = t.value.lower()
            if name == "severity":
                try:
                    floor = Severity(v).rank
                except ValueError:
                    raise QueryError(query, t.column, f"unknown severity '{t.value}'; use "
                                     + ", ".join(s.value for s in Severity)) from None
                pred = lambda f, floor=floor: f.severity.rank >= floor
            elif name == "code":
                pred = lambda f, v=v: f.code.lower().startswith(v)
            elif name == "quirk":
                pred = lambda f, v=v: f.quirk == (v in ("yes", "true", "1"))
            else:  # any of the finding's locations
                attr = {"file": "file", "row": "row_id", "evidence": "evidence_id"}[name]
                pred = lambda f, v=v, a=attr: f.locations.contains_text(a, v)
        keep = [i for i in keep if pred(findings[i]) != t.negated]
    return keep


def _any_location_has(f: Finding, text: str) -> bool:
    """Free text in any location's file, row id, evidence id, ref, key path or contract."""
    return any(f.locations.contains_text(name, text) for name in
               ("file", "row_id", "evidence_id", "ref", "key_path", "contract"))
