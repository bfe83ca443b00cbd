"""Package identity and counts: what ``aa-review info`` prints and the window's header shows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aa_review import __version__
from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.digest import cached_digest, package_digest
from aa_review.core.package.documents import file_problem
from aa_review.core.package.hashcache import HashCache
from aa_review.core.package.linklines import BadLink, count_links
from aa_review.core.package.model import Package, RowCounts
from aa_review.core.package.safepath import printable
from aa_review.core.util.errors import RecordError, UnsafeRefError

__all__ = [
    "identity",
    "counts",
    "summary",
    "read_link_count",
    "count_links_now",
    "checked_digest",
]


def identity(pkg: Package, digest: str | None = None) -> dict[str, Any]:
    """Ids, schema versions and the package digest (computed when not given)."""
    return {
        "package_id": pkg.package_id,
        "task_id": pkg.task_id,
        "root": printable(str(pkg.root)),
        "format_version": pkg.version,
        "schema_versions": pkg.schema_versions(),
        "package_digest": digest or package_digest(pkg.root),
        "catalog_derived_from_rows": pkg.catalog_derived,
    }


def read_link_count(
    pkg: Package, problems: list[Finding] | None = None, counted: Callable[[], int] | None = None
) -> int | None:
    """How many ``row_evidence_links`` the map holds (every link's fields validated);
    None (and a located problem in ``problems``) when they cannot be read to the end.
    ``counted``: the count, taken already."""
    try:
        if pkg.catalog_derived:
            return len(pkg.index)  # v0.1: one derived link per row
        return counted() if counted is not None else count_links(pkg.safe)
    except RecordError as exc:
        found = Finding(
            code="input.bad_json",
            severity=Severity.ERROR,
            location=Location(file=exc.path, line=exc.line),
            message=f"row_evidence_links cannot be read: {exc.message}",
        )
    except BadLink as exc:
        found = Finding(
            code="input.bad_field",
            severity=Severity.ERROR,
            location=Location(file=MAP_PATH, key_path=f"row_evidence_links[{exc.index}]"),
            message=f"a link is unusable: {exc.message}",
        )
    except (OSError, UnsafeRefError) as exc:
        found = file_problem(MAP_PATH, exc, "evidence map")
    if problems is not None:
        problems.append(found)
    return None


def count_links_now(pkg: Package) -> Callable[[], int]:
    """Count the map's links now; the returned function gives the count, or raises what
    counting raised, later: ``counted`` of :func:`read_link_count`, which reports a
    problem in its place among the others (for counting while the rows are read)."""
    if pkg.catalog_derived:  # nothing to read: one derived link per row of the index
        return lambda: len(pkg.index)
    try:
        n = count_links(pkg.safe)
    except (RecordError, BadLink, OSError, UnsafeRefError) as exc:
        failed = exc

        def again() -> int:
            raise failed

        return again
    return lambda: n


def checked_digest(
    root: Path, problems: list[Finding], cache: HashCache | None = None
) -> str | None:
    """The package digest, or None with a located problem for what could not be read.

    A FIFO, socket or device in the package is never opened: it enters the digest
    by its type, and is a problem too (nothing can be read from it). With ``cache``,
    files whose device, inode, size and times are unchanged are not read again (see
    :mod:`~aa_review.core.package.hashcache`: not a check against tampering).
    """
    from aa_review.core.package.digest import list_package

    try:
        listing = list_package(root)
    except OSError as exc:
        problems.append(
            Finding(
                code="input.unreadable",
                severity=Severity.ERROR,
                location=Location(file="."),
                message=f"the package folder cannot be listed ({exc.strerror})",
            )
        )
        return None
    for e in listing.problems():
        if e.kind == "special":
            problems.append(
                Finding(
                    code="file.special",
                    severity=Severity.ERROR,
                    location=Location(file=printable(e.rel)),
                    message=f"a {e.detail} in the package: never opened",
                )
            )
        else:
            problems.append(
                Finding(
                    code="input.unreadable",
                    severity=Severity.ERROR,
                    location=Location(file=printable(e.rel)),
                    message=e.detail,
                )
            )
    if any(e.kind == "error" for e in listing.entries):
        return None
    try:
        return cached_digest(root, cache) if cache is not None else package_digest(root)
    except OSError as exc:
        rel = getattr(exc, "rel", None) or (exc.filename if isinstance(exc.filename, str) else ".")
        problems.append(file_problem(rel, exc))
        return None


def counts(
    pkg: Package,
    *,
    count_links: bool = True,
    links: int | None = None,
    rows: RowCounts | None = None,
) -> dict[str, Any]:
    """Rows by data type and file, evidence by type and visibility, links, problems.
    ``rows``: the rows counted already (by default, from the package's index)."""
    if rows is None:
        rows = RowCounts.of_index(pkg.index)
    by_file = {f.rsplit("/", 1)[1]: n for f, n in rows.by_file.items()}
    if count_links and links is None:
        links = read_link_count(pkg)
    return {
        "rows": rows.total,
        "rows_by_data_type": dict(sorted(rows.by_type.items())),
        "rows_by_file": dict(sorted(by_file.items())),
        "evidence_items": len(pkg.catalog),
        "evidence_by_type": dict(
            sorted(Counter(e.evidence_type or "?" for e in pkg.catalog).items())
        ),
        "evidence_by_visibility": dict(
            sorted(Counter(e.visibility or "?" for e in pkg.catalog).items())
        ),
        "links": links,
        "loading_problems": len(pkg.problems),
    }


def summary(
    pkg: Package,
    digest: str | None = None,
    cache: HashCache | None = None,
    counted: Callable[[], int] | None = None,
    rows: RowCounts | None = None,
) -> dict[str, Any]:
    """Identity, counts and every problem: the loader's, and what could not be read while
    counting the links and computing the digest (``problems`` empty: all was read).
    ``cache``: take unchanged files' hashes from it (see :func:`checked_digest`);
    ``counted``: the links, counted already; ``rows``: the rows, counted already."""
    problems = list(pkg.problems)
    links = read_link_count(pkg, problems, counted)
    if digest is None:
        digest = checked_digest(pkg.root, problems, cache)
    c = counts(pkg, count_links=False, links=links, rows=rows)
    c["loading_problems"] = len(problems)
    return {
        "tool": f"aa-review {__version__}",
        "identity": {**identity(pkg, digest or "unavailable"), "package_digest": digest},
        "counts": c,
        "problems": [p.model_dump(mode="json", exclude_defaults=True) for p in problems],
    }
