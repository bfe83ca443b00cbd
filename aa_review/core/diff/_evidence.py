"""Evidence catalogs matched by id and by ref, and the rows citing what changed."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from aa_review.core.diff._fingerprint import EvidenceFacts, Fingerprint
from aa_review.core.diff._model import EvidenceChange, LinksDiff

__all__ = ["diff_evidence", "cited_counts", "diff_links", "COMPARED_FIELDS"]

HIDDEN = "hidden_excluded"
# Catalog fields compared, in the order changes name them.
COMPARED_FIELDS = (
    "evidence_id",
    "ref",
    "content_hash",
    "visibility",
    "evidence_type",
    "resolves",
    "confidence",
)


def cited_counts(fp: Fingerprint) -> dict[str, int]:
    """Rows citing each evidence id (ids no row cites are left out)."""
    if not len(fp) or len(fp.set_ptr) < 2:
        return {}
    rows_per_set = np.bincount(fp.set_code, minlength=len(fp.set_ptr) - 1)
    sizes = np.diff(fp.set_ptr)
    per_member = np.repeat(rows_per_set, sizes)
    counts = np.bincount(fp.set_members, weights=per_member, minlength=len(fp.evidence_ids))
    return {fp.evidence_ids[i]: int(counts[i]) for i in np.flatnonzero(counts).tolist()}


def _pair(
    old: Sequence[EvidenceFacts], new: Sequence[EvidenceFacts], key: str
) -> tuple[list[tuple[EvidenceFacts, EvidenceFacts]], list[EvidenceFacts], list[EvidenceFacts]]:
    """Pair entries with equal ``key``; the k-th of a repeated key pairs with the k-th."""
    pool: dict[str, list[EvidenceFacts]] = {}
    for e in old:
        pool.setdefault(getattr(e, key), []).append(e)
    pairs, left_new = [], []
    for e in new:
        bucket = pool.get(getattr(e, key))
        if bucket:
            pairs.append((bucket.pop(0), e))
        else:
            left_new.append(e)
    left_old = [e for e in old if any(e is x for x in pool.get(getattr(e, key), ()))]
    return pairs, left_old, left_new


def _fields(old: EvidenceFacts, new: EvidenceFacts) -> tuple[str, ...]:
    out = []
    for name in COMPARED_FIELDS:
        x, y = getattr(old, name), getattr(new, name)
        if (
            name == "confidence"
            and isinstance(x, (int, float))
            and isinstance(y, (int, float))
            and not isinstance(x, bool)
            and not isinstance(y, bool)
        ):
            if float(x) != float(y):
                out.append(name)
        elif x != y or type(x) is not type(y):
            out.append(name)
    return tuple(out)


def diff_evidence(
    a: Fingerprint, b: Fingerprint, *, ref_first: bool = False
) -> tuple[EvidenceChange, ...]:
    """Catalog entries added, removed and changed from ``a`` to ``b``.

    Entries are matched by evidence id, then the rest by ref (``ref_first``: by ref,
    then by id, for packages of different format versions). A ref that changed
    under the same id is the sanitizer rewriting it (format 12.6); an id that
    changed for the same ref is reported as a changed ``evidence_id``.
    """
    first, second = ("ref", "evidence_id") if ref_first else ("evidence_id", "ref")
    pairs, left_a, left_b = _pair(a.catalog, b.catalog, first)
    more, left_a, left_b = _pair(left_a, left_b, second)
    cited_a, cited_b = cited_counts(a), cited_counts(b)
    out: list[EvidenceChange] = []
    for matched_by, group in ((first, pairs), (second, more)):
        for old, new in group:
            fields = _fields(old, new)
            if not fields:
                continue
            cited = cited_b.get(new.evidence_id, 0)
            to_hidden = "visibility" in fields and new.visibility == HIDDEN
            out.append(
                EvidenceChange(
                    kind="visibility" if "visibility" in fields else "changed",
                    evidence_id=new.evidence_id,
                    ref=new.ref,
                    old=old,
                    new=new,
                    fields=fields,
                    matched_by="id" if matched_by == "evidence_id" else "ref",
                    cited_by=cited,
                    hidden_while_cited=to_hidden and cited > 0,
                )
            )
    for e in left_a:
        out.append(
            EvidenceChange(
                "removed", e.evidence_id, e.ref, e, None, cited_by=cited_a.get(e.evidence_id, 0)
            )
        )
    for e in left_b:
        out.append(
            EvidenceChange(
                "added",
                e.evidence_id,
                e.ref,
                None,
                e,
                cited_by=cited_b.get(e.evidence_id, 0),
                hidden_while_cited=e.visibility == HIDDEN and cited_b.get(e.evidence_id, 0) > 0,
            )
        )
    order = {"visibility": 0, "changed": 1, "removed": 2, "added": 3}
    out.sort(key=lambda c: (not c.hidden_while_cited, order[c.kind], c.ref))
    return tuple(out)


def diff_links(b: Fingerprint, changes: Sequence[EvidenceChange]) -> LinksDiff:
    """Rows of ``b`` citing an evidence id whose catalog entry changed or was removed."""
    ids = {c.evidence_id for c in changes if c.kind != "added"}
    ids |= {c.old.evidence_id for c in changes if c.old is not None and c.kind != "added"}
    pos = [i for i, e in enumerate(b.evidence_ids) if e in ids]
    if not pos or not len(b):
        return LinksDiff()
    wanted = np.zeros(len(b.evidence_ids), dtype=bool)
    wanted[pos] = True
    n_sets = len(b.set_ptr) - 1
    owner = np.repeat(np.arange(n_sets), np.diff(b.set_ptr))
    set_hit = np.zeros(n_sets, dtype=bool)
    set_hit[owner[wanted[b.set_members]]] = True
    cited = cited_counts(b)
    by = {b.evidence_ids[p]: cited.get(b.evidence_ids[p], 0) for p in pos}
    return LinksDiff({k: v for k, v in by.items() if v}, b, set_hit)
