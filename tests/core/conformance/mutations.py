"""Mutants of the spec-written dossier and archive, and the invariants every verdict keeps.

The base is the passing dossier of :mod:`spec_fixture` as a file in ``evidence_bound``
(with the Binding of 2.3), its archive and registry. A :class:`Mutation` is one to
three edits of the dossier or the archive. :func:`materialize` applies them and then
re-seals what the edits would otherwise break by accident (claims, bounds, the G1
inputs and sealed digests, the G2 review digest, the G8 evidence link, the binding's
evidence and section digests), always with the spec's formulas and never over an
edited place, so that only the semantic change remains.

* :func:`field_mutations` walks every field (every key and list element) of the
  dossier and of the archive: deleted, set null, emptied (``{}``, ``""``, ``[]``, an
  object of nulls) and retyped (a wrong JSON type). With ``representative=True`` it
  keeps one mutation per field *shape* (the first element of a list of like records
  stands for the others), the fixed budget of the test run.
* :func:`random_mutation` makes one to three semantic edits (out-of-domain numbers,
  swapped ids, changed roles, dates, splits, licenses, scopes, budgets, families,
  power parameters).
* :func:`run_mutation` runs a mutant through the headless ``Workspace`` (section 11):
  import, bind when imported as a draft, independent check, a decision, the public
  projection and journal verification; :func:`violations` judges the outcome against
  the invariants of :data:`INVARIANTS`.

Used by ``tests/core/conformance/test_conformance_mutations.py`` and by the long
campaign ``./dev fuzz dossier``.
"""

from __future__ import annotations

import copy
import math
import os
import random
import re
import shutil
import tempfile
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from spec_fixture import (
    DECIDER,
    DELETE,
    EVAL,
    EVAL2,
    LEAD,
    LEAD2,
    MAINT,
    NOW,
    POOL,
    TRAINING,
    Variant,
    build,
    seal_evidence,
    spec_digest,
)

__all__ = [
    "INVARIANTS",
    "Change",
    "KINDS",
    "REQUIRED",
    "Mutation",
    "Outcome",
    "base_variant",
    "field_mutations",
    "is_absent",
    "named_codes",
    "need_of",
    "materialize",
    "random_mutation",
    "run_mutation",
    "scratch_parent",
    "violations",
]

ROOT = Path(__file__).resolve().parents[3]
# 2.3: the eighteen section names of 2.2.
SECTIONS = (
    "target_behavior",
    "evidence_cutoff",
    "epochs",
    "coverage",
    "recurrence",
    "effective_sample",
    "power_analysis",
    "lower_rungs",
    "feasibility",
    "decisions",
    "dataset_plan",
    "reward_plan",
    "license",
    "independence_plan",
    "budgets",
    "rollback_requirements",
    "cost_envelope",
    "expiry",
)
GATES = tuple(f"G{i}" for i in range(1, 12))
KINDS = ("delete", "null", "empty", "nulls", "retype", "random")
ABSENT_KINDS = frozenset({"delete", "null", "empty", "nulls"})
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Change:
    """One edit: ``place`` ``"doc"`` (the dossier file) or ``"arc"`` (the archive)."""

    place: str
    path: Path_
    value: Any  # DELETE removes the key or list element

    @property
    def dotted(self) -> str:
        return ".".join(str(p) for p in self.path)

    @property
    def pattern(self) -> str:
        """The path with list indices as ``*``: the field's shape."""
        return ".".join("*" if isinstance(p, int) else p for p in self.path)

    @property
    def shape(self) -> str:
        """The pattern with the keys of like-keyed objects as ``*`` too (one budget, one
        dimension, one topic stands for the others in the representative walk)."""
        out: list[str] = []
        for p in self.path:
            like = isinstance(p, str) and _matches(".".join(out), LIKE_KEYED)
            out.append("*" if isinstance(p, int) or like else p)
        return ".".join(out)

    def __str__(self) -> str:
        shown = "<deleted>" if self.value is DELETE else _short(self.value)
        return f"{self.place}:{self.dotted} = {shown}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class Mutation:
    """A mutant: its kind (one of :data:`KINDS`) and one to three changes."""

    kind: str
    changes: tuple[Change, ...]
    note: str = ""

    def __str__(self) -> str:
        return f"[{self.kind}{' ' + self.note if self.note else ''}] " + "; ".join(
            map(str, self.changes)
        )


# -- the base --------------------------------------------------------------------------------
def _bind(tree: dict[str, Any]) -> None:
    """2.3: the binding's digests over the evidence as it now stands (edits re-applied after)."""
    b = tree.get("binding")
    if not isinstance(b, dict):
        return
    ev = tree.get("evidence")
    if "evidence_digest" in b:
        b["evidence_digest"] = spec_digest(ev)
    if isinstance(b.get("section_digests"), dict):
        get = ev.get if isinstance(ev, dict) else (lambda _s: None)
        for s in list(b["section_digests"]):
            b["section_digests"][s] = spec_digest(get(s))


def base_variant() -> Variant:
    """The passing dossier as an ``evidence_bound`` file with its binding (2.3, 7.2 import)."""
    v = build()
    tree = v.dossier
    tree["state"] = "evidence_bound"
    tree["binding"] = {
        "evidence_digest": None,
        "section_digests": dict.fromkeys(SECTIONS),
        "bound_by": LEAD2,
        "bound_at": "2026-12-07T00:00:00Z",
    }
    _bind(tree)
    return v


_BASE: Variant | None = None


def _base() -> Variant:
    global _BASE
    if _BASE is None:
        _BASE = base_variant()
    return _BASE


# -- applying and re-sealing ------------------------------------------------------------------
def _parent(tree: Any, path: Path_) -> tuple[Any, str | int] | None:
    node = tree
    for step in path[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    last = path[-1]
    if isinstance(node, dict) and isinstance(last, str):
        return node, last
    if isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node):
        return node, last
    return None


def _apply(trees: dict[str, Any], c: Change, *, deletes: bool) -> None:
    found = _parent(trees[c.place], c.path)
    if found is None:
        return
    parent, key = found
    if c.value is DELETE:
        if deletes and (isinstance(parent, list) or key in parent):
            del parent[key]  # type: ignore[arg-type]
    else:
        parent[key] = copy.deepcopy(c.value)  # type: ignore[index]


def _reseal_power_absent(tree: dict[str, Any]) -> None:
    """6.3 with ``parameters`` absent: the author seals ``digest(null)``, not the old digest."""
    ev = tree.get("evidence")
    pa = ev.get("power_analysis") if isinstance(ev, dict) else None
    if isinstance(pa, dict) and "parameters" not in pa:
        for key, fld in (
            ("simulation", "inputs_digest"),
            ("preregistration", "sealed_inputs_digest"),
        ):
            if isinstance(pa.get(key), dict) and fld in pa[key]:
                pa[key][fld] = spec_digest(None)


def _finite(node: Any) -> None:
    """A derived value that came out infinite (a bound at ``family_alpha = 0``) cannot be
    written in JSON (1.3): the author has nothing to write, so it is null."""
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for k, v in list(items):
        if isinstance(v, float) and not math.isfinite(v):
            node[k] = None
        else:
            _finite(v)


def materialize(m: Mutation) -> Variant:
    """The base with ``m`` applied and every derived value re-sealed around the edits.

    Each re-sealing step may overwrite an edited place (a claim, a digest); the edits
    that set a value are applied again after each step (setting is idempotent), a
    deletion only once (a deleted key stays deleted: the seals only fill keys present).
    """
    b = _base()
    d, a = copy.deepcopy(b.dossier), copy.deepcopy(b.archive)
    trees = {"doc": d, "arc": a}
    for c in m.changes:
        _apply(trees, c, deletes=True)

    def again() -> None:
        for c in m.changes:
            _apply(trees, c, deletes=False)

    if isinstance(d.get("evidence"), dict) and isinstance(a, dict):
        try:
            seal_evidence(d, a)
        except (KeyError, TypeError, AttributeError, ValueError):
            pass  # a shape the fixture's seal cannot read keeps its values
        _reseal_power_absent(d)
        _finite(d)
        again()
    auth = d.get("authorization")
    if isinstance(auth, dict) and "evidence_digest" in auth:  # 2.4 / G8
        auth["evidence_digest"] = spec_digest(d.get("evidence"))
    again()
    _bind(d)
    again()
    return Variant(d, a, b.principals)


# -- the per-field walk ------------------------------------------------------------------------
def _walk(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*path, k), v
            yield from _walk(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield (*path, i), v
            yield from _walk(v, (*path, i))


# Fields typed ``number`` (2.2, 2.6) whose base value happens to be written as an integer:
# a float there is no wrong type.
NUMBER_FIELDS = (
    "evidence.budgets.*.amount",
    "evidence.cost_envelope.dimensions.*.worst_case",
    "evidence.cost_envelope.dimensions.*.ceiling",
    "evidence.lower_rungs.rungs.*.record.projected_cost",
    "evidence.lower_rungs.rungs.*.record.cost_ceiling",
)
# Objects whose keys name like records (five budgets, six dimensions, seven topics...): in
# the representative walk one key stands for the others.
LIKE_KEYED = (
    "binding.section_digests",
    "evidence.budgets",
    "evidence.cost_envelope.dimensions",
    "evidence.feasibility.*.topics",
    "evidence.rollback_requirements",
    "evidence.power_analysis.parameters.sensitivity_range",
    "evidence.power_analysis.claimed",
    "evidence.license.intended_use",
)
# Free-form objects of the shapes (``settings: {...}``): any value is of the right type.
FREE_FIELDS = ("configurations.*.settings.*",)


def _glob(pattern: str, glob: str) -> bool:
    """``glob`` matches ``pattern`` segment by segment (``*`` never crosses a dot)."""
    a, b = pattern.split("."), glob.split(".")
    return len(a) == len(b) and all(fnmatchcase(x, y) for x, y in zip(a, b, strict=True))


def _matches(pattern: str, patterns: tuple[str, ...]) -> bool:
    return any(_glob(pattern, p) for p in patterns)


def _retypes(pattern: str, value: Any) -> list[Any]:
    """Wrong JSON types for ``value`` (15: "a value has the wrong JSON type")."""
    if isinstance(value, bool):
        return ["true", 1]
    if isinstance(value, int):
        if _matches(pattern, NUMBER_FIELDS):
            return [str(value)]
        return [1.5, float(value), str(value)]  # 15: "0.0" where an integer is required
    if isinstance(value, float):
        return [str(value), True]
    if isinstance(value, str):
        if _matches(pattern, ("experiments.*.df",)):  # int | "inf" (2.6)
            return [1.5, "infinity"]
        out: list[Any] = [7, ["x"]]
        if TIMESTAMP.match(value):
            out.append(value[:10])  # 15: a timestamp not of the exact form of 1.2
        return out
    if isinstance(value, list):
        return [{"x": 1}, "x"]
    if isinstance(value, dict):
        return [["x"], "x"]
    return []


def _absents(value: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [("delete", DELETE)]
    if value is not None:
        out.append(("null", None))
    if isinstance(value, dict) and value:
        out.append(("empty", {}))
        if any(v is not None for v in value.values()):
            out.append(("nulls", dict.fromkeys(value)))
    elif isinstance(value, list) and value:
        out.append(("empty", []))
    elif isinstance(value, str) and value:
        out.append(("empty", ""))
    return out


def _shape(value: Any) -> Any:
    """The shape of a value: the type of each leaf, for telling like records apart."""
    if isinstance(value, dict):
        return tuple(sorted((k, _shape(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", len(value) > 0)
    return type(value).__name__


def field_mutations(*, representative: bool = False) -> list[Mutation]:
    """Every field of the dossier and the archive, deleted, nulled, emptied and retyped.

    ``representative``: one mutation per (place, field shape, kind, value), a list's
    first element standing for the others of its shape, one key of a like-keyed object
    for the others, one wrong type per field, and a key's null left to the full walk
    (the contract reads a null key as a deleted one).
    """
    b = _base()
    out: list[Mutation] = []
    seen: set[tuple[Any, ...]] = set()
    for place, tree in (("doc", b.dossier), ("arc", b.archive)):
        for path, value in _walk(tree):
            c0 = Change(place, path, None)
            pat = c0.pattern
            # The record this field sits in, with its shape (rung 3's record is not rung 0's).
            owner = tuple(
                _shape(_node(tree, path[: i + 1]))
                if isinstance(p, int)
                else "*"
                if _matches(".".join(map(str, path[:i])), LIKE_KEYED)
                else p
                for i, p in enumerate(path)
            )
            edits = [(k, v) for k, v in _absents(value)]
            if not _matches(pat, FREE_FIELDS):
                wrong = _retypes(pat, value)
                edits += [("retype", v) for v in (wrong[:1] if representative else wrong)]
            for kind, new in edits:
                if representative and kind == "null" and isinstance(path[-1], str):
                    continue  # a key set null reads as the key deleted (1.1); the walk has both
                key = (place, owner, kind, repr(new))
                if representative and key in seen:
                    continue
                seen.add(key)
                out.append(Mutation(kind, (Change(place, path, new),)))
    return out


def _node(tree: Any, path: Path_) -> Any:
    for p in path:
        tree = tree[p]
    return tree


# -- the random mode ----------------------------------------------------------------------------
_IDS = {
    "principal": [LEAD, LEAD2, EVAL, MAINT, DECIDER, "maint-bot", "agent-gil", TRAINING, "nobody"],
    "group": [*POOL[:4], "D1", "D3", "T1", "LK", "cal-1", "no-such-group"],
    "item": [
        "it-t1",
        "it-t2",
        "it-exploit",
        "it-leak",
        "it-cal",
        "it-pool",
        "it-orphan",
        "no-item",
    ],
    "epoch": ["ep-a", "ep-b", "ep-final", "ep-draft", "ep-none"],
    "observation": ["o1", "o2", "o3", "o4", "o6", "o7", "o-suspected", "o-final", "o-none"],
    "experiment": ["exp-r0", "exp-r1", "exp-r2", "exp-r6", "exp-r2-explore", "exp-r2-final"],
    "config": ["cfg-1", "cfg-1b", "cfg-2", "cfg-none"],
}
_NUMBERS = [-1, 0, 1, 2, 0.0, 0.5, 0.999, 1.0, 1.5, -0.25, 1999, 2000, 10**9, 1e-9, 3.7]
_DATES = [
    "2026-11-29T23:59:59Z",
    "2026-12-15T12:00:00Z",
    "2026-12-15T12:00:01Z",
    "2027-03-01T00:00:00Z",
    "2025-01-01T00:00:00Z",
    "2030-01-01T00:00:00Z",
]
_STRINGS = {
    "role-ish": ["human_maintainer", "agent", "independent_evaluator"],
    "split": ["development", "calibration", "confirmatory_hidden"],
    "license": ["Apache-2.0", "MIT", "SYN-NO-REDISTRIBUTION-1.0", "SYN-EVAL-ONLY-1.0", "GPL-9"],
    "scope": ["none", "artifact", "source_family", "skill", "workflow", "organization", "galaxy"],
    "multiplicity": ["holm", "bonferroni", "none", "sidak"],
    "alternative": ["greater", "two-sided", "less"],
    "basis": [
        "confirmatory_experiment",
        "infeasibility_record",
        "cost_ceiling_record",
        "exploratory_search",
        "not_applicable",
    ],
    "decision": ["approved", "rejected", "changes_requested"],
    "status": ["draft", "active", "closed"],
    "causal": ["confirmed", "suspected"],
    "mode": ["non_spendable_dry_run", "spendable"],
    "kind": ["fixed", "rolling"],
    "unit": ["independent_group", "attempt", "seed", "task"],
    "family": ["fam-x", "fam-y", "fam-z"],
}
# Which pool of values fits a field, by its last key.
_POOL_OF = {
    "reviewer": "principal",
    "decided_by": "principal",
    "approved_by": "principal",
    "accepted_by": "principal",
    "principal_id": "principal",
    "created_by": "principal",
    "bound_by": "principal",
    "training_identity": "principal",
    "provider_identity": "principal",
    "candidate_author_identity": "principal",
    "search_controller_identity": "principal",
    "final_evaluator_identity": "principal",
    "group_id": "group",
    "item_id": "item",
    "epoch_id": "epoch",
    "pool_epoch_id": "epoch",
    "observation_id": "observation",
    "experiment_id": "experiment",
    "config_id": "config",
    "split": "split",
    "license_id": "license",
    "use_scope": "scope",
    "confirmed_effect_scope": "scope",
    "multiplicity_method": "multiplicity",
    "alternative": "alternative",
    "basis": "basis",
    "decision": "decision",
    "status": "status",
    "causal_status": "causal",
    "mode": "mode",
    "kind": "kind",
    "analysis_unit": "unit",
    "model_family": "family",
}


def _random_value(rng: random.Random, path: Path_, value: Any) -> Any:
    last = next((p for p in reversed(path) if isinstance(p, str)), "")
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        if rng.random() < 0.5:
            return rng.choice(_NUMBERS)
        return type(value)(value * rng.choice([0, 0.5, 2, 10, -1]))
    if isinstance(value, str):
        if TIMESTAMP.match(value):
            return rng.choice(_DATES)
        pool = _POOL_OF.get(last)
        if pool in _IDS:
            return rng.choice(_IDS[pool])
        if pool in _STRINGS:
            return rng.choice(_STRINGS[pool])
        if last == "status":
            return rng.choice(["accepted", "rejected", "supported", "unsupported", "eligible"])
        return rng.choice([value + "-other", "x", value.upper()])
    if isinstance(value, list):
        if value and rng.random() < 0.5:
            out = list(value)
            rng.shuffle(out)
            return out[: rng.randint(1, len(out))]
        pool = _POOL_OF.get(last[:-1] if last.endswith("s") else last)
        extra = rng.choice(_IDS.get(pool or "", ["x", "trainer_rationale", "claimed_gains"]))
        return [*value, extra]
    if isinstance(value, dict):
        return None if rng.random() < 0.5 else {}
    return rng.choice(_NUMBERS)


def random_mutation(rng: random.Random) -> Mutation:
    """One to three semantic edits at random places of the dossier (mostly) and archive."""
    b = _base()
    fields = {
        place: [(p, v) for p, v in _walk(tree) if not (place == "doc" and p[:1] == ("binding",))]
        for place, tree in (("doc", b.dossier), ("arc", b.archive))
    }
    changes: list[Change] = []
    for _ in range(rng.randint(1, 3)):
        place = "doc" if rng.random() < 0.75 else "arc"
        path, value = rng.choice(fields[place])
        if rng.random() < 0.15:
            new: Any = rng.choice([DELETE, None, {}, "", []])
        else:
            new = _random_value(rng, path, value)
        changes.append(Change(place, path, new))
    return Mutation("random", tuple(changes))


# -- the required fields -------------------------------------------------------------------------
@dataclass(frozen=True)
class Need:
    """What the contract says of a field made absent.

    ``gate``: the gate owning the field (``"*"``: every gate; ``"dossier"``: a section-4
    rule; ``"refuse"``: section 15, import refuses). ``fails``: F codes a spec sentence
    makes the absence give (then the gate may ``fail`` with these codes only).
    ``empty_ok``: an empty value is a valid value here (only deletion or null is absent).
    """

    gate: str
    clause: str
    fails: frozenset[str] = frozenset()
    empty_ok: bool = False
    dossier_codes: frozenset[str] = frozenset()


def _n(gate: str, clause: str, *fails: str, empty_ok: bool = False) -> Need:
    return Need(gate, clause, frozenset(fails), empty_ok)


def _d(clause: str, *codes: str) -> Need:
    return Need("dossier", clause, dossier_codes=frozenset(codes))


_E = "evidence."
# Required fields (sections 2.1, 2.2, 4, 5): a field a predicate reads as a required input,
# with the gate that owns it. A field of 2.2 that no rule of sections 4-5 reads (a
# ``*_ref`` that is only displayed, ``sealed_at``, ``reviewed_at``, ``record_id``, a budget's
# ``amount``...) is optional: its absence may pass. So is one entry of a list whose rule
# reads the whole list (one evaluation epoch, one observation id, one reward): deleting it
# is a semantic change, judged by the other invariants.
#
# Absent (deleted, null, "", {}, [] where a non-empty list is required, an object of
# nulls) is unknown with a U code of the owning gate (15, "Empty means absent"), also
# where the only other sentence compares the field with a value ("decision != approved",
# "is not a human maintainer", "action != propose_activation_amendment"): 15 settles
# that such a comparison presumes a value. The exceptions, each a sentence that makes
# the absence itself a fail and gives it no MISSING code, are listed with their F codes:
# ``sealed`` ("is not true"), the simulation's four digests (6.3: an absent digest
# differs; the simulation or preregistration absent, ``{}`` too, is G1_POWER_MISSING),
# ``reviewed_digest`` (G2: differs from the digest of the reports), the not-applicable
# acceptance (6.6: "otherwise" NOT_APPLICABLE_UNACCEPTED), and absent hypotheses (15 G1:
# INVALID "may be reported too").
REQUIRED: dict[str, Need] = {
    # 2.1 / 15: identity constants absent: the file is refused.
    **{
        k: Need("refuse", "15 (identity constant of 2.1 absent)")
        for k in (
            "kind",
            "schema_version",
            "spec",
            "spec_revision",
            "activation",
            "dossier_id",
            "revision",
            "state",
        )
    },
    "created_by": Need("refuse", "15 (its author is not in the registry)"),
    "binding": Need("refuse", "15 (a bound state without a binding)"),
    # G8 reads the authorization, outside the evidence (2.4): it is not among the owners.
    "evidence": _n("*", "1.1 / 2.1 (every section absent)"),
    # 4: dossier-level freshness.
    _E + "expiry": _d("4 rule 1", "DOSSIER_EXPIRY_MISSING"),
    _E + "expiry.expires_at": _d("4 rule 1", "DOSSIER_EXPIRY_MISSING"),
    _E + "epochs": _d("4 rule 4", "DOSSIER_EPOCHS_MISSING"),
    _E + "epochs.evaluation_epochs": _d("4 rule 4", "DOSSIER_EPOCHS_MISSING"),
    _E + "epochs.evaluation_epochs.*.epoch_id": _d(
        "4 rule 4", "DOSSIER_EPOCH_CHANGED", "DOSSIER_EPOCHS_MISSING"
    ),
    _E + "epochs.evaluation_epochs.*.manifest_digest": _d("4 rule 4", "DOSSIER_EPOCH_CHANGED"),
    # G1 coverage.
    _E + "target_behavior": _n("G1", "G1 (either behavior id absent; the preregistered effect)"),
    _E + "target_behavior.behavior_id": _n("G1", "G1 coverage (either behavior id absent)"),
    _E + "target_behavior.preregistered_minimum_useful_effect": _n("G1", "G1 power"),
    _E + "coverage": _n("G1", "G1 coverage (coverage absent)"),
    _E + "coverage.target_behavior_id": _n("G1", "G1 coverage"),
    _E + "coverage.stages": _n("G1", "G1 coverage (a stage 0-5 entry absent)"),
    _E + "coverage.stages.*": _n("G1", "G1 coverage (a stage 0-5 entry absent)"),
    _E + "coverage.stages.*.stage": _n("G1", "G1 coverage (a stage 0-5 entry absent)"),
    _E + "coverage.stages.*.decision": _n("G1", "G1 coverage (decision not one of the two)"),
    _E + "coverage.stages.*.report_digest": _n("G1", "G1 coverage (no well-formed digest)"),
    _E + "coverage.stage6": _n("G1", "G1 coverage (stage6 absent)"),
    _E + "coverage.stage6.can_evaluate_training_search": _n("G1", "15 (empty means absent)"),
    # G1 effective sample.
    _E + "effective_sample": _n("G1", "G1 ESS (section absent)"),
    _E + "effective_sample.groups": _n("G1", "G1 ESS (no groups)"),
    _E + "effective_sample.groups.*.group_id": _n("G1", "15 (empty means absent)"),
    _E + "effective_sample.groups.*.n_units": _n("G1", "15 (empty means absent)"),
    _E + "effective_sample.icc": _n("G1", "G1 ESS (icc absent)"),
    _E + "effective_sample.analysis_unit": _n("G1", "G1 ESS (analysis_unit absent)"),
    _E + "effective_sample.claimed_independent_groups": _n("G1", "G1 ESS (claimed_* absent)"),
    _E + "effective_sample.claimed_design_effect": _n("G1", "G1 ESS (claimed_* absent)"),
    _E + "effective_sample.claimed_effective_sample_size": _n("G1", "G1 ESS (claimed_* absent)"),
    # G1 power. A digest that is absent from a present simulation or preregistration differs
    # from the one it must equal: 6.3 / G1 make that a fail (the contract has no MISSING code
    # for one digest). The object itself absent, or {}, is absent (15): G1_POWER_MISSING.
    _E + "power_analysis": _n("G1", "G1 power (section absent)"),
    _E + "power_analysis.method_id": _n("G1", "G1 (method_id not the supported value)"),
    _E + "power_analysis.sealed": _n("G1", "G1 (sealed is not true)", "G1_POWER_NOT_SEALED"),
    _E + "power_analysis.parameters": _n("G1", "G1 (any PowerParameters key absent)"),
    _E + "power_analysis.parameters.*": _n("G1", "G1 (any PowerParameters key absent)"),
    _E + "power_analysis.parameters.comparison_family": _n(
        "G1",
        "15 G1 (hypotheses absent; INVALID may be reported too)",
        "G1_POWER_PARAMETER_INVALID",
    ),
    _E + "power_analysis.parameters.comparison_family.hypotheses": _n(
        "G1",
        "15 G1 (hypotheses absent; INVALID may be reported too; G1: K = 0 invalid)",
        "G1_POWER_PARAMETER_INVALID",
    ),
    _E + "power_analysis.parameters.missingness.*": _n("G1", "G1 / 15 G1 (mechanism, rate)"),
    _E + "power_analysis.parameters.sensitivity_range.*": _n("G1", "G1 (a sensitivity sub-range)"),
    _E + "power_analysis.simulation": _n("G1", "15 (empty means absent: G1_POWER_MISSING)"),
    _E + "power_analysis.simulation.inputs_digest": _n(
        "G1", "G1 / 6.3 (digest(parameters) differs)", "G1_POWER_INPUTS_DIGEST_MISMATCH"
    ),
    _E + "power_analysis.simulation.code_digest": _n(
        "G1", "G1 (code_digest malformed)", "G1_POWER_CODE_DIGEST_MISMATCH"
    ),
    _E + "power_analysis.preregistration": _n("G1", "15 (empty means absent: G1_POWER_MISSING)"),
    _E + "power_analysis.preregistration.sealed_code_digest": _n(
        "G1", "G1 (code_digest != sealed_code_digest)", "G1_POWER_CODE_DIGEST_MISMATCH"
    ),
    _E + "power_analysis.preregistration.sealed_inputs_digest": _n(
        "G1", "G1 (differs from sealed_inputs_digest)", "G1_POWER_INPUTS_DIGEST_MISMATCH"
    ),
    _E + "power_analysis.claimed": _n("G1", "G1 (a claimed value absent)"),
    _E + "power_analysis.claimed.*": _n("G1", "G1 (a claimed value absent)"),
    # G2.
    _E + "feasibility": _n("G2", "G2 (either report absent)"),
    _E + "feasibility.source_corpus_report": _n("G2", "G2 / 15 (a report {} is REPORT_MISSING)"),
    _E + "feasibility.dataset_feasibility_report": _n("G2", "G2 / 15"),
    _E + "feasibility.human_review": _n("G2", "G2 (human_review absent)"),
    _E + "feasibility.human_review.reviewer": _n("G2", "15 (empty means absent)"),
    _E + "feasibility.human_review.decision": _n("G2", "15 (empty means absent)"),
    _E + "feasibility.human_review.reviewed_digest": _n(
        "G2", "G2 (reviewed_digest != digest of the reports)", "G2_REVIEW_DIGEST_MISMATCH"
    ),
    _E + "feasibility.materialized_dataset": _n("G2", "G2 (materialized_dataset absent)"),
    _E + "decisions": _n("G2", "G2 (consent or privacy decision absent)"),
    _E + "decisions.consent": _n("G2", "G2 / 15 (consent {} is DECISION_MISSING)"),
    _E + "decisions.privacy": _n("G2", "G2 / 15"),
    _E + "decisions.*.status": _n("G2", "G2 (or its status absent)"),
    _E + "decisions.*.decided_by": _n("G2", "15 (empty means absent)"),
    # G3.
    _E + "target_behavior.mechanism_id": _n("G3", "G3 (mechanism_id absent)"),
    _E + "recurrence": _n("G3", "G3 (section absent)"),
    _E + "recurrence.mechanism_id": _n("G3", "G3 (mechanism_id absent)"),
    _E + "recurrence.observation_ids": _n("G3", "G3 (no observation ids)"),
    # G4.
    _E + "lower_rungs": _n("G4", "G4 (section absent)"),
    _E + "lower_rungs.rungs": _n("G4", "G4 / 15 (rungs: [] is absent)"),
    _E + "lower_rungs.family_alpha": _n("G4", "G4 (family_alpha absent)"),
    _E + "lower_rungs.family_size": _n("G4", "G4 (family_size absent)"),
    _E + "lower_rungs.multiplicity_method": _n("G4", "G4 (multiplicity_method absent)"),
    _E + "lower_rungs.useful_effect": _n("G4", "G4 (useful_effect absent)"),
    _E + "lower_rungs.rungs.*": _n("G4", "G4 (rungs not exactly 0..6)"),
    _E + "lower_rungs.rungs.*.rung": _n("G4", "G4 (rungs not exactly 0..6)"),
    _E + "lower_rungs.rungs.*.applicable": _n("G4", "G4 (an entry lacks applicable)"),
    _E + "lower_rungs.rungs.*.basis": _n("G4", "G4 (an entry lacks basis)"),
    # 6.6: applicable false needs basis not_applicable, "otherwise" NOT_APPLICABLE_UNACCEPTED.
    _E + "lower_rungs.rungs.5.basis": _n(
        "G4", "6.6 (applicable: false without basis not_applicable)", "G4_NOT_APPLICABLE_UNACCEPTED"
    ),
    _E + "lower_rungs.rungs.*.experiment": _n("G4", "15 (empty means absent)"),
    _E + "lower_rungs.rungs.*.experiment.experiment_id": _n("G4", "15 (empty means absent)"),
    _E + "lower_rungs.rungs.*.experiment.claimed_upper_bound": _n("G4", "G4 RESULT_MISSING"),
    _E + "lower_rungs.rungs.*.record": _n("G4", "G4 RECORD_MISSING"),
    _E + "lower_rungs.rungs.*.record.status": _n("G4", "G4 (a record lacks status)"),
    _E + "lower_rungs.rungs.*.record.accepted_by": _n("G4", "G4 (lacks acceptor)"),
    _E + "lower_rungs.rungs.*.record.reason_ref": _n("G4", "G4 (lacks reason)"),
    _E + "lower_rungs.rungs.*.record.projected_cost": _n("G4", "G4 (either cost figure)"),
    _E + "lower_rungs.rungs.*.record.cost_ceiling": _n("G4", "G4 (either cost figure)"),
    _E + "lower_rungs.rungs.*.not_applicable": _n(
        "G4", "6.6 (otherwise NOT_APPLICABLE_UNACCEPTED)", "G4_NOT_APPLICABLE_UNACCEPTED"
    ),
    _E + "lower_rungs.rungs.*.not_applicable.reason_ref": _n(
        "G4", "6.6 (a non-empty reason_ref; otherwise F)", "G4_NOT_APPLICABLE_UNACCEPTED"
    ),
    _E + "lower_rungs.rungs.*.not_applicable.accepted_by": _n(
        "G4", "6.6 (accepted by a human maintainer; otherwise F)", "G4_NOT_APPLICABLE_UNACCEPTED"
    ),
    # G5.
    _E + "reward_plan": _n("G5", "G5 (plan absent)"),
    _E + "reward_plan.rewards": _n("G5", "G5 (no rewards)"),
    _E + "reward_plan.rewards.*.components": _n("G5", "G5 (a reward with no components)"),
    # G6.
    _E + "license": _n("G6", "G6 (section absent)"),
    _E + "license.license_id": _n("G6", "G6 (license_id absent)"),
    _E + "license.base_model_id": _n("G6", "G6 (base_model_id absent)"),
    _E + "license.intended_use": _n("G6", "G6 (intended_use absent)"),
    _E + "license.intended_use.*": _n("G6", "G6 (.training or .redistribution absent)"),
    # G7.
    _E + "budgets": _n("G7", "G7 (section absent)"),
    _E + "budgets.*": _n("G7", "G7 (one of the five budgets absent)"),
    _E + "budgets.*.approved": _n("G7", "G7 (its approved flag absent)"),
    _E + "budgets.*.approved_by": _n("G7", "15 (empty means absent)"),
    _E + "rollback_requirements": _n("G7", "G7 (section absent)"),
    _E + "rollback_requirements.*": _n("G7", "G7 (a flag absent)"),
    # G8.
    "authorization": _n("G8", "G8 (absent)"),
    "authorization.principal_id": _n("G8", "15 (empty means absent)"),
    "authorization.action": _n("G8", "15 (empty means absent)"),
    "authorization.grants": _n(
        "G8", "15 (grants absent is G8_AUTHORIZATION_MISSING)", empty_ok=True
    ),
    "authorization.amendment_digest": _n("G8", "G8 (amendment_digest absent)"),
    "authorization.evidence_digest": _n("G8", "G8 (evidence_digest absent)"),
    # G9.
    _E + "evidence_cutoff": _n("G9", "G9 (evidence_cutoff absent)"),
    _E + "dataset_plan": _n("G9", "G9 (plan absent)"),
    _E + "dataset_plan.cutoff": _n("G9", "G9 (cutoff kind/at absent)"),
    _E + "dataset_plan.cutoff.*": _n("G9", "G9 (cutoff kind/at absent)"),
    _E + "dataset_plan.grouping_rules": _n("G9", "G9 (grouping_rules absent)"),
    _E + "dataset_plan.creates_dataset": _n("G9", "G9 (creates_dataset absent)"),
    _E + "dataset_plan.leakage_controls": _n("G9", "G9 / 15 (absent, empty, only nulls)"),
    _E + "dataset_plan.training_source_items": _n("G9", "G9 (absent or empty)"),
    _E + "dataset_plan.private_feedback": _n("G9", "G9 (private_feedback absent)"),
    _E + "dataset_plan.private_feedback.use_scope": _n("G9", "G9 (not one of the six values)"),
    _E + "dataset_plan.private_feedback.authorization_ref": _n("G9", "G9 (empty)"),
    _E + "dataset_plan.private_feedback.license": _n("G9", "G9 (empty)"),
    _E + "dataset_plan.private_feedback.retention_days": _n("G9", "G9 (not a positive number)"),
    # G10.
    _E + "independence_plan": _n("G10", "G10 (identities absent)"),
    _E + "independence_plan.*_identity": _n("G10", "G10 (any of the five identities absent)"),
    _E + "independence_plan.final_evaluation": _n("G10", "G10 (final_evaluation absent)"),
    _E + "independence_plan.final_evaluation.epoch_id": _n("G10", "G10 (its epoch_id absent)"),
    _E + "independence_plan.final_evaluation.evaluator_inputs": _n(
        "G10", "G10 (evaluator_inputs absent)", empty_ok=True
    ),
    # G11.
    _E + "cost_envelope": _n("G11", "G11 (section absent)"),
    _E + "cost_envelope.mode": _n("G11", "G11 (mode absent)"),
    _E + "cost_envelope.work_orders_created": _n("G11", "G11 (absent)", empty_ok=True),
    _E + "cost_envelope.reservations_created": _n("G11", "G11 (absent)", empty_ok=True),
    _E + "cost_envelope.spend_committed_micros": _n("G11", "G11 (absent)"),
    _E + "cost_envelope.dimensions": _n("G11", "G11 (a dimension absent)"),
    _E + "cost_envelope.dimensions.*": _n("G11", "G11 (a dimension absent)"),
    _E + "cost_envelope.dimensions.*.worst_case": _n("G11", "G11 (without numeric worst_case)"),
    _E + "cost_envelope.dimensions.*.ceiling": _n("G11", "G11 (without numeric ceiling)"),
}
# The MISSING code the contract names for each required field (section 5's U lines and
# 15); an absent field that is ``unknown`` must carry one of them.
_NAMED: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (re.compile(rx), frozenset(codes.split()))
    for rx, codes in (
        (r"^(target_behavior\.behavior_id$|coverage)", "G1_COVERAGE_MISSING"),
        (r"^target_behavior$", "G1_COVERAGE_MISSING G1_POWER_PARAMETER_MISSING"),
        (r"^effective_sample", "G1_ESS_MISSING"),
        (r"^power_analysis(\.simulation|\.preregistration)?$", "G1_POWER_MISSING"),
        (r"^power_analysis\.method_id$", "G1_POWER_METHOD_UNSUPPORTED"),
        # 15 G1: an absent mechanism is "not the supported value" (MISSING may come too).
        (r"^power_analysis\.parameters\.missingness(\.mechanism)?$", "G1_POWER_METHOD_UNSUPPORTED"),
        # G1: both sentences speak of an absent decision_rule or effect_scale.
        (
            r"^power_analysis\.parameters\.(effect_scale|decision_rule)$",
            "G1_POWER_METHOD_UNSUPPORTED G1_POWER_PARAMETER_MISSING",
        ),
        (
            r"^(power_analysis\.parameters|target_behavior\.preregistered_minimum)",
            "G1_POWER_PARAMETER_MISSING",
        ),
        (r"^power_analysis\.claimed", "G1_POWER_CLAIM_MISSING"),
        (r"^feasibility(\.\w+_report|\.materialized_dataset)?$", "G2_REPORT_MISSING"),
        (r"^feasibility\.human_review", "G2_REVIEW_MISSING"),
        (r"^decisions", "G2_DECISION_MISSING"),
        (r"^(recurrence|target_behavior\.mechanism_id)", "G3_RECURRENCE_MISSING"),
        (
            r"^lower_rungs(\.(family_alpha|family_size|multiplicity_method|useful_effect))?$",
            "G4_PLATEAU_MISSING",
        ),
        (r"^lower_rungs\.rungs$", "G4_PLATEAU_MISSING G4_RUNGS_MISSING"),
        (r"^lower_rungs\.rungs\.\*(\.(rung|applicable|basis))?$", "G4_RUNGS_MISSING"),
        (r"^lower_rungs\.rungs\.\*\.experiment\.claimed_upper_bound$", "G4_RESULT_MISSING"),
        (r"^lower_rungs\.rungs\.\*\.record", "G4_RECORD_MISSING"),
        (r"^reward_plan", "G5_REWARD_PLAN_MISSING"),
        (r"^license\.intended_use", "G6_INTENDED_USE_MISSING"),
        (r"^license", "G6_LICENSE_MISSING"),
        (r"^budgets", "G7_BUDGET_MISSING"),
        (r"^rollback_requirements", "G7_ROLLBACK_REQUIREMENTS_MISSING"),
        (r"^authorization", "G8_AUTHORIZATION_MISSING"),
        (r"^dataset_plan\.leakage_controls", "G9_LEAKAGE_CONTROLS_MISSING"),
        (r"^dataset_plan\.training_source_items", "G9_TRAINING_SOURCES_MISSING"),
        (r"^dataset_plan\.private_feedback", "G9_PRIVATE_FEEDBACK_TERMS_MISSING"),
        (r"^(dataset_plan|evidence_cutoff)", "G9_PLAN_MISSING"),
        (r"^independence_plan\.final_evaluation", "G10_FINAL_EVALUATION_MISSING"),
        (r"^independence_plan", "G10_IDENTITIES_MISSING"),
        (r"^cost_envelope\.dimensions", "G11_DIMENSION_MISSING"),
        (r"^cost_envelope", "G11_DRY_RUN_MISSING"),
        (r"^experiments\.", "G4_RESULT_MISSING"),
    )
)


def named_codes(key: str) -> frozenset[str]:
    """The MISSING codes the contract names for a required field (empty: any U code)."""
    for rx, codes in _NAMED:
        if rx.search(key):
            return codes
    return frozenset()


# Archive fields the gates read as required inputs of the rungs the base relies on (6.6):
# an experiment lacking estimate/SE/df is G4_RESULT_MISSING (G4); rung 0, 1, 2 and 6.
REQUIRED_ARCHIVE: dict[str, Need] = {
    f"experiments.{i}.{k}": _n("G4", "G4 (an archive experiment lacks estimate/SE/df)")
    for i in (0, 1, 2, 3)
    for k in ("estimate", "standard_error", "df")
}


def need_of(c: Change) -> Need | None:
    """The entry of the required table for a changed place (most specific pattern first)."""
    if c.place == "arc":
        return REQUIRED_ARCHIVE.get(c.dotted)
    return _need_of(c)


def _need_of(c: Change) -> Need | None:
    for key in (c.dotted, c.pattern):  # an exact place first (rung 5), then its shape
        if key in REQUIRED:
            return REQUIRED[key]
    hits = [p for p in REQUIRED if "*" in p and _glob(c.pattern, p)]
    # The most specific glob: the one with the fewest wildcard segments.
    return REQUIRED[min(hits, key=lambda p: p.count("*"))] if hits else None


def is_absent(m: Mutation, need: Need) -> bool:
    c = m.changes[0]
    if m.kind in ("delete", "null", "nulls"):
        return True
    if m.kind == "empty":
        return not need.empty_ok
    if m.kind == "random":  # random edits that empty a field: the same reading
        if c.value is DELETE or c.value is None:
            return True
        return c.value in ({}, "", []) and not need.empty_ok
    return False


# -- running a mutant -----------------------------------------------------------------------------
def scratch_parent() -> Path | None:
    """Where mutants' workspaces go: a memory-backed folder where the OS has one (each
    mutant journals and witnesses a few entries, each fsynced), else the system's temp."""
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and os.access(shm, os.W_OK) else None


# -- the outcome of a mutant ---------------------------------------------------------------------
@dataclass
class Outcome:
    """What the workspace made of a mutant."""

    refused: str | None = None  # "archive" | "dossier" | "author"
    problems: list[str] = field(default_factory=list)
    reason_code: str | None = None
    refusals: list[str] = field(default_factory=list)  # refused transitions (7.2)
    record: dict[str, Any] | None = None
    states: list[str] = field(default_factory=list)
    projection: dict[str, Any] | None = None
    journal: dict[str, Any] | None = None
    journal_len: int = 0
    projected: bool = True  # whether a projection was asked for
    error: str | None = None  # an exception that is no result
    stage: str = ""

    def summary(self) -> str:
        if self.error:
            return f"exception at {self.stage}: {self.error.strip().splitlines()[-1]}"
        if self.refused:
            return f"refused ({self.refused}, {self.reason_code}): {'; '.join(self.problems)[:300]}"
        if self.record is None:
            return f"no check record (states {self.states})"
        gates = self.record.get("gates") or {}
        shown = {
            g: (r.get("status"), r.get("reason_codes"))
            for g, r in gates.items()
            if r.get("status") != "pass"
        }
        return (
            f"states {self.states}; eligible_if_decided={self.record.get('eligible_if_decided')}; "
            f"dossier {self.record.get('dossier_reason_codes')}; not passing {shown}"
        )


def run_mutation(m: Mutation, work: Path | None = None, *, project: bool = True) -> Outcome:
    """Import, (bind), check, decide, project and verify, through the headless API (11).

    ``project=False`` leaves the projection out (the test run projects a share of the
    walk, to keep its budget); the journal is verified either way.
    """
    from aa_review.core.dossier import WitnessStore, Workspace, verify_journal
    from aa_review.core.dossier._errors import (
        ActorUnavailableError,
        ArchiveSchemaError,
        DossierSchemaError,
    )

    out = Outcome()
    try:
        v = materialize(m)
    except Exception:  # noqa: BLE001 - the generator's own fault, reported as such
        out.error, out.stage = traceback.format_exc(), "materialize (the generator)"
        return out
    folder = Path(tempfile.mkdtemp(prefix="mut-", dir=work))
    ws = None
    try:
        out.stage = "workspace"
        try:
            ws = Workspace(
                v.principals,
                v.archive,
                lambda: NOW,
                folder / "journal.jsonl",
                witness_store=WitnessStore(folder / "witness"),
            )
        except ArchiveSchemaError as exc:
            out.refused, out.problems, out.reason_code = "archive", list(exc.problems), None
            return out
        out.stage = "import"
        try:
            ref = ws.import_dossier(v.dossier)
        except DossierSchemaError as exc:
            out.refused, out.problems = "dossier", list(exc.problems)
            out.reason_code = exc.reason_code
        except ActorUnavailableError as exc:
            out.refused, out.problems = "author", [str(exc)]
            out.reason_code = getattr(exc, "reason_code", None) or str(exc).split(":")[0]
        if out.refused:
            out.stage = "verify"
            entries = ws.journal_entries()
            out.journal_len = len(entries)
            out.journal = verify_journal(entries, ws.journal_head())
            return out
        d, rev = ref.dossier_id, ref.revision
        if ref.state.value == "draft":
            out.stage = "bind"
            ws.bind(d, rev, LEAD)
        out.stage = "check"
        for checker in (EVAL, EVAL2):  # 7.2 T2: a mutant may name the first as training-side
            r = ws.check(d, rev, checker)
            if r.outcome.value != "refused":
                break
            out.refusals.append(r.reason or "")
        out.record = ws.revision(d, rev).get("check")
        state = ws.revision(d, rev)["state"]
        out.states.append(state)
        if state == "independently_checked":
            out.stage = "decide"
            r = ws.decide_eligible(d, rev, DECIDER)
            if r.outcome.value != "applied":
                ws.decide_deferred(d, rev, MAINT)
            state = ws.revision(d, rev)["state"]
            out.states.append(state)
        out.projected = project
        if project and state in ("eligible", "deferred", "expired"):
            out.stage = "project"
            out.projection = ws.project(d, rev)
        out.stage = "verify"
        entries = ws.journal_entries()
        out.journal_len = len(entries)
        out.journal = verify_journal(entries, ws.journal_head())
    except Exception:  # noqa: BLE001 - an exception is what the invariants look for
        out.error = traceback.format_exc()
    finally:
        if ws is not None:
            try:
                ws.close()
            except Exception:  # noqa: BLE001
                out.error = out.error or traceback.format_exc()
        shutil.rmtree(folder, ignore_errors=True)
    return out


# -- the invariants --------------------------------------------------------------------------------
INVARIANTS = {
    "I1_required_absent_never_eligible": "a required field deleted, nulled or emptied never "
    "yields eligible-if-decided (5: all eleven gates pass and no dossier-level reason)",
    "I2_result_never_exception": "every mutant gives a result: a refusal at import naming "
    "the JSON path of the edit, or a check with all eleven gates each with a status (11, 15)",
    "I3_absent_is_unknown_missing": "an absent input is unknown at its gate with a MISSING "
    "(U) code, never a fail code presuming a value, unless a spec sentence makes it a fail "
    "(1.1, 15 'Empty means absent')",
    "I4_codes_are_spec_codes": "every reason code reported is a spec code or one recorded in "
    "docs/decisions.md",
    "I5_journal_and_projection": "journal verification and the public projection never "
    "raise, the journal verifies, and a refusal journals nothing (9, 10, 15)",
    "I6_wrong_type_refused": "a value of the wrong JSON type is refused at import, naming "
    "its JSON path (15: a file that does not parse to the shapes of section 2)",
}


def _codes() -> tuple[dict[str, str], set[str]]:
    """Spec codes with their marks (tests/data/spec_reason_codes.txt) and recorded decisions."""
    global _CODES
    if _CODES is None:
        marks: dict[str, str] = {}
        text = (ROOT / "tests" / "data" / "spec_reason_codes.txt").read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.strip() and not line.startswith("#"):
                code, mark, _ = line.split(maxsplit=2)
                marks[code] = mark
        decided = set(
            re.findall(
                r"`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`",
                (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8"),
            )
        )
        _CODES = (marks, decided)
    return _CODES


_CODES: tuple[dict[str, str], set[str]] | None = None


def _norm(path: str) -> str:
    return re.sub(r"\[(\d+)\]", r".\1", path).strip(".")


def _names_path(problems: list[str], c: Change) -> bool:
    """A problem names the edited place, a place inside it, or its parent (a list, a record)."""
    want = _norm(c.dotted)
    parent = want.rsplit(".", 1)[0] if "." in want else ""
    steps = want.split(".")
    # The list the edit sits in: a duplicate id is named where its twin stands.
    lists = [".".join(steps[:i]) for i, s in enumerate(steps) if s.isdigit() and i]
    for p in problems:
        got = _norm(p.split(": ", 1)[0].split(" ", 1)[0])
        if got == want or got.startswith(want + ".") or (parent and got == parent):
            return True
        if any(
            got.startswith(lst + ".") and got[len(lst) + 1 :].split(".")[0].isdigit()
            for lst in lists[-1:]
        ):
            return True
    return False


def violations(m: Mutation, o: Outcome) -> list[tuple[str, str]]:
    """(invariant, what went wrong) for every invariant ``o`` breaks."""
    out: list[tuple[str, str]] = []
    marks, decided = _codes()
    single = m.changes[0] if len(m.changes) == 1 else None
    need = need_of(single) if single is not None else None
    absent = need is not None and is_absent(m, need)

    # I2 / I5: an exception is no result.
    if o.error:
        inv = (
            "I5_journal_and_projection"
            if o.stage in ("project", "verify")
            else ("I2_result_never_exception")
        )
        out.append((inv, f"exception at {o.stage}"))
        return out
    if o.refused:
        if o.refused == "dossier" and o.reason_code != "DOSSIER_SCHEMA_INVALID":
            out.append(("I2_result_never_exception", f"refusal code {o.reason_code}"))
        if not any(_names_path(o.problems, c) for c in m.changes):
            out.append(("I2_result_never_exception", "the refusal names no edited JSON path"))
        if o.reason_code and o.reason_code not in marks and o.reason_code not in decided:
            out.append(("I4_codes_are_spec_codes", f"refusal code {o.reason_code}"))
        if o.journal_len:
            out.append(("I5_journal_and_projection", "a refused import journaled something"))
    else:
        rec = o.record
        # 7.2: a refused transition is a result too; its reason is a spec code.
        odd = sorted({r for r in o.refusals if r.split(":")[0] not in set(marks) | decided})
        if odd:
            out.append(("I4_codes_are_spec_codes", f"transition refusals {odd}"))
        if rec is None:
            if not o.refusals:
                out.append(("I2_result_never_exception", "no check record and no refusal"))
            return out
        gates = rec.get("gates") or {}
        if set(gates) != set(GATES) or any(
            (gates[g] or {}).get("status") not in ("pass", "fail", "unknown") for g in gates
        ):
            out.append(("I2_result_never_exception", "not all eleven gates have a status"))
        codes = [c for r in gates.values() for c in (r or {}).get("reason_codes") or []]
        codes += list(rec.get("dossier_reason_codes") or [])
        unknown = sorted({c for c in codes if c not in marks and c not in decided})
        if unknown:
            out.append(("I4_codes_are_spec_codes", f"codes {unknown}"))
        eligible = rec.get("eligible_if_decided") is True
        if absent and need is not None and eligible:
            out.append(("I1_required_absent_never_eligible", f"eligible ({need.clause})"))
        if absent and need is not None and need.gate == "refuse":
            out.append(("I3_absent_is_unknown_missing", f"not refused ({need.clause})"))
        if absent and need is not None and single is not None:
            named = named_codes(single.pattern.removeprefix(_E))
            out += _check_absent(need, rec, marks, named)
        if single is not None and m.kind == "retype":
            out.append(("I6_wrong_type_refused", "evaluated instead of refused"))
    final = o.states[-1:] != ["independently_checked"]
    if o.projected and o.projection is None and not o.refused and final:
        out.append(("I5_journal_and_projection", "no projection of a final revision"))
    if o.journal is not None and o.journal.get("valid") is not True:
        out.append(("I5_journal_and_projection", f"journal invalid: {o.journal}"))
    return out


def _check_absent(
    need: Need, rec: dict[str, Any], marks: dict[str, str], named: frozenset[str]
) -> list[tuple[str, str]]:
    gates = rec.get("gates") or {}
    dossier_codes = set(rec.get("dossier_reason_codes") or [])
    inv = "I3_absent_is_unknown_missing"
    if need.gate == "dossier":
        if not dossier_codes & need.dossier_codes:
            return [(inv, f"no {sorted(need.dossier_codes)} ({need.clause})")]
        return []
    if dossier_codes & {"DOSSIER_EXPIRED_BY_TIME", "DOSSIER_EPOCH_CHANGED"}:
        return []  # 4: an expired revision evaluates no gate
    owners = tuple(g for g in GATES if g != "G8") if need.gate == "*" else (need.gate,)
    out = []
    for g in owners:
        r = gates.get(g) or {}
        status, codes = r.get("status"), list(r.get("reason_codes") or [])
        missing = [c for c in codes if marks.get(c) == "U"]
        presumed = [c for c in codes if marks.get(c) == "F" and c not in need.fails]
        if status == "pass":
            out.append((inv, f"{g} passes ({need.clause})"))
        elif presumed:
            out.append((inv, f"{g} {status} with {presumed} ({need.clause})"))
        elif status == "unknown" and not missing:
            out.append((inv, f"{g} unknown without a MISSING code: {codes} ({need.clause})"))
        elif status == "unknown" and need.gate != "*" and named and not named & set(codes):
            out.append((inv, f"{g} unknown without {sorted(named)}: {codes} ({need.clause})"))
    return out
