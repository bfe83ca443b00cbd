"""JsonTreeModel: any parsed JSON value as a lazily built two-column tree."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

__all__ = ["JsonTreeModel"]

Index = QModelIndex | QPersistentModelIndex
_PREVIEW = 200


class _Node:
    __slots__ = ("key", "value", "parent", "row", "_children")

    def __init__(self, key: str, value: Any, parent: _Node | None, row: int) -> None:
        self.key, self.value, self.parent, self.row = key, value, parent, row
        self._children: list[_Node] | None = None

    @property
    def children(self) -> list[_Node]:
        if self._children is None:
            v = self.value
            items = (
                v.items()
                if isinstance(v, dict)
                else ((f"[{i}]", x) for i, x in enumerate(v))
                if isinstance(v, list)
                else ()
            )
            self._children = [_Node(str(k), x, self, i) for i, (k, x) in enumerate(items)]
        return self._children


def _shape(value: Any) -> tuple[tuple[str, bool], ...] | None:
    """Top-level keys and which of them hold containers; None for a scalar."""
    if isinstance(value, dict):
        return tuple((str(k), isinstance(v, (dict, list))) for k, v in value.items())
    if isinstance(value, list):
        return tuple((str(i), isinstance(v, (dict, list))) for i, v in enumerate(value))
    return None


def _render(value: Any) -> str:
    if isinstance(value, dict):
        return f"{{{len(value)} keys}}"
    if isinstance(value, list):
        return f"[{len(value)} items]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= _PREVIEW else text[:_PREVIEW] + "…"


class JsonTreeModel(QAbstractItemModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._root = _Node("", {}, None, 0)

    def set_value(self, value: Any) -> None:
        """Show ``value``. When it has the same top-level shape as the shown value and
        nothing is expanded, the values change in place (no reset, no relayout)."""
        root = self._root
        if (
            root._children is not None
            and _shape(value) == _shape(root.value)
            and all(c._children is None for c in root._children)
            and root._children
        ):
            root.value = value
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for node, (_k, v) in zip(root._children, items, strict=True):
                node.value = v
            last = len(root._children) - 1
            self.dataChanged.emit(self.index(0, 1), self.index(last, 1))
            return
        self.beginResetModel()
        self._root = _Node("", value, None, 0)
        self.endResetModel()

    def _node(self, index: Index) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, self._node(parent).children[row])

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        node = self._node(index).parent
        if node is None or node is self._root:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 2

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return ("Key", "Value")[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._node(index)
        if role == Qt.ItemDataRole.DisplayRole:
            return node.key if index.column() == 0 else _render(node.value)
        if (
            role == Qt.ItemDataRole.ToolTipRole
            and index.column() == 1
            and isinstance(node.value, str)
            and len(node.value) > _PREVIEW
        ):
            return node.value[:4000]
        return None
