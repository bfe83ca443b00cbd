"""``aa-review dossier revise``: from an expired revision, a new one (spec 7.3), headless."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dossier_builder import EVALUATOR, LEAD, Clock, archive, keyed_principals, passing

from aa_review.cli import main
from aa_review.core.dossier import Workspace, init_workspace_folder

D = "dos-7f3a9c"


def expired_workspace(tmp_path: Path) -> Path:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    clock = Clock()
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(passing(), LEAD)
        assert ws.bind(D, 1, LEAD).outcome.value == "applied"
        clock.advance(days=400)
        assert ws.expire_if_stale(D, 1, LEAD).outcome.value == "expired"
    return folder


def test_revise_creates_the_next_revision_and_refuses_what_it_may_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = expired_workspace(tmp_path)
    assert main(["dossier", "revise", str(folder), D, "1", "--as", EVALUATOR]) == 1
    assert "ACTOR_ROLE_NOT_PERMITTED" in capsys.readouterr().err
    assert main(["dossier", "revise", str(folder), D, "1", "--as", LEAD, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] == "applied_as_new_revision"
    assert result["state_after"] == {"1": "expired", "2": "draft"}
    with Workspace.open_folder(folder, clock=Clock()) as ws:  # verified on opening
        assert not ws.read_only and ws.revisions(D) == [1, 2]
        assert ws.revision(D, 2)["supersedes"]["revision"] == 1
    assert main(["dossier", "revise", str(folder), D, "1", "--as", LEAD]) == 1  # superseded
    assert "TRANSITION_ILLEGAL" in capsys.readouterr().err
    assert main(["dossier", "revise", str(folder), "dos-none", "1", "--as", LEAD]) == 2
    assert main(["dossier", "revise", str(tmp_path / "nowhere"), D, "1", "--as", LEAD]) == 2
