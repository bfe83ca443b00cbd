"""Rows matched by stable id over two fingerprints' columns (numpy), then classified."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

import numpy as np
import xxhash

from aa_review.core.diff._fingerprint import Fingerprint
from aa_review.core.diff._model import RowList, RowMoves, RowsDiff

if TYPE_CHECKING:
    from collections.abc import Callable

    from aa_review.core.package import Package

__all__ = ["match_rows", "diff_rows", "longest_increasing"]

_xxh = xxhash.xxh3_64_intdigest


def _keys(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 64-bit key per row id, the order that sorts them, and the sorted keys.

    A repeated id's k-th copy (k >= 1) gets a key of its own; if keys still repeat (two
    ids with one 64-bit key), the sorted keys show it and the caller matches exactly.
    """
    raw = ids.tolist()
    keys = np.fromiter((_xxh(b) for b in raw), dtype=np.uint64, count=len(raw))
    order = np.argsort(keys, kind="stable")
    srt = keys[order]
    dup = srt[1:] == srt[:-1]
    if dup.any():
        seen: dict[bytes, int] = {}
        for i in np.flatnonzero(np.isin(keys, srt[1:][dup])).tolist():
            k = seen.get(raw[i], 0)
            seen[raw[i]] = k + 1
            if k:
                keys[i] = _xxh(raw[i] + b"\x00#" + str(k).encode())
        order = np.argsort(keys, kind="stable")
        srt = keys[order]
    return keys, order, srt


def _exact_match(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Matching by (id, occurrence) with Python dicts: the fallback after a hash collision."""
    first: dict[tuple[bytes, int], int] = {}
    count: dict[bytes, int] = {}
    for i, rid in enumerate(a.tolist()):
        k = count.get(rid, 0)
        count[rid] = k + 1
        first[(rid, k)] = i
    ia: list[int] = []
    ib: list[int] = []
    count.clear()
    for j, rid in enumerate(b.tolist()):
        k = count.get(rid, 0)
        count[rid] = k + 1
        at = first.get((rid, k))
        if at is not None:
            ia.append(at)
            ib.append(j)
    return np.asarray(ia, np.int64), np.asarray(ib, np.int64)


def _ambiguous(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort order, sorted values, and a mask (in sorted order) of values that repeat."""
    order = np.argsort(values, kind="stable")
    srt = values[order]
    rep = np.zeros(len(srt), dtype=bool)
    if len(srt) > 1:
        eq = srt[1:] == srt[:-1]
        rep[1:] |= eq
        rep[:-1] |= eq
    return order, srt, rep


def _match_digests(a: Fingerprint, b: Fingerprint) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of rows whose lines are byte-identical (a digest met once on each side).

    Identical lines carry the same id. A digest repeated on a side (a repeated line,
    or an index without digests, all 0) pairs nothing here: the id stage decides.
    """
    oa, sa, rep_a = _ambiguous(a.digest)
    ob, sb, rep_b = _ambiguous(b.digest)
    keys, where = sa[~rep_a], oa[~rep_a]
    needles, at_b = sb[~rep_b], ob[~rep_b]  # sorted: the search walks both in order
    if not len(keys) or not len(needles):
        return np.empty(0, np.int64), np.empty(0, np.int64)
    at = np.minimum(np.searchsorted(keys, needles), len(keys) - 1)
    hit = keys[at] == needles
    return where[at[hit]].astype(np.int64), at_b[hit].astype(np.int64)


def _match_ids(ids_a: np.ndarray, ids_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions pairing equal ids; the k-th copy of an id pairs with the k-th."""
    _, oa, sa = _keys(ids_a)
    kb, _, sb = _keys(ids_b)
    if (len(sa) > 1 and bool((sa[1:] == sa[:-1]).any())) or (
        len(sb) > 1 and bool((sb[1:] == sb[:-1]).any())
    ):
        return _exact_match(ids_a, ids_b)
    if not len(sa) or not len(kb):
        return np.empty(0, np.int64), np.empty(0, np.int64)
    at = np.minimum(np.searchsorted(sa, kb), len(sa) - 1)
    hit = sa[at] == kb
    ib = np.flatnonzero(hit).astype(np.int64)
    ia = oa[at[hit]].astype(np.int64)
    if not np.array_equal(ids_a[ia], ids_b[ib]):  # a 64-bit collision across sides
        return _exact_match(ids_a, ids_b)
    return ia, ib


def match_rows(a: Fingerprint, b: Fingerprint) -> tuple[np.ndarray, np.ndarray]:
    """Aligned positions ``(ia, ib)`` of the rows with the same id on both sides, in the
    new package's order.

    Rows whose lines are byte-identical pair first (numpy only, on the line digests);
    the rest pair by id, the k-th row carrying an id with the k-th on the other side.
    """
    ia1, ib1 = _match_digests(a, b)
    rest_a = np.ones(len(a), dtype=bool)
    rest_a[ia1] = False
    rest_b = np.ones(len(b), dtype=bool)
    rest_b[ib1] = False
    pa, pb = np.flatnonzero(rest_a), np.flatnonzero(rest_b)
    ia2, ib2 = _match_ids(a.row_id[pa], b.row_id[pb])
    ia = np.concatenate((ia1, pa[ia2])).astype(np.int64)
    ib = np.concatenate((ib1, pb[ib2])).astype(np.int64)
    order = np.argsort(ib, kind="stable")
    return ia[order], ib[order]


def longest_increasing(seq: list[int]) -> list[int]:
    """Indices into ``seq`` of one longest strictly increasing subsequence (earliest ends)."""
    tails: list[int] = []
    tails_at: list[int] = []
    prev = [-1] * len(seq)
    for i, x in enumerate(seq):
        k = bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
            tails_at.append(i)
        else:
            tails[k] = x
            tails_at[k] = i
        prev[i] = tails_at[k - 1] if k else -1
    out: list[int] = []
    i = tails_at[-1] if tails_at else -1
    while i >= 0:
        out.append(i)
        i = prev[i]
    return out[::-1]


def _file_map(a: Fingerprint, b: Fingerprint) -> np.ndarray:
    """For each file code of ``a``, the code of the same file in ``b`` (-1: none)."""
    where = {f: i for i, f in enumerate(b.files)}
    return (
        np.array([where.get(f, -1) for f in a.files], dtype=np.int64)
        if a.files
        else np.empty(0, np.int64)
    )


def _out_of_order(fa: np.ndarray, la: np.ndarray, lb: np.ndarray) -> np.ndarray:
    """Mask of rows (same file on both sides) whose order among the others changed.

    Rows kept in order form a longest increasing run of new lines taken in old line
    order; the rest moved. Usually the new lines already increase: one comparison.
    """
    out = np.zeros(len(fa), dtype=bool)
    if len(fa) < 2:
        return out
    order = np.lexsort((la, fa))
    f_sorted, b_sorted = fa[order], lb[order]
    bad = (np.diff(b_sorted) <= 0) & (f_sorted[1:] == f_sorted[:-1])
    if not bad.any():
        return out
    for f in np.unique(f_sorted[1:][bad]).tolist():
        idx = order[f_sorted == f]
        keep = longest_increasing(lb[idx].tolist())
        moved = np.ones(len(idx), dtype=bool)
        moved[keep] = False
        out[idx[moved]] = True
    return out


def diff_rows(
    a: Fingerprint,
    b: Fingerprint,
    old_pkg: Package | None,
    new_pkg: Package | None,
    cancelled: Callable[[], bool] | None = None,
) -> RowsDiff:
    """Added, removed, changed and moved rows of ``b`` against ``a``; ``cancelled()`` is
    polled while changed rows are read again (:class:`DiffCancelled` when it is true)."""
    from aa_review.core.diff._rowdetail import describe_changes

    ia, ib = match_rows(a, b)
    only_a = np.ones(len(a), dtype=bool)
    only_a[ia] = False
    only_b = np.ones(len(b), dtype=bool)
    only_b[ib] = False
    same = a.digest[ia] == b.digest[ib]
    fmap = _file_map(a, b)
    file_a = fmap[a.file[ia]] if len(ia) else np.empty(0, np.int64)
    same_file = file_a == b.file[ib]
    la, lb = a.line[ia], b.line[ib]
    reordered = np.zeros(len(ia), dtype=bool)
    reordered[same_file] = _out_of_order(file_a[same_file], la[same_file], lb[same_file])
    moved = same & (~same_file | reordered)
    shifted = same & same_file & ~reordered & (la != lb)
    shifted_by: dict[str, int] = {}
    if shifted.any():
        codes, n = np.unique(b.file[ib][shifted], return_counts=True)
        shifted_by = {b.files[int(c)]: int(k) for c, k in zip(codes, n, strict=True)}
    how = tuple("file" if not sf else "order" for sf in same_file[moved].tolist())
    changed, reformatted = describe_changes(
        a, b, ia[~same], ib[~same], old_pkg, new_pkg, cancelled=cancelled
    )
    return RowsDiff(
        compared=True,
        added=RowList.take(b, "new", np.flatnonzero(only_b)),
        removed=RowList.take(a, "old", np.flatnonzero(only_a)),
        changed=changed,
        moved=RowMoves(RowList.take(a, "old", ia[moved]), RowList.take(b, "new", ib[moved]), how),
        reformatted=RowList.take(b, "new", np.asarray(reformatted, dtype=np.int64)),
        shifted=shifted_by,
        unchanged=int(same.sum()),
    )
