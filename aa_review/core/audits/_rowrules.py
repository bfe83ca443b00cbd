"""The per-row rules (format 4, 7.5, 8, 10.2), applied to one parsed row at a time."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from aa_review.core.audits._canon import Canon, id_from_seed, sha256_text
from aa_review.core.audits._privacy import PrivacyScanner
from aa_review.core.audits._privacy_lists import SANITIZED_MARKERS
from aa_review.core.audits._refrules import RefFacts, RefRules
from aa_review.core.audits._rowdiff import RowDiff, Step
from aa_review.core.package.derive import evidence_id

__all__ = ["ScanConfig", "RowAuditor", "RowHit", "CORE_TYPES"]

CORE_TYPES = frozenset(
    {"training_example", "evaluation_example", "verifier_example", "reward_model_row"}
)
_CONCRETE_PREFIXES = (
    "traces/",
    "attempts/",
    "artifacts/",
    "outputs/",
    "evaluation/",
    "grading/",
    "feedback/",
    "signals/",
    "loops/",
)
_SCORES = ("quality_score", "fidelity_score", "reuse_value_score")
_MIN_SCORE = 0.65
_REF_LISTS = (
    "evidence_refs",
    "source_artifact_refs",
    "source_evaluation_refs",
    "visible_input_refs",
)

_MEMO = 100_000  # refs whose evidence id is remembered (a row cites a few dozen)
# (code, key path, ref, evidence id, message)
RowHit = tuple[str, str | None, str | None, str | None, str]


@dataclass(frozen=True)
class ScanConfig:
    """What every row is checked against; sent once to each worker process."""

    root: str
    task_id: str | None
    row_schema: str | None
    catalog_hash: dict[str, str | None] = field(default_factory=dict)
    catalog_derived: bool = False
    ref_facts: dict[str, RefFacts] = field(default_factory=dict)
    rules: frozenset[str] = frozenset()
    cap: int = 200
    # Tells one audit's configuration from another's after pickling (worker caches).
    token: str = field(default_factory=lambda: uuid.uuid4().hex)


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == {} or v == []


class RowAuditor:
    """Applies every enabled rule to a row; keeps caches of values seen before."""

    def __init__(self, cfg: ScanConfig) -> None:
        self.cfg = cfg
        self.on = cfg.rules
        self.diff = RowDiff()
        self.canon = Canon()
        self.privacy = PrivacyScanner()
        self.refs = RefRules(cfg.root, cfg.ref_facts)
        self._step: Step | None = None
        self._ids_cache: tuple[Any, list[str], list[RowHit]] | None = None
        self._hash_cache: tuple[Any, list[RowHit]] | None = None
        self._ids_of: dict[str, str] = {}  # ref -> evidence id: rows cite the catalog's refs

    def check(self, row: dict[str, Any], data_type: str) -> tuple[list[RowHit], bool]:
        """Hits for one row, and whether it cites hidden evidence by ref.

        Values equal to the previous row's (same keys) reuse that row's results.
        """
        on = self.on
        hits: list[RowHit] = []
        step = self._step = self.diff.step(row)
        get = row.get
        if "row.data_type" in on and get("data_type") != data_type:
            hits.append(
                (
                    "row.data_type",
                    "data_type",
                    None,
                    None,
                    f"data_type is {get('data_type')!r}; this file holds {data_type!r} rows",
                )
            )
        if (
            "row.schema_version" in on
            and self.cfg.row_schema
            and get("schema_version") != self.cfg.row_schema
        ):
            hits.append(
                (
                    "row.schema_version",
                    "schema_version",
                    None,
                    None,
                    f"schema_version is {get('schema_version')!r}, the package's rows "
                    f"are {self.cfg.row_schema!r}",
                )
            )
        if "row.not_accepted" in on and (
            get("accepted") is not True or get("rejection_reason") is not None
        ):
            hits.append(
                (
                    "row.not_accepted",
                    "accepted",
                    None,
                    None,
                    f"accepted={get('accepted')!r}, rejection_reason="
                    f"{get('rejection_reason')!r}: a rejected row sits in a training file",
                )
            )
        lineage = get("task_lineage")
        if "row.missing_lineage" in on and (
            not isinstance(lineage, dict) or not lineage.get("source_task_id")
        ):
            hits.append(
                (
                    "row.missing_lineage",
                    "task_lineage",
                    None,
                    None,
                    "task_lineage is missing or has no source_task_id (validator rule 5)",
                )
            )
        if "row.missing_domain" in on:
            for key in ("domain", "workflow_family"):
                if not get(key):
                    hits.append(
                        (
                            "row.missing_domain",
                            key,
                            None,
                            None,
                            f"{key} is empty (validator rule 6)",
                        )
                    )
        ids = get("source_evidence_ref_ids")
        if "row.missing_evidence_ids" in on and not ids:
            hits.append(
                (
                    "row.missing_evidence_ids",
                    "source_evidence_ref_ids",
                    None,
                    None,
                    "source_evidence_ref_ids is empty (validator rule 7)",
                )
            )
        if data_type in CORE_TYPES:
            for key, code in (
                ("input", "row.missing_core_input"),
                ("target", "row.missing_core_target"),
            ):
                if code in on and _empty(get(key)):
                    hits.append(
                        (
                            code,
                            key,
                            None,
                            None,
                            f"{key} is empty; {data_type} rows need one (validator rule 8)",
                        )
                    )
        if "row.insufficient_evidence" in on and not self._concrete(row):
            hits.append(
                (
                    "row.insufficient_evidence",
                    None,
                    None,
                    None,
                    "no trace id, step/attempt/artifact/evaluation refs or concrete "
                    "evidence ref (validator rule 9)",
                )
            )
        if "row.low_score" in on:
            for key in _SCORES:
                v = get(key)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    if (v / 100 if v > 1 else v) < _MIN_SCORE:
                        hits.append(
                            (
                                "row.low_score",
                                key,
                                None,
                                None,
                                f"{key} {v} is below the default threshold {_MIN_SCORE}",
                            )
                        )
        if "row.id_mismatch" in on or "row.hash_mismatch" in on:
            hits.extend(self._ids_and_hash(row))
        if "link.bad_evidence_id" in on and ids:
            cached = self._ids_cache
            if (
                cached is not None
                and step.unchanged("evidence_refs")
                and step.unchanged("source_evidence_ref_ids")
            ):
                hits.extend(cached[2])
            else:
                hits.extend(self._evidence_ids(row, ids))
        hidden = False
        for key in _REF_LISTS:
            value = get(key)
            if isinstance(value, list) and value:
                found, is_hidden = self.refs.check_list(key, value, on, step.unchanged(key))
                hits.extend(found)
                hidden = hidden or is_hidden
        hashes = get("source_content_hashes")
        if isinstance(hashes, dict) and hashes:
            hits.extend(self._content_hashes(hashes, step.unchanged("source_content_hashes")))
        return hits, hidden

    def feed_privacy(self, pos: int, row: dict[str, Any], raw: bytes | None = None) -> None:
        """Queue ``row`` (just passed to :meth:`check`, parsed from ``raw``) for the
        batched privacy scan."""
        if "privacy" in self.on:
            step = self._step
            self.privacy.feed(
                pos, row, step if step is not None and step.vals is not None else None, raw
            )

    def privacy_hits(self) -> list[tuple[int, RowHit]]:
        """Privacy hits of the rows fed so far, as ``(row position, hit)``."""
        return [
            (pos, (code, path, None, None, what))
            for pos, (code, path, what) in self.privacy.flush()
            if code in self.on
        ]

    # -- rules with caches ------------------------------------------------
    def _concrete(self, row: dict[str, Any]) -> bool:
        if row.get("source_trace_id"):
            return True
        for key in (
            "source_step_ids",
            "source_attempt_ids",
            "source_artifact_refs",
            "source_evaluation_refs",
        ):
            if row.get(key):
                return True
        refs = row.get("evidence_refs")
        return isinstance(refs, list) and any(
            isinstance(r, str) and r.startswith(_CONCRETE_PREFIXES) for r in refs
        )

    def _ids_and_hash(self, row: dict[str, Any]) -> list[RowHit]:
        out: list[RowHit] = []
        dt = row.get("data_type")
        text = self.canon.content_text(row, self._step)  # first: the id seed reuses it
        if "row.hash_mismatch" in self.on:
            stored = row.get("row_content_hash")
            want = sha256_text(text)
            if stored != want:
                out.append(
                    _sanitized_or(
                        _undo_sanitizer(text, stored, sha256_text) if stored else None,
                        "row_content_hash",
                        "row.hash_mismatch",
                        f"stored {stored}, recomputed {want}: the row's content changed after "
                        "compiling",
                    )
                )
        if "row.id_mismatch" in self.on:
            stored = row.get("pair_id") or row.get("row_id")
            seed, task = self.canon.seed_text(row, self.cfg.task_id)
            if stored and stored != id_from_seed(seed, dt, task):
                out.append(
                    _sanitized_or(
                        _undo_sanitizer(seed, stored, lambda t: id_from_seed(t, dt, task)),
                        "row_id",
                        "row.id_mismatch",
                        f"stored id {stored} does not recompute from the row's seed fields "
                        "(data_type, task, trace, steps, attempts, input, target, round): the row "
                        "was edited after compiling",
                    )
                )
            if row.get("pair_id") and row.get("row_id") and row["pair_id"] != row["row_id"]:
                out.append(
                    (
                        "row.id_mismatch",
                        "pair_id",
                        None,
                        None,
                        f"pair_id {row['pair_id']} differs from row_id {row['row_id']}",
                    )
                )
        return out

    def _evidence_ids(self, row: dict[str, Any], ids: Any) -> list[RowHit]:
        refs = row.get("evidence_refs")
        if not isinstance(refs, list):
            return []
        cached = self._ids_cache
        if cached is not None and cached[0] == refs:
            want = cached[1]
        else:
            ids_of = self._ids_of
            want = []
            for r in refs:
                if isinstance(r, str):
                    i = ids_of.get(r)
                    if i is None:
                        i = evidence_id(r)
                        if len(ids_of) < _MEMO:
                            ids_of[r] = i
                    want.append(i)
        out: list[RowHit] = []
        if ids != want:
            known = set(want)
            bad = (
                [i for i in ids if not isinstance(i, str) or i not in known]
                if isinstance(ids, list)
                else []
            )
            out.append(
                (
                    "link.bad_evidence_id",
                    "source_evidence_ref_ids",
                    None,
                    str(bad[0]) if bad else None,
                    "source_evidence_ref_ids is not the ids of evidence_refs "
                    f"({len(bad)} id(s) match no ref, order or count differs otherwise)",
                )
            )
        self._ids_cache = (refs, want, out)
        return out

    def _content_hashes(self, hashes: dict[str, Any], same: bool) -> list[RowHit]:
        if "hash.row_disagrees" not in self.on:
            return []
        cached = self._hash_cache
        if cached is not None and (same or cached[0] == hashes):
            return cached[1]
        out: list[RowHit] = []
        catalog = self.cfg.catalog_hash
        for ref, value in hashes.items():
            if ref not in catalog:
                out.append(
                    (
                        "hash.row_disagrees",
                        f"source_content_hashes.{ref}",
                        ref,
                        evidence_id(ref),
                        "the row records a hash for a ref the catalog does not hold",
                    )
                )
            elif catalog[ref] != value:
                now = (
                    "the file now hashes to" if self.cfg.catalog_derived else "the catalog records"
                )
                out.append(
                    (
                        "hash.row_disagrees",
                        f"source_content_hashes.{ref}",
                        ref,
                        evidence_id(ref),
                        f"the row records {value}, {now} {catalog[ref]}",
                    )
                )
        self._hash_cache = (hashes, out)
        return out


def _undo_sanitizer(text: str, stored: str, derive_fn: Any) -> str | None:
    """``"verified"`` when undoing one sanitizer replacement reproduces ``stored`` (12.6),
    ``"unverifiable"`` when a removed local path makes that impossible, else None."""
    for dst, src in SANITIZED_MARKERS:
        if dst in text and derive_fn(text.replace(dst, src)) == stored:
            return "verified"
    return "unverifiable" if "[local path omitted]" in text else None


def _sanitized_or(outcome: str | None, key: str, code: str, message: str) -> RowHit:
    if outcome == "verified":
        return (
            "quirk.id_before_sanitize",
            key,
            None,
            None,
            f"{key} was hashed from the text before the sanitizer rewrote it (format "
            "12.6); undoing the rewrite reproduces it, so the row is as compiled",
        )
    if outcome == "unverifiable":
        return (
            "row.unverifiable",
            key,
            None,
            None,
            f"{key} cannot be checked: the sanitizer replaced a local path in a hashed "
            "field with '[local path omitted]' after hashing (format 12.6)",
        )
    return (code, key, None, None, message)
