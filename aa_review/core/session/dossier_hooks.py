"""What a dossier workspace needs from compiled packages, from the audits and the diff.

The dossier core decides nothing about package contents itself: it is given
facts and hooks. The facts of the package open are the review session's
(``ReviewSession.facts``, their one maker); this module makes the hooks from what
the rest of the core computes, for the window and the command line alike:

* :class:`DiffFingerprints` - the :class:`~aa_review.core.dossier.FingerprintHooks`
  that keep a fingerprint at binding and say later what changed since
  (``aa_review.core.diff``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier import BoundChanges, PackageStatus

if TYPE_CHECKING:
    from aa_review.core.diff import PackageDiff

__all__ = ["DiffFingerprints", "change_lines"]


class DiffFingerprints:
    """Fingerprint a bound package at binding and diff it later (``aa_review.core.diff``).

    A package the caller holds open (``PackageFacts.package``) is read from its index;
    otherwise the folder is opened (which builds its index: seconds for a large one,
    so call the workspace off the GUI thread).
    """

    def fingerprint(self, status: PackageStatus) -> bytes:
        from aa_review.core.diff import fingerprint

        return bytes(fingerprint(self._open(status)).to_bytes())

    def changes(self, data: bytes, status: PackageStatus) -> BoundChanges:
        from aa_review.core.diff import Fingerprint, diff

        pid = str(status.package_id)
        d = diff(Fingerprint.from_bytes(data, f"fingerprint of {pid}"), self._open(status))
        lines = change_lines(d)
        headline = (
            lines[0]
            if lines
            else "nothing a diff can see (the files differ only in "
            "bytes a fingerprint does not keep)"
        )
        return BoundChanges(
            pid, "changed", d.summary(), lines, f"{pid} changed since binding: {headline}"
        )

    @staticmethod
    def _open(status: PackageStatus) -> Any:
        facts = status.facts
        if facts is not None and facts.package is not None:
            return facts.package
        from aa_review.core.package import open_package

        if status.root is None:
            raise FileNotFoundError(f"{status.package_id}: no folder")
        return open_package(Path(status.root))


def change_lines(d: PackageDiff, limit: int = 5) -> tuple[str, ...]:
    """What a diff found, in words, most severe first (at most ``limit`` names per kind)."""
    lines: list[str] = []
    hidden = [e for e in d.evidence if e.hidden_while_cited]
    for e in hidden:
        lines.append(
            f"evidence {e.evidence_id} ({e.ref}) became hidden_excluded while "
            f"{e.cited_by} rows cite it"
        )
    others = [e for e in d.evidence if not e.hidden_while_cited]
    if others:
        what = _some(
            [
                f"{e.evidence_id} {e.kind}" + (f" ({', '.join(e.fields)})" if e.fields else "")
                for e in others
            ],
            limit,
        )
        lines.append(f"evidence: {len(others)} items changed: {what}")
    r = d.rows
    if not r.compared:
        lines.append(f"rows not compared: {r.reason}")
    else:
        counts = [
            (len(r.added), "added"),
            (len(r.removed), "removed"),
            (len(r.changed), "changed"),
            (len(r.moved), "moved"),
            (len(r.reformatted), "re-serialized"),
        ]
        parts = [f"{n:,} {word}" for n, word in counts if n]
        if parts:
            lines.append("rows: " + ", ".join(parts))
        same = r.same_id_new_content
        if same:
            lines.append(
                f"rows with a new content hash under the same id: {len(same):,} "
                f"({_some([c.row_id for c in same], limit)})"
            )
        if r.added:
            lines.append(f"added rows: {_some(r.added.ids(), limit)}")
        if r.removed:
            lines.append(f"removed rows: {_some(r.removed.ids(), limit)}")
        if r.changed:
            lines.append(f"changed rows: {_some([c.row_id for c in r.changed], limit)}")
    if len(d.links):
        lines.append(f"rows citing changed evidence: {len(d.links):,}")
    if d.contracts:
        lines.append(
            "contracts: " + _some([f"{c.document} {c.item} {c.kind}" for c in d.contracts], limit)
        )
    if d.identity_changes:
        lines.append(
            "identity: "
            + ", ".join(
                f"{k} {old!r} → {new!r}" for k, (old, new) in sorted(d.identity_changes.items())
            )
        )
    if d.version_change:
        lines.append(f"format version {d.version_change[0]} → {d.version_change[1]}")
    return tuple(lines)


def _some(items: list[str], limit: int) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit:,} more" if len(items) > limit else "")
