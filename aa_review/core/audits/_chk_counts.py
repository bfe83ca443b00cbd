"""Check ``counts``: the package's stated counts recount from its rows, links and catalog."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._files import Wants
from aa_review.core.audits._linkmap import damaged_files
from aa_review.core.audits._registry import register
from aa_review.core.findings import Finding, Locations
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.documents import DOC_PATHS
from aa_review.core.package.layout import EC_DIR, ENV_PAIR_TYPE, ROW_FILES, SURFACE_TYPES
from aa_review.core.package.model import Package

CODES = (
    "count.coverage",
    "count.rows_by_type",
    "count.rows_by_file",
    "count.orphan_list",
    "count.derived",
    "quirk.bad_line_zero_count",
)
_TTP = f"{EC_DIR}/training_time_package"
_DERIVED = (f"{_TTP}/process_supervision.jsonl", f"{_TTP}/agentic_rollouts.jsonl")
_LINES = Wants(lines=True)


def _coverage(pkg: Package, ctx: AuditContext) -> dict[str, int]:
    ix = pkg.index
    links = ctx.map.links if not pkg.catalog_derived else None
    n_links = len(links) if links is not None else len(ix)
    with_ids = (
        sum(1 for c in links.ids if links.id_sets[c])
        if links is not None
        else int((ix.n_evidence > 0).sum())
    )
    resolved = sum(1 for e in pkg.catalog if e.resolves)
    orphans = sum(1 for p in range(ix.catalog_size, len(ix.evidence_ids)) if len(ix.rows_citing(p)))
    return {
        "evidence_ref_count": len(pkg.catalog),
        "resolved_evidence_ref_count": resolved,
        "unresolved_evidence_ref_count": len(pkg.catalog) - resolved,
        "row_link_count": n_links,
        "row_count_with_evidence_ids": with_ids,
        "orphan_evidence_id_count": orphans,
    }


def _compare(
    ctx: AuditContext,
    code: str,
    stated: dict[str, Any] | None,
    actual: dict[str, int],
    file: str,
    key: str,
    *,
    zero_absent: bool = True,
) -> Iterator[Finding]:
    if stated is None or not ctx.on(code):
        return
    for name in sorted(set(stated) | set(actual)):
        want = actual.get(name, 0)
        have = stated.get(name, 0 if zero_absent else None)
        if have != want:
            yield ctx.finding(
                code,
                f"{key}.{name} says {have}, the package has {want}",
                file=file,
                key_path=f"{key}.{name}",
            )


@register("counts", "Counts", CODES, reads=dict.fromkeys(_DERIVED, _LINES))
def check_counts(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """coverage_statistics (in the evidence map and the quality report) and the manifest's
    ref and link counts recount from the catalog and links (format 7.8); rows_by_type and
    training_row_counts_by_file (manifest, quality report) recount from the rows; the
    orphan list names exactly the cited ids the catalog lacks; derived files hold one row
    per source row (process supervision, rollouts)."""
    docs, ix = pkg.docs, pkg.index
    if not pkg.catalog_derived:
        cov = _coverage(pkg, ctx)
        tail = ctx.map.tail
        stated = tail.get("coverage_statistics")
        yield from _compare(
            ctx,
            "count.coverage",
            stated if isinstance(stated, dict) else None,
            cov,
            MAP_PATH,
            "coverage_statistics",
            zero_absent=False,
        )
        q = docs.quality.source_evidence_map_coverage if docs.quality else None
        yield from _compare(
            ctx,
            "count.coverage",
            q.model_dump() if q else None,
            cov,
            DOC_PATHS["quality"],
            "source_evidence_map_coverage",
            zero_absent=False,
        )
        m = docs.manifest
        if m is not None and ctx.on("count.coverage"):
            for key, want in (
                ("source_evidence_ref_count", cov["evidence_ref_count"]),
                ("source_evidence_row_link_count", cov["row_link_count"]),
            ):
                have = getattr(m, key)
                if have is not None and have != want:
                    yield ctx.finding(
                        "count.coverage",
                        f"{key} says {have}, the package has {want}",
                        file=DOC_PATHS["manifest"],
                        key_path=key,
                    )
        orphans = tail.get("orphan_evidence_ref_ids")
        actual = [
            ix.evidence_ids[p]
            for p in range(ix.catalog_size, len(ix.evidence_ids))
            if len(ix.rows_citing(p))
        ]
        if (
            isinstance(orphans, list)
            and sorted(map(str, orphans)) != sorted(actual)
            and ctx.on("count.orphan_list")
        ):
            listed = list(map(str, orphans))
            wrong = sorted(set(listed) - set(actual))  # listed, yet no row cites it
            absent = sorted(set(actual) - set(listed))  # cited, uncatalogued, not listed
            parts = ([f"lists {len(wrong):,} id(s) no row cites"] if wrong else []) + (
                [f"leaves out {len(absent):,} cited uncatalogued id(s)"] if absent else []
            )
            key = "orphan_evidence_ref_ids"
            # Each id the list has wrong is a location: where it stands, or which rows cite it.
            at = {e: i for i, e in reversed(list(enumerate(listed)))}
            more = [
                Locations.columns(
                    len(wrong),
                    file=MAP_PATH,
                    evidence_id=wrong,
                    key_path=(key + "[{}]", [at[e] for e in wrong]),
                )
            ]
            more += [
                ctx.at_rows(
                    ix.rows_citing(ix.evidence_pos[e]).to_array(),
                    evidence_id=e,
                    key_path="source_evidence_ref_ids",
                )
                for e in absent
            ]
            detail = (
                f": it {' and '.join(parts)} ({', '.join((wrong + absent)[:3])}"
                f"{', ...' if len(wrong) + len(absent) > 3 else ''}; each is located)"
                if parts
                else ": an id is listed more than once"
            )
            yield ctx.finding(
                "count.orphan_list",
                f"orphan_evidence_ref_ids lists "
                f"{len(orphans)} id(s); rows cite {len(actual)} uncatalogued "
                f"id(s){detail}",
                file=MAP_PATH,
                key_path=key,
                more=Locations.concat(more) if more else None,
            )
    damaged = damaged_files(pkg)
    by_type = {k: v for k, v in ix.counts_by("data_type").items() if k}
    if docs.manifest is not None:
        for f in _compare(
            ctx,
            "count.rows_by_type",
            docs.manifest.rows_by_type,
            by_type,
            DOC_PATHS["manifest"],
            "rows_by_type",
        ):
            name = (f.location.key_path or "").split(".", 1)[1] + "s.jsonl"
            if not _explained(f, docs.manifest.rows_by_type or {}, by_type, damaged, name, "s"):
                yield f
    by_file = {f.rsplit("/", 1)[1]: n for f, n in ix.counts_by("file").items()}
    for name, _ in ROW_FILES:
        by_file.setdefault(name.rsplit("/", 1)[1], 0)
    for doc, stated in (("manifest", docs.manifest), ("quality", docs.quality)):
        if stated is None or stated.training_row_counts_by_file is None:
            continue
        claimed = stated.training_row_counts_by_file
        for f in _compare(
            ctx,
            "count.rows_by_file",
            claimed,
            by_file,
            DOC_PATHS[doc],
            "training_row_counts_by_file",
        ):
            name = (f.location.key_path or "").split(".", 1)[1]
            if name in damaged and claimed.get(name) == 0:
                if ctx.on("quirk.bad_line_zero_count"):
                    yield ctx.finding(
                        "quirk.bad_line_zero_count",
                        f"{name} is counted as 0 rows "
                        "because one bad line makes the compiler's tolerant "
                        "reader drop the whole file (format 12.22)",
                        file=DOC_PATHS[doc],
                        key_path=f.location.key_path,
                    )
            elif not _explained(f, claimed, by_file, damaged, name, ""):
                yield f
    yield from _derived(pkg, ctx, by_type, damaged)


def _explained(
    f: Finding,
    claimed: dict[str, int],
    actual: dict[str, int],
    damaged: dict[str, int],
    name: str,
    suffix: str,
) -> bool:
    """A shortfall no larger than the lines the loader could not read in that file: the
    input.* finding already says why, so the count is not blamed as well."""
    key = (f.location.key_path or "").split(".", 1)[1]
    short = claimed.get(key, 0) - actual.get(key, 0)
    return 0 < short <= damaged.get(name, 0)


def _derived(
    pkg: Package, ctx: AuditContext, by_type: dict[str, int], damaged: dict[str, int]
) -> Iterator[Finding]:
    if not ctx.on("count.derived"):
        return
    steps = by_type.get(ENV_PAIR_TYPE, 0) + sum(by_type.get(t, 0) for t in SURFACE_TYPES)
    lost = sum(damaged.get(t + "s.jsonl", 0) for t in (ENV_PAIR_TYPE, *SURFACE_TYPES))
    for rel, want in zip(_DERIVED, (steps, by_type.get(ENV_PAIR_TYPE, 0)), strict=True):
        scan = ctx.byte_scan(rel, _LINES)  # counted while the file was hashed, or read now
        if scan is None or scan.lines is None:
            continue
        have = scan.lines
        if have != want and not 0 < have - want <= lost:
            yield ctx.finding(
                "count.derived",
                f"{have} row(s); the package has {want} source "
                "row(s) this file derives one row from each",
                file=rel,
            )
