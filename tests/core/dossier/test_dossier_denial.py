"""Deferred-operation denial log (spec 8) and the absence of any training machinery."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from dossier_builder import AGENT, DECIDER, EVALUATOR, LEAD, passing

from aa_review.core.dossier import DEFERRED_OPERATIONS, JournalWriteError, Workspace

D = "dos-7f3a9c"


@pytest.mark.parametrize("op", sorted(DEFERRED_OPERATIONS))
@pytest.mark.parametrize("actor", [LEAD, DECIDER, AGENT, "nobody"])
def test_deferred_operations_are_denied_and_journaled(ws: Workspace, op: str, actor: str) -> None:
    result = ws.attempt_operation(op, actor, D)
    if actor == "nobody":
        # Denied all the same, but not journaled: no registered principal asked (spec 10.1).
        assert result["decision"] == "denied"
        assert result["reason_code"] == "OPERATION_DENIED_ACTIVATION_DEFERRED"
        assert result["not_journaled"].startswith("ACTOR_UNKNOWN")
        assert ws.journal_entries() == []
        return
    assert result == {"decision": "denied", "reason_code": "OPERATION_DENIED_ACTIVATION_DEFERRED"}
    entry = ws.journal_entries()[-1]
    assert entry["kind"] == "operation_denied"
    payload = {
        k: v for k, v in entry["payload"].items() if k not in ("registry_digest", "journal_id")
    }
    assert payload == {"op": op, "target": D, "reason_code": "OPERATION_DENIED_ACTIVATION_DEFERRED"}
    assert entry["payload"]["registry_digest"] == ws.principals.digest
    assert entry["actor"]["principal_id"] == actor


@pytest.mark.parametrize("op", ["publish_checkpoint", "EXPORT_DATASET", "", "export_dataset "])
def test_unknown_operations_are_denied_as_unregistered(ws: Workspace, op: str) -> None:
    result = ws.attempt_operation(op, DECIDER, "anything")
    assert result["reason_code"] == "OPERATION_DENIED_UNREGISTERED_OPERATION"
    assert ws.denial_log()[-1]["payload"]["op"] == op


def test_denied_in_every_lifecycle_state_including_eligible(ws: Workspace) -> None:
    ws.import_dossier(passing())
    ops = []
    for step in (
        lambda: None,
        lambda: ws.bind(D, 1, LEAD),
        lambda: ws.check(D, 1, EVALUATOR),
        lambda: ws.decide_eligible(D, 1, DECIDER),
    ):
        step()
        ops.append(ws.attempt_operation("start_provider_job", DECIDER, D)["decision"])
    assert ws.revision(D, 1)["state"] == "eligible"
    assert ops == ["denied"] * 4
    assert len(ws.denial_log()) == 4
    assert ws.verify_journal()["valid"]


def test_denial_stands_when_the_journal_cannot_be_written(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(entry: dict) -> None:
        raise JournalWriteError("cannot append to journal: No space left on device")

    monkeypatch.setattr(ws.journal.file, "append", disk_full)
    result = ws.attempt_operation("export_dataset", AGENT, "x")
    assert result["decision"] == "denied"
    assert result["reason_code"] == "OPERATION_DENIED_ACTIVATION_DEFERRED"
    assert "No space left" in result["journal_fault"] and ws.read_only
    # Further attempts are still denied and still surface the fault.
    again = ws.attempt_operation("change_routing", AGENT, "x")
    assert again["decision"] == "denied" and again["journal_fault"]
    assert ws.journal_entries() == []


def test_denial_stands_on_a_read_only_workspace(make_ws, tmp_path: Path) -> None:
    ws = make_ws()
    ws.attempt_operation("export_dataset", AGENT, "x")
    ws.close()
    journal = tmp_path / "journal.jsonl"
    journal.write_text(journal.read_text().replace('"x"', '"y"'))  # tamper
    reopened = make_ws()
    assert reopened.read_only
    result = reopened.attempt_operation("import_checkpoint", AGENT, "ckpt-1")
    assert result["decision"] == "denied"
    assert "JOURNAL_ENTRY_HASH_MISMATCH" in result["journal_fault"]


# The stdlib socket module is imported by scipy and pydantic themselves; what is
# forbidden are clients built on it (and our own code may not import it: see below).
FORBIDDEN = [
    "openai",
    "anthropic",
    "boto3",
    "botocore",
    "google.cloud",
    "azure",
    "requests",
    "httpx",
    "aiohttp",
    "urllib3",
    "http.client",
    "urllib.request",
    "ssl",
    "keyring",
    "huggingface_hub",
    "torch",
    "transformers",
    "PySide6",
    "pyqtgraph",
    "shiboken6",
    "aa_review.qt",
    "aa_review.core.audits",
]


def test_no_provider_sdk_credential_store_network_client_or_qt_is_imported() -> None:
    code = (
        "import sys, json, aa_review.core.dossier, aa_review.core.stats, "
        "aa_review.cli.dossier_cmd, aa_review.cli._dossier_run; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    loaded = set(json.loads(out.stdout))
    bad = sorted(m for m in loaded for f in FORBIDDEN if m == f or m.startswith(f + "."))
    assert bad == []


def test_no_implementation_behind_the_deferred_operation_names() -> None:
    root = Path(__file__).resolve().parents[3] / "aa_review"
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for op in DEFERRED_OPERATIONS:
            assert f"def {op}" not in text, f"{path} implements {op}"


def test_dossier_code_imports_no_network_or_credential_module() -> None:
    root = Path(__file__).resolve().parents[3] / "aa_review"
    core = [*(root / "core" / "dossier").glob("*.py"), *(root / "core" / "stats").glob("*.py")]
    network = (
        r"^\s*(?:import|from)\s+(socket|ssl|http|urllib|requests|httpx|keyring|"
        r"subprocess{})\b"
    )
    # The dossier core takes the audit only as an injected hook; the command line is
    # where the two are joined, so only it may import the audit engine.
    in_core = re.compile(network.format(r"|aa_review\.core\.audits"), re.M)
    in_cli = re.compile(network.format(""), re.M)
    for path in core:
        assert not in_core.search(path.read_text(encoding="utf-8")), path
    # The dossier commands' parsers and what they run (``_dossier_run`` and its siblings).
    cli = sorted((root / "cli").glob("*dossier*.py"))
    assert len(cli) >= 7, cli
    for path in cli:
        assert not in_cli.search(path.read_text(encoding="utf-8")), path
