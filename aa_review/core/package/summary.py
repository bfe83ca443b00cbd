"""Package identity and counts: what ``aa-review info`` prints and the window's header shows."""

from __future__ import annotations

from collections import Counter
from typing import Any

from aa_review import __version__
from aa_review.core.package.digest import package_digest
from aa_review.core.package.model import Package

__all__ = ["identity", "counts", "summary"]


def identity(pkg: Package, digest: str | None = None) -> dict[str, Any]:
    """Ids, schema versions and the package digest (computed when not given)."""
    return {
        "package_id": pkg.package_id,
        "task_id": pkg.task_id,
        "root": str(pkg.root),
        "format_version": pkg.version,
        "schema_versions": pkg.schema_versions(),
        "package_digest": digest or package_digest(pkg.root),
        "catalog_derived_from_rows": pkg.catalog_derived,
    }


def counts(pkg: Package, *, count_links: bool = True) -> dict[str, Any]:
    """Rows by data type and file, evidence by type and visibility, links, problems."""
    ix = pkg.index
    by_file = {f.rsplit("/", 1)[1]: n for f, n in ix.counts_by("file").items()}
    links: int | None = None
    if count_links:
        try:
            links = sum(1 for _ in pkg.iter_links())
        except Exception:  # a broken map is reported as a problem by the loader/audit
            links = None
    return {
        "rows": len(ix),
        "rows_by_data_type": dict(sorted(ix.counts_by("data_type").items())),
        "rows_by_file": dict(sorted(by_file.items())),
        "evidence_items": len(pkg.catalog),
        "evidence_by_type": dict(sorted(Counter(e.evidence_type or "?" for e in pkg.catalog)
                                        .items())),
        "evidence_by_visibility": dict(sorted(Counter(e.visibility or "?" for e in pkg.catalog)
                                              .items())),
        "links": links,
        "loading_problems": len(pkg.problems),
    }


def summary(pkg: Package, digest: str | None = None) -> dict[str, Any]:
    return {
        "tool": f"aa-review {__version__}",
        "identity": identity(pkg, digest),
        "counts": counts(pkg),
        "problems": [p.model_dump(mode="json", exclude_defaults=True) for p in pkg.problems],
    }
