"""The archive as the gates read it: validated once, indexed by id, with its task graph."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from aa_review.core.dossier._canonical import canonical_json
from aa_review.core.dossier._errors import ArchiveSchemaError
from aa_review.core.dossier._graph import TaskGraph
from aa_review.core.dossier._models_archive import (
    ArchiveConfiguration,
    ArchiveEpoch,
    ArchiveExperiment,
    ArchiveGroup,
    ArchiveItem,
    ArchiveMetadata,
    ExploitTrace,
    FailureObservation,
    FeedbackAtom,
)
from aa_review.core.dossier._models_strict import schema_problems

__all__ = ["Archive", "parse_archive"]


@dataclass(frozen=True)
class Archive:
    """Read-only, indexed archive metadata (spec 2.6); trusted over the dossier.

    Attributes
    ----------
    raw : dict
        The parsed JSON (private; used for the projection's canary check).
    model : ArchiveMetadata
        The typed view.
    graph : TaskGraph
        Components of the group/source/template graph.
    groups, items, epochs, configurations, observations, experiments, atoms : dict
        Records by id.
    exposure : dict of str to tuple of int
        Epoch id -> summed ``(execution_looks, disclosure_looks)`` over its ledger rows.
    traces : tuple of ExploitTrace
        All exploit traces.
    """

    raw: dict[str, Any]
    model: ArchiveMetadata
    graph: TaskGraph
    groups: dict[str, ArchiveGroup]
    items: dict[str, ArchiveItem]
    epochs: dict[str, ArchiveEpoch]
    configurations: dict[str, ArchiveConfiguration]
    observations: dict[str, FailureObservation]
    experiments: dict[str, ArchiveExperiment]
    atoms: dict[str, FeedbackAtom]
    exposure: dict[str, tuple[int, int]]
    traces: tuple[ExploitTrace, ...]


def parse_archive(raw: object) -> Archive:
    """Validate and index archive metadata.

    Raises
    ------
    ArchiveSchemaError
        Wrong JSON types, a record without its id, or an id used twice: an archive
        the validator cannot trust is never guessed at.
    """
    if not isinstance(raw, dict):
        raise ArchiveSchemaError(["<root>: archive metadata must be a JSON object"])
    try:
        canonical_json(raw)
        model = ArchiveMetadata.model_validate(raw)
    except ValidationError as exc:
        raise ArchiveSchemaError(schema_problems(exc)) from None
    except (TypeError, ValueError) as exc:
        raise ArchiveSchemaError([f"<root>: not canonical JSON ({exc})"]) from None
    problems: list[str] = []
    groups = _index(model.groups, "groups", "group_id", problems)
    items = _index(model.items, "items", "item_id", problems)
    epochs = _index(model.epochs, "epochs", "epoch_id", problems)
    configs = _index(model.configurations, "configurations", "config_id", problems)
    observations = _index(
        model.failure_observations, "failure_observations", "observation_id", problems
    )
    experiments = _index(model.experiments, "experiments", "experiment_id", problems)
    atoms = _index(model.feedback_atoms, "feedback_atoms", "atom_id", problems)
    exposure: dict[str, tuple[int, int]] = {}
    for i, row in enumerate(model.exposure_ledger or ()):
        if not row.epoch_id or row.execution_looks is None or row.disclosure_looks is None:
            problems.append(f"exposure_ledger[{i}]: needs epoch_id and both look counts")
            continue
        ex, di = exposure.get(row.epoch_id, (0, 0))
        exposure[row.epoch_id] = (ex + row.execution_looks, di + row.disclosure_looks)
    if problems:
        raise ArchiveSchemaError(problems)
    return Archive(
        raw=copy.deepcopy(raw),
        model=model,
        graph=TaskGraph.from_groups(list(groups.values())),
        groups=groups,
        items=items,
        epochs=epochs,
        configurations=configs,
        observations=observations,
        experiments=experiments,
        atoms=atoms,
        exposure=exposure,
        traces=tuple(model.exploit_traces or ()),
    )


def _index(
    records: Sequence[Any] | None, name: str, key: str, problems: list[str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, rec in enumerate(records or ()):
        rid = getattr(rec, key)
        if not rid:
            problems.append(f"{name}[{i}]: {key} is missing")
        elif rid in out:
            problems.append(f"{name}[{i}]: {key} {rid!r} is used twice")
        else:
            out[rid] = rec
    return out
