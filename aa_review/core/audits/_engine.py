"""The audit engine: one package in, one frozen :class:`AuditReport` out (window and CLI)."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from aa_review import __version__
from aa_review.core.audits import _checks  # noqa: F401  (registers every check)
from aa_review.core.audits._context import ROW_RULE_PREFIXES, AuditContext
from aa_review.core.audits._files import FileHashes, HashCancelled, Wants, hash_package
from aa_review.core.audits._gather import list_findings
from aa_review.core.audits._mapscan import scan_map, scan_map_at
from aa_review.core.audits._model import AuditProgress, AuditReport, CheckSummary, Counts, Identity
from aa_review.core.audits._registry import Check, resolve_selection
from aa_review.core.audits._rowscan import ScanCancelled, fused_scan, row_workers, scan_rows
from aa_review.core.contracts import compare_package
from aa_review.core.findings import Finding
from aa_review.core.package import LoadCancelled, LoadProgress, Package, find_root, open_package
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.safepath import printable
from aa_review.core.package.summary import counts as count_package
from aa_review.core.util.errors import PackageError
from aa_review.core.util.procpool import POOL_UNAVAILABLE, spawn_pool

__all__ = ["audit_package", "AuditCancelled", "DEFAULT_CAP"]

log = logging.getLogger(__name__)
DEFAULT_CAP = 200  # findings of one code listed one by one; the rest gathered into one
_MAP_CHECKS = frozenset({"links", "counts"})  # checks that read the map's links
_NO_ROW_CHECKS = frozenset({"hashes", "contracts", "copies"})  # read no row but by row codes
ProgressFn = Callable[[AuditProgress], None]


class AuditCancelled(Exception):
    """Raised by :func:`audit_package` when ``cancelled()`` turned true."""


def audit_package(
    pkg_or_path: Package | Path | str,
    *,
    progress: ProgressFn | None = None,
    cancelled: Callable[[], bool] | None = None,
    checks: Iterable[str] | None = None,
    workers: int | None = None,
    digest: bool | None = None,
    cap: int = DEFAULT_CAP,
    hash_threads: int = 4,
) -> AuditReport:
    """Audit one package and return its report.

    Parameters
    ----------
    pkg_or_path
        An opened :class:`Package`, or the path of a package folder (opened here).
    progress
        Called with :class:`AuditProgress` as loading, hashing and the row pass advance.
    cancelled
        Polled regularly; when it returns True, :class:`AuditCancelled` is raised.
    checks
        Check names, codes or code families to run (default: all), e.g. ``["hash"]``.
    workers
        Worker processes for the row pass of large packages (default: the machine's cores).
    digest
        Compute the package digest for the identity (hashes every file). Default: for a
        whole audit only; an audit narrowed by ``checks`` hashes what its checks need.
    cap
        Findings of one code listed one by one; past it, the others are gathered into one
        finding that keeps every one of their locations.

    Raises
    ------
    PackageError
        When the path is not a package. Anything wrong inside a package is a finding.
    UnknownCheckError
        When ``checks`` names no known check or code.
    """
    t0 = time.perf_counter()
    stop = cancelled or (lambda: False)
    emit = progress or (lambda p: None)
    selected, enabled = resolve_selection(checks)
    if digest is None:
        digest = checks is None
    # The fused scan's config and ref facts, then the loader's per-chunk results (as Any:
    # the loader passes its row visitor's results through untyped).
    fused: dict[str, Any] = {}
    # Two background jobs: the file hashing and the contracts' comparison, which both
    # wait on worker processes more than they run here.
    background = ThreadPoolExecutor(max_workers=2, thread_name_prefix="aa-audit-bg")
    finished = threading.Event()  # stops a hashing job nobody will wait for
    try:
        return _audit(
            pkg_or_path,
            selected,
            enabled,
            fused,
            digest,
            workers,
            cap,
            hash_threads,
            stop,
            emit,
            background,
            finished,
            t0,
        )
    finally:
        finished.set()
        background.shutdown(wait=False, cancel_futures=True)


def _audit(
    pkg_or_path: Package | Path | str,
    selected: list[Check],
    enabled: Any,
    fused: dict[str, Any],
    digest: bool,
    workers: int | None,
    cap: int,
    hash_threads: int,
    stop: Callable[[], bool],
    emit: ProgressFn,
    background: ThreadPoolExecutor,
    finished: threading.Event,
    t0: float,
) -> AuditReport:
    early: _HashJob | None = None
    contracts: list[Future[Any]] = []
    early_map: list[Future[Any] | None] = []

    def compare_contracts(p: Package) -> None:
        # Beside the row pass (a large JSON artifact is parsed in a worker process)
        # rather than after it, when the contracts check runs.
        if not contracts and any(c.name == "contracts" for c in selected):
            contracts.append(
                background.submit(compare_package, p, cancelled=lambda: finished.is_set() or stop())
            )

    if isinstance(pkg_or_path, Package):
        pkg = pkg_or_path
    else:
        # The digest hashes every file whatever the rows hold: it starts now, beside the
        # opening's row pass, instead of after it (the two took turns before).
        early = _early_hash(
            Path(pkg_or_path), selected, digest, hash_threads, background, finished, stop
        )

        def visitor(before: Package) -> tuple[str, object] | None:
            # Each row is checked by the loader's scan, on its one parse (v0.1 packages,
            # whose catalog comes from the rows, get a row pass after opening instead).
            compare_contracts(before)  # its documents and files are the package's
            if rows and _wants_map(before, selected):  # the map, beside the row pass too
                early_map.append(_map_worker(before))
            pre = AuditContext(before, enabled=enabled, workers=workers, cap=cap)
            if before.catalog_derived or not pre.needs_rows():
                return None
            fused["cfg"] = cfg = pre.scan_config()
            fused["ref_facts"] = pre.ref_facts
            return ("aa_review.core.audits._rowjob:fused_checks", cfg)

        def opening(p: LoadProgress) -> None:  # rows checked as they are read: "rows"
            emit(AuditProgress("rows" if "cfg" in fused else "open", p.done, p.total))

        # Checks that read no row (catalog hashes, contracts, copies): the rows are left
        # on disk.
        rows = any(c.startswith(ROW_RULE_PREFIXES) for c in enabled) or any(
            c.name not in _NO_ROW_CHECKS for c in selected
        )
        try:
            pkg = open_package(
                Path(pkg_or_path),
                cancelled=stop,
                workers=workers,
                progress=opening,
                row_visitor=visitor,
                visited=lambda v: fused.update(parts=v),
                rows=rows,
            )
        except LoadCancelled:
            raise AuditCancelled() from None
    ctx = AuditContext(
        pkg, enabled=enabled, workers=workers, cap=cap, hash_threads=hash_threads, cancelled=stop
    )
    compare_contracts(pkg)
    ctx.contracts_job = contracts[0] if contracts else None
    ctx.map_job = early_map[0] if early_map else None
    if "parts" in fused:
        ctx.extra["ref_facts"] = fused["ref_facts"]
        ctx._rows = fused_scan(fused["parts"], len(pkg.index), cap)
    if early is not None and early.root != pkg.root:  # never: find_root is open's own
        early.job.cancel()
        early = None
    try:
        _prefetch(ctx, selected, digest, emit, background, finished, early)
        findings, summary, complete = _run(pkg, ctx, selected, emit)
        identity = _identity(pkg, ctx, digest)
    except (ScanCancelled, HashCancelled):
        raise AuditCancelled() from None
    return AuditReport.assemble(
        summary,
        findings,
        tool=f"aa-review {__version__}",
        identity=identity,
        counts=_counts(pkg, ctx),
        checks=[c.name for c in selected],
        listing_limit=cap,
        complete=complete,
        seconds=round(time.perf_counter() - t0, 3),
    )


class _HashJob:
    """A file hashing job started before the package was opened, and its progress."""

    def __init__(self, root: Path, job: Future[FileHashes], hashed: list[int]) -> None:
        self.root, self.job, self.hashed = root, job, hashed


def _reads(selected: list[Check]) -> dict[str, Wants]:
    """The counts the checks take from files' bytes, on the same read as their hashes."""
    scans: dict[str, Wants] = {}
    for check in selected:
        for rel, wants in check.reads.items():
            scans[rel] = scans[rel] | wants if rel in scans else wants
    return scans


def _early_hash(
    path: Path,
    selected: list[Check],
    digest: bool,
    threads: int,
    background: ThreadPoolExecutor,
    finished: threading.Event,
    stop: Callable[[], bool],
) -> _HashJob | None:
    """Hash every file for the digest while the package opens (a whole-folder hash needs
    nothing the opening learns: which files, and how, are the folder's)."""
    if not digest:
        return None
    try:
        root = find_root(path)
    except (PackageError, OSError):
        return None  # opening says why
    hashed: list[int] = [0, 0]

    def note(done: int, total: int) -> None:  # runs in the hashing thread: only record
        hashed[0], hashed[1] = done, total

    job = background.submit(
        hash_package,
        root,
        threads=threads,
        full=True,
        scans=_reads(selected),
        processes=True,
        only=None,
        progress=note,
        cancelled=lambda: finished.is_set() or stop(),
    )
    return _HashJob(root, job, hashed)


def _prefetch(
    ctx: AuditContext,
    selected: list[Check],
    digest: bool,
    emit: ProgressFn,
    background: ThreadPoolExecutor,
    finished: threading.Event,
    early: _HashJob | None = None,
) -> None:
    """Start what the checks share: the row pass, file hashes, the evidence-map links.

    The row pass runs in worker processes on every core for a large package, and a
    large evidence map's worker reads the links beside it (a small map is read here
    first). File hashing (worker processes or threads, never the GIL-bound main
    thread) starts as soon as cores are free: alongside an in-process row pass, else
    right after it, and goes on while the checks that do not need it run; those that
    read hashes or count bytes of files (``Check.hashes``, ``Check.reads``) wait for
    it. Progress is reported from this thread.
    """
    pkg, names = ctx.pkg, {c.name for c in selected}
    rows = ctx.needs_rows() and len(pkg.index) > 0 and ctx._rows is None
    cfg = ctx.scan_config() if rows else None  # path syscalls, before any thread starts
    want_hash = digest or any(c.hashes for c in selected)
    full = digest or bool(names & {"copies", "files"})  # byte hashes of every file
    scans = _reads(selected)
    want_map = ctx.map_job is None and _wants_map(pkg, selected)
    cores = os.cpu_count() or 1
    busy = row_workers(pkg, ctx.workers) if rows else 0
    spare = cores - busy if busy else cores - 1  # in-process rows keep this thread busy
    hashed: list[int] = [0, 0] if early is None else early.hashed
    if early is not None:  # the digest's hashing, started before opening
        ctx.hash_job = early.job
        ctx.on_hash_wait = lambda: emit(AuditProgress("hash", *hashed))

    def note(done: int, total: int) -> None:  # runs in the hashing thread: only record
        hashed[0], hashed[1] = done, total

    # Worker processes for hashing only pay off when Python work runs beside it.
    beside = (
        want_map
        or ctx.map_job is not None
        or rows
        or any(not (c.hashes or c.reads) for c in selected)
    )

    def start_hash(threads: int) -> None:
        # Without the digest and the whole-folder checks, only the files checks read.
        only = None if full else {e.ref for e in pkg.catalog} | set(scans)
        ctx.hash_job = background.submit(
            hash_package,
            pkg.root,
            threads=threads,
            full=full,
            scans=scans,
            processes=beside,
            only=only,
            progress=note,
            cancelled=lambda: finished.is_set() or ctx.cancelled(),
        )
        ctx.on_hash_wait = lambda: emit(AuditProgress("hash", *hashed))

    if want_hash and ctx.hash_job is None and (cfg is None or spare >= 1):
        start_hash(ctx.hash_threads if cfg is None else max(1, min(ctx.hash_threads, spare)))
    if want_map:  # a large map's worker reads it beside the row pass
        _read_map(ctx, big=rows or len(pkg.index) > 0)
    if cfg is not None:

        def rows_progress(done: int, total: int) -> None:
            emit(AuditProgress("rows", done, total))
            if ctx.hash_job is not None:
                emit(AuditProgress("hash", *hashed))

        try:
            ctx._rows = scan_rows(
                pkg, cfg, workers=ctx.workers, cancelled=ctx.cancelled, progress=rows_progress
            )
        except (ScanCancelled, HashCancelled, AuditCancelled):
            raise
        except Exception as exc:  # the checks that need it retry and report it
            log.debug("the row pass failed: %s", exc, exc_info=True)
    if want_hash and ctx.hash_job is None:
        start_hash(ctx.hash_threads)
    if ctx.hash_job is not None:
        emit(AuditProgress("hash", *hashed))


_MAP_IN_PROCESS_BYTES = 16 * 1024 * 1024  # a smaller map is read here: a worker costs more


def _map_worker(pkg: Package) -> Future[Any] | None:
    """The evidence map's links read in a worker process when the map is large (reading
    is Python-bound, and the row pass or the checks run here meanwhile); None when the
    map is small or no worker process can start (then it is read here)."""
    st = pkg.safe.stat(MAP_PATH)
    if st is None or st.st_size < _MAP_IN_PROCESS_BYTES:
        return None
    try:
        pool = spawn_pool(1)
        job = pool.submit(scan_map_at, str(pkg.root))
        pool.shutdown(wait=False)  # the job still runs; the process ends after it
        return job
    except POOL_UNAVAILABLE as exc:
        log.debug("no worker process for the evidence map (%s): reading it here", exc)
        return None


def _wants_map(pkg: Package, selected: list[Check]) -> bool:
    return (
        not pkg.catalog_derived
        and pkg.map_header is not None
        and any(c.name in _MAP_CHECKS for c in selected)
    )


def _read_map(ctx: AuditContext, big: bool) -> None:
    """Read the evidence map's links: in a worker process for a large map of a package
    with rows (:func:`_map_worker`), here otherwise."""
    if big:
        ctx.map_job = _map_worker(ctx.pkg)
        if ctx.map_job is not None:
            return
    try:
        ctx._map = scan_map(ctx.pkg.safe)
    except Exception as exc:  # the checks that need it retry and report it
        log.debug("reading the evidence map's links failed: %s", exc, exc_info=True)


def _run(
    pkg: Package, ctx: AuditContext, selected: list[Check], emit: ProgressFn
) -> tuple[list[Finding], list[CheckSummary], bool]:
    # Checks that need file hashes run last, while hashing finishes; results are
    # assembled in registration order, so the report does not depend on timing.
    # Those reading the evidence map's links come after the rest too, while a worker
    # process reads the map.
    order = sorted(
        range(len(selected)),
        key=lambda i: (
            selected[i].hashes or bool(selected[i].reads),
            selected[i].name in _MAP_CHECKS,
        ),
    )
    ran: dict[int, tuple[list[Finding], str | None]] = {}
    for n, i in enumerate(order):
        emit(AuditProgress("checks", n, len(selected)))
        if ctx.cancelled():
            raise AuditCancelled()
        check = selected[i]
        found: list[Finding] = []
        error = None
        try:
            found = list_findings(
                (f for f in check.func(pkg, ctx) if ctx.on(f.code) or check.name == "input"),
                ctx.cap,
            )
        except (AuditCancelled, ScanCancelled, HashCancelled):
            raise
        except Exception as exc:  # one broken check must not hide the others
            # The finding names the check and the exception; the stack is for debugging.
            log.warning("check %s failed: %s: %s", check.name, type(exc).__name__, exc)
            log.debug("check %s failed", check.name, exc_info=True)
            error = f"{type(exc).__name__}: {exc}"
            found.append(
                ctx.finding(
                    "audit.check_failed",
                    f"check {check.name!r} stopped: {error}; its findings are incomplete",
                )
            )
        ran[i] = (found, error)
    emit(AuditProgress("checks", len(selected), len(selected)))
    findings: list[Finding] = []
    summary: list[CheckSummary] = []
    for i, check in enumerate(selected):
        found, error = ran[i]
        findings.extend(found)
        summary.append(CheckSummary.of(check.name, check.title, found, error))
    return findings, summary, all(r[1] is None for r in ran.values())


def _identity(pkg: Package, ctx: AuditContext, digest: bool) -> Identity:
    m = pkg.docs.manifest
    return Identity(
        package_id=pkg.package_id,
        task_id=pkg.task_id,
        root=printable(str(pkg.root)),
        format_version=pkg.version,
        schema_versions=pkg.schema_versions(),
        package_digest=ctx.hashes.digest if digest else None,
        catalog_derived_from_rows=pkg.catalog_derived,
        compiler_id=m.compiler_id if m else None,
    )


def _counts(pkg: Package, ctx: AuditContext) -> Counts:
    c = count_package(pkg, count_links=False)
    if pkg.catalog_derived:
        c["links"] = len(pkg.index)
    elif ctx._map is not None and ctx._map.error is None:
        c["links"] = len(ctx._map.links)
    return Counts(**c, rows_read=pkg.rows_read)
