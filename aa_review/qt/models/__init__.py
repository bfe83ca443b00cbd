"""Item models that read the core's columns by row; nothing is copied into items."""

from __future__ import annotations

from aa_review.qt.models.counts_table import CountsTableModel
from aa_review.qt.models.evidence_table import EvidenceTableModel
from aa_review.qt.models.json_tree import JsonTreeModel
from aa_review.qt.models.rows_table import RowsTableModel

__all__ = ["EvidenceTableModel", "JsonTreeModel", "RowsTableModel", "CountsTableModel"]
