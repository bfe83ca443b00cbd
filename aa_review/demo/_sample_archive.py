"""Synthetic principals and archive metadata of the demo workspace and the golden test data."""

from __future__ import annotations

import hashlib
from typing import Any

__all__ = ["POOL", "SAMPLE_PRINCIPALS", "h", "sample_archive"]

LEAD, LEAD2 = "p-lead-ada", "p-lead-bo"
EVALUATOR, EVALUATOR2 = "p-eval-cy", "p-eval-dee"
SIGNER, DECIDER = "p-maint-eve", "p-maint-fay"
AGENT_MAINTAINER, AGENT, REDUCER_ID = "p-maint-bot", "p-agent-gus", "p-reducer-hal"

SAMPLE_PRINCIPALS: list[dict[str, str]] = [
    {"principal_id": LEAD, "role": "training_research_lead", "kind": "human"},
    {"principal_id": LEAD2, "role": "training_research_lead", "kind": "human"},
    {"principal_id": EVALUATOR, "role": "independent_evaluator", "kind": "human"},
    {"principal_id": EVALUATOR2, "role": "independent_evaluator", "kind": "human"},
    {"principal_id": SIGNER, "role": "human_maintainer", "kind": "human"},
    {"principal_id": DECIDER, "role": "human_maintainer", "kind": "human"},
    {"principal_id": AGENT_MAINTAINER, "role": "human_maintainer", "kind": "agent"},
    {"principal_id": AGENT, "role": "agent", "kind": "agent"},
    {"principal_id": REDUCER_ID, "role": "system_reducer", "kind": "agent"},
]


def h(label: str) -> str:
    """A stand-in digest: ``sha256:`` of a label (reports and manifests are not real files)."""
    return "sha256:" + hashlib.sha256(label.encode()).hexdigest()


POOL = [f"pool-{i:02d}" for i in range(28)]


def _group(
    gid: str, epoch: str, split: str, label: str, src: list[str], tpl: list[str]
) -> dict[str, Any]:
    return {
        "group_id": gid,
        "epoch_id": epoch,
        "split": split,
        "family_label": label,
        "source_ids": src,
        "template_ids": tpl,
    }


def sample_archive() -> dict[str, Any]:
    """Archive metadata: a hidden confirmatory pool of 28 groups, development and training
    groups, a calibration group, three epochs and the experiments behind the rungs.
    """
    groups = [
        _group(
            g,
            "ep-2026",
            "confirmatory_hidden",
            f"fam-pool-{i}",
            [f"src-pool-{i}"],
            ["tpl-pool-shared" if i < 2 else f"tpl-pool-{i}"],
        )
        for i, g in enumerate(POOL)
    ]
    groups += [
        _group("dev-a", "ep-2025a", "development", "fam-a", ["src-a"], ["tpl-a"]),
        _group("dev-b", "ep-2025a", "development", "fam-b", ["src-b"], ["tpl-b"]),
        _group("dev-c", "ep-2025b", "development", "fam-c", ["src-c"], ["tpl-c"]),
        _group("dev-c2", "ep-2025b", "development", "fam-c-prime", ["src-c2"], ["tpl-c"]),
        _group("dev-d", "ep-2025b", "development", "fam-d", ["src-d"], ["tpl-d"]),
        _group("train-1", "ep-2025a", "development", "fam-t1", ["src-t1"], ["tpl-t1"]),
        _group("train-2", "ep-2025b", "development", "fam-t2", ["src-t2"], ["tpl-t2"]),
        _group("cal-1", "ep-2025b", "calibration", "fam-cal", ["src-cal"], ["tpl-cal"]),
        _group("train-leak", "ep-2025b", "development", "fam-leak", ["src-pool-5"], ["tpl-leak"]),
    ]
    items = [{"item_id": f"item-{g}", "group_id": g} for g in POOL[:3]]
    items += [
        {"item_id": "item-t1-a", "group_id": "train-1"},
        {"item_id": "item-t1-b", "group_id": "train-1"},
        {"item_id": "item-t2-a", "group_id": "train-2"},
        {"item_id": "item-exploit", "group_id": "train-2"},
        {"item_id": "item-cal-1", "group_id": "cal-1"},
        {"item_id": "item-leak", "group_id": "train-leak"},
    ]
    epochs = [
        {
            "epoch_id": "ep-2025a",
            "status": "closed",
            "sealed": True,
            "manifest_digest": h("ep-2025a"),
            "preregistered_configurations": ["cfg-a1", "cfg-a2", "cfg-b1"],
        },
        {
            "epoch_id": "ep-2025b",
            "status": "closed",
            "sealed": True,
            "manifest_digest": h("ep-2025b"),
            "preregistered_configurations": ["cfg-a1", "cfg-b1"],
        },
        {
            "epoch_id": "ep-2026",
            "status": "active",
            "sealed": True,
            "manifest_digest": h("ep-2026"),
            "preregistered_configurations": ["cfg-a1", "cfg-b1"],
        },
        {
            "epoch_id": "ep-draft",
            "status": "draft",
            "sealed": False,
            "manifest_digest": h("ep-d"),
            "preregistered_configurations": ["cfg-a1"],
        },
    ]
    configs = [
        {
            "config_id": "cfg-a1",
            "model_family": "fam-alpha",
            "model_id": "alpha-7b",
            "executor_id": "exec-1",
            "settings": {"temperature": 0.0},
        },
        {
            "config_id": "cfg-a2",
            "model_family": "fam-alpha",
            "model_id": "alpha-7b",
            "executor_id": "exec-1",
            "settings": {"temperature": 0.7},
        },
        {
            "config_id": "cfg-b1",
            "model_family": "fam-beta",
            "model_id": "beta-13b",
            "executor_id": "exec-2",
            "settings": {"temperature": 0.0},
        },
    ]

    def obs(oid: str, g: str, ep: str, cfg: str, status: str = "confirmed") -> dict[str, Any]:
        return {
            "observation_id": oid,
            "mechanism_id": "mech-ctx-drop",
            "group_id": g,
            "epoch_id": ep,
            "config_id": cfg,
            "causal_status": status,
        }

    observations = [
        obs("obs-1", "dev-a", "ep-2025a", "cfg-a1"),
        obs("obs-2", "dev-b", "ep-2025a", "cfg-a2"),
        obs("obs-3", "dev-c", "ep-2025b", "cfg-b1"),
        obs("obs-4", "dev-d", "ep-2025b", "cfg-a1"),
        obs("obs-5", "dev-c2", "ep-2025b", "cfg-a1"),
        obs("obs-suspected", "dev-a", "ep-2025b", "cfg-b1", "suspected"),
        obs("obs-final", "pool-03", "ep-2026", "cfg-b1"),
    ]

    def exp(
        eid: str,
        rung: int,
        kind: str = "confirmatory",
        est: float = 0.1,
        se: float = 0.1,
        df: int | str = 30,
        epoch: str = "ep-2025b",
    ) -> dict[str, Any]:
        return {
            "experiment_id": eid,
            "rung": rung,
            "kind": kind,
            "preregistered": True,
            "sealed": True,
            "epoch_id": epoch,
            "useful_effect": 0.7,
            "estimate": est,
            "standard_error": se,
            "df": df,
        }

    experiments = [
        exp("exp-r0", 0),
        exp("exp-r1", 1, est=0.05, se=0.08, df=60),
        exp("exp-r2", 2, est=0.12, se=0.09, df="inf"),
        exp("exp-r6", 6, est=0.0),
        exp("exp-explore-2", 2, kind="exploratory"),
        exp("exp-r2-final", 2, epoch="ep-2026"),
    ]
    return {
        "archive_snapshot_id": "snap-2026-02-20",
        "groups": groups,
        "items": items,
        "epochs": epochs,
        "configurations": configs,
        "failure_observations": observations,
        "experiments": experiments,
        "exposure_ledger": [
            {"epoch_id": "ep-2025a", "execution_looks": 3, "disclosure_looks": 1},
            {"epoch_id": "ep-2026", "execution_looks": 0, "disclosure_looks": 0},
        ],
        "feedback_atoms": [
            {
                "atom_id": "atom-1",
                "confirmed_effect_scope": "skill",
                "classification": "style_correction",
                "verbatim_ref": "feedback/atom-1.txt",
            },
            {
                "atom_id": "atom-2",
                "confirmed_effect_scope": "artifact",
                "classification": "factual_fix",
                "verbatim_ref": "feedback/atom-2.txt",
            },
        ],
        "exploit_traces": [
            {
                "trace_id": "trace-1",
                "epoch_id": "ep-2025a",
                "current_epoch": False,
                "item_ids": ["item-exploit"],
            }
        ],
    }
