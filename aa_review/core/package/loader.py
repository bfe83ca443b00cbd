"""Opening a package folder: documents, evidence catalog and the row index."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.package import documents
from aa_review.core.package.catalog import derive_catalog, read_map_header
from aa_review.core.package.index import RowIndex, build_index
from aa_review.core.package.layout import EC_DIR, ROW_FILES
from aa_review.core.package.model import LoadProgress, Package, RowCounts
from aa_review.core.package.rowscan import RowChunk, Visitor, scan_range, split_ranges
from aa_review.core.package.safepath import PackageRoot
from aa_review.core.util.errors import PackageError, UnsafeRefError
from aa_review.core.util.procpool import POOL_UNAVAILABLE, run_in_processes

__all__ = ["open_package", "count_rows", "find_root", "LoadCancelled"]

log = logging.getLogger(__name__)

FIRST_CHUNK = 256 * 1024  # small, so the first rows show at once
CHUNK = 16 * 1024 * 1024
PARALLEL_MIN_BYTES = 48 * 1024 * 1024  # below this, worker start-up costs more than it saves


class LoadCancelled(Exception):
    """Raised by :func:`open_package` when ``cancelled()`` turned true."""


def find_root(path: Path) -> Path:
    """The package root for ``path``: a folder holding ``experience_compiler/``, or that folder."""
    path = Path(path)
    if not path.exists():
        raise PackageError("no such file or folder", str(path))
    if not path.is_dir():
        raise PackageError(
            "not a folder: a package is a folder holding experience_compiler/", str(path)
        )
    if (path / EC_DIR).is_dir():
        return path
    if path.name == EC_DIR and (path / "compiler_manifest.json").exists():
        return path.parent
    raise PackageError(
        "not a compiled package: no experience_compiler/ folder inside "
        "(open the package folder, the one holding experience_compiler/)",
        str(path),
    )


def open_package(
    path: Path,
    *,
    progress: Callable[[LoadProgress], None] | None = None,
    on_partial: Callable[[RowIndex], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    workers: int | None = None,
    row_visitor: Callable[[Package], Visitor | None] | None = None,
    visited: Callable[[list[tuple[int, Any]]], None] | None = None,
    rows: bool = True,
) -> Package:
    """Open the package at ``path`` (see :func:`find_root`).

    Parameters
    ----------
    progress
        Called with a :class:`LoadProgress` as row files are scanned.
    on_partial
        Called once with an index of the first rows, before the whole package is read.
    cancelled
        Polled between chunks; when it returns True, :class:`LoadCancelled` is raised.
    workers
        Worker processes for large packages (default: the machine's cores, at most 4).
    row_visitor
        Per-row work to do on the one parse of each row: called with the package as
        known before its rows are read (documents, catalog, an empty index), it returns
        a :data:`~aa_review.core.package.rowscan.Visitor` (or None: no visit). Each chunk's
        result goes to ``visited`` as ``(position of its first row, result)``.
    rows
        False: read the documents and the catalog only, not the row files (the index is
        empty and ``Package.rows_read`` False), for work that needs no row.

    Raises
    ------
    PackageError
        When ``path`` is not a package. Everything else is a problem in ``Package.problems``.
    """
    root = find_root(path)
    safe = PackageRoot(root)
    problems: list[Finding] = []
    docs = documents.read_documents(safe, problems)
    header, catalog = read_map_header(safe, problems)
    version = documents.detect_version(docs, header)
    files = [rel for rel, _ in ROW_FILES]
    visitor = None
    if row_visitor is not None:
        before = Package(
            root=root,
            safe=safe,
            version=version,
            docs=docs,
            map_header=header,
            catalog=catalog or [],
            catalog_derived=catalog is None,
            index=build_index([], files, [], {}),
            problems=list(problems),
        )
        visitor = row_visitor(before)
    jobs = _plan_jobs(safe, files, problems) if rows or catalog is None else []
    total = sum(end - start for _, start, end in jobs)
    chunks = _scan_all(
        safe,
        files,
        jobs,
        total,
        derive=catalog is None,
        progress=progress,
        on_partial=on_partial,
        cancelled=cancelled,
        workers=workers,
        catalog_ids=[e.evidence_id for e in catalog or []],
        visitor=visitor,
    )
    if visitor is not None and visited is not None:
        firsts, n = [], 0
        for ch in chunks:
            firsts.append((n, ch.visited))
            n += len(ch.line)
        visited([(first, result) for first, result in firsts if result is not None])
    catalog_derived = catalog is None
    if catalog is None:
        catalog = derive_catalog(safe, chunks)
    line_base = _chunk_problems(chunks, files, problems)
    index = build_index(chunks, files, [e.evidence_id for e in catalog], line_base)
    rows_read = rows or catalog_derived  # a v0.1 catalog comes from the rows: read them
    if rows_read:
        _check_empty(safe, files, docs, problems)
    return Package(
        root=root,
        safe=safe,
        version=version,
        docs=docs,
        map_header=header,
        catalog=catalog,
        catalog_derived=catalog_derived,
        index=index,
        problems=problems,
        rows_read=rows_read,
    )


def count_rows(
    path: Path,
    *,
    workers: int | None = None,
    meanwhile: Callable[[Package], None] | None = None,
) -> tuple[Package, RowCounts]:
    """Open the package at ``path`` and count its rows by data type and by file, without
    indexing them: every line is read and checked as :func:`open_package` does (the same
    problems, in the same order), only its ``data_type`` is kept.

    The package comes with an empty index (``rows_read`` False), except a v0.1 package,
    whose catalog is derived from its rows and which is opened whole. ``meanwhile`` is
    called once with that package while the row workers count (work of the parent that
    needs no row, done on the other core meanwhile).
    """
    pkg = open_package(path, rows=False)
    if pkg.rows_read:  # v0.1: read and indexed already
        if meanwhile is not None:
            meanwhile(pkg)
        return pkg, RowCounts.of_index(pkg.index)
    files = [rel for rel, _ in ROW_FILES]
    problems = list(pkg.problems)
    jobs = _plan_jobs(pkg.safe, files, problems)
    raised: list[Exception] = []

    def during() -> None:  # what it raises is raised after the scan, not taken for the pool's
        try:
            if meanwhile is not None:
                meanwhile(pkg)
        except Exception as exc:  # noqa: BLE001  # raised again once the scan is over
            raised.append(exc)

    chunks = _scan_all(
        pkg.safe,
        files,
        jobs,
        sum(end - start for _, start, end in jobs),
        derive=False,
        progress=None,
        on_partial=None,
        cancelled=lambda: False,
        workers=workers,
        catalog_ids=[],
        columns=False,
        meanwhile=during,
    )
    if raised:
        raise raised[0]
    _chunk_problems(chunks, files, problems)
    _check_empty(pkg.safe, files, pkg.docs, problems)
    by_type: dict[str, int] = {}
    by_file = dict.fromkeys(files, 0)
    for ch in chunks:
        by_file[files[ch.file_code]] += len(ch.data_type)
        for t in ch.data_type:
            by_type[t] = by_type.get(t, 0) + 1
    pkg.problems = problems
    return pkg, RowCounts(by_type=by_type, by_file=by_file)


def _plan_jobs(
    safe: PackageRoot, files: list[str], problems: list[Finding]
) -> list[tuple[int, int, int]]:
    jobs: list[tuple[int, int, int]] = []
    for code, rel in enumerate(files):
        try:
            with safe.open(rel, buffering=0) as fh:  # the type and size of what is read
                size = os.fstat(fh.fileno()).st_size
        except (FileNotFoundError, NotADirectoryError):
            problems.append(
                Finding(
                    code="input.missing_file",
                    severity=Severity.WARNING,
                    location=Location(file=rel),
                    message="row file is missing (the compiler writes all 23)",
                )
            )
            continue
        except (OSError, UnsafeRefError) as exc:  # a symlink out, a FIFO, unreadable
            problems.append(documents.file_problem(rel, exc, "row file"))
            continue
        for start, end in split_ranges(size, CHUNK):
            jobs.append((code, start, end))
    # Split a small first job off, so the first rows can be shown immediately.
    if jobs and jobs[0][2] - jobs[0][1] > FIRST_CHUNK:
        code, start, end = jobs[0]
        jobs[0:1] = [(code, start, start + FIRST_CHUNK), (code, start + FIRST_CHUNK, end)]
    return jobs


def _scan_all(
    safe: PackageRoot,
    files: list[str],
    jobs: list[tuple[int, int, int]],
    total: int,
    *,
    derive: bool,
    progress: Callable[[LoadProgress], None] | None,
    on_partial: Callable[[RowIndex], None] | None,
    cancelled: Callable[[], bool],
    workers: int | None,
    catalog_ids: list[str],
    visitor: Visitor | None = None,
    columns: bool = True,
    meanwhile: Callable[[], None] | None = None,
) -> list[RowChunk]:
    results: dict[int, RowChunk] = {}
    done = [0]
    ids = tuple(catalog_ids)

    def finish(i: int, chunk: RowChunk) -> None:
        results[i] = chunk
        done[0] += jobs[i][2] - jobs[i][1]
        if progress is not None:
            progress(
                LoadProgress(
                    stage="rows",
                    done=done[0],
                    total=total,
                    rows=sum(len(c.line) for c in results.values()),
                )
            )

    def args(job: tuple[int, int, int]) -> tuple[Any, ...]:
        code, start, end = job
        return (str(safe.path), files[code], code, start, end, derive, visitor, ids, columns)

    def serially(pending: list[int]) -> None:
        for i in pending:
            if cancelled():
                raise LoadCancelled()
            finish(i, scan_range(*args(jobs[i])))

    if not jobs:
        if progress is not None:
            progress(LoadProgress(stage="rows", done=0, total=0, rows=0))
        if meanwhile is not None:
            meanwhile()
        return []
    finish(0, scan_range(*args(jobs[0])))
    if on_partial is not None and len(jobs) > 1:
        on_partial(build_index([results[0]], files, catalog_ids, {}))
    rest = list(range(1, len(jobs)))
    if cancelled():
        raise LoadCancelled()
    if total >= PARALLEL_MIN_BYTES and (workers is None or workers > 1) and rest:
        pending = [meanwhile]  # run once, whether the workers start or not

        def once() -> None:
            run, pending[0] = pending[0], None
            if run is not None:
                run()

        try:
            _scan_parallel(args, jobs, rest, finish, cancelled, workers, once)
        except POOL_UNAVAILABLE as exc:
            # Workers could not start (no __main__ guard, no /dev/shm...): scan here instead.
            log.warning("parallel row scan unavailable (%s); scanning in one process", exc)
            serially([i for i in rest if i not in results])
        once()
    else:
        serially(rest)
        if meanwhile is not None:
            meanwhile()
    return [results[i] for i in range(len(jobs))]


def _scan_parallel(
    args: Callable[[tuple[int, int, int]], tuple[Any, ...]],
    jobs: list[tuple[int, int, int]],
    rest: list[int],
    finish: Callable[[int, RowChunk], None],
    cancelled: Callable[[], bool],
    workers: int | None,
    meanwhile: Callable[[], None] | None = None,
) -> None:
    run_in_processes(
        scan_range,
        {i: args(jobs[i]) for i in rest},
        finish,
        cancelled,
        LoadCancelled,
        workers=workers or min(4, os.cpu_count() or 1),
        meanwhile=meanwhile,
    )


def _chunk_problems(
    chunks: list[RowChunk], files: list[str], problems: list[Finding]
) -> dict[tuple[int, int], int]:
    """Append the chunks' problems, located by file and line; return the line bases."""
    line_base = _line_bases(chunks)
    for ch in chunks:
        base = line_base.get((ch.file_code, ch.start), 0)
        for code, severity, line, message in ch.problems:
            problems.append(
                Finding(
                    code=code,
                    severity=Severity(severity),
                    message=message,
                    location=Location(file=files[ch.file_code], line=line + base if line else None),
                )
            )
    return line_base


def _line_bases(chunks: list[RowChunk]) -> dict[tuple[int, int], int]:
    bases: dict[tuple[int, int], int] = {}
    seen: dict[int, int] = {}
    for ch in chunks:
        bases[(ch.file_code, ch.start)] = seen.get(ch.file_code, 0)
        seen[ch.file_code] = seen.get(ch.file_code, 0) + ch.lines_seen
    return bases


def _check_empty(
    safe: PackageRoot,
    files: list[str],
    docs: documents.Documents,
    problems: list[Finding],
) -> None:
    claimed = (docs.manifest.training_row_counts_by_file if docs.manifest else None) or {}
    for rel in files:
        name = rel.rsplit("/", 1)[1]
        st = safe.stat(rel) if claimed.get(name, 0) > 0 else None
        if st is not None and stat.S_ISREG(st.st_mode) and st.st_size == 0:
            problems.append(
                Finding(
                    code="input.empty_file",
                    severity=Severity.ERROR,
                    location=Location(file=rel),
                    message=f"row file is empty but the manifest counts {claimed[name]} rows in it",
                )
            )
