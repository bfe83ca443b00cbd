"""Forks of a journal folder: which branch every reader keeps (spec 10.6).

A journal folder holds one file per action. Each action's first entry names the
entry it extends (``prev_hash``). Two actions that extend the same entry are a
fork (``JOURNAL_FORKED``): every reader keeps the action whose first entry has the
earlier ``at``, ties broken by the lower ``entry_hash``, and the actions of the
other branches are *not applied* -- kept in the folder, never deleted. This module
only sorts the actions; whether each one verifies is the verifier's to say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aa_review.core.dossier._canonical import ZERO_DIGEST

__all__ = ["Action", "NotApplied", "Settled", "settle"]


@dataclass(frozen=True)
class Action:
    """One action file of a journal folder: its name and its entries (parsed or malformed)."""

    name: str
    entries: list[Any]

    @property
    def first(self) -> dict[str, Any]:
        """The action's first entry (only for actions that passed :func:`settle`'s checks)."""
        first: dict[str, Any] = self.entries[0]
        return first

    @property
    def last_hash(self) -> str:
        """The ``entry_hash`` of the action's last entry: what the next action extends."""
        last = self.entries[-1]
        return str(last.get("entry_hash")) if isinstance(last, dict) else ""


@dataclass(frozen=True)
class NotApplied:
    """An action on a branch that lost a fork, with the actions that lead to it."""

    action: Action
    ancestry: list[Action]  # from the genesis action to ``action`` itself

    def entries(self) -> list[Any]:
        """Every entry from the genesis to this action's last one, in chain order."""
        return [e for a in self.ancestry for e in a.entries]


@dataclass
class Settled:
    """The kept branch, the not-applied actions and the files that are no action at all."""

    kept: list[Action] = field(default_factory=list)
    not_applied: list[NotApplied] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    forks: int = 0

    def kept_entries(self) -> list[Any]:
        """The kept branch's entries, in chain order (what the journal *is*)."""
        return [e for a in self.kept for e in a.entries]


def _order(action: Action) -> tuple[str, str]:
    first = action.first
    at, digest = first.get("at"), first.get("entry_hash")
    return (at if isinstance(at, str) else "", digest if isinstance(digest, str) else "")


def _usable(action: Action) -> bool:
    return bool(action.entries) and all(
        isinstance(e, dict) and isinstance(e.get("prev_hash"), str) for e in action.entries
    )


def settle(actions: list[Action], folder_label: str = "journal") -> Settled:
    """Sort the actions of a journal folder into the kept branch and the not-applied ones.

    Never raises. An action whose lines are not all entries, or that extends no
    entry of the folder, is a fault naming its file (verification would fail on it).
    """
    out = Settled()
    children: dict[str, list[Action]] = {}
    for a in actions:
        if not _usable(a):
            out.faults.append(
                f"JOURNAL_ENTRY_MALFORMED: {folder_label}/{a.name} is not a journal action"
            )
            continue
        children.setdefault(a.first["prev_hash"], []).append(a)
    seen: set[str] = set()
    roots: list[NotApplied] = []
    head = ZERO_DIGEST
    while head in children:
        kids = sorted(children[head], key=_order)
        chosen = kids[0]
        if chosen.name in seen:  # entries that claim to extend themselves: a forgery
            break
        seen.add(chosen.name)
        if len(kids) > 1:
            out.forks += 1
        for other in kids[1:]:
            roots.append(NotApplied(other, [*out.kept, other]))
        out.kept.append(chosen)
        head = chosen.last_hash
    stack = list(reversed(roots))
    while stack:
        na = stack.pop()
        if na.action.name in seen:
            continue
        seen.add(na.action.name)
        out.not_applied.append(na)
        for child in sorted(children.get(na.action.last_hash, []), key=_order, reverse=True):
            stack.append(NotApplied(child, [*na.ancestry, child]))
    for kids in children.values():
        for a in kids:
            if a.name not in seen:
                out.faults.append(
                    f"JOURNAL_PREV_HASH_MISMATCH: {folder_label}/{a.name} extends no entry "
                    "of the journal"
                )
    return out
