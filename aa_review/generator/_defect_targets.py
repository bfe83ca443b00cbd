"""Choosing where each defect goes so that two defects never touch the same row or file."""

from __future__ import annotations

from ._counts import Counts
from ._final import primary_path
from ._rows_common import FIXED_TYPES, file_of

__all__ = ["Targets", "FILE_DEFECTS"]

# Defects that damage a whole row file (or shift its rows), with the files they prefer.
FILE_DEFECTS: dict[str, tuple[int, tuple[str, ...]]] = {
    "empty_file": (1, ("task_variants.jsonl",)),
    "malformed_line": (2, ("environment_response_pairs.jsonl", "evaluation_examples.jsonl")),
    "truncated_file": (2, ("software_execution_events.jsonl", "reward_model_rows.jsonl")),
    "duplicate_row_id": (1, ("verifier_examples.jsonl", "training_examples.jsonl")),
    "bad_encoding": (1, ("api_interaction_events.jsonl", "failure_cases.jsonl")),
}
_ROW_ORDER = (
    "failure_cases.jsonl",
    "evaluation_examples.jsonl",
    "reward_model_rows.jsonl",
    "verifier_examples.jsonl",
    "training_examples.jsonl",
    "task_variants.jsonl",
    "preference_pairs.jsonl",
)
_FIXED = {file_of(t) for t in FIXED_TYPES}


class Targets:
    """Hands out row files and rows; file-level defects are served first, in the order asked."""

    def __init__(
        self, counts: Counts, names: list[str], spread: dict[str, int] | None = None
    ) -> None:
        self.n = counts.by_file
        self.spread = dict(spread or {})
        self.files: dict[str, str] = {}
        used: set[str] = set()
        for name in names:
            if name in FILE_DEFECTS:
                need, prefer = FILE_DEFECTS[name]
                rest = sorted((f for f in self.n if f not in prefer), key=lambda f: (-self.n[f], f))
                pick = next(
                    (f for f in (*prefer, *rest) if f not in used and self.n.get(f, 0) >= need),
                    None,
                )
                if pick is None:
                    raise ValueError(
                        f"the package is too small for {name}: no free row file with {need} rows"
                    )
                used.add(pick)
                self.files[name] = pick
        others = sorted(f for f in self.n if f not in _FIXED)
        self._rows = [
            (f, i)
            for i in range(max(self.n.values(), default=0))
            for f in (*_ROW_ORDER, *others)
            if f not in used and i < self.n.get(f, 0)
        ]
        self._taken: set[tuple[str, int]] = set()

    def rows_for(self, name: str) -> int | None:
        """How many rows defect ``name`` goes into when asked for several, else None."""
        return self.spread.get(name)

    def file(self, name: str) -> str:
        """The row file reserved for file-level defect ``name``."""
        return self.files[name]

    def row(
        self,
        name: str,
        fixed_only: bool = False,
        no_pairs: bool = False,
        files: frozenset[str] | None = None,
    ) -> tuple[str, int]:
        """A row (file, 0-based index) no other defect uses, optionally from ``files`` only."""
        for f, i in self._rows:
            if (
                (f, i) in self._taken
                or (fixed_only and f not in _FIXED)
                or (files is not None and f not in files)
                or (no_pairs and f == "preference_pairs.jsonl")
            ):
                continue
            self._taken.add((f, i))
            return f, i
        raise ValueError(f"the package is too small for {name}: no free row left")

    @staticmethod
    def path(file: str) -> str:
        return primary_path(file)
