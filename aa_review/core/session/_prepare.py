"""Work a session needs done off the GUI thread, and the values it makes.

Nothing here touches a session: a worker calls these functions on an opened package,
then hands the result to the session on the GUI thread (``ReviewSession.open``,
``set_audit``, ``set_digest``, ``set_hashes``). Each is safe to run in any thread on
a package no one changes. :class:`OpenPackage` and :class:`FindingsState` are what
the session then shows of those results, named by its package version.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from aa_review.core import contracts
from aa_review.core.package.catalog import live_hash_status
from aa_review.core.package.digest import digest_of, file_sha256, list_package
from aa_review.core.query import EvidenceScope, FindingsIndex, FindingsScope, RowsScope
from aa_review.core.session import charts
from aa_review.core.session._state import ExportPlan, Scope
from aa_review.core.session.triage import FindingMarks, finding_marks

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = [
    "PreparedPackage",
    "PreparedFindings",
    "OpenPackage",
    "FindingsState",
    "ContractsView",
    "FacetGroup",
    "Cancelled",
    "prepare_package",
    "run_export",
    "audit_in_process",
    "prepare_findings",
    "live_hash_statuses",
    "compute_digest",
    "size_within",
    "CONTRACT_PREVIEW_ROWS",
]

CONTRACT_PREVIEW_ROWS = 200  # data rows kept per CSV/TSV artifact; the comparison judges 5


class Cancelled(Exception):
    """Raised by a function here when its ``cancelled()`` turned true."""


def _never() -> bool:
    return False


@dataclass(frozen=True)
class FacetGroup:
    """Rows counted per value of one field: clicking a value sets ``field:value``."""

    title: str
    field: str
    counts: tuple[tuple[str, int], ...]  # most rows first


@dataclass(frozen=True, eq=False)
class ContractsView:
    """Every contract entry beside its file, with the comparison the audit makes."""

    entries: tuple[contracts.ContractEntry, ...]
    previews: tuple[contracts.Preview, ...]
    checklist: tuple[contracts.CheckResult, ...]

    def entry_named(self, contract: str | None) -> int | None:
        """The entry a finding's ``contract`` names (its own path or one of its group's:
        a finding names the first contract stating it, often the transfer checklist's)."""
        if not contract:
            return None
        return next(
            (i for i, e in enumerate(self.entries) if contract in (e.key, e.path, *e.group)), None
        )

    def entry_backed_by(self, ref: str | None) -> int | None:
        """The first entry whose file is ``ref``."""
        if not ref:
            return None
        return next((i for i, e in enumerate(self.entries) if e.artifact_ref == ref), None)


@dataclass(frozen=True, eq=False)
class PreparedFindings:
    """Findings linked to the rows and evidence of ``package``, with the query scopes over
    the package that read them (each scope keeps its per-item tables between queries)."""

    package: Package
    index: FindingsIndex
    report: AuditReport | None
    rows: RowsScope
    evidence: EvidenceScope
    findings: FindingsScope
    marks: FindingMarks  # per row and evidence item: its findings' count and worst severity


@dataclass(frozen=True, eq=False)
class PreparedPackage:
    """An opened package with everything the views show of it, computed once.

    The scopes are kept so each query reuses their per-item tables.
    """

    package: Package
    problems: PreparedFindings
    rows_by_type: charts.Bars
    coverage: charts.Bars
    histograms: dict[str, charts.Histogram]
    rows_map: charts.RowsMap
    facets: tuple[FacetGroup, ...]
    contracts: ContractsView
    small: bool  # under the size limit given to prepare_package (the automatic audit's)


@dataclass(frozen=True, eq=False)
class OpenPackage:
    """The open package and what was computed from it off the GUI thread.

    Attributes
    ----------
    version : int
        The session's count of opened packages; every other value names it.
    prepared : PreparedPackage
        The package with its plots' numbers, facets and contract comparison.
    """

    version: int
    prepared: PreparedPackage

    @property
    def package(self) -> Package:
        return self.prepared.package


@dataclass(frozen=True, eq=False)
class FindingsState:
    """The findings shown now: the loading problems, or the audit's once it ran.

    ``index`` links every location to the rows and evidence of the open package.
    """

    version: int
    prepared: PreparedFindings

    @property
    def index(self) -> FindingsIndex:
        return self.prepared.index

    @property
    def report(self) -> AuditReport | None:
        return self.prepared.report

    @property
    def audited(self) -> bool:
        return self.report is not None

    @property
    def findings(self) -> list[Finding]:
        return self.index.findings

    def summary(self) -> str:
        """The audit's line, word for word the command line's, and the count per check;
        empty before an audit."""
        r = self.report
        if r is None:
            return ""
        checks = ", ".join(f"{c.check} {sum(c.codes.values())}" for c in r.summary if c.codes)
        return f"Audit: {r.summary_line()}, in {r.seconds:.1f} s." + (
            f" By check: {checks}." if checks else ""
        )


def _rows_citing_by(pkg: Package, attr: str) -> tuple[tuple[str, int], ...]:
    """For each value of a catalog attribute, how many rows cite an item having it."""
    by_value: dict[str, list[int]] = {}
    for pos, e in enumerate(pkg.catalog):
        by_value.setdefault(str(getattr(e, attr, None) or "?"), []).append(pos)
    counts = {
        v: int(np.count_nonzero(pkg.index.citing_mask(items))) for v, items in by_value.items()
    }
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _facets(pkg: Package) -> tuple[FacetGroup, ...]:
    types = pkg.index.counts_by("data_type")
    return (
        FacetGroup(
            "Data type", "type", tuple(sorted(types.items(), key=lambda kv: (-kv[1], kv[0])))
        ),
        FacetGroup(
            "Cites evidence of type", "evidence.type", _rows_citing_by(pkg, "evidence_type")
        ),
        FacetGroup(
            "Cites evidence with visibility",
            "evidence.visibility",
            _rows_citing_by(pkg, "visibility"),
        ),
    )


def contracts_view(pkg: Package) -> ContractsView:
    """Entries, their files and verdicts, and the checklist: one comparison per file."""
    checks = contracts.compare_package(pkg, keep=CONTRACT_PREVIEW_ROWS)
    entries = contracts.contract_entries(pkg)
    return ContractsView(
        tuple(entries),
        tuple(contracts.preview(pkg, e, CONTRACT_PREVIEW_ROWS, checks) for e in entries),
        tuple(contracts.checklist(pkg, checks)),
    )


def size_within(root: Path, limit: int) -> bool:
    """Whether the package's files add up to less than ``limit`` bytes (stops counting early;
    listed without following symlinks or touching special files)."""
    try:
        sizes = (e.size for e in list_package(root).entries if e.kind == "file")
        total = 0
        for size in sizes:
            total += size
            if total >= limit:
                return False
    except OSError:
        return False
    return True


def prepare_package(
    pkg: Package, *, size_limit: int = 0, cancelled: Callable[[], bool] = _never
) -> PreparedPackage:
    """Everything the views show of ``pkg`` before an audit: numbers for the plots, facet
    counts, the contract comparison, the loading problems linked to rows; and whether it
    is smaller than ``size_limit`` bytes. (Which rows cite hidden evidence is the audit's
    to say: ``contamination_positions``.)"""
    ix = pkg.index
    ix.row_id_folded()  # warm what the first query and search read
    ix.cited_counts()
    problems = prepare_findings(pkg, None)
    if cancelled():
        raise Cancelled
    view = contracts_view(pkg)
    if cancelled():
        raise Cancelled
    return PreparedPackage(
        package=pkg,
        problems=problems,
        rows_by_type=charts.rows_by_type(pkg),
        coverage=charts.coverage(pkg),
        histograms={m: charts.histogram(pkg, m) for m in charts.ROW_MEASURES},
        rows_map=charts.rows_map(pkg),
        facets=_facets(pkg),
        contracts=view,
        small=size_limit > 0 and size_within(pkg.root, size_limit),
    )


def prepare_findings(pkg: Package, report: AuditReport | None) -> PreparedFindings:
    """The audit's findings (the loading problems when ``report`` is None) linked to the
    rows and evidence of ``pkg``: one pass over every location, the slow part of showing
    an audit. The scopes' per-item tables are built here too, not on the first click."""
    index = FindingsIndex(report.findings if report is not None else pkg.problems, pkg)
    rows = RowsScope(pkg, index)
    for attr in ("visibility", "evidence_type", "ref"):
        rows.evidence_attr(attr)
    marks = finding_marks(index, len(pkg.index), len(pkg.index.evidence_ids))
    return PreparedFindings(
        pkg, index, report, rows, EvidenceScope(pkg, index), FindingsScope(index, pkg), marks
    )


# A thread of the window's process that makes many short system calls (each releases
# the interpreter lock and takes it back at once) can keep the GUI thread waiting for
# the lock for a hundred milliseconds: CPython hands it over on request only when the
# holder kept it for a whole switch interval, which such a thread never does (the
# convoy effect). So the work below gives the lock away for a moment every few ms.
_WORK_S = 0.004
_GIVE_S = 0.001


def _giving_way() -> Callable[[], None]:
    """A call that sleeps ``_GIVE_S`` once ``_WORK_S`` passed since it last slept."""
    last = [time.perf_counter()]

    def give_way() -> None:
        if time.perf_counter() - last[0] >= _WORK_S:
            time.sleep(_GIVE_S)
            last[0] = time.perf_counter()

    return give_way


def live_hash_statuses(pkg: Package, cancelled: Callable[[], bool] = _never) -> tuple[str, ...]:
    """Per catalog item, :func:`~aa_review.core.package.catalog.live_hash_status`,
    giving the interpreter lock away between items (it runs in the window's process)."""
    out = []
    give_way = _giving_way()
    for e in pkg.catalog:
        if cancelled():
            raise Cancelled
        out.append(live_hash_status(pkg.safe, e))
        give_way()
    return tuple(out)


def compute_digest(root: Path, cancelled: Callable[[], bool] = _never) -> str:
    """The package digest (``digest_of``, its one definition), file by file so that it
    can stop between files; raises ``OSError`` when a file cannot be read."""
    entries = list_package(root).entries
    give_way = _giving_way()  # it runs in the window's process (see _WORK_S)

    def facts() -> Iterator[tuple[int, str] | None]:
        for e in entries:
            if cancelled():
                raise Cancelled
            yield (e.size, file_sha256(root, e.rel)) if e.kind == "file" else None
            give_way()

    return digest_of(entries, facts())


def run_export(
    plan: ExportPlan,
    path: Path,
    cancelled: Callable[[], bool] = _never,
    columns: list[str] | None = None,
) -> tuple[int, str]:
    """Write what ``plan`` captured to ``path`` (format from its suffix) with the query and
    the package digest in the sidecar, computing the digest when it was not known yet.
    ``columns`` picks the CSV columns (``["all"]``: every field of the rows). Returns how
    many items were written and the digest; raises ``OSError`` or ``ValueError``."""
    from aa_review.core.query import export

    digest = plan.digest or compute_digest(plan.package.root, cancelled)
    if plan.scope is Scope.ROWS:
        # A query the command line cannot answer (the rows selected together, a subset of
        # the window) is recorded with one it can: exactly these rows (issue 25).
        replayable = "[only" not in plan.query and "subset:" not in plan.query
        n = export.export_rows(
            plan.package,
            plan.positions,
            path,
            query=plan.query,
            digest=digest,
            columns=columns,
            replay=None if replayable else export.rows_replay_query(plan.package, plan.positions),
        )
    elif plan.scope is Scope.EVIDENCE:
        n = export.export_evidence(
            plan.package, plan.positions, path, query=plan.query, digest=digest, columns=columns
        )
    else:
        n = export.export_findings(
            plan.findings,
            plan.positions,
            path,
            query=plan.query,
            digest=digest,
            package_id=plan.package.package_id,
            columns=columns,
        )
    return n, digest


def audit_in_process(
    root: Path,
    *,
    progress: Callable[[object], None] | None = None,
    cancelled: Callable[[], bool] = _never,
    niceness: int = 0,
    poll_s: float = 0.1,
) -> AuditReport:
    """Audit the package at ``root`` in a process of its own and return its report.

    The audit runs Python for seconds at a time over files of hundreds of MB; in a
    thread of the window's process it would hold the interpreter (through every page
    fault of a file not yet in memory) while the window waits for it. In its own
    process (``niceness`` steps nicer) the window only receives the report. Progress
    arrives as the audit's ``AuditProgress``; ``cancelled()`` is polled every
    ``poll_s`` seconds and stops the audit (:class:`Cancelled`).

    Raises
    ------
    Cancelled
        When ``cancelled()`` turned true.
    RuntimeError
        When the audit failed in its process (the message says why) or the process
        ended without a result.
    """
    report: AuditReport = run_in_process(
        _audit_child,
        (str(root),),
        niceness=niceness,
        progress=progress,
        cancelled=cancelled,
        poll_s=poll_s,
        what="the audit",
    )
    return report


def run_in_process(
    target: Callable[..., None],
    args: tuple[Any, ...],
    *,
    niceness: int = 0,
    progress: Callable[[object], None] | None = None,
    cancelled: Callable[[], bool] = _never,
    poll_s: float = 0.1,
    what: str = "the work",
) -> Any:
    """Run ``target(*args, send, stop, niceness)`` in a process of its own and return
    the value it sends as ``("done", value)``; ``("progress", p)`` goes to ``progress``.
    ``cancelled()`` is polled every ``poll_s`` seconds and sets ``stop``. The process is
    made ``niceness`` steps nicer as it starts (the ``niceness`` it is handed is then 0:
    its ``renice`` does nothing more), or nices itself where that is not possible."""
    from aa_review.core.util.procpool import left_to_child, spawn_context

    ctx = spawn_context(niceness)
    left = left_to_child(ctx, niceness)
    receive, send = ctx.Pipe(duplex=False)
    stop = ctx.Event()
    proc = ctx.Process(target=target, args=(*args, send, stop, left), name="aa-review-worker")
    proc.start()
    send.close()
    try:
        while True:
            if cancelled():
                raise Cancelled
            if receive.poll(poll_s):
                try:
                    kind, value = receive.recv()
                except EOFError:
                    raise RuntimeError(f"{what}: its process ended without a result") from None
                if kind == "progress":
                    if progress is not None:
                        progress(value)
                elif kind == "done":
                    return value
                elif kind == "cancelled":
                    raise Cancelled
                else:
                    raise RuntimeError(str(value))
            elif not proc.is_alive():
                raise RuntimeError(
                    f"{what}: its process ended without a result (exit code {proc.exitcode})"
                )
    finally:
        stop.set()
        receive.close()
        proc.join(timeout=10)
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=5)


def renice(niceness: int) -> None:
    """Make this process ``niceness`` steps nicer (where the system allows it)."""
    import contextlib
    import os

    if niceness:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(niceness)


def _audit_child(root: str, send: object, stop: object, niceness: int) -> None:
    """The audit's process: open the package, audit it, send the compacted report."""
    from aa_review.core.audits import AuditCancelled, audit_package
    from aa_review.core.package import LoadCancelled, open_package

    conn: Any = send
    halt: Any = stop
    renice(niceness)

    def tell(message: tuple[str, Any]) -> None:
        # The window may be gone (quit during the audit): nobody wants the message, and
        # a closed pipe is the end of the work, not an error to print.
        try:
            conn.send(message)
        except (BrokenPipeError, EOFError, ConnectionError):
            halt.set()

    try:
        pkg = open_package(Path(root), cancelled=halt.is_set)
        report = audit_package(pkg, progress=lambda p: tell(("progress", p)), cancelled=halt.is_set)
        tell(("done", report.compacted()))
    except (AuditCancelled, LoadCancelled):
        tell(("cancelled", None))
    except Exception as exc:  # noqa: BLE001 - the window says what failed
        tell(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
