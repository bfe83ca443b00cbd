"""The spec-written dossier (:mod:`spec_shapes`) with the values the spec derives, and edits.

Every digest, claimed power and claimed bound is derived with the formulas of the
spec (1.3 canonical digests, 2.2 review digest, 2.4 evidence link, 6.2 analytic
power of the reference model, 6.6 one-sided bounds), so that the conformance suite
checks the code against the spec and not against itself.

Edits name a place and a value: ``("ev", "coverage.stages.4.decision", "insufficient")``.
Places: ``ev`` (inside ``evidence``), ``doc`` (the dossier root), ``arc`` (the
archive) — applied before the spec's derived values are recomputed; ``ev!`` —
applied after the values derived inside the evidence (to break one of them) but
before the amendment authorization is linked to the final evidence; ``ev!!`` and
``doc!`` — applied last, after that link too. A path step ``name[id]`` selects
the list element whose ``*_id`` (or ``rung``/``stage``) equals ``id``.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scipy import stats
from spec_shapes import (  # re-exported: the tests import everything from here
    AGENT,
    AGENT_MAINT,
    CANDIDATE,
    DECIDER,
    EVAL,
    EVAL2,
    FINAL_EVAL,
    LEAD,
    LEAD2,
    MAINT,
    NOW,
    POOL,
    PROVIDER,
    SEARCH,
    TOPICS,
    TRAINING,
    archive,
    dossier,
    evidence,
    label_digest,
    principals,
    spec_digest,
)

__all__ = [
    "AGENT",
    "AGENT_MAINT",
    "CANDIDATE",
    "DECIDER",
    "DELETE",
    "EVAL",
    "EVAL2",
    "FINAL_EVAL",
    "LEAD",
    "LEAD2",
    "MAINT",
    "NOW",
    "POOL",
    "PROVIDER",
    "SEARCH",
    "TOPICS",
    "TRAINING",
    "Edit",
    "Variant",
    "analytic_power",
    "archive",
    "base",
    "build",
    "dossier",
    "evidence",
    "label_digest",
    "one_sided_bound",
    "principals",
    "spec_digest",
]

DELETE = object()  # as an edit value: remove the key (or list element)
Edit = tuple[str, str, Any]


# -- the spec's derived values ---------------------------------------------------------------
def analytic_power(
    delta: float, k: int, m: int, icc: float, alpha: float, alternative: str
) -> float:
    """Spec 6.2, last paragraph: ``ncp = sqrt(k m / (2 DEFF)) delta``, ``df = 2(k - 1)``."""
    deff = 1 + (m - 1) * icc
    ncp = math.sqrt(k * m / (2 * deff)) * delta
    df = 2 * (k - 1)
    level = alpha if alternative == "greater" else alpha / 2
    return float(stats.nct.sf(stats.t.ppf(1 - level, df), df, ncp))


def one_sided_bound(estimate: float, se: float, df: int | str, alpha: float, k: int) -> float:
    """Spec 6.6: ``estimate + t_df(1 - alpha / K*) * SE`` (normal quantile for ``"inf"``)."""
    level = 1 - alpha / k
    q = stats.norm.ppf(level) if df == "inf" else stats.t.ppf(level, df)
    return float(estimate + q * se)


def _claims(ev: dict[str, Any]) -> None:
    """Claimed powers of a plan without attrition or missingness (6.2's analytic form)."""
    pa = ev.get("power_analysis")
    tb = ev.get("target_behavior") or {}
    try:
        p = pa["parameters"]
        k_hyp = len(p["comparison_family"]["hypotheses"])
        alpha = (
            p["alpha"] / k_hyp if p["multiplicity_method"] in ("holm", "bonferroni") else p["alpha"]
        )
        if (
            p["cluster_attrition"]
            or p["missingness"]["rate"]
            or p["sensitivity_range"]["cluster_attrition"][1]
            or p["sensitivity_range"]["missing_rate"][1]
        ):
            return
        # 6.4: delta is the preregistered effect (the plan's own when that is absent).
        delta = tb.get("preregistered_minimum_useful_effect", p["minimum_useful_effect"])
        args = (delta, p["clusters_per_arm"], p["cluster_size"])
        base = analytic_power(*args, p["icc"], alpha, p["alternative"])
        worst = analytic_power(*args, p["sensitivity_range"]["icc"][1], alpha, p["alternative"])
    except (KeyError, TypeError, IndexError, ValueError, ZeroDivisionError):
        return  # an incomplete or invalid plan keeps whatever it claims
    if not (math.isfinite(base) and math.isfinite(worst)):
        return
    claimed = pa.get("claimed")
    for key, value in (("power_base", base), ("power_worst_case", worst)):
        if isinstance(claimed, dict) and key in claimed:  # a deleted claim stays deleted
            claimed[key] = round(value, 4)


def _bounds(ev: dict[str, Any], arc: dict[str, Any]) -> None:
    lr = ev.get("lower_rungs")
    if not isinstance(lr, dict) or not isinstance(lr.get("rungs"), list):
        return
    experiments = {e.get("experiment_id"): e for e in arc.get("experiments") or []}
    entries = [
        r
        for r in lr["rungs"]
        if isinstance(r, dict) and r.get("basis") == "confirmatory_experiment"
    ]
    try:
        k_star = max(lr["family_size"], len(entries), 1)
        for entry in entries:
            e = experiments.get(entry["experiment"]["experiment_id"])
            if e is not None and "claimed_upper_bound" in entry["experiment"]:
                entry["experiment"]["claimed_upper_bound"] = round(
                    one_sided_bound(
                        e["estimate"], e["standard_error"], e["df"], lr["family_alpha"], k_star
                    ),
                    6,
                )
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return


def seal(tree: dict[str, Any], arc: dict[str, Any]) -> None:
    """Recompute every value the spec derives from other fields, in dependency order."""
    seal_evidence(tree, arc)
    link_authorization(tree)


def seal_evidence(tree: dict[str, Any], arc: dict[str, Any]) -> None:
    """Claims, bounds, the power inputs digests and the review digest (2.2, 6.2, 6.3, 6.6)."""
    ev = tree["evidence"]
    _claims(ev)
    _bounds(ev, arc)
    pa = ev.get("power_analysis")
    if isinstance(pa, dict) and "parameters" in pa:
        d = spec_digest(pa["parameters"])  # 6.3
        for key, field in (
            ("simulation", "inputs_digest"),
            ("preregistration", "sealed_inputs_digest"),
        ):
            if isinstance(pa.get(key), dict) and field in pa[key]:
                pa[key][field] = d
    f = ev.get("feasibility")
    if (
        isinstance(f, dict)
        and isinstance(f.get("human_review"), dict)
        and "reviewed_digest" in f["human_review"]
    ):
        f["human_review"]["reviewed_digest"] = spec_digest(  # 2.2
            {
                "source_corpus_report": f.get("source_corpus_report"),
                "dataset_feasibility_report": f.get("dataset_feasibility_report"),
            }
        )


def link_authorization(tree: dict[str, Any]) -> None:
    """2.4 / G8: the authorization names the digest of the final evidence."""
    auth = tree.get("authorization")
    if isinstance(auth, dict) and "evidence_digest" in auth:
        auth["evidence_digest"] = spec_digest(tree["evidence"])


# -- edits -------------------------------------------------------------------------------------
_STEP = re.compile(r"^(?P<name>[^\[\]]+)(?:\[(?P<sel>[^\]]+)\])?$")


def _select(items: list[Any], sel: str) -> int:
    for i, item in enumerate(items):
        if isinstance(item, dict) and any(
            str(v) == sel for k, v in item.items() if k.endswith("_id") or k in ("rung", "stage")
        ):
            return i
    raise KeyError(sel)


def _set(tree: Any, path: str, value: Any) -> None:
    """Set (or with :data:`DELETE` remove) the place ``path`` names."""
    parent: Any = None
    key: Any = None
    node: Any = tree
    for step in path.split("."):
        m = _STEP.match(step)
        assert m is not None, step
        if parent is not None:
            node = parent[key]  # descend only once a deeper step follows
        parent, key = node, int(m["name"]) if isinstance(node, list) else m["name"]
        if m["sel"] is not None:
            parent, key = parent[key], _select(parent[key], m["sel"])
    if value is DELETE:
        del parent[key]
    else:
        parent[key] = copy.deepcopy(value)


@dataclass(frozen=True)
class Variant:
    """One dossier with its archive and registry."""

    dossier: dict[str, Any]
    archive: dict[str, Any]
    principals: list[dict[str, str]]


def build(
    edits: Iterable[Edit] = (),
    *,
    tree: dict[str, Any] | None = None,
    arc: dict[str, Any] | None = None,
) -> Variant:
    """The base (or given) dossier and archive with ``edits`` applied, then sealed."""
    d = copy.deepcopy(tree) if tree is not None else dossier()
    a = copy.deepcopy(arc) if arc is not None else archive()
    seal(d, a)  # the base values stand wherever an edit leaves nothing to recompute from
    phases: dict[str, list[Edit]] = {"": [], "!": [], "!!": []}
    for where, path, value in edits:
        place = where.rstrip("!")
        phase = where[len(place) :]
        if place == "doc" and phase == "!":
            phase = "!!"  # nothing at the root is derived from the evidence but the link
        phases[phase].append((place, path, value))
    for edit in phases[""]:
        _apply(d, a, *edit)
    seal_evidence(d, a)
    for edit in phases["!"]:
        _apply(d, a, *edit)
    link_authorization(d)
    for edit in phases["!!"]:
        _apply(d, a, *edit)
    return Variant(d, a, principals())


def _apply(d: dict[str, Any], a: dict[str, Any], where: str, path: str, value: Any) -> None:
    target = {"ev": d["evidence"], "doc": d, "arc": a}[where]
    _set(target, path, value)


def base() -> Variant:
    """The passing dossier."""
    return build()
