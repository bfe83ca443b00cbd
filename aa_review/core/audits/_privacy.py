"""Privacy and sanitizer checks of row content: keys and strings, with a cheap prefilter."""

from __future__ import annotations

from typing import Any

import orjson

from aa_review.core.audits._privacy_lists import (
    CONTROLLER_KEYS,
    FORBIDDEN_KEYS,
    LOCAL_PATH_RE,
    PAIR_SOURCES,
    PRIVATE_RE,
    PUBLIC_OMIT_KEYS,
    SECRET_HINTS,
    SECRET_RE,
    VALIDATOR_TOKENS,
)
from aa_review.core.audits._rowdiff import RowDiff, Step

__all__ = ["PrivacyScanner", "check_text", "check_key", "mask"]

Hit = tuple[str, str, str]  # (code, key path, what was found - never a full secret)


def _minimal(needles: list[str]) -> tuple[str, ...]:
    """Drop needles that contain another needle: finding the shorter one is enough."""
    uniq = sorted(set(needles), key=len)
    out: list[str] = []
    for n in uniq:
        if not any(m in n for m in out):
            out.append(n)
    return tuple(out)


_LOWER_NEEDLES = _minimal(
    [
        *VALIDATOR_TOKENS,
        *SECRET_HINTS,
        "/users/",
        "/home/",
        "/private/",
        "/tmp/",
        "/var/folders/",
        ".env",
        "_iterations",
        "stop_on_",
    ]
)
_EXACT_NEEDLES = _minimal(
    [*PAIR_SOURCES, "[internal controller setting omitted]_", "EXPERIENCE COMPILER"]
)
_WORD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_QUIRK_MARKERS = ("EXPERIENCE COMPILER", "[internal controller setting omitted]_")


def mask(secret: str) -> str:
    """A secret shown safely: its first 4 characters and its length."""
    return f"{secret[:4]}... ({len(secret)} characters, masked)"


def suspicious(text: str) -> bool:
    """Cheap test: False proves ``text`` (possibly many strings joined) holds no hit."""
    low = text.lower()
    return any(n in low for n in _LOWER_NEEDLES) or any(n in text for n in _EXACT_NEEDLES)


def check_text(s: str, path: str) -> list[Hit]:
    """Every privacy/sanitizer hit in one string."""
    hits: list[Hit] = []
    for m in SECRET_RE.finditer(s):
        hits.append(("privacy.secret", path, mask(m.group(0))))
    for m in PRIVATE_RE.finditer(s):
        after = s[m.end() : m.end() + 1].lower()
        if m.group(0) == ".env" and after and after in _WORD:
            hits.append(("quirk.private_re_overmatch", path, s[m.start() : m.end() + 12]))
        else:
            hits.append(("privacy.private_path", path, _snippet(s, m.start(), m.end())))
    for m in LOCAL_PATH_RE.finditer(s):
        if m.group(1) == "/home/":
            hits.append(("privacy.private_path", path, _snippet(s, m.start(), m.end())))
    low = s.lower()
    for tok in VALIDATOR_TOKENS:
        at = low.find(tok)
        while at >= 0:
            inside = at > 0 and low[at - 1] in _WORD
            hits.append(
                (
                    "quirk.token_substring" if inside else "privacy.forbidden_token",
                    path,
                    _snippet(s, at, at + len(tok)),
                )
            )
            at = low.find(tok, at + len(tok))
    tokens_found = {h[2].lower() for h in hits if h[0] == "privacy.forbidden_token"}
    for src in PAIR_SOURCES:
        if src in s and not any(src.lower() in t for t in tokens_found):
            hits.append(("privacy.unsanitized_text", path, f"'{src}' (the sanitizer rewrites it)"))
    for key in CONTROLLER_KEYS:
        if key in s:
            hits.append(
                (
                    "privacy.unsanitized_text",
                    path,
                    f"controller setting '{key}' (the sanitizer omits it)",
                )
            )
    for marker in _QUIRK_MARKERS:
        at = s.find(marker)
        if at >= 0 and _inside_word(s, at, marker):
            hits.append(("quirk.upper_replacement", path, _snippet(s, at, at + len(marker))))
    return hits


def _inside_word(s: str, at: int, marker: str) -> bool:
    before = s[at - 1 : at].lower()
    after = s[at + len(marker) : at + len(marker) + 1].lower()
    if marker.endswith("_"):
        return True  # "[internal controller setting omitted]_reached": a key inside a token
    return bool(before and before in _WORD) or bool(after and after in _WORD)


def _snippet(s: str, start: int, end: int) -> str:
    lo, hi = max(0, start - 20), min(len(s), end + 20)
    return ("..." if lo else "") + s[lo:hi] + ("..." if hi < len(s) else "")


def check_key(key: str, path: str) -> list[Hit]:
    """Hits for an object key (keys are walked before values, format 8.1)."""
    if key.lower() in FORBIDDEN_KEYS:
        return [("privacy.forbidden_key", path, key)]
    if key in PUBLIC_OMIT_KEYS or key in CONTROLLER_KEYS or key.startswith("stop_on_"):
        return [("privacy.unsanitized_text", path, f"key '{key}' (the sanitizer drops it)")]
    return [h for h in check_text(key, path) if h[0] != "privacy.forbidden_token"]


def _walk(value: Any, path: str, hits: list[Hit]) -> None:
    t = type(value)
    if t is str:
        hits.extend(check_text(value, path))
    elif t is dict:
        for k, v in value.items():
            sub = f"{path}.{k}" if path else k
            hits.extend(check_key(k, sub))
            _walk(v, sub, hits)
    elif t is list:
        for i, v in enumerate(value):
            _walk(v, f"{path}[{i}]", hits)


_STR = {str}
_LEAVES = frozenset({str, int, float, bool, type(None)})  # values holding no container


def _strings(value: Any, out: list[str]) -> None:
    """Every key and string in ``value``, appended to ``out`` (in no particular order)."""
    t = type(value)
    if t is str:
        out.append(value)
    elif t is dict:
        out.extend(value)
        _members(value.values(), out)
    elif t is list:
        _members(value, out)


def _members(values: Any, out: list[str]) -> None:
    """:func:`_strings` of each of a container's ``values``; strings among scalars only
    are taken at C speed, without a call per string."""
    kinds = set(map(type, values))
    if kinds <= _STR:
        out.extend(values)
    elif not kinds <= _LEAVES:
        for v in values:
            _strings(v, out)
    elif str in kinds:
        out.extend([v for v in values if type(v) is str])


class _State:
    """One key layout's top-level key hits; ``fresh``: check every value of the next row."""

    __slots__ = ("key_hits", "fresh")

    def __init__(self, sig: tuple[str, ...]) -> None:
        self.key_hits = [h for k in sig for h in check_key(k, k)]
        self.fresh = True


class PrivacyScanner:
    """Scans rows in batches: only strings not seen before are searched, many rows at once.

    A value equal to the previous row's (same keys) holds equal strings, and a string
    already found clean stays clean, so both are skipped. The new strings of a batch
    are searched together; only when that text is suspicious are the batch's rows
    walked one by one, with key paths. Results are exact either way. Rows fed with
    their raw line are kept as those bytes and parsed again in that rare case: holding
    thousands of parsed rows alive costs every row more than the parse ever does.
    """

    BATCH_CHARS = 64 * 1024
    BATCH_ROWS = 2000
    MAX_SEEN = 500_000

    def __init__(self) -> None:
        self._diff = RowDiff()
        self._states: list[_State] = []
        self._seen: set[str] = set()
        self._rows: list[tuple[int, dict[str, Any] | bytes]] = []
        self._new: list[str] = []
        self._chars = 0
        self._hits: list[tuple[int, Hit]] = []

    def feed(
        self, pos: int, row: dict[str, Any], step: Step | None = None, raw: bytes | None = None
    ) -> None:
        """Queue a row; its hits come out of :meth:`flush`, tagged with ``pos``.

        ``step`` is the row's diff against the previous row with the same keys (made
        here when not given); ``raw`` is the JSON line ``row`` was parsed from.
        """
        if step is None:
            step = self._diff.step(row)
        lay = step.layout
        st = lay.state.get("privacy")
        if st is None:
            st = lay.state["privacy"] = _State(lay.sig)
            self._states.append(st)
        self._hits.extend((pos, h) for h in st.key_hits)
        vals = step.vals
        changed: Any = step.changed
        if changed is None or st.fresh:
            changed = lay.rng
            st.fresh = False
        texts: list[str] = []
        for i in changed:
            _strings(vals[i], texts)
        seen = self._seen
        new = [t for t in texts if t not in seen]
        if new or self._new:  # rows before the first unseen string are known clean
            self._rows.append((pos, row if raw is None else raw))
        if new:
            self._new.extend(new)
            self._chars += sum(map(len, new))
        if self._chars >= self.BATCH_CHARS or len(self._rows) >= self.BATCH_ROWS:
            self._check_batch()

    def _check_batch(self) -> None:
        rows, new = self._rows, self._new
        self._rows, self._new, self._chars = [], [], 0
        if new and suspicious("\n".join(new)):
            for pos, kept in rows:  # walk each row's values whole: exact, and rare
                row = orjson.loads(kept) if isinstance(kept, bytes) else kept
                found: list[Hit] = []
                for k, v in row.items():
                    _walk(v, k, found)
                self._hits.extend((pos, h) for h in found)
            for st in self._states:
                st.fresh = True  # values with hits may repeat: the next rows start afresh
            new = [t for t in new if not check_text(t, "")]
        if len(self._seen) < self.MAX_SEEN:
            self._seen.update(new)

    def flush(self) -> list[tuple[int, Hit]]:
        """Check what is queued; every hit so far as ``(pos, hit)``, in row order."""
        self._check_batch()
        hits, self._hits = self._hits, []
        hits.sort(key=lambda t: t[0])
        return hits

    def scan_row(self, row: dict[str, Any]) -> list[Hit]:
        """The hits of one row (convenience for tests and small callers)."""
        self.feed(0, row)
        return [h for _, h in self.flush()]
