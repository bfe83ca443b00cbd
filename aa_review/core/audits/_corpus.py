"""Auditing a folder of packages: each in its own process, the rest going on when one fails."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from aa_review import __version__
from aa_review.core.audits._engine import AuditCancelled, audit_package
from aa_review.core.audits._model import AuditProgress, CorpusEntry, CorpusReport, CorpusTotals
from aa_review.core.package.layout import EC_DIR
from aa_review.core.package.safepath import printable

__all__ = ["audit_corpus", "find_packages"]


def find_packages(folder: Path | str) -> list[Path]:
    """The folder itself if it is a package, else its (non-hidden) sub-folders, sorted.

    Every sub-folder is a candidate: one that is not a package is reported, not skipped.
    """
    folder = Path(folder)
    if (folder / EC_DIR).is_dir():
        return [folder]
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def _audit_one(path: str, checks: list[str] | None, digest: bool) -> CorpusEntry:
    try:
        report = audit_package(path, checks=checks, workers=1, digest=digest, hash_threads=2)
    except AuditCancelled:
        raise
    except Exception as exc:  # noqa: BLE001 - an unreadable package is a result
        return CorpusEntry(path=printable(path), error=printable(f"{type(exc).__name__}: {exc}"))
    return CorpusEntry(path=printable(path), report=report.compacted())  # only the rows it names


def audit_corpus(
    folder: Path | str,
    workers: int | None = None,
    *,
    checks: Iterable[str] | None = None,
    digest: bool = True,
    progress: Callable[[AuditProgress], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> CorpusReport:
    """Audit every package in ``folder`` in parallel over the machine's cores.

    Parameters
    ----------
    workers
        Processes to use (default: ``os.cpu_count()``); 1 audits in this process.
    checks
        As for :func:`audit_package`.

    Raises
    ------
    AuditCancelled
        When ``cancelled()`` turned true.
    """
    t0 = time.perf_counter()
    paths = [str(p) for p in find_packages(folder)]
    sel = list(checks) if checks is not None else None
    stop = cancelled or (lambda: False)
    n = max(1, workers or os.cpu_count() or 1)
    entries: dict[str, CorpusEntry] = {}

    def note() -> None:
        if progress is not None:
            progress(AuditProgress("packages", len(entries), len(paths)))

    if n == 1 or len(paths) <= 1:
        for p in paths:
            if stop():
                raise AuditCancelled()
            entries[p] = _audit_one(p, sel, digest)
            note()
    else:
        _parallel(paths, sel, digest, n, entries, stop, note)
    ordered = [entries[p] for p in paths]
    return CorpusReport(
        tool=f"aa-review {__version__}",
        corpus=printable(str(folder)),
        entries=ordered,
        totals=_totals(ordered, time.perf_counter() - t0, n),
    )


def _parallel(
    paths: list[str],
    sel: list[str] | None,
    digest: bool,
    n: int,
    entries: dict[str, CorpusEntry],
    stop: Callable[[], bool],
    note: Callable[[], None],
) -> None:
    todo = list(paths)
    ctx = multiprocessing.get_context("spawn")  # never fork a (possibly threaded) GUI
    while todo:
        with ProcessPoolExecutor(max_workers=n, mp_context=ctx) as pool:
            pending: dict[Future[CorpusEntry], str] = {}
            broken = False
            while (todo or pending) and not broken:
                while todo and len(pending) < 4 * n:  # bounded, so cancelling is quick
                    p = todo.pop(0)
                    pending[pool.submit(_audit_one, p, sel, digest)] = p
                done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                if stop():
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise AuditCancelled()
                for fut in done:
                    p = pending.pop(fut)
                    try:
                        entries[p] = fut.result()
                    except BrokenProcessPool:
                        broken = True
                        entries[p] = CorpusEntry(
                            path=printable(p),
                            error="the audit process died (out of memory or crashed)",
                        )
                    except Exception as exc:  # noqa: BLE001
                        entries[p] = CorpusEntry(
                            path=printable(p), error=printable(f"{type(exc).__name__}: {exc}")
                        )
                    note()
            # A dead worker breaks the pool: requeue what was in flight and start a new one.
            todo = [p for p in pending.values() if p not in entries] + todo


def _totals(entries: list[CorpusEntry], seconds: float, workers: int) -> CorpusTotals:
    return CorpusTotals.of(entries, seconds=round(seconds, 3), workers=workers)
