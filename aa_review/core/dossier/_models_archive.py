"""Authorized private archive metadata the gates are checked against (spec 2.6)."""

from __future__ import annotations

from typing import Any, Literal

from aa_review.core.dossier._models_strict import Strict

__all__ = [
    "ArchiveConfiguration",
    "ArchiveEpoch",
    "ArchiveExperiment",
    "ArchiveGroup",
    "ArchiveItem",
    "ArchiveMetadata",
    "ExploitTrace",
    "ExposureRow",
    "FailureObservation",
    "FeedbackAtom",
]


class ArchiveGroup(Strict):
    """A near-duplicate group and the split it is assigned to."""

    group_id: str | None = None
    epoch_id: str | None = None
    split: Literal["development", "calibration", "confirmatory_hidden"] | None = None  # 15
    family_label: str | None = None
    source_ids: list[str] | None = None
    template_ids: list[str] | None = None


class ArchiveItem(Strict):
    """An item and its group."""

    item_id: str | None = None
    group_id: str | None = None


class ArchiveEpoch(Strict):
    """An evaluation epoch."""

    epoch_id: str | None = None
    status: Literal["draft", "active", "closed"] | None = None  # 15: outside it, refused
    sealed: bool | None = None
    manifest_digest: str | None = None
    preregistered_configurations: list[str] | None = None


class ArchiveConfiguration(Strict):
    """A model/executor configuration."""

    config_id: str | None = None
    model_family: str | None = None
    model_id: str | None = None
    executor_id: str | None = None
    settings: dict[str, Any] | None = None


class FailureObservation(Strict):
    """An observed failure attributed to a mechanism."""

    observation_id: str | None = None
    mechanism_id: str | None = None
    group_id: str | None = None
    epoch_id: str | None = None
    config_id: str | None = None
    causal_status: Literal["confirmed", "suspected"] | None = None  # 15


class ArchiveExperiment(Strict):
    """A lower-rung experiment with its result."""

    experiment_id: str | None = None
    rung: int | None = None
    kind: Literal["confirmatory", "exploratory"] | None = None  # 15
    preregistered: bool | None = None
    sealed: bool | None = None
    epoch_id: str | None = None
    useful_effect: float | None = None
    estimate: float | None = None
    standard_error: float | None = None
    df: int | Literal["inf"] | None = None


class ExposureRow(Strict):
    """How often an epoch was executed against or disclosed."""

    epoch_id: str | None = None
    execution_looks: int | None = None
    disclosure_looks: int | None = None


class FeedbackAtom(Strict):
    """A private feedback atom and the scope its effect was confirmed for."""

    atom_id: str | None = None
    confirmed_effect_scope: str | None = None
    classification: str | None = None
    verbatim_ref: str | None = None


class ExploitTrace(Strict):
    """A recorded exploit and the items it touched."""

    trace_id: str | None = None
    epoch_id: str | None = None
    current_epoch: bool | None = None
    item_ids: list[str] | None = None


class ArchiveMetadata(Strict):
    """The whole archive metadata document."""

    archive_snapshot_id: str | None = None
    groups: list[ArchiveGroup] | None = None
    items: list[ArchiveItem] | None = None
    epochs: list[ArchiveEpoch] | None = None
    configurations: list[ArchiveConfiguration] | None = None
    failure_observations: list[FailureObservation] | None = None
    experiments: list[ArchiveExperiment] | None = None
    exposure_ledger: list[ExposureRow] | None = None
    feedback_atoms: list[FeedbackAtom] | None = None
    exploit_traces: list[ExploitTrace] | None = None
