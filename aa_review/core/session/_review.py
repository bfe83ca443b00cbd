"""ReviewSession: the one Qt-free owner of what is open, and the events the views follow."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from psygnal import Signal, SignalGroup

from aa_review.core.audits import contamination_positions, row_names
from aa_review.core.query import QueryError
from aa_review.core.session._compare import Comparison, PreparedComparison
from aa_review.core.session._prepare import FindingsState, OpenPackage
from aa_review.core.session._saved import SessionState
from aa_review.core.session._selection import Selection, SelectionHub
from aa_review.core.session._state import (
    ExportPlan,
    GoTo,
    HashStatus,
    PackageFacts,
    QueryResult,
    Scope,
)
from aa_review.core.session._subsets import Subset, SubsetStore
from aa_review.core.session._typed import check_known_values

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport
    from aa_review.core.diff import FindingsDiff
    from aa_review.core.package import Package
    from aa_review.core.session._prepare import ContractsView, PreparedFindings, PreparedPackage

__all__ = ["ReviewSession", "SessionEvents"]

HIDDEN_ROWS_QUERY = "finding:link.hidden_cited"  # the rows contamination_positions names
HIDDEN_FINDINGS_QUERY = "code:link.hidden_cited"


class SessionEvents(SignalGroup):
    """What a session says changed. Each carries the new value (see ``_state``)."""

    package_changed = Signal(object)  # OpenPackage | None
    findings_changed = Signal(object)  # FindingsState | None
    facts_changed = Signal(object)  # PackageFacts | None
    query_changed = Signal(object)  # QueryResult
    hashes_changed = Signal(object)  # HashStatus | None
    baseline_changed = Signal(object)  # Comparison | None (compare mode)
    auditing_changed = Signal(bool)  # an audit of the open package started or ended


class ReviewSession:
    """The open package, its findings, the queries and the selection, for one window.

    Views follow :attr:`events` and :attr:`selection` and send intents (the methods
    below); they compute nothing the session knows. Slow work (opening, auditing,
    hashing) runs elsewhere, with the functions of ``_prepare``, and its result is
    handed in with :meth:`open`, :meth:`set_audit`, :meth:`set_digest` or
    :meth:`set_hashes`; a result for a package no longer open is ignored.
    """

    def __init__(self) -> None:
        self.events = SessionEvents()
        self.selection = SelectionHub()
        self._version = 0
        self._open: OpenPackage | None = None
        self._findings: FindingsState | None = None
        self._auditing = False
        self._facts: PackageFacts | None = None
        self._hashes: HashStatus | None = None
        self._texts: dict[Scope, str] = dict.fromkeys(Scope, "")
        self._only: dict[Scope, bool] = dict.fromkeys(Scope, False)
        self._results: dict[Scope, QueryResult] = {}
        self._announced: dict[Scope, QueryResult] = {}  # the results last emitted
        self._replacing = False
        self._rows_marked: np.ndarray | None = None  # the rows "only selected" showed
        self._comparison: Comparison | None = None
        self.subsets = SubsetStore()
        self.subsets.changed.connect(self._on_subsets)
        for scope in Scope:
            self._results[scope] = self._evaluate(scope, "", strict=False)
        self.selection.changed.connect(self._on_selection)

    # -- what is open ----------------------------------------------------------------
    @property
    def version(self) -> int:
        """Counts the packages opened; every value the session hands out names it."""
        return self._version

    @property
    def opened(self) -> OpenPackage | None:
        return self._open

    @property
    def package(self) -> Package | None:
        return self._open.package if self._open is not None else None

    @property
    def prepared(self) -> PreparedPackage | None:
        return self._open.prepared if self._open is not None else None

    @property
    def contracts(self) -> ContractsView | None:
        return self._open.prepared.contracts if self._open is not None else None

    @property
    def findings(self) -> FindingsState | None:
        return self._findings

    @property
    def report(self) -> AuditReport | None:
        return self._findings.report if self._findings is not None else None

    @property
    def facts(self) -> PackageFacts | None:
        """What the dossier needs of the open package (``facts_changed`` when replaced)."""
        return self._facts

    @property
    def digest(self) -> str | None:
        return self._facts.digest if self._facts is not None else None

    @property
    def hashes(self) -> HashStatus | None:
        return self._hashes

    def query(self, scope: Scope | str) -> str:
        return self._texts[Scope(scope)]

    def result(self, scope: Scope | str) -> QueryResult:
        return self._results[Scope(scope)]

    def only(self, scope: Scope | str) -> bool:
        return self._only[Scope(scope)]

    # -- replacing what is open ---------------------------------------------------------
    def open(self, prepared: PreparedPackage, *, auditing: bool = False) -> OpenPackage:
        """Show ``prepared`` (from ``prepare_package``): package, findings, facts, results
        and an empty selection are replaced in one step, then announced. ``auditing``:
        its audit starts next (:attr:`auditing` is already true when it is announced)."""
        self._version += 1
        was_auditing, self._auditing = self._auditing, auditing
        v = self._version
        pkg = prepared.package
        self._open = OpenPackage(v, prepared)
        self._findings = FindingsState(v, prepared.problems)
        self._facts = PackageFacts(pkg.package_id, Path(pkg.root), package=pkg, version=v)
        self._hashes = None
        if self._comparison is not None:  # the diff was about the package replaced
            self._comparison = Comparison(self._comparison.baseline, v)
        self.selection.clear(emit=False)
        self.subsets.clear(emit=False)
        self._reevaluate()
        self._announce(package=True)
        if auditing != was_auditing:
            self.events.auditing_changed.emit(auditing)
        return self._open

    def close(self) -> None:
        """Nothing open."""
        self._version += 1
        self._open = self._findings = self._facts = self._hashes = None
        self._comparison = None
        self.selection.clear(emit=False)
        self.subsets.clear(emit=False)
        self._reevaluate()
        self._announce(package=True)

    @property
    def auditing(self) -> bool:
        """Whether an audit of the open package is running (the views say so)."""
        return self._auditing

    def set_auditing(self, on: bool) -> None:
        if on != self._auditing:
            self._auditing = on
            self.events.auditing_changed.emit(on)

    def set_audit(self, prepared: PreparedFindings) -> bool:
        """Show an audit's findings (from ``prepare_findings``); False when it is about a
        package no longer open. The queries are evaluated again (``finding:`` terms)."""
        if (
            self._open is None
            or prepared.package is not self._open.package
            or prepared.report is None
        ):
            return False
        self._findings = FindingsState(self._version, prepared)
        digest = prepared.report.identity.package_digest
        self._replacing = True
        try:
            self.selection.forget_findings()
        finally:
            self._replacing = False
        if self._facts is not None:
            positions = contamination_positions(prepared.package, prepared.report)
            f = dataclasses.replace(
                self._facts,
                digest=digest or self._facts.digest,
                rows_citing_hidden=positions,
                hidden_rows=(
                    row_names(prepared.package, positions) if positions is not None else None
                ),
            )
            if not _same_facts(f, self._facts):
                self._facts = f  # announced below with the findings
        self._reevaluate()
        self._announce(package=False)
        return True

    def set_digest(self, version: int, digest: str) -> bool:
        """The package digest computed in the background for package ``version``."""
        if version != self._version or self._facts is None or self._facts.digest == digest:
            return False
        self._set_facts_digest(digest, emit=True)
        return True

    def set_hashes(self, version: int, statuses: tuple[str, ...]) -> bool:
        """Live hash statuses of the catalog, computed in the background for ``version``."""
        if version != self._version or self._open is None:
            return False
        self._hashes = HashStatus(version, tuple(statuses))
        self.events.hashes_changed.emit(self._hashes)
        return True

    def _set_facts_digest(self, digest: str, *, emit: bool) -> None:
        f = self._facts
        assert f is not None
        self._facts = dataclasses.replace(f, digest=digest)
        if emit:
            self.events.facts_changed.emit(self._facts)

    def _announce(self, *, package: bool) -> None:
        ev = self.events
        if package:
            ev.package_changed.emit(self._open)
            self._replacing = True  # the results already reflect the empty selection
            try:
                self.selection.changed.emit(self.selection.current)
            finally:
                self._replacing = False
            self.subsets.changed.emit(self.subsets.all())
        ev.findings_changed.emit(self._findings)
        ev.facts_changed.emit(self._facts)
        if package:
            ev.baseline_changed.emit(self._comparison)
        self._emit_results()

    def _emit_results(self) -> None:
        """``query_changed`` for each table whose result is not the one last announced
        (a view updates once per change it shows)."""
        for scope in Scope:
            result = self._results[scope]
            if not _same_result(self._announced.get(scope), result):
                self._announced[scope] = result
                self.events.query_changed.emit(result)

    # -- compare mode: a baseline package ---------------------------------------------------
    @property
    def comparison(self) -> Comparison | None:
        """The baseline and its diff with the open package (None: not comparing)."""
        return self._comparison

    def start_comparison(self, baseline: Package) -> Comparison | None:
        """A baseline was opened: compare mode starts, the diff to follow
        (:meth:`set_comparison`). None when no package is open."""
        if self._open is None:
            return None
        self._comparison = Comparison(baseline, self._version)
        self._changes_changed()
        return self._comparison

    def set_comparison(self, prepared: PreparedComparison) -> bool:
        """The diff of the baseline against the open package (from ``prepare_comparison``,
        run in a worker); False when it is about another package or baseline."""
        c = self._comparison
        if (
            c is None
            or self._open is None
            or prepared.package is not self._open.package
            or prepared.baseline is not c.baseline
        ):
            return False
        self._comparison = Comparison(c.baseline, self._version, prepared)
        self._changes_changed()
        return True

    def set_comparison_findings(self, prepared: PreparedComparison, findings: FindingsDiff) -> bool:
        """Findings new, fixed and persisting between the baseline and the open package
        (``compare_findings``, in a worker); False when the diff is no longer shown."""
        c = self._comparison
        if c is None or c.prepared is not prepared:
            return False
        self._comparison = Comparison(c.baseline, c.version, prepared, c.baseline_row, findings)
        self.events.baseline_changed.emit(self._comparison)
        return True

    def close_comparison(self) -> None:
        """Close the baseline: the window is the normal window again."""
        if self._comparison is None:
            return
        self._comparison = None
        self._changes_changed()

    def select_baseline_row(self, old_pos: int, source: str = "") -> None:
        """Show row ``old_pos`` of the baseline (a removed row): the open package's row
        selection is cleared, since the row is in neither of its tables."""
        c = self._comparison
        if c is None or c.prepared is None:
            return
        self.selection.update(source=source, row=None, rows=None)
        self._comparison = Comparison(c.baseline, c.version, c.prepared, old_pos, c.findings)
        self.events.baseline_changed.emit(self._comparison)

    def _changes_changed(self) -> None:
        self._reevaluate()
        self.events.baseline_changed.emit(self._comparison)
        self._emit_results()

    # -- queries ------------------------------------------------------------------------
    def set_query(self, scope: Scope | str, text: str, *, typed: bool = False) -> QueryResult:
        """Filter ``scope`` with ``text``. ``typed``: the user typed it in a filter box,
        where a value the package does not have (``type:fa``, a word not finished) is
        said as an error rather than blanking the table (see ``_typed``).

        Raises
        ------
        QueryError
            When ``text`` is not a query of that table; the previous result stays.
        """
        scope = Scope(scope)
        f = self._findings
        if typed and f is not None:
            p = f.prepared
            p.rows.subsets = self.subsets.positions()  # subset: values are the subsets'
            target = (
                p.rows
                if scope is Scope.ROWS
                else p.evidence
                if scope is Scope.EVIDENCE
                else p.findings
            )
            check_known_values(target, text)
        result = self._evaluate(scope, text, strict=True)
        self._texts[scope] = text
        self._store(result)
        return result

    def set_only(self, scope: Scope | str, on: bool) -> QueryResult:
        """Rows: show only the rows selected together. Findings: only those about the
        selected row, evidence item or contract entry."""
        scope = Scope(scope)
        if scope is Scope.EVIDENCE:
            raise ValueError("the evidence table has no 'only' mode")
        self._only[scope] = bool(on)
        result = self._evaluate(scope, self._texts[scope], strict=False)
        self._store(result)
        return result

    def _store(self, result: QueryResult) -> None:
        self._results[result.scope] = result
        self._announced[result.scope] = result
        self.events.query_changed.emit(result)

    def _reevaluate(self) -> None:
        c, f = self._comparison, self._findings
        if f is not None:  # the rows scope's change: field follows the comparison
            ready = c is not None and c.prepared is not None and c.version == self._version
            f.prepared.rows.changes = (
                c.prepared.masks if ready and c is not None and c.prepared is not None else None
            )
        for scope in Scope:
            self._results[scope] = self._evaluate(scope, self._texts[scope], strict=False)

    def _evaluate(self, scope: Scope, text: str, *, strict: bool) -> QueryResult:
        """The result of ``text``; with ``strict`` a bad query raises, else it keeps all."""
        f = self._findings
        total = (
            0
            if f is None
            else (
                len(f.index)
                if scope is Scope.FINDINGS
                else len(f.prepared.evidence)
                if scope is Scope.EVIDENCE
                else len(f.prepared.rows)
            )
        )
        only = self._only[scope]
        if f is None:
            return QueryResult(scope, text, None, total, self._version, only=only)
        p = f.prepared
        try:
            if scope is Scope.ROWS:
                p.rows.subsets = self.subsets.positions()
                positions = p.rows.filter(text)
            elif scope is Scope.EVIDENCE:
                positions = p.evidence.filter(text)
            else:
                positions = p.findings.filter(text)
        except QueryError as exc:
            if strict:
                raise
            return QueryResult(scope, text, None, total, self._version, error=exc, only=only)
        if only:
            positions = self._only_selected(scope, positions, total)
        if scope is Scope.ROWS:
            self._rows_marked = self.selection.current.rows
        return QueryResult(scope, text, positions, total, self._version, only=only)

    def _only_selected(
        self, scope: Scope, positions: np.ndarray | None, total: int
    ) -> np.ndarray | None:
        sel = self.selection.current
        if scope is Scope.ROWS:
            if sel.rows is None:
                return positions
            keep = np.asarray(sel.rows, dtype=np.int64)
        else:
            keep = self.findings_about(sel)
        base = np.arange(total) if positions is None else positions
        return np.intersect1d(base, keep, assume_unique=True)

    def shown_query(self, scope: Scope | str = Scope.ROWS) -> str:
        """What decides what a table shows: its query, and the 'only' mode when on."""
        scope = Scope(scope)
        text = self._texts[scope]
        sel = self.selection.current
        if self._only[scope]:
            if scope is Scope.ROWS and sel.rows is not None:
                only = f"[only the {len(sel.rows):,} rows selected together]"
            elif scope is Scope.FINDINGS:
                only = "[only those about the selection]"
            else:
                return text
            text = f"{text} {only}" if text else only
        return text

    # -- selection intents ----------------------------------------------------------------
    def select_row(self, row: int, source: str = "") -> None:
        """Make ``row`` current. A row among those selected together keeps them (stepping
        through a finding's rows); another row ends them."""
        sel = self.selection.current
        keep = sel.rows is not None and _contains(sel.rows, row)
        if keep:
            self.selection.update(source=source, row=row)
            return
        # Another row: the rows selected together and an evidence item the row does not
        # cite are no longer what is selected. The finding stays picked (Select all rows
        # selects its rows again), and the rows bar says the row is not one of them.
        pkg = self.package
        cites = (
            sel.evidence is not None
            and pkg is not None
            and sel.evidence in pkg.index.evidence_of_row(row).tolist()
        )
        self.selection.update(
            source=source,
            row=row,
            rows=None,
            why="",
            **({} if cites else {"evidence": None}),
        )

    def select_rows(self, rows: np.ndarray | None, source: str = "", why: str = "picked") -> None:
        """Select ``rows`` together (sorted positions; None ends the selection). A finding
        selected before no longer is: these rows are not its rows (``why`` says whose)."""
        sel = self.selection.current
        keep_row = rows is not None and sel.row is not None and _contains(rows, sel.row)
        self.selection.update(
            source=source,
            rows=rows,
            why=why if rows is not None else "",
            finding=None,
            location=None,
            **({} if keep_row or rows is None else {"row": None}),
        )

    def select_evidence_items(self, items: np.ndarray, source: str = "") -> None:
        """Several evidence items picked together: the rows citing any of them."""
        pkg = self.package
        if pkg is None:
            return
        rows = pkg.index.citing_mask(items).nonzero()[0].astype(np.int64)
        self.select_rows(rows if len(rows) else None, source, why="evidence_items")

    def select_evidence(self, evidence: int, source: str = "") -> None:
        """Select an evidence item and, together, the rows citing it; the current row
        stays only if it cites the item, and a finding or contract entry selected before
        no longer is (they are not what was picked)."""
        pkg = self.package
        if pkg is None:
            return
        rows = _citing(pkg, evidence)
        row = self.selection.current.row
        self.selection.select(
            source=source,
            evidence=evidence,
            row=row if row is not None and _contains(rows, row) else None,
            rows=rows if len(rows) else None,
            why="evidence" if len(rows) else "",
        )

    def select_contract(self, entry: int, source: str = "") -> None:
        """Select contract entry ``entry`` and the evidence item of its file, if catalogued."""
        view, pkg = self.contracts, self.package
        if view is None or pkg is None:
            return
        e = view.entries[entry]
        fields: dict[str, Any] = {"contract": e.key}
        pos = pkg.evidence_of_ref(e.artifact_ref)
        if pos is not None:
            fields["evidence"] = pos
        self.selection.update(source=source, **fields)

    def select_finding(self, finding: int, location: int = 0, source: str = "") -> None:
        """Select a finding at one of its locations: all its rows together, the row,
        evidence item and contract entry of that location, and nothing else (a place
        the finding does not name is no longer selected)."""
        f = self._findings
        if f is None or not 0 <= finding < len(f.index):
            return
        ix = f.index
        n = ix.location_count(finding)
        k = location % n if n else 0
        rows, why = self._rows_of_finding(finding)
        self.selection.select(
            source=source,
            finding=finding,
            location=k,
            rows=rows if len(rows) else None,
            why=why,
            row=ix.row_at(finding, k) if n else None,
            evidence=ix.evidence_at(finding, k) if n else None,
            contract=ix.contract_at(finding, k) if n else None,
        )

    def step_location(self, delta: int, source: str = "") -> None:
        """The next (``delta`` 1) or previous (-1) location of the selected finding."""
        sel = self.selection.current
        if sel.finding is not None:
            self.select_finding(sel.finding, (sel.location or 0) + delta, source)

    def select_finding_rows(self, source: str = "") -> None:
        """Select every row of the selected finding together again."""
        sel, f = self.selection.current, self._findings
        if sel.finding is not None and f is not None:
            rows, why = self._rows_of_finding(sel.finding)
            if len(rows):
                self.selection.update(source=source, rows=rows, why=why)

    def _rows_of_finding(self, finding: int) -> tuple[np.ndarray, str]:
        """The rows a finding concerns, and why: those it locates, else (a finding about
        evidence items, ``hash.changed``) the rows citing the items it names."""
        f, pkg = self._findings, self.package
        if f is None or pkg is None:
            return np.empty(0, np.int64), ""
        ix = f.index
        rows = ix.rows_of_finding(finding)
        if len(rows):
            return rows, "finding"
        items = {
            e
            for k in range(ix.location_count(finding))
            if (e := ix.evidence_at(finding, k)) is not None
        }
        if not items:
            return rows, ""
        cited = pkg.index.citing_mask(sorted(items)).nonzero()[0].astype(np.int64)
        return cited, "finding_evidence" if len(cited) else ""

    # -- what is selected, in words (every view says the same) ---------------------------
    def _names(self, sel: Selection) -> tuple[str, str, str]:
        """The selected finding (code and number), evidence item and row, by name."""
        pkg, f = self.package, self._findings
        finding = evidence = row = ""
        if f is not None and sel.finding is not None and 0 <= sel.finding < len(f.index):
            finding = f"finding {sel.finding + 1} ({f.index.findings[sel.finding].code})"
        if pkg is not None and sel.evidence is not None:
            evidence = f"evidence item {pkg.index.evidence_ids[sel.evidence]}"
        if pkg is not None and sel.row is not None:
            row = f"row {pkg.index.row_id_str(sel.row)}"
        return finding, evidence, row

    def describe_rows(self, hidden: int = 0) -> str:
        """What the rows selected together are and why, for the bar above the rows:
        never the count of an earlier selection. ``hidden``: how many the filter hides."""
        sel = self.selection.current
        if self.package is None:
            return ""
        finding, evidence, row = self._names(sel)
        n = sel.rows_count_together()
        if n:
            what = f"{n:,} row{'s' if n != 1 else ''} selected"
            why = sel.why
            if why == "finding" and finding:
                what += f": the rows {finding} locates"
            elif why == "finding_evidence" and finding:
                cites = "cite" if n != 1 else "cites"
                what += f": the rows that {cites} the evidence {finding} is about"
                if evidence:
                    what += f" ({evidence})"
            elif why == "evidence" and evidence:
                what += f": the rows citing {evidence}"
            elif why == "evidence_items":
                what += ": the rows citing any of the evidence items picked"
            elif why.startswith("subset:"):
                what += f": subset {why.split(':', 1)[1]}"
            else:
                what += " together"
            return what + (f", {hidden:,} hidden by the filter" if hidden else "")
        if finding and row:
            f = self._findings
            assert f is not None and sel.finding is not None
            if len(self._rows_of_finding(sel.finding)[0]):
                return (
                    f"One row: {row}, not among the rows of {finding} "
                    "(Select all rows selects them again)."
                )
            return f"One row: {row}; {finding} concerns no row of the package."
        if finding:
            return f"{finding[:1].upper()}{finding[1:]} concerns no row of the package."
        if evidence and row:
            return f"One row: {row}, which cites {evidence}."
        if evidence:
            return f"No row cites {evidence}."
        if row:
            return f"One row: {row}. Pick a finding or an evidence item to select its rows."
        return "No row selected: pick a row, a finding or an evidence item."

    def describe_detail(self) -> str:
        """What Row detail says when no row is selected: why, and where to go."""
        sel = self.selection.current
        finding, evidence, _row = self._names(sel)
        n = sel.rows_count_together()
        rows = f"{n:,} row{'s' if n != 1 else ''}"
        if finding and n:
            return (
                f"The selected {finding} names no row itself; {rows} cite its evidence: "
                "pick one in Rows."
            )
        if finding:
            return f"The selected {finding} names no row."
        item = evidence[:1].upper() + evidence[1:]
        if evidence and n:
            return (
                f"{item} is selected; {rows} cite it: pick one in Rows or in Rows citing "
                "the evidence."
            )
        if evidence:
            return f"{item} is selected; no row cites it."
        return "Select a row to see it in full."

    def findings_about(self, sel: Selection | None = None) -> np.ndarray:
        """Positions of the findings located at the selected row, evidence item or contract."""
        sel = sel or self.selection.current
        f = self._findings
        if f is None:
            return np.empty(0, np.int64)
        return f.index.about(row=sel.row, evidence=sel.evidence, contract=sel.contract)

    def _on_selection(self, sel: Selection) -> None:
        if self._replacing:
            return
        c = self._comparison
        if c is not None and c.baseline_row is not None and sel.row is not None:
            self._comparison = Comparison(c.baseline, c.version, c.prepared, findings=c.findings)
        if self._only[Scope.ROWS] and sel.rows is not self._rows_marked:
            self._store(self._evaluate(Scope.ROWS, self._texts[Scope.ROWS], strict=False))
        if self._only[Scope.FINDINGS] and sel.source != "findings":
            self._store(self._evaluate(Scope.FINDINGS, self._texts[Scope.FINDINGS], strict=False))

    # -- subsets ------------------------------------------------------------------------
    def make_subset(self, rows: np.ndarray | None = None, name: str | None = None) -> Subset | None:
        """A named subset of ``rows`` (default: the rows selected now, else the current
        row); it becomes the active one. None when there is nothing to make it of.

        Raises
        ------
        ValueError
            When ``name`` cannot be written unquoted in a query.
        """
        if self.package is None:
            return None
        if rows is None:
            sel = self.selection.current
            rows = (
                sel.rows
                if sel.rows is not None
                else (np.array([sel.row], np.int64) if sel.row is not None else None)
            )
        if rows is None or len(rows) == 0:
            return None
        n = len(self.package.index)
        rows = np.asarray(rows, dtype=np.int64)
        return self.subsets.add(rows[(rows >= 0) & (rows < n)], name)

    def subset_from_query(self, name: str | None = None) -> Subset | None:
        """The rows the rows query keeps now, as a subset."""
        if self.package is None:
            return None
        pos = self._results[Scope.ROWS].positions
        rows = np.arange(len(self.package.index), dtype=np.int64) if pos is None else pos
        return self.make_subset(rows, name)

    def select_subset(self, name: str, source: str = "") -> None:
        """Select the subset's rows together (they show in every view) and make it active."""
        sub = self.subsets.get(name)
        if sub is None:
            return
        self.subsets.activate(name)
        if len(sub):
            self.selection.update(
                source=source,
                rows=sub.rows,
                row=int(sub.rows[0]),
                why=f"subset:{name}",
                finding=None,
                location=None,
            )

    def subset_export_plan(self, name: str) -> ExportPlan | None:
        """Exporting the rows of subset ``name`` (the query recorded is ``subset:name``)."""
        pkg, sub = self.package, self.subsets.get(name)
        if pkg is None or sub is None:
            return None
        return ExportPlan(
            pkg,
            Scope.ROWS,
            sub.rows,
            f"subset:{name}",
            self.digest,
            tuple(self._findings.findings) if self._findings is not None else (),
        )

    def _on_subsets(self, _subsets: tuple[Subset, ...]) -> None:
        # subset: terms read the subsets now: the rows query is evaluated again.
        if self._findings is not None and "subset" in self._texts[Scope.ROWS]:
            self._store(self._evaluate(Scope.ROWS, self._texts[Scope.ROWS], strict=False))

    # -- what the dossier's gates point at ---------------------------------------------
    def show_hidden_evidence(self) -> int:
        """G9: rows citing hidden evidence in the rows table, the findings about them, the
        first hidden item selected. Returns how many rows that shows."""
        pkg = self.package
        if pkg is None or self._facts is None or self._facts.rows_citing_hidden is None:
            return 0
        rows = self.set_query(Scope.ROWS, HIDDEN_ROWS_QUERY)
        self.set_query(Scope.FINDINGS, HIDDEN_FINDINGS_QUERY)
        hidden = pkg.hidden_evidence()
        if len(hidden):
            self.select_evidence(int(hidden[0]), source="dossier")
        return rows.count

    # -- the palette ------------------------------------------------------------------
    def find(self, text: str, limit: int = 15) -> list[GoTo]:
        """Rows, evidence items and findings named by ``text`` (an id, part of one, a ref,
        a finding's number or code)."""
        pkg, text = self.package, text.strip()
        if pkg is None or not text:
            return []
        ix = pkg.index
        out: list[GoTo] = []
        row = ix.find_row(text)
        if row is None and len(text) >= 6:
            hits = np.flatnonzero(np.char.find(ix.row_id, text.encode("utf-8")) >= 0)[:5]
            rows = [int(h) for h in hits]
        else:
            rows = [] if row is None else [row]
        out += [GoTo(f"Go to row {ix.row_id_str(r)}", "row", r) for r in rows]
        for e, eid in enumerate(ix.evidence_ids):
            item = pkg.evidence_at(e)
            if text in eid or (item is not None and text in (item.ref or "")):
                out.append(GoTo(f"Go to evidence {eid}", "evidence", e))
                if len(out) >= limit * 2 // 3:
                    break
        for i, f in enumerate(self._findings.findings if self._findings else []):
            if text in (str(i + 1), f.code):
                out.append(
                    GoTo(f"Go to finding {i + 1}: {f.code} {f.location.short()}", "finding", i)
                )
                if len(out) >= limit:
                    break
        return out

    def go(self, target: GoTo, source: str = "palette") -> None:
        if target.kind == "row":
            self.select_row(target.position, source)
        elif target.kind == "evidence":
            self.select_evidence(target.position, source)
        elif target.kind == "finding":
            self.select_finding(target.position, 0, source)

    # -- saved sessions and exports ------------------------------------------------------
    def capture(self) -> SessionState:
        """The queries and the selection, by ids, for a session file."""
        sel, pkg = self.selection.current, self.package
        return SessionState(
            rows_query=self._texts[Scope.ROWS],
            findings_query=self._texts[Scope.FINDINGS],
            selected_row_id=pkg.index.row_id_str(sel.row)
            if pkg is not None and sel.row is not None
            else None,
            selected_evidence_id=pkg.index.evidence_ids[sel.evidence]
            if pkg is not None and sel.evidence is not None
            else None,
            selected_contract=sel.contract,
            subsets={sub.name: _row_ids(pkg, sub.rows) for sub in self.subsets.all()}
            if pkg is not None
            else {},
            active_subset=self.subsets.active.name if self.subsets.active else None,
        )

    def restore(self, state: SessionState) -> None:
        """Queries, subsets and selection from a session file, found again by id in the open
        package (a subset keeps the rows whose ids are still there)."""
        pkg = self.package
        if pkg is not None and state.subsets:
            self.subsets.clear(emit=False)
            for name, ids in state.subsets.items():
                try:
                    self.subsets.add(_rows_of_ids(pkg, ids), name, activate=False)
                except ValueError:
                    continue
            self.subsets.activate(
                state.active_subset if state.active_subset in self.subsets else None
            )
        for scope, text in ((Scope.ROWS, state.rows_query), (Scope.FINDINGS, state.findings_query)):
            self._texts[scope] = text
            self._store(self._evaluate(scope, text, strict=False))
        pkg = self.package
        if pkg is None:
            return
        fields: dict[str, Any] = {}
        if state.selected_row_id:
            row = pkg.index.find_row(state.selected_row_id)
            if row is not None:
                fields["row"] = row
        if state.selected_evidence_id in pkg.index.evidence_pos:
            fields["evidence"] = pkg.index.evidence_pos[state.selected_evidence_id or ""]
        if state.selected_contract:
            fields["contract"] = state.selected_contract
        if fields:
            self.selection.select(source="session", **fields)

    def export_plan(self, scope: Scope | str = Scope.ROWS) -> ExportPlan | None:
        """What exporting ``scope`` writes now: the positions shown, the query, the digest
        (None when not known yet: the export computes it)."""
        pkg, scope = self.package, Scope(scope)
        if pkg is None:
            return None
        return ExportPlan(
            pkg,
            scope,
            self._results[scope].shown(),
            self.shown_query(scope),
            self.digest,
            tuple(self._findings.findings) if self._findings is not None else (),
        )


def _row_ids(pkg: Package, rows: np.ndarray) -> list[str]:
    """Row ids for a session file; a row without an id is named ``@file:line``."""
    ix = pkg.index
    out = []
    for r in rows.tolist():
        rid = ix.row_id_str(r)
        out.append(rid if rid else f"@{ix.files[int(ix.file[r])]}:{int(ix.line[r])}")
    return out


def _rows_of_ids(pkg: Package, ids: list[str]) -> np.ndarray:
    """Positions of the rows with these ids (every row sharing one), found with numpy."""
    ix = pkg.index
    if not ids or not len(ix):
        return np.empty(0, np.int64)
    size = ix.row_id.dtype.itemsize
    named = [i.encode("utf-8") for i in ids if i and not i.startswith("@")]
    wanted = np.array([b for b in named if len(b) <= size], dtype=ix.row_id.dtype)
    found = np.flatnonzero(np.isin(ix.row_id, wanted)) if len(wanted) else np.empty(0, np.int64)
    placed = [_file_line(pkg, i[1:]) for i in ids if i.startswith("@")]
    extra = np.array([r for r in placed if r is not None], np.int64)
    return np.union1d(found, extra) if len(extra) else found


def _file_line(pkg: Package, name: str) -> int | None:
    file, _, line = name.rpartition(":")
    ix = pkg.index
    if not line.isdigit() or file not in ix.files:
        return None
    hit = np.flatnonzero((ix.file == ix.files.index(file)) & (ix.line == int(line)))
    return int(hit[0]) if len(hit) else None


def _citing(pkg: Package, evidence: int) -> np.ndarray:
    """The rows citing evidence item ``evidence``, sorted positions."""
    return np.asarray(pkg.index.rows_citing(evidence).to_array(), dtype=np.int64)


def _contains(sorted_rows: np.ndarray, row: int) -> bool:
    i = int(np.searchsorted(sorted_rows, row))
    return i < len(sorted_rows) and int(sorted_rows[i]) == row


def _same_facts(a: PackageFacts, b: PackageFacts) -> bool:
    """Whether two facts of one package say the same (numpy arrays compared by value)."""
    ra, rb = a.rows_citing_hidden, b.rows_citing_hidden
    same_rows = (ra is None and rb is None) or (
        ra is not None and rb is not None and np.array_equal(ra, rb)
    )
    return same_rows and (a.digest, a.hidden_rows) == (b.digest, b.hidden_rows)


def _same_result(a: QueryResult | None, b: QueryResult) -> bool:
    """Whether ``b`` keeps what ``a`` kept: a view showing ``a`` would show nothing new."""
    if a is None or a is b:
        return a is b
    if (a.scope, a.text, a.total, a.version, a.only) != (
        b.scope,
        b.text,
        b.total,
        b.version,
        b.only,
    ):
        return False
    if (a.error is None) != (b.error is None) or (
        a.error is not None and str(a.error) != str(b.error)
    ):
        return False
    if a.positions is None or b.positions is None:
        return a.positions is b.positions
    return a.positions is b.positions or bool(np.array_equal(a.positions, b.positions))
