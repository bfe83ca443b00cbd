"""What :func:`derive_package` is asked to change, and the record of what it changed."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

__all__ = [
    "ChangeSpec",
    "ChangeRecord",
    "ContractEdit",
    "DerivedPackage",
    "CONTRACT_EDITS",
    "parse_change",
]

# Contract edits by name: what each does to the first item it fits.
CONTRACT_EDITS = {
    "column_added": "output contract: a column appended to the first CSV output",
    "column_removed": "output contract: the first column of the first CSV output dropped",
    "type_changed": "output contract: the first expected type of the first JSON output changed",
    "threshold_changed": "output contract: min_rows of the first output that has one raised by 4",
    "output_added": "output contract: a required output appended",
    "output_removed": "output contract: the last required output dropped",
    "check_changed": "prefinal checklist: the first check made non-blocking (or blocking)",
}


@dataclass(frozen=True)
class ChangeSpec:
    """How many of each change to make (chosen deterministically from ``seed``).

    Attributes
    ----------
    rows_added, rows_removed, rows_changed
        Rows inserted (copies of a row of the same file with a new target, so a new
        id), deleted, and edited in place (``changed_fields`` set, the id kept).
    rows_moved
        Rows moved to the end of their own file (their order changed, content not).
    rows_to_other_file
        Rows moved to the end of another row file.
    rows_reformatted
        Rows written again with the same values in another layout (compact JSON).
    changed_fields
        Dotted paths edited in each changed row: a number grows, a string gets a
        suffix, a list an element, an object a key, a missing leaf is created.
    rehash
        Recompute ``row_content_hash`` of every row that changed (else it goes stale).
    evidence_rehashed, evidence_hidden, evidence_ref_rewritten, evidence_added, evidence_removed
        Catalog entries whose file (and content hash) changed, which became
        ``hidden_excluded`` (rows still cite them), whose ref was rewritten under the
        same id (format 12.6), added for a package file not yet catalogued, removed
        (rows still cite them).
    propagate
        Rehashed and rewritten evidence also changes the rows citing it (their
        ``source_content_hashes`` and ref lists), as a re-compile would.
    contract_edits
        Names from ``CONTRACT_EDITS``.
    """

    rows_added: int = 0
    rows_removed: int = 0
    rows_changed: int = 0
    rows_moved: int = 0
    rows_to_other_file: int = 0
    rows_reformatted: int = 0
    changed_fields: tuple[str, ...] = ("quality_score",)
    rehash: bool = True
    evidence_rehashed: int = 0
    evidence_hidden: int = 0
    evidence_ref_rewritten: int = 0
    evidence_added: int = 0
    evidence_removed: int = 0
    propagate: bool = False
    contract_edits: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, int) and not isinstance(v, bool) and v < 0:
                raise ValueError(f"{f.name} must not be negative")
        unknown = [e for e in self.contract_edits if e not in CONTRACT_EDITS]
        if unknown:
            raise ValueError(
                f"unknown contract edits {unknown}; known: " + ", ".join(CONTRACT_EDITS)
            )


def parse_change(text: str) -> tuple[str, object]:
    """``name=value`` of the command line (``rows_changed=3``, ``contract_edits=a,b``)."""
    name, sep, value = text.partition("=")
    name = name.strip().replace("-", "_")
    known = {f.name: f for f in fields(ChangeSpec)}
    if not sep or name not in known:
        raise ValueError(f"{text!r}: expected NAME=VALUE with NAME one of {', '.join(known)}")
    default = getattr(ChangeSpec(), name)
    if isinstance(default, bool):
        if value.lower() not in ("1", "0", "true", "false", "yes", "no"):
            raise ValueError(f"{name} takes true or false, not {value!r}")
        return name, value.lower() in ("1", "true", "yes")
    if isinstance(default, int):
        try:
            return name, int(value)
        except ValueError:
            raise ValueError(f"{name} takes a whole number, not {value!r}") from None
    return name, tuple(v.strip() for v in value.split(",") if v.strip())


@dataclass(frozen=True)
class ContractEdit:
    """One contract edit: the item as the diff names it, the path and the change."""

    document: str
    item: str
    kind: str  # added, removed or changed: of the item itself when path is ""
    path: str = ""
    change: str = ""  # inside the item: added, removed or changed
    old: object = None
    new: object = None


@dataclass
class ChangeRecord:
    """Exactly what :func:`derive_package` changed.

    Row ids are as stored in the derived package (removed rows: as they were).
    ``rows_changed`` maps an id to the paths whose JSON values changed (in the
    notation of ``aa_review.core.diff.changed_paths``); ``rows_content_hash_changed``
    lists the changed rows whose ``row_content_hash`` value changed; ``rows_moved``
    maps an id to ``order`` or ``file``.
    """

    rows_added: list[str] = field(default_factory=list)
    rows_removed: list[str] = field(default_factory=list)
    rows_changed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    rows_content_hash_changed: list[str] = field(default_factory=list)
    rows_moved: dict[str, str] = field(default_factory=dict)
    rows_reformatted: list[str] = field(default_factory=list)
    evidence_rehashed: list[str] = field(default_factory=list)
    evidence_hidden: list[str] = field(default_factory=list)
    evidence_ref_rewritten: dict[str, tuple[str, str]] = field(default_factory=dict)
    evidence_added: list[str] = field(default_factory=list)
    evidence_removed: list[str] = field(default_factory=list)
    contract_edits: list[ContractEdit] = field(default_factory=list)


@dataclass
class DerivedPackage:
    """A package derived from another by :func:`derive_package`."""

    root: Path
    source: Path
    package_id: str
    changes: ChangeRecord
    rows_by_file: dict[str, int]
    rewritten: list[str] = field(default_factory=list)
