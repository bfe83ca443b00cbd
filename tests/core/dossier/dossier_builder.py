"""Builder of dossier variants for the tests: load the golden files, edit, re-seal digests."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aa_review.core.dossier import (
    GATES,
    GateContext,
    GateResult,
    PrincipalRegistry,
    inspect_packages,
    parse_archive,
    parse_dossier,
)
from aa_review.demo._sample_archive import (  # the principals of principals.json
    AGENT,
    AGENT_MAINTAINER,
    DECIDER,
    EVALUATOR,
    EVALUATOR2,
    LEAD,
    LEAD2,
    REDUCER_ID,
    SIGNER,
)
from aa_review.demo._sample_seal import seal

DATA = Path(__file__).resolve().parents[2] / "data" / "dossier"
NOW = datetime(2026, 3, 1, tzinfo=UTC)
DELETE = object()
__all__ = [
    "revision_file",
    "AGENT",
    "AGENT_MAINTAINER",
    "DECIDER",
    "EVALUATOR",
    "EVALUATOR2",
    "LEAD",
    "LEAD2",
    "REDUCER_ID",
    "SIGNER",
]  # re-exported for the tests


def load(name: str) -> Any:
    """A golden JSON file of tests/data/dossier."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def passing() -> dict[str, Any]:
    """The passing dossier (a fresh copy)."""
    return load("dossier_passing.json")


def archive() -> dict[str, Any]:
    return load("archive.json")


def principals() -> list[dict[str, Any]]:
    return load("principals.json")["principals"]


def keyed_principals() -> list[dict[str, Any]]:
    """The golden principals with public keys, their private keys in the test key store."""
    from aa_review.demo.sample import keyed_principals as keyed

    return keyed(principals())


def _walk(tree: Any, path: str) -> tuple[Any, Any]:
    parts: list[Any] = [int(p) if p.isdigit() else p for p in path.split(".")]
    node = tree
    for p in parts[:-1]:
        node = node[p]
    return node, parts[-1]


class DossierBuilder:
    """Edit a dossier tree by dotted paths, then re-seal what the edit should not break.

    ``build()`` by default keeps the power plan, the review digest and the
    amendment authorization linked to the edited evidence, so that a variant
    fails only for the reason a test is about; pass ``relink=False`` to keep
    the stale digests.
    """

    def __init__(self, base: dict[str, Any] | None = None) -> None:
        self.tree = copy.deepcopy(base if base is not None else passing())
        self._reclaim = False

    def set(self, path: str, value: Any) -> DossierBuilder:
        node, key = _walk(self.tree, path)
        if value is DELETE:
            del node[key]
        else:
            node[key] = copy.deepcopy(value)
        return self

    def delete(self, path: str) -> DossierBuilder:
        return self.set(path, DELETE)

    def evidence(self, path: str, value: Any) -> DossierBuilder:
        return self.set(f"evidence.{path}", value)

    def reclaim_power(self) -> DossierBuilder:
        """Also recompute the claimed power figures when building."""
        self._reclaim = True
        return self

    def build(self, relink: bool = True) -> dict[str, Any]:
        tree = copy.deepcopy(self.tree)
        if relink:
            relink_all(tree, reclaim=self._reclaim)
        return tree


def relink_all(tree: dict[str, Any], reclaim: bool = False) -> None:
    """Re-seal power digests (and claims), the review digest and the authorization."""
    seal(tree, reclaim=reclaim)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def run_gate(
    gid: str,
    tree: dict[str, Any],
    archive_tree: dict[str, Any] | None = None,
    locator: Any = None,
    hook: Any = None,
) -> GateResult:
    """Evaluate a single gate of a dossier tree."""
    parsed = parse_dossier(tree)
    packages = inspect_packages(parsed.model.evidence.source_packages, locator)
    ctx = GateContext(
        parsed,
        parse_archive(archive_tree or archive()),
        PrincipalRegistry(principals()),
        packages,
        hook,
    )
    return GATES[gid](ctx)


def codes(result: GateResult) -> set[str]:
    return set(result.reason_codes)


def revision_file(folder: Path, dossier_id: str, revision: int) -> Path:
    """The file of a workspace folder holding a revision's content now: the one the last
    journal entry for it names (``payload.revision_digest``), named by that digest."""
    from aa_review.core.dossier._journal import JournalFolder
    from aa_review.core.dossier._storage import FolderStore

    digest = [
        e["payload"]["revision_digest"]
        for e in JournalFolder(folder / "journal").read().entries
        if (e["dossier_id"], e["revision"]) == (dossier_id, revision)
        and "revision_digest" in e["payload"]
    ][-1]
    return FolderStore(folder).revision_file(dossier_id, digest)


def signed_workspace(tmp_path: Path, upto: str = "eligible") -> Path:
    """A workspace folder of keyed principals with the passing dossier taken to
    ``evidence_bound`` or ``eligible`` (then published): a genuine signed journal."""
    from aa_review.core.dossier import Workspace, init_workspace_folder

    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    d = passing()["dossier_id"]
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        assert ws.bind(d, 1, LEAD).outcome.value == "applied"
        if upto == "eligible":
            ws.check(d, 1, EVALUATOR)
            assert ws.decide_eligible(d, 1, DECIDER).outcome.value == "applied"
            ws.project(d, 1, DECIDER)
    return folder


# -- the journal folder of a workspace (one file per action, docs/dossier_workspace.md) --------
def action_files(folder: Path) -> list[Path]:
    """The journal folder's action files in seq order (for tests that make no fork)."""
    return sorted(p for p in (folder / "journal").iterdir() if p.name.endswith(".jsonl"))


def journal_lines(folder: Path) -> list[bytes]:
    """Every journal line of a workspace folder, in order."""
    return [line for p in action_files(folder) for line in p.read_bytes().splitlines()]


def journal_entries(folder: Path) -> list[dict[str, Any]]:
    """Every journal entry of a workspace folder, parsed, in order."""
    import json

    return [json.loads(line) for line in journal_lines(folder)]


def journal_snapshot(folder: Path) -> bytes:
    """Every action file's name and bytes: what a refused step must leave as found."""
    if not (folder / "journal").is_dir():
        return b""
    return b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in action_files(folder))


def write_journal_lines(folder: Path, raw: list[bytes]) -> None:
    """Replace the journal by these lines, one file per action, as a forger would."""
    import json

    for p in action_files(folder):
        p.unlink()
    group: list[bytes] = []
    for i, line in enumerate(raw):
        group.append(line)
        try:
            more = json.loads(line)["payload"].get("continued") is True
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            more = False
        if more:
            continue
        try:
            first = json.loads(group[0])
            name = f"{first['seq']:08d}-{first['entry_hash'].split(':')[1]}.jsonl"
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError):
            name = f"{i:08d}-{'0' * 64}.jsonl"
        (folder / "journal" / name).write_bytes(b"".join(g + b"\n" for g in group))
        group = []
