"""``diff(old, new)``: one package (or fingerprint) against another."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from aa_review.core.diff._contracts import diff_contracts
from aa_review.core.diff._evidence import diff_evidence, diff_links
from aa_review.core.diff._findings import diff_findings
from aa_review.core.diff._fingerprint import Fingerprint, finding_dicts, fingerprint
from aa_review.core.diff._model import LinksDiff, PackageDiff, RowsDiff, stop_if
from aa_review.core.diff._rows import diff_rows

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = ["diff", "audit_findings"]


# Identity fields that differ between two folders of the same package without any change.
_NOT_A_CHANGE = frozenset({"package_id"})
AUDIT_CAP = 1 << 30  # compare every finding, not the first few per code


def audit_findings(pkg: Package) -> list[Finding]:
    """Every finding of an audit of ``pkg`` (no package digest, no per-code cap)."""
    from aa_review.core.audits import audit_package

    return list(audit_package(pkg, digest=False, cap=AUDIT_CAP).findings)


def _flat(identity: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in identity.items():
        if isinstance(v, dict):
            out.update({f"{k}.{sub}": x for sub, x in v.items()})
        else:
            out[k] = v
    return out


def _side_by_side(a: dict[str, int], b: dict[str, int]) -> dict[str, list[int]]:
    return {k: [a.get(k, 0), b.get(k, 0)] for k in sorted(set(a) | set(b))}


def _counts(a: Fingerprint, b: Fingerprint) -> dict[str, Any]:
    def ev(fp: Fingerprint, attr: str) -> dict[str, int]:
        return dict(Counter(getattr(e, attr) or "?" for e in fp.catalog))

    return {
        "rows": [len(a), len(b)],
        "rows_by_data_type": _side_by_side(a.counts_by("data_type"), b.counts_by("data_type")),
        "rows_by_file": _side_by_side(a.counts_by("file"), b.counts_by("file")),
        "evidence_items": [len(a.catalog), len(b.catalog)],
        "evidence_by_type": _side_by_side(ev(a, "evidence_type"), ev(b, "evidence_type")),
        "evidence_by_visibility": _side_by_side(ev(a, "visibility"), ev(b, "visibility")),
        "loading_problems": [a.loading_problems, b.loading_problems],
    }


def diff(
    old: Package | Fingerprint,
    new: Package | Fingerprint,
    *,
    audit: bool = False,
    old_findings: Sequence[Finding] | None = None,
    new_findings: Sequence[Finding] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> PackageDiff:
    """Everything that changed from ``old`` to ``new``.

    Parameters
    ----------
    old, new
        Opened packages, or fingerprints (:func:`fingerprint`, :meth:`Fingerprint.load`).
        With a fingerprint as ``old`` (a package as it was bound), changed rows say
        whether their content hash and cited evidence changed but not which fields.
    audit
        Also compare audit findings: packages are audited here (this costs a full
        audit of each); a fingerprint side uses the findings it was made with.
    old_findings, new_findings
        Findings already at hand (they replace the audit of that side).
    cancelled
        Polled between the stages and while changed rows are read again; when it turns
        true, :class:`~aa_review.core.diff.DiffCancelled` is raised (the window's Cancel).

    Returns
    -------
    PackageDiff
        Rows are matched by stable id and compared by line digest, then by JSON value;
        evidence by id, then by ref. Packages of different format versions are compared
        where both formats agree: identity, evidence by ref, counts and contracts.
    """
    old_pkg = None if isinstance(old, Fingerprint) else old
    new_pkg = None if isinstance(new, Fingerprint) else new
    fa = old if isinstance(old, Fingerprint) else fingerprint(old)
    stop_if(cancelled)
    fb = new if isinstance(new, Fingerprint) else fingerprint(new)
    stop_if(cancelled)
    version_change = (fa.version, fb.version) if fa.version != fb.version else None
    if version_change:
        rows = RowsDiff(
            compared=False,
            reason=(
                f"format version changed from {fa.version} to {fb.version}: the row schema differs "
                "between the formats (in every row), so rows are compared by counts only"
            ),
        )
    else:
        rows = diff_rows(fa, fb, old_pkg, new_pkg, cancelled=cancelled)
    stop_if(cancelled)
    evidence = diff_evidence(fa, fb, ref_first=version_change is not None)
    stop_if(cancelled)
    links = diff_links(fb, evidence) if not version_change else LinksDiff()
    ia, ib = _flat(fa.identity), _flat(fb.identity)
    identity_changes = {
        k: (ia.get(k), ib.get(k))
        for k in list(ia) + [k for k in ib if k not in ia]
        if ia.get(k) != ib.get(k) and k not in _NOT_A_CHANGE and k != "format_version"
    }
    findings = None
    if audit or new_findings is not None:
        fa_list = _findings_of(old, old_pkg, old_findings, audit)
        fb_list = _findings_of(new, new_pkg, new_findings, audit)
        if fa_list is not None and fb_list is not None:
            findings = diff_findings(fa_list, fb_list)
    return PackageDiff(
        old=fa.identity,
        new=fb.identity,
        identity_changes=identity_changes,
        version_change=version_change,
        rows=rows,
        evidence=evidence,
        links=links,
        contracts=diff_contracts(fa.contracts, fb.contracts),
        counts=_counts(fa, fb),
        findings=findings,
        old_is_fingerprint=old_pkg is None,
    )


def _findings_of(
    side: Package | Fingerprint, pkg: Package | None, given: Sequence[Finding] | None, audit: bool
) -> Sequence[Any] | None:
    if given is not None:
        return finding_dicts(given)
    if pkg is not None:
        return finding_dicts(audit_findings(pkg)) if audit else None
    assert isinstance(side, Fingerprint)
    return side.findings
