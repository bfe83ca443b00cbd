"""What the File and Go menus do beyond opening: export, sessions, the palette's "go to"."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QFileDialog, QMessageBox

from aa_review.core.query.export import export_rows
from aa_review.core.session import SESSION_SUFFIX, SessionState, load_session, save_session
from aa_review.core.util.errors import AAReviewError
from aa_review.qt.views.palette import PaletteEntry

if TYPE_CHECKING:
    from aa_review.qt.views.main_window import MainWindow

__all__ = ["export_view", "capture_session", "save_session_as", "open_session",
           "apply_session", "go_to_entries"]


def export_view(win: MainWindow, path: Path | None = None) -> int | None:
    """Export the rows the Rows view shows now, with its query and the package digest."""
    pkg = win.package
    if pkg is None:
        return None
    if path is None:
        name, _ = QFileDialog.getSaveFileName(win, "Export the filtered rows",
                                              f"{pkg.package_id}-rows.csv",
                                              "CSV (*.csv);;JSON Lines (*.jsonl)")
        if not name:
            return None
        path = Path(name)
    model = win.rows.model
    positions = (model.position(r) for r in range(model.rowCount()))
    try:
        n = export_rows(pkg, positions, path, query=win.rows.shown_query(),
                        digest=win.package_digest())
    except (OSError, ValueError) as exc:
        QMessageBox.warning(win, "Export failed", f"{path}: {exc}")
        return None
    win.statusBar().showMessage(f"Exported {n:,} rows to {path}", 8000)
    return n


def capture_session(win: MainWindow) -> SessionState:
    sel = win.hub.current
    pkg = win.package
    return SessionState(
        rows_query=win.rows.query.text(), findings_query=win.findings.query.text(),
        selected_row_id=pkg.index.row_id_str(sel.row) if pkg and sel.row is not None else None,
        selected_evidence_id=pkg.index.evidence_ids[sel.evidence]
        if pkg and sel.evidence is not None else None,
        selected_contract=sel.contract, central_tab=win.center.currentIndex(),
        layout=base64.b64encode(bytes(win.saveState(win.LAYOUT_VERSION).data())).decode("ascii"))


def save_session_as(win: MainWindow, path: Path | None = None) -> Path | None:
    if path is None:
        name, _ = QFileDialog.getSaveFileName(win, "Save the review session",
                                              f"review{SESSION_SUFFIX}",
                                              f"aa-review session (*{SESSION_SUFFIX})")
        if not name:
            return None
        path = Path(name)
    try:
        save_session(path, capture_session(win), win.package.root if win.package else None)
    except OSError as exc:
        QMessageBox.warning(win, "Cannot save the session", f"{path}: {exc}")
        return None
    win.settings.setValue("last_session", str(path))
    win.statusBar().showMessage(f"Session saved to {path}", 6000)
    return path


def open_session(win: MainWindow, path: Path | None = None) -> bool:
    if path is None:
        name, _ = QFileDialog.getOpenFileName(win, "Open a review session", "",
                                              f"aa-review session (*{SESSION_SUFFIX})")
        if not name:
            return False
        path = Path(name)
    try:
        state, pkg_root = load_session(path)
    except AAReviewError as exc:
        QMessageBox.warning(win, "Cannot open the session", str(exc))
        return False
    win.settings.setValue("last_session", str(path))
    win.pending_session = state
    if pkg_root is not None:
        win.open_package(pkg_root)  # the state is applied once the package has loaded
    return True


def apply_session(win: MainWindow, state: SessionState) -> None:
    """Restore filters, selection, tab and layout from a session."""
    if state.layout:
        win.restoreState(QByteArray(base64.b64decode(state.layout)), win.LAYOUT_VERSION)
    win.center.setCurrentIndex(state.central_tab)
    win.rows.query.set_text(state.rows_query)
    win.findings.query.set_text(state.findings_query)
    pkg = win.package
    if pkg is None:
        return
    fields: dict[str, int | str] = {}
    if state.selected_row_id:
        row = pkg.index.find_row(state.selected_row_id)
        if row is not None:
            fields["row"] = row
    if state.selected_evidence_id in pkg.index.evidence_pos:
        fields["evidence"] = pkg.index.evidence_pos[state.selected_evidence_id or ""]
    if state.selected_contract:
        fields["contract"] = state.selected_contract
    if fields:
        win.hub.select(source="session", **fields)


def go_to_entries(win: MainWindow, text: str) -> list[PaletteEntry]:
    """Palette entries that jump to a row, an evidence item or a finding named by ``text``."""
    pkg = win.package
    if pkg is None or not text:
        return []
    out: list[PaletteEntry] = []
    ix = pkg.index
    row = ix.find_row(text)
    if row is None and len(text) >= 6:
        hits = np.flatnonzero(np.char.find(ix.row_id, text.encode("utf-8")) >= 0)[:5]
        candidates = [int(h) for h in hits]
    else:
        candidates = [] if row is None else [row]
    for r in candidates:
        out.append(PaletteEntry(f"Go to row {ix.row_id_str(r)}",
                                lambda r=r: win.hub.update(row=r, source="palette")))
    for e, eid in enumerate(ix.evidence_ids):
        if text in eid or (pkg.evidence_at(e) and text in (pkg.evidence_at(e).ref or "")):
            out.append(PaletteEntry(f"Go to evidence {eid}",
                                    lambda e=e: win.hub.update(evidence=e, source="palette")))
            if len(out) >= 10:
                break
    for i, f in enumerate(win.findings.findings):
        if text == str(i + 1) or text == f.code:
            out.append(PaletteEntry(f"Go to finding {i + 1}: {f.code} {f.location.short()}",
                                    lambda i=i: win.findings.navigate(i)))
            if len(out) >= 15:
                break
    return out
