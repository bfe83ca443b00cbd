"""Show a core :class:`~aa_review.core.dossier.PanelState`: the verdict first, then the tabs.

Nothing here decides or reads a file: every word comes from the panel state.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QFontMetrics

from aa_review.core import dossier as dz
from aa_review.qt.views.dossier_tables import STATE_TONE, tone

if TYPE_CHECKING:
    from aa_review.qt.views.dossier_panel import DossierPanel
    from aa_review.qt.views.dossier_tabs import DossierTabs

__all__ = ["render", "verdict_html"]

_STATUS_TONE = {"pass": "good", "fail": "bad", "unknown": "warn"}


def render(panel: DossierPanel, st: dz.PanelState) -> None:
    """Fill the panel's verdict and tabs from ``st``."""
    panel.verdict.setText(verdict_html(st))
    tabs = panel.tabs
    _gates(tabs, st)
    _journal(tabs, st)
    _denials(tabs, st)
    _not_applied(tabs, st)
    tabs.history_model.set_rows(
        [(r, s, c, b, sup or "") for r, s, c, b, sup in st.snapshot.history]
    )
    tabs.metrics.setText("\n".join(st.metrics))
    # Plots are drawn when seen: drawing them costs more than the rest of the tab.
    tabs.plot_later(st.snapshot.power, st.snapshot.bounds)
    unmet = len(st.unmet)
    tabs.setTabText(0, f"Gates ({unmet} unmet)" if unmet else "Gates (all pass)")
    tabs.setTabText(1, f"Journal ({len(st.timeline)})")
    tabs.setTabText(2, f"Denial log ({len(st.denials)})")
    tabs.setTabText(3, f"Revisions ({len(st.snapshot.revisions)})")
    pending = sum(1 for na in st.not_applied if na.status == "not_applied")
    index = tabs.indexOf(tabs.not_applied_tab)
    tabs.setTabText(index, f"Not applied ({pending})" if pending else "Not applied")
    tabs.setTabVisible(index, bool(st.not_applied))


def _not_applied(tabs: DossierTabs, st: dz.PanelState) -> None:
    rows = [
        (
            na.when,
            f"{na.author} ({na.role})",
            na.what,
            f"{na.dossier_id} revision {na.revision}" if na.dossier_id else "",
            na.key or "no key",
            na.status.replace("_", " "),
        )
        for na in st.not_applied
    ]
    tips = [
        f"{na.author} ({na.role}): {na.what} at {na.when} UTC, signed with {na.key or 'no key'}; "
        f"{na.status.replace('_', ' ')}. Entry {na.entry_hash}."
        + (f" {na.why_not}" if na.why_not else "")
        for na in st.not_applied
    ]
    view = tabs.not_applied_view
    keep = tabs.selected_not_applied()
    tabs.not_applied_model.set_rows(rows, tips, payloads=list(st.not_applied))
    size_columns(view, rows, 6, shrink=(1, 3))
    hashes = [na.entry_hash for na in st.not_applied]
    if keep is not None and keep.entry_hash in hashes:
        view.selectRow(hashes.index(keep.entry_hash))
    elif rows:
        view.selectRow(0)
    tabs.show_not_applied_choice()


def _span(text: str, tone_name: str, bold: bool = False) -> str:
    inner = f"<b>{escape(text)}</b>" if bold else escape(text)
    return f"<span style='color:{tone(tone_name)}'>{inner}</span>"


def verdict_html(st: dz.PanelState) -> str:
    """The state, the next step, then every unmet gate in one sentence, the dossier-level
    reasons and what changed in a bound package since binding."""
    snap = st.snapshot
    state = st.state.value
    head = st.headline.split(": ", 1)
    rest = head[1][len(state) :] if len(head) > 1 and head[1].startswith(state) else ""
    parts = [
        f"<b>{escape(snap.dossier_id)}</b> revision {snap.revision}: "
        f"{_span(state, STATE_TONE.get(state, 'muted'), bold=True)}{escape(rest)}"
    ]
    if st.expired_by:
        parts.append(_span("Expired: ", "bad", True) + escape(st.expired_by))
    elif st.stale:
        parts.append(
            _span("Stale: ", "bad", True)
            + "the next step expires this revision: "
            + escape(
                "; ".join(
                    r.sentence for r in st.dossier_reasons if r.code in snap.freshness.expiring
                )
            )
        )
    lead, sep, tail = st.next_step.partition(": ")  # "Next: …", "Eligible: …"
    parts.append(
        f"<b>{escape(lead)}:</b> {escape(tail)}"
        if sep and len(lead) <= 12
        else escape(st.next_step)
    )
    items = []
    # What a merge brought: what arrived since the last opening, and what it left not applied.
    if st.arrived:
        items.append(f"<b>Since you last opened this workspace</b>: {escape(st.arrived)}.")
    pending = [na for na in st.not_applied if na.status == "not_applied"]
    if pending:
        mine = sum(1 for na in pending if na.can_withdraw)
        whose = ", ".join(sorted({na.author for na in pending}))
        items.append(
            f"<b>{_span('Not applied', 'warn')}</b>: {len(pending)} "
            f"action{'s' if len(pending) != 1 else ''} of a concurrent branch "
            f"(by {escape(whose)}) "
            + (
                f"— {mine} yours to redo or withdraw in the Not applied tab."
                if mine
                else "— only their author can redo or withdraw them (Not applied tab)."
            )
        )
    # Another version open is not the bound package: say where the bound one is.
    for pkg in snap.other_versions:
        items.append(
            f"<b>Another version is open</b>: {escape(str(pkg.package_id))} at "
            f"{escape(str(pkg.other_root))} is not the bound package; the bound one is at "
            f"{escape(str(pkg.root))}, unchanged since binding, and the gates check that one."
        )
    # What changed in a bound package comes first: it is why the revision is stale.
    for c in snap.changes:
        lines = "".join(f"<br>&nbsp;&nbsp;– {escape(line)}" for line in c.more)
        items.append(f"<b>Changed since binding</b>: {escape(c.message)}{lines}")
    expired = st.state is dz.DossierState.EXPIRED  # its "Expired:" line says why
    if (
        st.stale
        and not expired
        and st.unmet
        and all(g.status is dz.GateStatus.UNKNOWN for g in st.unmet)
    ):
        # No gate is evaluated for a revision whose next step expires it: one line, not 11.
        items.append(
            f"<b>Gates</b>: {_span('unknown', 'warn')}: none is evaluated while a "
            "freshness rule fires; the next step expires this revision (spec 4)."
        )
    else:
        for g in () if expired else st.unmet:
            items.append(
                f"<b>{g.gate_id} {escape(g.title)}</b> "
                f"({_span(g.status.value, _STATUS_TONE[g.status.value])}): "
                f"{escape(g.sentence)}"
            )
    for r in st.dossier_reasons:
        if st.stale and r.code in snap.freshness.expiring:
            continue
        items.append(f"<b>Dossier</b>: {escape(r.sentence)}")
    html = "<br>".join(parts)
    if items:
        html += (
            "<ul style='margin-top:2px; margin-bottom:2px; -qt-list-indent:1'>"
            + "".join(f"<li>{i}</li>" for i in items)
            + "</ul>"
        )
    else:
        html += "<br>"
    grants = _span(
        "Eligible grants nothing: it only permits proposing a human-merged activation amendment.",
        "muted",
    )
    on_the_way = st.state in (
        dz.DossierState.DRAFT,
        dz.DossierState.EVIDENCE_BOUND,
        dz.DossierState.INDEPENDENTLY_CHECKED,
    )
    return html + f"<i>{grants}</i>" if on_the_way else html


def _gates(tabs: DossierTabs, st: dz.PanelState) -> None:
    rows, tips, bold = [], [], set()
    for i, g in enumerate(st.gates):
        rows.append((g.gate_id, g.status.value, g.title, g.sentence or "—"))
        tip = f"{g.gate_id} {g.title}: {g.status.value}"
        if g.reasons:
            tip += "\n" + "\n".join(f"• {r.sentence}" for r in g.reasons)
        if g.metrics:
            tip += f"\nMetrics: {g.metrics}"
        if g.gate_id == "G9":
            tip += "\nSelect G9 to see the rows citing hidden evidence in the package views."
        tips.append(tip)
        if g.unmet:
            bold.add(i)
    model = tabs.gate_model
    model.set_rows(rows, tips, bold)
    size_columns(tabs.gate_view, rows, 3, bold=True)


def _journal(tabs: DossierTabs, st: dz.PanelState) -> None:
    j = st.snapshot.journal
    label = tabs.journal_status
    label.setText(j.summary)
    label.setStyleSheet(
        f"color: {tone('good' if j.valid else 'bad')};" + ("" if j.valid else " font-weight: bold;")
    )
    only = tabs.only_dossier.isChecked()
    entries = list(st.timeline if only else j.entries)
    if tabs.order_box.currentData() == "newest":
        entries.reverse()
    rows = [
        (
            e.when.removesuffix(" UTC"),
            f"{e.who} ({e.role})",
            e.what,
            e.outcome,
            e.change,
            f"{e.signer} · {e.key}" if e.key else e.signer,
        )
        for e in entries
    ]
    # The whole entry in words (a narrow view elides the longest columns).
    tips = [
        f"#{e.seq} {e.kind}: {e.who} ({e.role}) {e.what}; {e.outcome}"
        + (f"; {e.change}" if e.change else "")
        + f". Signed by {e.signer}"
        + (f" with key {e.key}" if e.key else "")
        + ". "
        f"Entry digest {e.entry_hash}"
        for e in entries
    ]
    tabs.journal_model.set_rows(rows, tips, payloads=entries)
    size_columns(tabs.journal_view, rows, 6, shrink=(1, 2, 4))
    whose = f"of {st.snapshot.dossier_id}" if only else "of every dossier"
    tabs.journal_count.setText(f"{len(entries)} entries {whose} (the journal holds {j.count})")


def _denials(tabs: DossierTabs, st: dz.PanelState) -> None:
    only = tabs.denials_only_dossier.isChecked()
    entries = st.denials if only else st.snapshot.journal.denials()
    rows = [
        (
            e.when.removesuffix(" UTC"),
            f"{e.who} ({e.role})",
            str(e.payload.get("op", "")),
            str(e.payload.get("target", "")),
            "denied",
            dz.denial_words(str(e.payload.get("reason_code", ""))),
        )
        for e in entries
    ]
    tabs.denial_model.set_rows(rows)
    size_columns(tabs.denial_view, rows, 5)
    busy_or_nobody = not st.actor_id
    tabs.attempt_button.setEnabled(not busy_or_nobody)


def size_columns(
    view: Any,
    rows: list[tuple[Any, ...]],
    count: int,
    bold: bool = False,
    shrink: tuple[int, ...] = (),
) -> None:
    """Fit the first ``count`` columns to their header and longest text, measured here.

    (``resizeColumnsToContents`` asks the model for every cell through Python: too slow
    for a long journal on the GUI thread.) Columns in ``shrink`` give up width, their
    text elided (the row's tooltip has it whole), when the view is too narrow for all:
    see :func:`fit_columns`.
    """
    header = view.model().header
    fm = view.fontMetrics()
    if bold:
        font = view.font()
        font.setBold(True)
        fm = QFontMetrics(font)
    hm = view.horizontalHeader().fontMetrics()
    widths = []
    for c in range(min(count, len(header))):
        longest = max((str(r[c]) for r in rows), key=len, default="")
        width = max(fm.horizontalAdvance(longest), hm.horizontalAdvance(header[c]) + 12) + 16
        widths.append(min(width, 480))
    view.setProperty("natural_widths", widths)
    view.setProperty("shrinkable", list(shrink))
    fit_columns(view)


def fit_columns(view: Any) -> None:
    """Set the measured widths, shrinking the shrinkable columns (not below their header)
    as far as needed to show every column in the view's width."""
    widths = list(view.property("natural_widths") or [])
    shrink = [c for c in (view.property("shrinkable") or []) if c < len(widths)]
    avail = view.viewport().width()
    excess = sum(widths) - avail
    if shrink and excess > 0 and avail > 200:
        hm = view.horizontalHeader().fontMetrics()
        header = view.model().header
        floors = {c: min(widths[c], max(hm.horizontalAdvance(header[c]) + 28, 110)) for c in shrink}
        room = sum(widths[c] - floors[c] for c in shrink)
        if room > 0:
            take = min(excess, room)
            for c in shrink:
                widths[c] -= round(take * (widths[c] - floors[c]) / room)
    for c, w in enumerate(widths):
        view.setColumnWidth(c, w)
