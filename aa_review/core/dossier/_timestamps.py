"""RFC 3339 UTC timestamps of the exact form ``YYYY-MM-DDTHH:MM:SSZ`` (spec 1.2)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["TIMESTAMP_PATTERN", "format_timestamp", "is_timestamp", "parse_timestamp"]

TIMESTAMP_PATTERN = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def is_timestamp(value: object) -> bool:
    """Whether ``value`` is a string of the exact form and a real calendar instant."""
    return parse_timestamp(value) is not None


def parse_timestamp(value: object) -> datetime | None:
    """The aware UTC datetime of a timestamp string, or None if it is malformed.

    Timestamps stay strings inside the dossier; they are parsed only to compare.
    """
    if not isinstance(value, str) or not TIMESTAMP_PATTERN.fullmatch(value):
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return None


def format_timestamp(moment: datetime) -> str:
    """Render an aware datetime as ``YYYY-MM-DDTHH:MM:SSZ`` in UTC (sub-seconds dropped).

    Raises
    ------
    ValueError
        If ``moment`` is naive: a clock must say which time zone it means.
    """
    if moment.tzinfo is None:
        raise ValueError("the clock returned a naive datetime; return an aware UTC datetime")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
