"""A writer killed with SIGKILL mid-append never damages earlier journal entries."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from dossier_builder import DATA, archive, principals

from aa_review.core.dossier import JournalFile, Workspace, verify_journal

REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

PRELUDE = textwrap.dedent(f"""
    import json, os, signal, sys
    from datetime import datetime, timezone
    from pathlib import Path
    from aa_review.core.dossier import Workspace
    data = Path({str(DATA)!r})
    principals = json.loads((data / "principals.json").read_text())["principals"]
    archive = json.loads((data / "archive.json").read_text())
    clock = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)
    ws = Workspace(principals, archive, clock, Path(sys.argv[1]))
""")


def run_child(body: str, journal: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(body), str(journal)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kw,
    )


def test_kill_in_the_middle_of_an_append(tmp_path: Path, clock) -> None:
    journal = tmp_path / "journal.jsonl"
    child = run_child(
        """
        for i in range(5):
            ws.attempt_operation("export_dataset", "p-agent-gus", f"target-{i}")
        # The sixth append: half of its bytes reach the file, then the process dies.
        from aa_review.core.dossier import canonical_json, make_entry
        entry = make_entry(5, ws.journal_head()["entry_hash"], "2026-03-01T00:00:00Z",
                           "operation_denied", dossier_id=None, revision=None,
                           actor={"principal_id": "p-agent-gus", "role": "agent"},
                           payload={"op": "change_routing", "target": "t",
                                    "reason_code": "OPERATION_DENIED_ACTIVATION_DEFERRED"})
        data = canonical_json(entry) + b"\\n"
        fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
        os.write(fd, data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)
    """,
        journal,
    )
    _, err = child.communicate(timeout=60)
    assert child.returncode == -signal.SIGKILL, err.decode()
    read = JournalFile(journal).read()
    assert len(read.entries) == 5 and read.torn_tail
    assert verify_journal(read.entries)["valid"]
    assert [e["payload"]["target"] for e in read.entries] == [f"target-{i}" for i in range(5)]
    # Re-opening drops the torn tail and continues the chain.
    ws = Workspace(principals(), archive(), clock, journal)
    assert not ws.read_only
    assert ws.attempt_operation("import_checkpoint", "p-agent-gus", "x")["decision"] == "denied"
    result = ws.verify_journal()
    assert result["valid"] and result["entries"] == 6
    assert journal.read_bytes().endswith(b"\n")


def test_kill_at_a_random_moment_of_a_busy_writer(tmp_path: Path, clock) -> None:
    journal = tmp_path / "journal.jsonl"
    child = run_child(
        """
        big = "x" * 900_000  # large entries (a line stays under 1 MiB): kills land inside writes
        i = 0
        while True:
            ws.attempt_operation("export_dataset", "p-agent-gus", f"{i}:{big}")
            i += 1
            print(i, flush=True)
    """,
        journal,
    )
    assert child.stdout is not None
    acknowledged = 0
    deadline = time.monotonic() + 30
    while acknowledged < 4 and time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        acknowledged = int(line)
    time.sleep(0.013)
    child.send_signal(signal.SIGKILL)
    _, err = child.communicate(timeout=30)  # also closes the pipes
    assert child.returncode == -signal.SIGKILL
    assert acknowledged >= 4, err.decode()
    read = JournalFile(journal).read()
    # Every append the writer returned from is intact, and the chain verifies.
    assert len(read.entries) >= acknowledged
    assert verify_journal(read.entries)["valid"]
    for i, e in enumerate(read.entries):
        assert e["payload"]["target"].startswith(f"{i}:")
    ws = Workspace(principals(), archive(), clock, journal)
    assert not ws.read_only and ws.verify_journal()["entries"] == len(read.entries)
