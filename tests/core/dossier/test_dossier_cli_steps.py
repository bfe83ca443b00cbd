"""Every dossier step headless: a team of separate data folders, one per person (spec 10.6, 11).

Each person has their own ``$AA_REVIEW_DATA_DIR`` (their key store and witness store)
and acts ``--as`` the one principal whose key they hold. Exit codes: 0 done, 1 refused
with the reason in words, 2 input that cannot be evaluated.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import journal_entries, journal_snapshot, revision_file

from aa_review.cli import main
from aa_review.core.dossier import KeyStore, verify_journal
from aa_review.demo._sample_archive import sample_archive
from aa_review.demo._sample_dossier import sample_dossier

D = "dos-7f3a9c"
ROLES = {
    "ada": ("p-lead-ada", "training_research_lead"),
    "cy": ("p-eval-cy", "independent_evaluator"),
    "fay": ("p-maint-fay", "human_maintainer"),
    "eve": ("p-maint-eve", "human_maintainer"),
}

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """``run(person, *argv) -> (code, out, err)`` with that person's own data folder."""

    def run(person: str, *argv: str) -> tuple[int, str, str]:
        monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "people" / person))
        capsys.readouterr()
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    archive = sample_archive()
    (tmp_path / "archive.json").write_text(json.dumps(archive))
    # Valid for years: the steps run at the system's time.
    dossier = sample_dossier(archive, expires_at="2099-12-31T00:00:00Z")
    (tmp_path / "dossier.json").write_text(json.dumps(dossier))
    return run


def records(run: Run, tmp_path: Path) -> dict[str, Path]:
    """Each person creates their key and hands over the printed line (a file here)."""
    out = {}
    for person, (pid, role) in ROLES.items():
        code, line, err = run(person, "keys", "create", pid, "--role", role)
        assert code == 0, err
        record = json.loads(line)
        assert list(record) == ["principal_id", "role", "kind", "public_key"]
        assert record["principal_id"] == pid and record["role"] == role
        assert record["kind"] == "human" and "private_key" not in line
        assert len(line.strip().splitlines()) == 1  # one line to paste
        out[person] = tmp_path / f"{person}.record.json"
        out[person].write_text(line)
    return out


def test_three_people_take_a_dossier_from_import_to_eligible_and_published(
    team: Run, tmp_path: Path
) -> None:
    rec = records(team, tmp_path)
    ws = tmp_path / "shared" / "ws"
    # The maintainer creates the workspace from the records handed to her.
    code, out, err = team(
        "fay",
        "dossier",
        "init",
        ws,
        "--archive",
        tmp_path / "archive.json",
        *("--record", rec["ada"], "--record", rec["cy"], "--record", rec["fay"]),
    )
    assert code == 0, err
    assert "keys on this machine: p-maint-fay" in out
    assert "held elsewhere: p-lead-ada, p-eval-cy" in out
    code, out, err = team(
        "ada", "dossier", "import", ws, tmp_path / "dossier.json", "--as", "p-lead-ada"
    )
    assert (code, out.splitlines()[0]) == (0, f"imported {D} revision 1: draft"), err
    # A person joins: the maintainer's signed registry change adds them.
    code, out, err = team(
        "fay",
        "dossier",
        "add-principal",
        ws,
        "--as",
        "p-maint-fay",
        "--record",
        rec["eve"].read_text(),
    )
    assert code == 0 and "added p-maint-eve (human_maintainer, human)" in out, err
    code, out, err = team("ada", "dossier", "bind", ws, D, "--as", "p-lead-ada")
    assert code == 0 and "revision 1: evidence_bound" in out, err
    code, out, err = team("cy", "dossier", "check", ws, D, "--as", "p-eval-cy")
    assert code == 0 and "revision 1: independently_checked" in out, err
    assert "all eleven gates pass" in out
    code, out, err = team("fay", "dossier", "decide", "eligible", ws, D, "--as", "p-maint-fay")
    assert code == 0 and "revision 1: eligible" in out, err
    code, out, err = team("fay", "dossier", "publish", ws, D, "--as", "p-maint-fay")
    assert code == 0, err
    projection = json.loads(out)
    assert projection["outcome"] == "eligible"
    assert (ws / "projections" / f"{projection['projection_id']}.json").is_file()

    # Anyone of the team reads the same status; only their own key is here.
    code, out, err = team("cy", "dossier", "status", ws, "--json")
    assert code == 0, err
    status = json.loads(out)
    assert status["read_only"] is False and status["read_only_reason"] is None
    assert status["one_machine"] is None  # a team: one key each
    assert status["journal"]["valid"] is True
    assert status["journal"]["head"]["seq"] == status["journal"]["entries"] - 1 == 5
    assert {p["principal_id"]: p["key"] for p in status["principals"]} == {
        "p-lead-ada": "held_elsewhere",
        "p-eval-cy": "here",
        "p-maint-fay": "held_elsewhere",
        "p-maint-eve": "held_elsewhere",
    }
    assert status["dossiers"] == [
        {
            "dossier_id": D,
            "revisions": [
                {
                    "revision": 1,
                    "state": "eligible",
                    "superseded": False,
                    "author": "p-lead-ada",
                    "bound_by": "p-lead-ada",
                    "checked_by": "p-eval-cy",
                }
            ],
        }
    ]
    who = [(e["who"], e["what"]) for e in status["history"]]
    assert who[0] == ("p-lead-ada", "imported the dossier as draft")
    assert ("p-maint-fay", "decided eligible") in who
    assert all(e["signature"] == "valid" for e in status["history"])

    # Three people, three keys: every key store holds its owner's key alone.
    for person, (pid, _) in ROLES.items():
        held = [p for p, _ in KeyStore(tmp_path / "people" / person / "keys").principals()]
        assert held == [pid]
    # And the journal's signers are the registry's distinct keys.
    entries = journal_entries(ws)
    registry = json.loads((ws / "principals.json").read_text())
    assert verify_journal(entries, principals=_versions(ws, registry))["valid"]
    keys = [p["public_key"] for p in registry["principals"]]
    assert len(set(keys)) == len(keys) == 4


def _versions(ws: Path, registry: dict[str, Any]) -> dict[str, Any]:
    from aa_review.core.dossier import json_digest

    out = {json_digest(registry["principals"]): registry["principals"]}
    for p in (ws / "registry").glob("*.json"):
        tree = json.loads(p.read_text())["principals"]
        out[json_digest(tree)] = tree
    return out


def _workspace(team: Run, tmp_path: Path, upto: str = "import") -> Path:
    rec = records(team, tmp_path)
    ws = tmp_path / "ws"
    argv = ["dossier", "init", ws, "--archive", tmp_path / "archive.json"]
    for person in ("ada", "cy", "fay", "eve"):
        argv += ["--record", str(rec[person])]
    assert team("fay", *argv)[0] == 0
    assert (
        team("ada", "dossier", "import", ws, tmp_path / "dossier.json", "--as", "p-lead-ada")[0]
        == 0
    )
    if upto in ("bind", "check"):
        assert team("ada", "dossier", "bind", ws, D, "--as", "p-lead-ada")[0] == 0
    if upto == "check":
        assert team("cy", "dossier", "check", ws, D, "--as", "p-eval-cy")[0] == 0
    return ws


def test_a_refusal_says_the_step_the_role_needed_and_the_role_held(
    team: Run, tmp_path: Path
) -> None:
    ws = _workspace(team, tmp_path, "bind")
    code, out, err = team("ada", "dossier", "check", ws, D, "--as", "p-lead-ada")
    assert code == 1 and out == ""
    assert "ACTOR_ROLE_NOT_PERMITTED" in err
    assert "needs role independent_evaluator" in err
    assert "p-lead-ada holds role training_research_lead" in err
    assert "Who could: p-eval-cy" in err
    # The evaluator's key is not in the lead's store: acting as them is refused, unjournaled.
    before = journal_snapshot(ws)
    code, _, err = team("ada", "dossier", "check", ws, D, "--as", "p-eval-cy")
    assert code == 1 and "ACTOR_KEY_UNAVAILABLE" in err
    assert "private key is not on this machine" in err
    assert journal_snapshot(ws) == before
    # Deciding before the check: the step is not possible from evidence_bound.
    code, _, err = team("fay", "dossier", "decide", "eligible", ws, D, "--as", "p-maint-fay")
    assert code == 1 and "TRANSITION_ILLEGAL" in err and "evidence_bound" in err


def test_defer_and_publish_deferred(team: Run, tmp_path: Path) -> None:
    ws = _workspace(team, tmp_path, "check")
    code, out, err = team("eve", "dossier", "decide", "deferred", ws, D, "--as", "p-maint-eve")
    assert code == 0 and "revision 1: deferred" in out, err
    out_file = tmp_path / "public.json"
    code, out, err = team(
        "eve", "dossier", "publish", ws, D, "--as", "p-maint-eve", "--out", out_file
    )
    assert code == 0, err
    assert json.loads(out_file.read_text()) == json.loads(out)
    assert json.loads(out)["outcome"] == "deferred"


def test_registry_refusals(team: Run, tmp_path: Path) -> None:
    rec = records(team, tmp_path)
    ada = json.loads(rec["ada"].read_text())
    twin = {**ada, "principal_id": "p-lead-twin"}
    # Two principals with one key: the workspace is not created.
    code, _, err = team(
        "fay", "dossier", "init", tmp_path / "ws", "--archive", tmp_path / "archive.json",
        "--record", rec["ada"], "--record", json.dumps(twin),
    )  # fmt: skip
    assert code == 1 and "share one public key" in err
    assert not (tmp_path / "ws").exists()
    argv = ["dossier", "init", tmp_path / "ws", "--archive", tmp_path / "archive.json"]
    assert team("fay", *argv, "--record", rec["ada"], "--record", rec["fay"])[0] == 0
    folder = tmp_path / "ws"
    # Adding someone with another principal's key is refused; nothing is journaled.
    code, _, err = team(
        "fay",
        "dossier",
        "add-principal",
        folder,
        "--as",
        "p-maint-fay",
        "--record",
        json.dumps(twin),
    )
    assert code == 1 and "share one public key" in err
    assert journal_snapshot(folder) == b""
    # Only a human maintainer with a key here adds a person.
    code, _, err = team(
        "ada", "dossier", "add-principal", folder, "--as", "p-lead-ada", "--record", rec["cy"]
    )
    assert code == 1 and "not a human maintainer" in err
    code, _, err = team(
        "ada", "dossier", "add-principal", folder, "--as", "p-maint-fay", "--record", rec["cy"]
    )
    assert code == 1 and "not on this machine" in err
    # An id already there is not replaced by add-principal.
    code, _, err = team(
        "fay", "dossier", "add-principal", folder, "--as", "p-maint-fay", "--record", rec["ada"]
    )
    assert code == 1 and "in the registry already" in err
    # A folder that is a workspace already is not overwritten.
    code, _, err = team("fay", *argv, "--record", rec["cy"])
    assert code == 1 and "is a workspace already" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["dossier", "bind", "{missing}", D, "--as", "p-lead-ada"],
        ["dossier", "bind", "{ws}", "dos-nope", "--as", "p-lead-ada"],
        ["dossier", "bind", "{ws}", D, "--revision", "7", "--as", "p-lead-ada"],
        ["dossier", "import", "{ws}", "{bad}", "--as", "p-lead-ada"],
        ["dossier", "import", "{ws}", "{missing}", "--as", "p-lead-ada"],
        [
            "dossier",
            "add-principal",
            "{ws}",
            "--as",
            "p-maint-fay",
            "--record",
            '{"principal_id": "x"}',
        ],
        ["dossier", "check", "{ws}", D],
        ["dossier", "check", "{dossier}", D, "--as", "p-eval-cy"],  # a file is no workspace
        ["dossier", "check", "{dossier}"],  # a file needs --archive
        ["dossier", "status", "{missing}"],
    ],
)
def test_input_that_cannot_be_evaluated_exits_2(team: Run, tmp_path: Path, argv: list[str]) -> None:
    ws = _workspace(team, tmp_path)
    (tmp_path / "bad.json").write_text("{not json")
    names = {
        "ws": ws,
        "missing": tmp_path / "missing",
        "bad": tmp_path / "bad.json",
        "dossier": tmp_path / "dossier.json",
    }
    tokens = {"{" + k + "}": v for k, v in names.items()}
    code, out, err = team("fay", *[tokens.get(a, a) for a in argv])
    assert code == 2, (out, err)
    assert err.strip()


def test_a_read_only_workspace_exits_2_and_status_says_why(team: Run, tmp_path: Path) -> None:
    ws = _workspace(team, tmp_path, "bind")
    rev = revision_file(ws, D, 1)
    tree = json.loads(rev.read_text())
    tree["state"] = "eligible"  # a revision file edited by hand
    rev.write_text(json.dumps(tree))
    code, _, err = team("cy", "dossier", "check", ws, D, "--as", "p-eval-cy")
    assert code == 2 and "read-only" in err
    code, out, _ = team("cy", "dossier", "status", ws, "--json")
    assert code == 0
    status = json.loads(out)
    assert status["read_only"] is True and status["read_only_reason"]
    code, out, _ = team("cy", "dossier", "status", ws)
    assert code == 0 and out.startswith("READ-ONLY: ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("name", ["principals.json", "archive.json"])
def test_an_unsafe_workspace_file_makes_status_say_why_and_steps_exit_2(
    team: Run, tmp_path: Path, name: str
) -> None:
    # 10.5: such a file makes the workspace open read-only with its reason.
    ws = _workspace(team, tmp_path, "bind")
    (ws / name).unlink()
    os.mkfifo(ws / name)
    code, out, err = team("cy", "dossier", "status", ws)
    assert code == 0, err
    assert out.startswith(f"READ-ONLY: WORKSPACE_FILE_UNSAFE: {name}"), out
    assert f"{D} revision 1: evidence_bound" in out  # the verified journal, shown
    code, _, err = team("cy", "dossier", "check", ws, D, "--as", "p-eval-cy")
    assert code == 2 and "read-only" in err and name in err


def test_keys_create_warns_when_a_store_would_hold_several_people(team: Run) -> None:
    assert team("ada", "keys", "create", "p-lead-ada", "--role", "training_research_lead")[0] == 0
    code, out, err = team("ada", "keys", "create", "p-eval-cy", "--role", "independent_evaluator")
    assert code == 0 and "also holds the keys of p-lead-ada" in err
    code, shown, _ = team("ada", "keys", "show", "p-eval-cy")
    assert code == 0 and json.loads(shown) == json.loads(out)


def test_the_demo_workspace_says_it_is_several_people_on_one_machine(
    team: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aa_review.demo import ensure_sample

    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "people" / "solo"))
    demo = ensure_sample(tmp_path / "demo")
    code, out, _ = team("solo", "dossier", "status", demo / "dossier_workspace", "--json")
    assert code == 0
    note = json.loads(out)["one_machine"]
    assert "a demo of several people on one machine" in note
    assert "training_research_lead, independent_evaluator, human_maintainer" in note


def test_a_refused_import_names_path_rule_and_remedy_and_changes_nothing(
    team: Run, tmp_path: Path
) -> None:
    # Spec 15: "Import ... refuses, naming the JSON path ... A refusal writes nothing to the
    # journal and changes no state."
    rec = records(team, tmp_path)
    ws = tmp_path / "ws"
    code, _, err = team(
        "fay",
        "dossier",
        "init",
        ws,
        "--archive",
        tmp_path / "archive.json",
        *("--record", rec["ada"], "--record", rec["cy"], "--record", rec["fay"]),
    )
    assert code == 0, err
    bad = json.loads((tmp_path / "dossier.json").read_text())
    bad["spec_revision"] = 1.0
    bad["evidence"]["coverage"]["stage6"]["can_evaluate_training_search"] = "true"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    _, before, _ = team("ada", "dossier", "status", ws, "--json")
    code, _, err = team("ada", "dossier", "import", ws, tmp_path / "bad.json", "--as", "p-lead-ada")
    assert code == 2
    assert "nothing was imported or journaled" in err
    assert "spec_revision:" in err and "evidence.coverage.stage6" in err
    assert "READINESS_DOSSIER.md 15" in err and "to fix: write the JSON boolean true" in err
    _, after, _ = team("ada", "dossier", "status", ws, "--json")
    assert json.loads(after) == json.loads(before)
