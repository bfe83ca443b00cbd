"""Recurrence of a residual mechanism: families, epochs, configuration classes (spec 6.7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MIN_CONFIGURATION_CLASSES",
    "MIN_EPOCHS",
    "MIN_FAMILIES",
    "RecurrenceScope",
    "recurrence_scope",
]

MIN_FAMILIES = 3
MIN_EPOCHS = 2
MIN_CONFIGURATION_CLASSES = 2
_QUALIFYING_EPOCH_STATUS = frozenset({"active", "closed"})

Record = Mapping[str, Any]


@dataclass(frozen=True)
class RecurrenceScope:
    """F, E and C over the qualifying observations.

    Attributes
    ----------
    families : int
        F, distinct independent task families (graph components).
    epochs : int
        E, distinct sealed evaluation epochs.
    configuration_classes : int
        C, distinct ``(model_family, executor_id)`` pairs.
    qualifying, ignored, unresolved : tuple of str
        Observation ids that count, that exist but do not qualify, and that
        are not in the archive at all.
    """

    families: int
    epochs: int
    configuration_classes: int
    qualifying: tuple[str, ...]
    ignored: tuple[str, ...]
    unresolved: tuple[str, ...]

    @property
    def passes(self) -> bool:
        """F >= 3 and E >= 2 and C >= 2, each counted over the whole set."""
        return (
            self.families >= MIN_FAMILIES
            and self.epochs >= MIN_EPOCHS
            and self.configuration_classes >= MIN_CONFIGURATION_CLASSES
        )


def recurrence_scope(
    observation_ids: Iterable[str],
    mechanism_id: str,
    observations: Mapping[str, Record],
    epochs: Mapping[str, Record],
    configurations: Mapping[str, Record],
    component_of: Mapping[str, str],
) -> RecurrenceScope:
    """Count the scope of the observations a recurrence claim rests on.

    An observation qualifies when its mechanism matches, its causal status is
    ``confirmed``, its epoch exists, is sealed and ``active`` or ``closed``, its
    configuration exists and is preregistered in that epoch, and its group
    exists. Non-qualifying observations are ignored, not failures.

    Parameters
    ----------
    observation_ids : iterable of str
        The ids the claim lists (duplicates count once).
    mechanism_id : str
        The dossier's mechanism.
    observations, epochs, configurations : mapping of id to record
        Archive records by id (``failure_observations``, ``epochs``, ``configurations``).
    component_of : mapping of str to str
        Group id -> component id (section 3); a group exists iff it is a key.

    Returns
    -------
    RecurrenceScope
        The three counts and which ids qualified.
    """
    qualifying: list[str] = []
    ignored: list[str] = []
    unresolved: list[str] = []
    families: set[str] = set()
    epoch_ids: set[str] = set()
    classes: set[tuple[str, str]] = set()
    for oid in dict.fromkeys(observation_ids):
        obs = observations.get(oid)
        if obs is None:
            unresolved.append(oid)
            continue
        facts = _qualify(obs, mechanism_id, epochs, configurations, component_of)
        if facts is None:
            ignored.append(oid)
            continue
        qualifying.append(oid)
        families.add(facts[0])
        epoch_ids.add(facts[1])
        classes.add(facts[2])
    return RecurrenceScope(
        len(families),
        len(epoch_ids),
        len(classes),
        tuple(qualifying),
        tuple(ignored),
        tuple(unresolved),
    )


def _qualify(
    obs: Record,
    mechanism_id: str,
    epochs: Mapping[str, Record],
    configurations: Mapping[str, Record],
    component_of: Mapping[str, str],
) -> tuple[str, str, tuple[str, str]] | None:
    if obs.get("mechanism_id") != mechanism_id or obs.get("causal_status") != "confirmed":
        return None
    epoch = epochs.get(obs.get("epoch_id"))  # type: ignore[arg-type]  # Mapping.get's stubs want a str key; a missing id (None) simply finds nothing
    if epoch is None or epoch.get("sealed") is not True:
        return None
    if epoch.get("status") not in _QUALIFYING_EPOCH_STATUS:
        return None
    config_id = obs.get("config_id")
    config = configurations.get(config_id)  # type: ignore[arg-type]  # Mapping.get's stubs want a str key; a missing id (None) simply finds nothing
    if config is None or config_id not in (epoch.get("preregistered_configurations") or ()):
        return None
    family, executor = config.get("model_family"), config.get("executor_id")
    component = component_of.get(obs.get("group_id"))  # type: ignore[arg-type]  # Mapping.get's stubs want a str key; a missing id (None) simply finds nothing
    if component is None or not family or not executor:
        return None
    return component, str(obs["epoch_id"]), (str(family), str(executor))
