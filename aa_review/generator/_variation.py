"""Varied packages: rows citing subsets of a catalog of hundreds of items, scores spread.

Compiler 0.2.1 gives every row every evidence ref (format 12.12) and one set of scores
per round (7.6), so a generated package is degenerate for everything that depends on
how rows differ: filters, linked views, the row <-> evidence index, the audit's
"same as the previous row" caches. A :class:`Variation` catalogues extra evidence
files (some of them under ``hidden_reference/``), gives the rows of each trace step a
subset of the catalog (the task spec and rubric, some of the compiler's own refs, a
window of the extra items that moves along the trace, now and then a hidden item) and
spreads each row's scores. Everything that follows from a row's refs (ids, content
hashes, evaluation refs, its link) and from its scores (``evidence_confidence``)
follows, so a varied package audits like a clean one but for what the variation asks
for: hidden items cited (``link.hidden_cited``) and scores under the compiler's
threshold (``row.low_score``).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from ._ctx import Ctx
from ._evidence import Evidence, ExtraRef
from ._jsonfast import Raw

__all__ = ["Variation", "VARIED", "extra_evidence", "RowVariety", "VARIED_KEYS"]

# Row fields a variation sets per row (all in the common block, format 4.1).
EVIDENCE_KEYS = (
    "source_evaluation_refs",
    "evidence_refs",
    "source_evidence_ref_ids",
    "source_content_hashes",
)
SCORE_KEYS = (
    "quality_score",
    "fidelity_score",
    "difficulty_score",
    "learnability_score",
    "reuse_value_score",
    "confidence",
    "evidence_confidence",
)
VARIED_KEYS = frozenset(EVIDENCE_KEYS + SCORE_KEYS)
_EVAL_PREFIXES = ("grading/", "feedback/", "signals/")
_MIN_SCORE = 0.65  # the compiler's default threshold (rows below it are reported)


@dataclass(frozen=True)
class Variation:
    """How a varied package differs from the compiler's uniform rows.

    Attributes
    ----------
    items : int
        Catalog size to reach: extra evidence files are written and catalogued
        beyond the compiler's own refs (about 33), ``hidden`` of them hidden.
    hidden : int
        Extra items under ``hidden_reference/`` (catalogued ``hidden_excluded``).
    hidden_every : int
        Every so many trace steps, the step's rows also cite one hidden item
        (0: no row cites one; they are then catalogued and uncited).
    low_score_every : int
        About one row in so many gets a quality score under the compiler's 0.65
        threshold (0: none).
    """

    items: int = 400
    hidden: int = 12
    hidden_every: int = 97
    low_score_every: int = 0

    def __post_init__(self) -> None:
        if self.items < 0 or self.hidden < 0 or self.hidden_every < 0 or self.low_score_every < 0:
            raise ValueError("variation counts must not be negative")
        if self.hidden_every and not self.hidden:
            raise ValueError("hidden_every needs hidden items to cite")


VARIED = Variation()  # the benchmarks' stress shape

_KINDS = (
    ("attempts/revised/artifacts/evidence/vendor_statement_{:03d}.csv", "csv"),
    ("input/evidence/bank_export_{:03d}.csv", "csv"),
    ("attempts/baseline/artifacts/evidence/match_note_{:03d}.json", "json"),
    ("attempts/revised/artifacts/evidence/exception_{:03d}.json", "json"),
)
_VENDORS = ("Acme Supply", "Northwind", "Globex", "Initech", "Umbrella Freight", "Stark Parts")


def _content(kind: str, rnd: random.Random, n: int) -> str:
    """A small evidence file: a CSV extract or a JSON note of ``n`` records."""
    if kind == "csv":
        lines = ["invoice_id,vendor,amount,currency,status"]
        for _ in range(n):
            lines.append(
                f"INV-{rnd.randrange(10**6):06d},{rnd.choice(_VENDORS)},"
                f"{rnd.randrange(100, 10**6) / 100:.2f},{rnd.choice(('USD', 'EUR'))},"
                f"{rnd.choice(('matched', 'open', 'exception'))}"
            )
        return "\n".join(lines) + "\n"
    notes = [
        {
            "invoice_id": f"INV-{rnd.randrange(10**6):06d}",
            "vendor": rnd.choice(_VENDORS),
            "note": rnd.choice(
                (
                    "amount differs by fx rounding",
                    "duplicate payment",
                    "payment pending",
                    "matched after currency conversion",
                )
            ),
        }
        for _ in range(n)
    ]
    return json.dumps({"records": notes}, indent=2) + "\n"


def extra_evidence(ctx: Ctx, var: Variation, base: int) -> list[ExtraRef]:
    """Write the extra evidence files (``var.items - base`` of them) and name them for the
    catalog, hidden ones last; no row cites them until :class:`RowVariety` chooses."""
    rnd = random.Random(f"variation-files:{ctx.seed}")
    n = max(0, var.items - base)
    hidden = min(var.hidden, n)
    out: list[ExtraRef] = []
    for i in range(n - hidden):
        pattern, kind = _KINDS[i % len(_KINDS)]
        ref = pattern.format(i)
        # sizes spread over two orders of magnitude, as real extracts do
        ctx.write_text(ref, _content(kind, rnd, int(3 * 60 ** rnd.random())))
        out.append(ExtraRef(ref, cited=False))
    for j in range(hidden):
        ref = f"hidden_reference/graded_answer_{j:02d}.json"
        ctx.write_text(ref, _content("json", rnd, 4 + rnd.randrange(20)))
        out.append(ExtraRef(ref, cited=False))
    return out


def _unit(key: str) -> tuple[float, float, float, int]:
    """Three uniform numbers in [0, 1) and an integer, from ``key`` (deterministic)."""
    d = hashlib.blake2b(key.encode(), digest_size=32).digest()
    a, b, c, e = (int.from_bytes(d[i : i + 8], "little") for i in (0, 8, 16, 24))
    return a / 2**64, b / 2**64, c / 2**64, e


class RowVariety:
    """Per-row evidence subsets and scores of one varied package."""

    def __init__(self, var: Variation, ev: Evidence, steps: int, seed: int) -> None:
        self.var, self.ev, self.seed = var, ev, seed
        cat = ev.catalog
        n_base = len(ev.evidence_refs)
        self._refs = [e["ref"] for e in cat]
        self._ids = [e["evidence_id"] for e in cat]
        self._hash = [e["content_hash"] for e in cat]
        self._hidden = [i for i in range(n_base, len(cat)) if _is_hidden(cat[i])]
        self._extra = [i for i in range(n_base, len(cat)) if not _is_hidden(cat[i])]
        self._n_base = n_base
        self._steps = max(1, steps)
        self._sets: dict[int, dict[str, Raw]] = {}

    def step_fields(self, position: int) -> dict[str, Raw]:
        """Evidence fields of the rows of the trace step at ``position`` (0-based, baseline
        steps first), the same for every row of the step."""
        got = self._sets.get(position)
        if got is None:
            got = self._sets[position] = self._fields(self._choose(position))
        return got

    def _choose(self, p: int) -> list[int]:
        rnd = random.Random(f"variation-set:{self.seed}:{p}")
        chosen = {0, 1} & set(range(self._n_base))  # the task spec and rubric (format 2.2)
        chosen.update(i for i in range(2, self._n_base) if rnd.random() < 0.3)
        extra = self._extra
        if extra:
            # Each step owns a slice of the extra items (so every one is cited), widened by
            # a skewed amount, so that sets overlap and vary in size (a few to ~60 items).
            lo = p * len(extra) // self._steps
            hi = max(lo + 1, (p + 1) * len(extra) // self._steps)
            lo -= int(rnd.random() ** 3 * 30)
            hi += int(rnd.random() ** 3 * 30)
            chosen.update(extra[max(0, lo) : min(len(extra), hi)])
        every = self.var.hidden_every
        if every and self._hidden and p % every == every - 1:
            chosen.add(self._hidden[(p // every) % len(self._hidden)])
        return sorted(chosen)

    def _fields(self, pos: list[int]) -> dict[str, Raw]:
        refs = [self._refs[i] for i in pos]
        hashes: dict[str, str] = {}
        for i in pos:  # the first 24 cited refs that have a hash (format 4.1)
            h = self._hash[i]
            if h is not None and len(hashes) < 24:
                hashes[self._refs[i]] = h
        return {
            "source_evaluation_refs": Raw([r for r in refs if r.startswith(_EVAL_PREFIXES)]),
            "evidence_refs": Raw(refs),
            "source_evidence_ref_ids": Raw([self._ids[i] for i in pos]),
            "source_content_hashes": Raw(hashes),
        }

    def scores(self, key: str) -> dict[str, float]:
        """The score fields of one row (``key`` names it), spread around the round's."""
        u1, u2, u3, e = _unit(f"variation-score:{self.seed}:{key}")
        low = self.var.low_score_every
        if low and e % low == 0:
            q = 0.50 + (_MIN_SCORE - 0.51) * u1  # under the threshold
        else:
            q = 0.66 + 0.33 * (u1 + u2) / 2
        conf = min(1.0, max(0.5, q + 0.02 + 0.16 * (u3 - 0.5)))
        return {
            "quality_score": round(q, 4),
            "fidelity_score": round(min(1.0, q + 0.04), 4),
            "difficulty_score": round(min(1.0, max(0.35, q - 0.08)), 4),
            "learnability_score": round(min(1.0, q + 0.02), 4),
            "reuse_value_score": round(min(1.0, q + 0.03), 4),
            "confidence": round(conf, 4),
            "evidence_confidence": round(conf, 4),
        }


def _is_hidden(entry: dict[str, Any]) -> bool:
    return bool(entry.get("visibility") == "hidden_excluded")
