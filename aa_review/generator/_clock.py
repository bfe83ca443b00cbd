"""A deterministic clock: every timestamp of a package comes from the seed, not the wall clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

__all__ = ["Clock"]

# The sample compiler's clock moved 0.104729 s between calls; keep that texture.
_TICK = 0.104729


class Clock:
    """ISO-8601 UTC timestamps (``...Z``, microseconds) at fixed offsets from a seeded start.

    Parameters
    ----------
    seed : int
        Picks the day and minute the package's task was created.
    """

    def __init__(self, seed: int) -> None:
        day = seed % 330
        self.start = datetime(2026, 1, 12, 7, 11, 0, 191849, tzinfo=UTC) + timedelta(
            days=day, seconds=(seed * 7919) % 1800
        )
        self._ticks = 0

    def at(self, seconds: float) -> str:
        """The timestamp ``seconds`` after the start."""
        t = self.start + timedelta(seconds=seconds)
        return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    def stamp(self, seconds: float) -> str:
        """Compact ``YYYYmmddTHHMMSSZ`` form (used in the compiler id)."""
        t = self.start + timedelta(seconds=seconds)
        return t.strftime("%Y%m%dT%H%M%SZ")

    def tick(self, seconds: float) -> str:
        """Timestamps that advance by a small step on every call, starting at ``seconds``."""
        self._ticks += 1
        return self.at(seconds + self._ticks * _TICK)
