"""Files are written with the user's mask; a group-readable workspace works for the group (10.6).

Only private keys (and their folder) are forced private. The first tests change the
umask between two processes of this account; the last one, as root only, runs three
real accounts of one group, each with its own data folder and key.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import stat
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from dossier_builder import action_files, archive, keyed_principals, passing, revision_file

from aa_review.core.dossier import KeyStore, init_workspace_folder

REPO = Path(__file__).resolve().parents[3]
D = "dos-7f3a9c"
# Each script runs at the golden dossier's time, in its own process.
PRELUDE = textwrap.dedent(
    """
    D = {D!r}
    import json, os, sys
    from datetime import UTC, datetime
    from aa_review.core.dossier import Workspace
    os.umask(int(sys.argv[1], 8))
    folder = sys.argv[2]
    def clock():
        return datetime(2026, 3, 1, tzinfo=UTC)
    def report(ws):
        print(json.dumps({"read_only": ws.read_only, "fault": ws.journal_fault,
                          "state": ws.revision(D, 1)["state"] if ws.dossier_ids() else None}))
    """
).replace("{D!r}", repr(D))


def modes(folder: Path) -> dict[str, int]:
    return {
        str(p.relative_to(folder)): stat.S_IMODE(p.stat().st_mode)
        for p in sorted(folder.rglob("*"))
    }


def run_as(umask: int, folder: Path, body: str, env: dict[str, str] | None = None) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(body), f"{umask:o}", str(folder)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.skipif(os.name != "posix", reason="file modes and umask are POSIX")
def test_workspace_files_follow_the_umask_and_another_umask_opens_writable(
    tmp_path: Path,
) -> None:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    (tmp_path / "dossier.json").write_text(json.dumps(passing()))
    first = run_as(
        0o002,
        folder,
        f"""
        with Workspace.open_folder(folder, clock=clock) as ws:
            ws.import_dossier(json.load(open({str(tmp_path / "dossier.json")!r})), "p-lead-ada")
            assert ws.bind({D!r}, 1, "p-lead-ada").outcome.value == "applied"
            report(ws)
        """,
    )
    assert first == {"read_only": False, "fault": None, "state": "evidence_bound"}
    written = {
        name: mode
        for name, mode in modes(folder).items()
        if name not in ("principals.json", "archive.json", "dossiers")  # made by this process
    }
    assert written, "the first process wrote nothing"
    for name, mode in written.items():
        want = 0o775 if (folder / name).is_dir() else 0o664
        assert mode == want, f"{name}: {mode:o}, not {want:o} (umask 002)"

    second = run_as(
        0o027,
        folder,
        f"""
        with Workspace.open_folder(folder, clock=clock) as ws:
            assert ws.check({D!r}, 1, "p-eval-cy").outcome.value == "applied"
            report(ws)
        """,
    )
    assert second == {"read_only": False, "fault": None, "state": "independently_checked"}
    rev = revision_file(folder, D, 1)
    assert stat.S_IMODE(rev.stat().st_mode) == 0o640  # rewritten under umask 027
    assert stat.S_IMODE(action_files(folder)[0].stat().st_mode) == 0o664  # made under 002


@pytest.mark.skipif(os.name != "posix", reason="file modes and umask are POSIX")
def test_private_keys_stay_private_whatever_the_umask(tmp_path: Path) -> None:
    env = {**os.environ, "AA_REVIEW_DATA_DIR": str(tmp_path / "data")}
    out = run_as(
        0o000,
        tmp_path,
        """
        from aa_review.core.dossier import KeyStore
        KeyStore().create("p-someone")
        print(json.dumps({}))
        """,
        env=env,
    )
    assert out == {}
    keys = tmp_path / "data" / "keys"
    assert stat.S_IMODE(keys.stat().st_mode) == 0o700
    assert stat.S_IMODE((keys / "p-someone.key").stat().st_mode) == 0o600


# -- real accounts of one group (root only) ------------------------------------------------
GROUP = 47410
ACCOUNTS = {"ada": 47411, "cy": 47412, "fay": 47413}
KEYS = {"ada": "p-lead-ada", "cy": "p-eval-cy", "fay": "p-maint-fay"}


def _python_for_others() -> list[str] | None:
    """An interpreter another account can run, with this project's packages on its path."""
    candidates = [sys.executable, f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]}"]
    for exe in candidates:
        if not Path(exe).exists():
            continue
        probe = subprocess.run(
            [
                *("setpriv", f"--reuid={ACCOUNTS['ada']}", f"--regid={GROUP}", "--clear-groups"),
                *(exe, "-c", "import cryptography, pydantic, aa_review"),
            ],
            env=_env(Path("/nonexistent"), Path("/nonexistent")),
            capture_output=True,
            timeout=60,
        )
        if probe.returncode == 0:
            return [exe]
    return None


def _env(home: Path, data: Path) -> dict[str, str]:
    path = [str(REPO), *site.getsitepackages()]
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "AA_REVIEW_DATA_DIR": str(data),
        "PYTHONPATH": os.pathsep.join(path),
        "LC_ALL": "C.UTF-8",
    }


@pytest.fixture
def shared_root() -> Iterator[Path]:
    """A folder every test account can reach (pytest's tmp folder is root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="aa-review-group-"))
    os.chmod(base, 0o755)
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.skipif(
    os.name != "posix" or not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="a second account is made only as root",
)
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="setpriv is needed")
def test_three_accounts_of_a_group_take_turns_on_one_workspace(shared_root: Path) -> None:
    """Before, every file was 0600: after the second account acted, the first opened read-only."""
    python = _python_for_others()
    if python is None:
        pytest.skip("no interpreter the other accounts can run")
    homes = {}
    for name, uid in ACCOUNTS.items():
        home = shared_root / f"home-{name}"
        home.mkdir(mode=0o700)
        os.chown(home, uid, GROUP)
        homes[name] = home

    def account(name: str, umask: int, *code: str) -> subprocess.CompletedProcess[str]:
        argv = ["setpriv", f"--reuid={ACCOUNTS[name]}", f"--regid={GROUP}", "--clear-groups"]
        script = PRELUDE + textwrap.dedent("\n".join(code))
        return subprocess.run(
            [*argv, *python, "-c", script, f"{umask:o}", str(shared_root / "team" / "ws")],
            env=_env(homes[name], homes[name] / "aa-review"),
            capture_output=True,
            text=True,
            timeout=120,
        )

    # Each person makes their own key, in their own data folder.
    public = {}
    for name, pid in KEYS.items():
        made = account(
            name,
            0o022,
            f"""
            from aa_review.core.dossier import KeyStore
            print(json.dumps({{"public_key": KeyStore().create({pid!r}).public_key}}))
            """,
        )
        assert made.returncode == 0, made.stderr
        public[pid] = json.loads(made.stdout)["public_key"]
    # The team folder belongs to the group (setgid, so new files do too).
    team = shared_root / "team"
    team.mkdir()
    os.chown(team, ACCOUNTS["ada"], GROUP)
    os.chmod(team, 0o2770)
    # The others keep keys of this test's own store: held elsewhere for all three.
    registry = [
        {**p, "public_key": public.get(p["principal_id"], p.get("public_key"))}
        for p in keyed_principals()
    ]
    (shared_root / "inputs").mkdir(mode=0o755)
    (shared_root / "inputs" / "registry.json").write_text(json.dumps(registry))
    (shared_root / "inputs" / "archive.json").write_text(json.dumps(archive()))
    (shared_root / "inputs" / "dossier.json").write_text(json.dumps(passing()))
    for f in (shared_root / "inputs").iterdir():
        os.chmod(f, 0o644)
    inputs = str(shared_root / "inputs")

    def step(name: str, action: str) -> dict:
        done = account(
            name,
            0o002,
            f"""
            from aa_review.core.dossier import init_workspace_folder
            if {action!r} == "create":
                init_workspace_folder(folder, json.load(open({inputs!r} + "/registry.json")),
                                      json.load(open({inputs!r} + "/archive.json")))
            with Workspace.open_folder(folder, clock=clock) as ws:
                if {action!r} == "create":
                    ws.import_dossier(json.load(open({inputs!r} + "/dossier.json")), "p-lead-ada")
                    assert ws.bind({D!r}, 1, "p-lead-ada").outcome.value == "applied"
                elif {action!r} == "check":
                    assert ws.check({D!r}, 1, "p-eval-cy").outcome.value == "applied"
                elif {action!r} == "decide":
                    assert ws.decide_eligible({D!r}, 1, "p-maint-fay").outcome.value == "applied"
                    ws.project({D!r}, 1, "p-maint-fay")
                assert ws.verify_journal()["valid"]
                report(ws)
            """,
        )
        assert done.returncode == 0, f"{name} {action}: {done.stderr}"
        return json.loads(done.stdout.splitlines()[-1])

    assert step("ada", "create")["state"] == "evidence_bound"
    assert step("cy", "check") == {
        "read_only": False,
        "fault": None,
        "state": "independently_checked",
    }
    assert step("ada", "look") == {
        "read_only": False,
        "fault": None,
        "state": "independently_checked",
    }
    assert step("fay", "decide")["state"] == "eligible"
    assert step("cy", "look") == {"read_only": False, "fault": None, "state": "eligible"}
    assert step("ada", "look") == {"read_only": False, "fault": None, "state": "eligible"}
    # Files of the workspace are the group's; each person's key is in their folder alone.
    ws = team / "ws"
    for p in ws.rglob("*"):
        assert p.stat().st_gid == GROUP, p
    for name, pid in KEYS.items():
        held = sorted(k.name for k in (homes[name] / "aa-review" / "keys").iterdir())
        assert held == [f"{pid}.key"]
    assert KeyStore(homes["ada"] / "aa-review" / "keys").signer("p-eval-cy") is None
