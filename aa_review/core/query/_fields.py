"""The fields each kind of table knows, what kind of value each takes, and checking a term."""

from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from aa_review.core.query._syntax import QueryError, Term

__all__ = [
    "Kind",
    "FieldSpec",
    "ROW_SPECS",
    "EVIDENCE_SPECS",
    "FINDING_SPECS",
    "resolve",
    "check_term",
    "is_number",
    "parse_number",
    "SEVERITIES",
    "FLAG_VALUES",
    "ROW_FIELDS_IN_FINDINGS",
    "CHANGE_VALUES",
]

SEVERITIES = ("info", "low", "warning", "error", "critical")
# ``change:`` values (rows against a baseline package): the row's kind of change, and
# ``linked`` for rows citing evidence that changed or was removed.
CHANGE_VALUES = ("added", "removed", "changed", "moved", "reformatted", "linked")
FLAG_VALUES = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}


class Kind(enum.Enum):
    """How a field's ``:`` matches, and which operators it takes."""

    TEXT = "text"  # substring (or whole value with * ? wildcards)
    ENUM = "enum"  # whole value (or * ? wildcards); values come from the data
    PREFIX = "prefix"  # finding codes: a dotted prefix (or * ? wildcards)
    NUMBER = "number"  # compared at the precision rule (see _numbers.py); none: missing
    COUNT = "count"  # whole numbers, compared exactly
    FLAG = "flag"  # yes / no
    SEVERITY = "severity"  # ordered levels; ':' means at least
    ID_OR_COUNT = "id_or_count"  # rows' evidence: an evidence id, or with a number the count


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: Kind
    help: str
    aliases: tuple[str, ...] = ()


def _specs(*items: FieldSpec) -> dict[str, FieldSpec]:
    return {s.name: s for s in items}


ROW_SPECS = _specs(
    FieldSpec("type", Kind.ENUM, "data type (data_type)", ("data_type",)),
    FieldSpec("file", Kind.TEXT, "row file, package-relative path"),
    FieldSpec("task", Kind.TEXT, "source task id", ("source_task_id",)),
    FieldSpec("id", Kind.TEXT, "row id", ("row_id",)),
    FieldSpec("line", Kind.COUNT, "line number in its file"),
    FieldSpec("confidence", Kind.NUMBER, "row confidence"),
    FieldSpec("quality", Kind.NUMBER, "quality_score", ("quality_score",)),
    FieldSpec(
        "evidence",
        Kind.ID_OR_COUNT,
        "an evidence id the row cites; with a number, how many it cites",
    ),
    FieldSpec("evidence.visibility", Kind.ENUM, "cites evidence of this visibility"),
    FieldSpec("evidence.type", Kind.ENUM, "cites evidence of this evidence_type"),
    FieldSpec("evidence.ref", Kind.TEXT, "cites evidence whose ref contains this"),
    FieldSpec("finding", Kind.PREFIX, "has an audit finding with this code (prefix)"),
    FieldSpec("severity", Kind.SEVERITY, "has an audit finding of at least this severity"),
    FieldSpec("change", Kind.ENUM, "against the baseline package: " + ", ".join(CHANGE_VALUES)),
    FieldSpec("subset", Kind.ENUM, "in this named subset (made in the window)"),
)

EVIDENCE_SPECS = _specs(
    FieldSpec("id", Kind.TEXT, "evidence id", ("evidence_id",)),
    FieldSpec("ref", Kind.TEXT, "package-relative ref"),
    FieldSpec("type", Kind.ENUM, "evidence_type", ("evidence_type",)),
    FieldSpec("visibility", Kind.ENUM, "visible, hidden_excluded, inferred"),
    FieldSpec("resolves", Kind.FLAG, "the catalog says the ref resolves (yes/no)"),
    FieldSpec("catalogued", Kind.FLAG, "in the catalog (no: an id rows cite that it lacks)"),
    FieldSpec("confidence", Kind.NUMBER, "catalog confidence"),
    FieldSpec("cited", Kind.COUNT, "number of rows citing it", ("cited_by_rows",)),
    FieldSpec("finding", Kind.PREFIX, "has an audit finding with this code (prefix)"),
    FieldSpec("severity", Kind.SEVERITY, "has an audit finding of at least this severity"),
)

# Row fields a findings query may use without the ``row.`` prefix (no finding field has
# the name); every row field is also reachable as ``row.<name>``.
ROW_FIELDS_IN_FINDINGS = (
    "type",
    "task",
    "confidence",
    "quality",
    "evidence.visibility",
    "evidence.type",
    "evidence.ref",
)

FINDING_SPECS = _specs(
    FieldSpec("code", Kind.PREFIX, "finding code (prefix: code:privacy)", ("finding",)),
    FieldSpec("check", Kind.ENUM, "the audit check that reports the code"),
    FieldSpec("severity", Kind.SEVERITY, "at least this severity (severity=x: exactly)"),
    FieldSpec("quirk", Kind.FLAG, "a known compiler quirk (yes/no)"),
    FieldSpec("message", Kind.TEXT, "message text"),
    FieldSpec("file", Kind.TEXT, "located in this file (substring)"),
    FieldSpec("line", Kind.COUNT, "located at this line"),
    FieldSpec("row", Kind.TEXT, "located at this row id (substring)"),
    FieldSpec("evidence", Kind.TEXT, "located at this evidence id (substring)"),
    FieldSpec("ref", Kind.TEXT, "located at this ref (substring)"),
    FieldSpec("key", Kind.TEXT, "located at this JSON key path (substring)"),
    FieldSpec("contract", Kind.TEXT, "located at this contract entry (substring)"),
    *(
        FieldSpec(n, ROW_SPECS[n].kind, f"about a row: {ROW_SPECS[n].help}")
        for n in ROW_FIELDS_IN_FINDINGS
    ),
    *(
        FieldSpec(
            f"row.{s.name}", s.kind, f"about a row: {s.help}", tuple(f"row.{a}" for a in s.aliases)
        )
        for s in ROW_SPECS.values()
        if s.name not in ("finding", "severity", "change", "subset")
    ),
)


def resolve(term: Term, specs: dict[str, FieldSpec], query: str) -> FieldSpec:
    """The spec of ``term.field`` (aliases accepted), or a QueryError naming the nearest."""
    name = term.field or ""
    for spec in specs.values():
        if name == spec.name or name in spec.aliases:
            return spec
    names = [n for s in specs.values() for n in (s.name, *s.aliases)]
    near = [n for n in names if name and n.startswith(name)] or difflib.get_close_matches(
        name, names, n=1
    )
    hint = f"did you mean '{near[0]}'? " if near else ""
    known = ", ".join(s.name for s in specs.values() if not s.name.startswith("row."))
    extra = "; any row field as row.<field>" if any(n.startswith("row.") for n in specs) else ""
    quoted = query[term.start : term.end].replace("\\", "\\\\").replace('"', '\\"')
    raise QueryError(
        query,
        term.column,
        f"unknown field '{term.field}': {hint}"
        f'known: {known}{extra}; to search for the text, quote it: "{quoted}"',
    )


_TEXT_OPS = (":", "=", "!=")
_OPTIONAL_NUMBERS = {
    s.name
    for specs in (ROW_SPECS, EVIDENCE_SPECS, FINDING_SPECS)
    for s in specs.values()
    if s.kind is Kind.NUMBER
}


def check_term(spec: FieldSpec, term: Term, query: str) -> None:
    """Raise QueryError when ``term``'s operator or value does not suit its field."""
    col = term.value_start + 1
    v = term.value.strip().lower()
    if spec.kind in (Kind.TEXT, Kind.ENUM, Kind.PREFIX, Kind.FLAG) and term.op not in _TEXT_OPS:
        raise QueryError(
            query,
            term.column,
            f"'{spec.name}' is not a number, so it takes "
            f"{spec.name}:value, {spec.name}=value or {spec.name}!=value, "
            f"not '{term.op}'",
        )
    if spec.kind is Kind.FLAG and v not in FLAG_VALUES:
        raise QueryError(query, col, f"'{spec.name}' takes yes or no, not '{term.value}'")
    if spec.kind is Kind.SEVERITY and v not in SEVERITIES:
        raise QueryError(
            query, col, f"unknown severity '{term.value}': use " + ", ".join(SEVERITIES)
        )
    if spec.kind in (Kind.NUMBER, Kind.COUNT):
        if spec.kind is Kind.NUMBER and v == "none":
            if term.op not in _TEXT_OPS:
                raise QueryError(
                    query,
                    term.column,
                    f"'none' (no value) takes {spec.name}:none or {spec.name}!=none",
                )
            return
        parse_number(term, query, spec.name)
    if spec.kind is Kind.ID_OR_COUNT and (term.op not in _TEXT_OPS or is_number(v)):
        parse_number(term, query, spec.name)


def is_number(v: str) -> bool:
    try:
        return Decimal(v.strip()).is_finite()
    except InvalidOperation:
        return False


def parse_number(term: Term, query: str, name: str) -> Decimal:
    """The term's value as an exact decimal, or a QueryError that shows a number."""
    try:
        d = Decimal(term.value.strip())
    except InvalidOperation:
        d = None
    if d is None or not d.is_finite():
        none = f" ({name}:none: no value)" if name in _OPTIONAL_NUMBERS else ""
        raise QueryError(
            query,
            term.value_start + 1,
            f"'{name}' compares numbers, and "
            f"'{term.value}' is not one: write e.g. {name}<0.7{none}",
        )
    return d
