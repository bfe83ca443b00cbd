"""Digest binding of a power simulation to its preregistration (spec 6.3)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DIGEST_PATTERN", "SimulationBinding", "is_digest", "simulation_binding"]

DIGEST_PATTERN = re.compile(r"^sha256:[0-9a-f]{64}$")


def is_digest(value: object) -> bool:
    """Whether ``value`` is a well-formed digest ``sha256:`` + 64 lowercase hex."""
    return isinstance(value, str) and DIGEST_PATTERN.fullmatch(value) is not None


@dataclass(frozen=True)
class SimulationBinding:
    """Outcome of :func:`simulation_binding`.

    Attributes
    ----------
    inputs_bound : bool
        ``digest(parameters) == inputs_digest == sealed_inputs_digest``.
    code_bound : bool
        ``code_digest`` well-formed and equal to ``sealed_code_digest``.
    sealed : bool
        The plan says ``sealed: true``.
    """

    inputs_bound: bool
    code_bound: bool
    sealed: bool

    @property
    def bound(self) -> bool:
        """All three hold: the claims rest on the sealed code and inputs."""
        return self.inputs_bound and self.code_bound and self.sealed


def simulation_binding(
    parameters_digest: str,
    inputs_digest: object,
    sealed_inputs_digest: object,
    code_digest: object,
    sealed_code_digest: object,
    sealed: object,
    *,
    simulated: bool = True,
    preregistered: bool = True,
) -> SimulationBinding:
    """Check that a simulation is digest-bound to its preregistration.

    With ``simulated`` or ``preregistered`` False, that side is absent (spec 15: the
    gate says it is missing) and its digests are not compared: the inputs are bound
    when ``parameters_digest`` is well-formed and equals the digests of the sides
    present, and the code when a present simulation's ``code_digest`` is well-formed
    and, with a preregistration, equals its ``sealed_code_digest``.

    Parameters
    ----------
    parameters_digest : str
        Canonical digest of the ``parameters`` object as parsed from the dossier.
    inputs_digest, sealed_inputs_digest : object
        ``simulation.inputs_digest`` and ``preregistration.sealed_inputs_digest``.
    code_digest, sealed_code_digest : object
        ``simulation.code_digest`` and ``preregistration.sealed_code_digest``.
    sealed : object
        The plan's ``sealed`` flag; only the literal ``True`` counts.
    simulated, preregistered : bool
        Whether the plan has a simulation, a preregistration.

    Returns
    -------
    SimulationBinding
        Which of the three bindings hold.
    """
    present = ((inputs_digest, simulated), (sealed_inputs_digest, preregistered))
    inputs_bound = is_digest(parameters_digest) and all(
        d == parameters_digest for d, here in present if here
    )
    code_bound = not simulated or (
        is_digest(code_digest) and (not preregistered or code_digest == sealed_code_digest)
    )
    return SimulationBinding(inputs_bound, code_bound, sealed is True)
