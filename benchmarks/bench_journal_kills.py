"""Kill a dossier journal writer with SIGKILL at random instants; every reopening must hold.

Run from the repository root: ``python -m benchmarks.bench_journal_kills --kills 50``
(or ``./dev bench journal_kills --kills 50``). One workspace folder is written by a
child process that imports, binds, edits (a bound edit expires revision 1 and
creates revision 2: two revisions, two entries) and asks for a denied operation,
printing an acknowledgement after each call returns. The parent kills it at a
random instant, then opens the workspace and checks spec 10.5: it opens
writable, holds every acknowledged action, holds no half-applied one (revision
files agree with the journal, no staged or temporary file is left), and the
journal verifies against the registry and the witnessed head. The next child
continues the same workspace. ``tests/core/dossier/test_dossier_journal_kills.py``
runs a few kills of the same campaign in the test suite.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
LEAD, DECIDER = "p-lead-ada", "p-maint-fay"

CHILD = textwrap.dedent("""
    import copy, json, sys
    from datetime import datetime, timezone
    from pathlib import Path
    from aa_review.core.dossier import Workspace
    folder, tree, i = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text()), int(sys.argv[3])
    ws = Workspace.open_folder(folder, clock=lambda: datetime(2026, 3, 1, tzinfo=timezone.utc))
    assert not ws.read_only, ws.journal_fault
    print("ready", flush=True)
    while True:
        d = f"dos-k{i}"
        t = copy.deepcopy(tree)
        t["dossier_id"] = d
        ws.import_dossier(t, "%(lead)s")
        print("ack", i, "import", flush=True)
        assert ws.bind(d, 1, "%(lead)s").outcome.value == "applied"
        print("ack", i, "bind", flush=True)
        r = ws.edit_evidence(d, 1, "%(lead)s", ["license", "license_id"], f"MIT-{i}")
        assert r.outcome.value == "applied_as_new_revision", r
        print("ack", i, "edit", flush=True)
        assert "journal_fault" not in ws.attempt_operation("export_dataset", "%(decider)s", d)
        print("ack", i, "deny", flush=True)
        i += 1
""") % {"lead": LEAD, "decider": DECIDER}


def prepare(root: Path) -> tuple[Path, Path]:
    """A fresh workspace folder with keyed demo principals, and the dossier the child imports."""
    from aa_review.core.dossier import init_workspace_folder
    from aa_review.demo._sample_archive import SAMPLE_PRINCIPALS, sample_archive
    from aa_review.demo._sample_dossier import sample_dossier
    from aa_review.demo.sample import keyed_principals

    archive = sample_archive()
    folder = init_workspace_folder(root / "ws", keyed_principals(SAMPLE_PRINCIPALS), archive)
    tree = root / "dossier.json"
    tree.write_text(json.dumps(sample_dossier(archive, expires_at="2099-12-31T00:00:00Z")))
    return folder, tree


def kill_once(folder: Path, tree: Path, start: int, delay: float) -> list[tuple[int, str]]:
    """Run a writer from dossier ``start``, SIGKILL it ``delay`` s after it is ready."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder), str(tree), str(start)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    lines: list[str] = []
    ready = threading.Event()

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line.strip())
            ready.set()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    if not ready.wait(60):
        child.kill()
        raise AssertionError(f"the writer never started: {child.communicate()[1]}")
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    _, err = child.communicate(timeout=60)
    reader.join(10)
    if child.returncode != -signal.SIGKILL:
        raise AssertionError(f"the writer stopped by itself ({child.returncode}): {err}")
    # A line cut by the kill names no step: it is left out (it can only weaken the check).
    return [
        (int(p[1]), p[2])
        for p in (line.split() for line in lines)
        if len(p) == 3 and p[0] == "ack" and p[1].isdigit()
    ]


def check(folder: Path, acked: dict[int, set[str]], denials: int) -> dict[str, Any]:
    """Open the workspace after a kill and check spec 10.5; returns what it found."""
    from aa_review.core.dossier import Workspace

    with Workspace.open_folder(folder) as ws:
        assert not ws.read_only, f"opened read-only: {ws.journal_fault}"
        assert ws.verify_journal()["valid"]
        assert ws.witness_status()["status"] == "matches", ws.witness_status()
        for i, steps in acked.items():
            d = f"dos-k{i}"
            assert ws.revisions(d), f"acknowledged import of {d} is missing"
            state = ws.revision(d, 1)["state"]
            if "bind" in steps:
                assert state in ("evidence_bound", "expired"), (d, state)
            if "edit" in steps:
                assert state == "expired" and ws.revision(d, 2)["state"] == "draft", d
        found = len(ws.denial_log())
        assert found >= denials, f"{denials} denials acknowledged, {found} journaled"
        leftovers = [
            p.name for p in folder.rglob("*") if p.name.endswith((".tmp", ".pending.json"))
        ]
        assert not leftovers, f"left behind: {leftovers}"
        entries = len(ws.journal_entries())
        # It stays writable: one more action is journaled.
        after = ws.attempt_operation("change_routing", DECIDER, "after-kill")
        assert "journal_fault" not in after and "not_journaled" not in after
        dossiers = [d for d in ws.dossier_ids() if d.startswith("dos-k")]
    return {
        "entries": entries,
        "next": 1 + max((int(d[5:]) for d in dossiers), default=-1),
        "denials": found + 1,
    }


def campaign(root: Path, kills: int, seed: int, max_delay: float = 1.5, report: Any = None) -> int:
    """Run ``kills`` kill-and-reopen rounds on one workspace; returns acknowledged actions."""
    rng = random.Random(seed)
    folder, tree = prepare(root)
    acked: dict[int, set[str]] = {}
    denials = 0
    start = 0
    total = 0
    for k in range(kills):
        delay = rng.uniform(0.0, max_delay)
        acks = kill_once(folder, tree, start, delay)
        for i, step in acks:
            acked.setdefault(i, set()).add(step)
            denials += step == "deny"
        total += len(acks)
        found = check(folder, acked, denials)
        denials = found["denials"]  # the check's own denial is journaled too
        start = found["next"]
        if report:
            report(
                f"kill {k + 1:>3}/{kills}: after {delay:.3f} s, {len(acks)} acknowledged, "
                f"{found['entries']} entries; reopened writable"
            )
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--max-delay", type=float, default=1.5, help="longest wait before a kill, seconds"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="aa-review-kills-") as tmp:
        import os

        # The campaign's keys and witness records stay in the temporary folder.
        os.environ.setdefault("AA_REVIEW_DATA_DIR", str(Path(tmp) / "data"))
        total = campaign(Path(tmp), args.kills, args.seed, args.max_delay, report=print)
    print(
        f"{args.kills} kills, {total} acknowledged actions: every workspace opened writable "
        "with every acknowledged action"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
