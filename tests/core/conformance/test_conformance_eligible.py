"""A dossier written from the spec, passing every gate, reaches ``eligible`` end to end.

The lower rungs are judged on their own effect scale and useful effect (6.6), which
differ from G1's total-SD scale and the preregistered minimum useful effect.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from spec_fixture import DECIDER, EVAL, LEAD, build
from test_conformance_lifecycle import D

from aa_review.core.dossier import GATE_IDS, Workspace, verify_journal

EXPERIMENTS = ("exp-r0", "exp-r1", "exp-r2", "exp-r6")


@pytest.mark.parametrize(
    ("scale", "useful"),
    [
        ("absolute_success_rate", 0.05),  # the fixture's own rungs
        ("log_odds", 0.4),  # smaller than G1's 0.7, in other units
        ("percentage_points", 5.0),  # a useful effect far above G1's
    ],
    ids=["success-rate", "log-odds", "percentage-points"],
)
def test_spec_dossier_reaches_eligible_through_the_workspace(
    make_ws: Callable[..., Workspace], scale: str, useful: float
) -> None:
    v = build(
        [
            ("ev", "lower_rungs.effect_scale", scale),
            ("ev", "lower_rungs.useful_effect", useful),
            *[("arc", f"experiments[{e}].useful_effect", useful) for e in EXPERIMENTS],
        ]
    )
    ev = v.dossier["evidence"]
    assert ev["lower_rungs"]["effect_scale"] != ev["target_behavior"]["effect_scale"]
    assert (
        ev["lower_rungs"]["useful_effect"]
        != ev["target_behavior"]["preregistered_minimum_useful_effect"]
    )
    assert "source_packages" not in ev  # nothing beyond the spec's eighteen sections

    ws = make_ws(v)
    ws.import_dossier(v.dossier)
    assert ws.bind(D, 1, LEAD).state_after == {"1": "evidence_bound"}
    checked = ws.check(D, 1, EVAL)
    assert checked.state_after == {"1": "independently_checked"}, {
        g: r.reason_codes for g, r in checked.check_record.gates.items() if r.reason_codes
    }
    assert checked.check_record.conclusions() == dict.fromkeys(GATE_IDS, "pass")
    decided = ws.decide_eligible(D, 1, DECIDER)
    assert (decided.outcome.value, decided.state_after) == ("applied", {"1": "eligible"})

    assert ws.revision(D, 1)["state"] == "eligible"
    assert verify_journal(ws.journal_entries(), ws.journal_head())["valid"] is True
    p = ws.project(D, 1)
    assert p["outcome"] == "eligible" and set(p["gates"].values()) == {"pass"}
