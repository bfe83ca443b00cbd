"""The review session: the one Qt-free owner of what the window shows.

A :class:`ReviewSession` plays the part napari's ``ViewerModel`` (or glue's data
collection with its hub) plays: it owns the open package, its findings (the loading
problems, then the audit's) indexed by row, evidence item, contract and file, the
selection (a :class:`SelectionHub`), the three queries and their results, and the
facts the readiness dossier needs of the package. Views follow its events and send
it intents; they compute nothing it knows. No function here takes a Qt object or a
callback into a widget.

Reading the session
    ``opened``, ``package``, ``prepared``, ``contracts``, ``findings``, ``report``,
    ``facts``, ``digest``, ``hashes``, ``query(scope)``, ``result(scope)``,
    ``only(scope)``, ``shown_query(scope)``, ``findings_about(selection)``; and
    ``selection.current``.

Events (``session.events``, psygnal; each carries the new frozen value)
    ``package_changed(OpenPackage | None)``, ``findings_changed(FindingsState | None)``,
    ``facts_changed(PackageFacts | None)``, ``query_changed(QueryResult)``,
    ``hashes_changed(HashStatus | None)``, ``baseline_changed(Comparison | None)``; and
    ``selection.changed(Selection)``.
    Every value names the package ``version`` it was computed for: opening another
    package replaces package, findings, facts, results and selection in one step
    before any event, so no view can hold positions of the old one. A table's
    ``query_changed`` goes out only when its result changed (an audit that keeps the
    rows as they were sends nothing to the rows table).

Intents
    Queries: ``set_query(scope, text)`` (raises ``QueryError``, keeping the previous
    result), ``set_only(scope, on)``. Selection: ``select_row``, ``select_rows``,
    ``select_evidence``, ``select_contract``, ``select_finding(finding, location)``,
    ``step_location(delta)``, ``select_finding_rows``; ``selection.back()`` and
    ``forward()``. Subsets (``session.subsets``, a :class:`SubsetStore` whose
    ``changed`` carries them all): ``make_subset(rows, name)``, ``subset_from_query``,
    ``select_subset(name)``, ``subset_export_plan(name)``; ``subset:name`` in the rows
    query. Dossier: ``show_hidden_evidence()`` (gate G9). Palette:
    ``find(text)`` and ``go(target)``. Files: ``capture()`` and ``restore(state)``
    for session files, ``export_plan(scope)`` for exports. Compare mode:
    ``start_comparison(baseline)``, ``set_comparison(prepared)``, ``close_comparison()``,
    ``select_baseline_row(old_pos)``, ``set_comparison_findings(prepared, findings)``;
    while a diff is held, the rows query knows ``change:`` (``comparison``). The
    commands of compare mode (open, swap, close the baseline, compare findings) are a
    :class:`CompareController` beside the session, which runs their slow work;
    :func:`list_changes`, :func:`compare_summary` and :func:`side_caption` say what the
    Compare dock lists and shows.

Slow work, off the GUI thread
    A worker runs :func:`prepare_package` (after ``open_package``),
    :func:`prepare_findings` (after ``audit_package``, or :func:`audit_in_process`,
    which keeps the audit out of the window's interpreter), :func:`compute_digest`,
    :func:`live_hash_statuses`, :func:`prepare_comparison` (after opening a baseline),
    :func:`side_by_side` or :func:`run_export`, and hands the result to
    ``open``, ``set_audit``, ``set_digest(version, digest)`` or
    ``set_hashes(version, statuses)`` on the GUI thread; results for a package no
    longer open are ignored. Extension points: a new table is a new :class:`Scope`
    with its query scope in :class:`PreparedFindings`; a new fact of the package is a
    field of :class:`PreparedPackage` computed in ``prepare_package``.
"""

from __future__ import annotations

from aa_review.core.session._compare import (
    CompareItem,
    Comparison,
    FieldLine,
    PreparedComparison,
    SideBySide,
    compare_findings,
    compare_findings_in_process,
    contract_changes,
    evidence_side_by_side,
    prepare_comparison,
    side_by_side,
)
from aa_review.core.session._compare_control import (
    BASELINE_LANE,
    COMPARE_LANE,
    FINDINGS_LANE,
    SIDE_LANE,
    CompareController,
    CompareView,
)
from aa_review.core.session._compare_list import (
    MAX_LISTED,
    NO_BASELINE,
    ChangesList,
    compare_summary,
    comparison_summary,
    list_changes,
    side_caption,
)
from aa_review.core.session._prepare import (
    CONTRACT_PREVIEW_ROWS,
    Cancelled,
    ContractsView,
    FacetGroup,
    FindingsState,
    OpenPackage,
    PreparedFindings,
    PreparedPackage,
    audit_in_process,
    compute_digest,
    live_hash_statuses,
    prepare_findings,
    prepare_package,
    run_export,
    size_within,
)
from aa_review.core.session._review import ReviewSession, SessionEvents
from aa_review.core.session._runner import Job, Runner
from aa_review.core.session._saved import SESSION_SUFFIX, SessionState, load_session, save_session
from aa_review.core.session._selection import Selection, SelectionHub
from aa_review.core.session._state import (
    ExportPlan,
    GoTo,
    HashStatus,
    PackageFacts,
    QueryResult,
    Scope,
)
from aa_review.core.session._subsets import SUBSET_COLORS, Subset, SubsetStore

__all__ = [
    "ReviewSession",
    "SessionEvents",
    "Scope",
    "OpenPackage",
    "PackageFacts",
    "FindingsState",
    "QueryResult",
    "HashStatus",
    "GoTo",
    "ExportPlan",
    "PreparedPackage",
    "PreparedFindings",
    "ContractsView",
    "FacetGroup",
    "Cancelled",
    "prepare_package",
    "prepare_findings",
    "live_hash_statuses",
    "compute_digest",
    "run_export",
    "audit_in_process",
    "size_within",
    "CONTRACT_PREVIEW_ROWS",
    "Selection",
    "SelectionHub",
    "SessionState",
    "save_session",
    "load_session",
    "SESSION_SUFFIX",
    "Comparison",
    "PreparedComparison",
    "CompareItem",
    "SideBySide",
    "FieldLine",
    "prepare_comparison",
    "side_by_side",
    "evidence_side_by_side",
    "contract_changes",
    "compare_findings",
    "compare_findings_in_process",
    "CompareController",
    "CompareView",
    "BASELINE_LANE",
    "COMPARE_LANE",
    "SIDE_LANE",
    "FINDINGS_LANE",
    "ChangesList",
    "list_changes",
    "comparison_summary",
    "compare_summary",
    "side_caption",
    "MAX_LISTED",
    "NO_BASELINE",
    "Job",
    "Runner",
    "Subset",
    "SubsetStore",
    "SUBSET_COLORS",
]
