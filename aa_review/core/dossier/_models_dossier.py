"""One dossier revision: evidence, binding, authorization; parsing with the raw tree kept."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError

from aa_review.core.dossier._canonical import canonical_json, json_digest
from aa_review.core.dossier._errors import DossierSchemaError
from aa_review.core.dossier._models_evidence import (
    Coverage,
    EffectiveSampleSection,
    Epochs,
    LowerRungs,
    PowerAnalysis,
    Recurrence,
    TargetBehavior,
)
from aa_review.core.dossier._models_plans import (
    Budgets,
    CostEnvelope,
    DatasetPlan,
    Decisions,
    Expiry,
    Feasibility,
    IndependencePlan,
    License,
    RewardPlan,
    RollbackRequirements,
    SourcePackage,
)
from aa_review.core.dossier._models_strict import (
    RULE_AUTHOR,
    RULE_BINDING,
    SchemaProblem,
    Strict,
    Timestamp,
    schema_problems,
)
from aa_review.core.dossier._states import DossierState

__all__ = [
    "PACKAGES_SECTION",
    "SECTION_NAMES",
    "SPEC_SECTION_NAMES",
    "AmendmentAuthorization",
    "Binding",
    "Dossier",
    "Evidence",
    "ParsedDossier",
    "Supersedes",
    "evidence_digest",
    "import_refusals",
    "parse_dossier",
    "section_digests",
]

# The eighteen sections of spec 2.2.
SPEC_SECTION_NAMES: tuple[str, ...] = (
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
# The bound compiled packages: an extension of this project (docs/decisions.md).
PACKAGES_SECTION = "source_packages"
SECTION_NAMES: tuple[str, ...] = (*SPEC_SECTION_NAMES, PACKAGES_SECTION)


class Evidence(Strict):
    """Everything a revision binds; unknown extra sections are kept and digested."""

    target_behavior: TargetBehavior | None = None
    evidence_cutoff: Timestamp | None = None
    epochs: Epochs | None = None
    coverage: Coverage | None = None
    recurrence: Recurrence | None = None
    effective_sample: EffectiveSampleSection | None = None
    power_analysis: PowerAnalysis | None = None
    lower_rungs: LowerRungs | None = None
    feasibility: Feasibility | None = None
    decisions: Decisions | None = None
    dataset_plan: DatasetPlan | None = None
    reward_plan: RewardPlan | None = None
    license: License | None = None
    independence_plan: IndependencePlan | None = None
    budgets: Budgets | None = None
    rollback_requirements: RollbackRequirements | None = None
    cost_envelope: CostEnvelope | None = None
    expiry: Expiry | None = None
    source_packages: list[SourcePackage] | None = None


class Binding(Strict):
    """Digests recorded by the bind transition (spec 2.3)."""

    evidence_digest: str | None = None
    section_digests: dict[str, str] | None = None
    bound_by: str | None = None
    bound_at: Timestamp | None = None


class AmendmentAuthorization(Strict):
    """A human maintainer's authorization to *propose* an activation amendment (spec 2.4)."""

    principal_id: str | None = None
    action: str | None = None
    grants: list[Any] | None = None
    amendment_ref: str | None = None
    amendment_digest: str | None = None
    evidence_digest: str | None = None
    issued_at: Timestamp | None = None


class Supersedes(Strict):
    """The revision this one replaces."""

    dossier_id: str | None = None
    revision: int | None = None
    evidence_digest: str | None = None


def _integer(value: Any) -> Any:
    """Spec 15: ``1.0`` where an integer is required is the wrong JSON type (a Literal
    alone compares by equality and would take it)."""
    if isinstance(value, (float, bool)):
        raise ValueError("Input should be a valid integer, written without a decimal point")
    return value


IntLiteral1 = Annotated[Literal[1], BeforeValidator(_integer)]


class Dossier(Strict):
    """A ``TrainingReadinessDossier`` revision (spec 2.1).

    The identity fields are required; everything inside ``evidence`` is optional.
    ``check`` is kept as plain JSON: a check only counts when made in the app.
    """

    kind: Literal["TrainingReadinessDossier"]
    schema_version: IntLiteral1
    spec: Literal["SPEC-026"]
    spec_revision: IntLiteral1
    activation: Literal["deferred"]
    dossier_id: str = Field(min_length=1)
    revision: int = Field(ge=1)
    supersedes: Supersedes | None = None
    state: DossierState = Field(strict=False)
    created_by: str | None = None
    created_at: Timestamp | None = None
    evidence: Evidence
    binding: Binding | None = None
    authorization: AmendmentAuthorization | None = None
    check: dict[str, Any] | None = None


@dataclass(frozen=True)
class ParsedDossier:
    """A revision's raw JSON tree (digests are computed from it) and its typed view.

    Attributes
    ----------
    raw : dict
        The tree as parsed from JSON (a private deep copy; never re-rendered).
    model : Dossier
        The typed, frozen model of the same tree.
    """

    raw: dict[str, Any]
    model: Dossier

    @property
    def evidence_raw(self) -> dict[str, Any]:
        """The raw ``evidence`` object."""
        evidence: dict[str, Any] = self.raw["evidence"]
        return evidence

    @property
    def evidence_digest(self) -> str:
        """``digest(evidence)`` of the raw tree."""
        return evidence_digest(self.raw["evidence"])


def parse_dossier(raw: object) -> ParsedDossier:
    """Validate a dossier JSON tree and keep a private copy of it.

    Parameters
    ----------
    raw : object
        ``json.loads`` output.

    Returns
    -------
    ParsedDossier

    Raises
    ------
    DossierSchemaError
        Structurally invalid JSON types, a wrong constant (``kind``, ``activation`` …),
        a malformed timestamp, or a value that is not finite JSON.
    """
    if not isinstance(raw, dict):
        raise DossierSchemaError(["<root>: a dossier must be a JSON object"])
    try:
        canonical_json(raw)
    except (TypeError, ValueError) as exc:
        raise DossierSchemaError([f"<root>: not canonical JSON ({exc})"]) from None
    if not isinstance(raw.get("evidence"), dict):
        raise DossierSchemaError(["evidence: must be a JSON object"])
    tree = copy.deepcopy(raw)
    try:
        model = Dossier.model_validate(tree)
    except ValidationError as exc:
        raise DossierSchemaError(schema_problems(exc)) from None
    return ParsedDossier(tree, model)


def import_refusals(
    model: Dossier, claimed: DossierState, state: DossierState, registry: Any
) -> list[SchemaProblem]:
    """What, besides parsing, refuses a dossier file at import (spec 15).

    ``state`` is the state the file would be imported as (a later claimed state is
    imported as ``evidence_bound``); ``registry`` answers ``get(principal_id)``.
    """
    out: list[SchemaProblem] = []
    if state is not DossierState.DRAFT and model.binding is None:
        out.append(
            SchemaProblem(
                "binding",
                f"a dossier in state {claimed.value} carries no binding",
                RULE_BINDING,
                "import it as a draft (state: draft) and bind it here, or include the "
                "binding it was bound with",
            )
        )
    if registry.get(model.created_by) is None:
        out.append(
            SchemaProblem(
                "created_by",
                f"the author {model.created_by!r} is not in this workspace's principal registry",
                RULE_AUTHOR,
                "name a registered training research lead as created_by, or have a human "
                "maintainer add the author to the registry first",
            )
        )
    return out


def evidence_digest(evidence_raw: Any) -> str:
    """``digest(evidence)`` over the parsed tree (spec 2.3)."""
    return json_digest(evidence_raw)


def section_digests(evidence_raw: dict[str, Any]) -> dict[str, str]:
    """``digest(evidence.get(s))`` for the eighteen sections of 2.3 (a missing one digests
    ``null``), and for ``source_packages`` only when the evidence has that extension key."""
    names = SECTION_NAMES if PACKAGES_SECTION in evidence_raw else SPEC_SECTION_NAMES
    return {name: json_digest(evidence_raw.get(name)) for name in names}
