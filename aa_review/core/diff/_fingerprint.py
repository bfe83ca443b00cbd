"""A package's compact fingerprint: what a later diff needs, never a copy of the package.

Per row: its id, the xxh3-64 of its line and of its ``row_content_hash``, its file,
line, data type and cited evidence set (all numpy columns taken from the index).
Per evidence item: the catalog entry. Per contract or checklist document: a digest
and, when small, its parsed content. Saved as one compressed ``.npz`` file (no
pickled objects; the columns as ``col_<name>``, the rest as JSON in ``meta``), a few MB
for 100,000 rows.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import orjson

from aa_review.core.package.documents import DOC_PATHS, read_json
from aa_review.core.package.layout import EC_DIR
from aa_review.core.util.atomic import atomic_write
from aa_review.core.util.errors import AAReviewError

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = [
    "Fingerprint",
    "EvidenceFacts",
    "ContractDoc",
    "FingerprintError",
    "fingerprint",
    "CONTRACT_DOCS",
    "FINGERPRINT_FORMAT",
]

FINGERPRINT_FORMAT = "aa-review-fingerprint-v1"
# The contract and checklist documents a diff compares, by the name it reports them under.
CONTRACT_DOCS = {
    "output_contract": DOC_PATHS["output_contract"],
    "artifact_contract": DOC_PATHS["artifact_contract"],
    "transfer_checklist": f"{EC_DIR}/runtime_learning_package/transfer_checklist.json",
    "prefinal_checklist": DOC_PATHS["checklist"],
}
MAX_KEPT_DOC_BYTES = 1 << 20  # a larger contract document is kept as its digest only
_ROW_ARRAYS = (
    "row_id",
    "digest",
    "content_hash",
    "file",
    "line",
    "data_type",
    "set_code",
    "set_ptr",
    "set_members",
)
_MAX_META_BYTES = 512 << 20
_MAX_FILE_BYTES = 16 << 30  # uncompressed: far above any real package's fingerprint


class FingerprintError(AAReviewError):
    """A fingerprint file that cannot be read (missing, not a fingerprint, damaged)."""


class EvidenceFacts(NamedTuple):
    """One catalog entry as a diff compares it."""

    evidence_id: str
    ref: str
    evidence_type: str | None
    visibility: str | None
    resolves: bool | None
    content_hash: str | None
    confidence: float | None


class ContractDoc(NamedTuple):
    """A contract or checklist document: ``status`` is ok, missing or unreadable."""

    status: str
    digest: str | None
    content: Any  # parsed JSON, None when missing, unreadable or over MAX_KEPT_DOC_BYTES


@dataclass(frozen=True, eq=False)
class Fingerprint:
    """What :func:`diff` needs of one side; build with :func:`fingerprint`, or :meth:`load`.

    Row columns are numpy arrays in index order (file order, then line):
    ``row_id`` (bytes), ``digest`` and ``content_hash`` (uint64: xxh3-64 of the row's
    line and of its ``row_content_hash`` text, 0 when it has none), ``file`` and
    ``data_type`` (codes into ``files`` and ``data_types``), ``line`` and ``set_code``
    (the evidence set: positions into ``evidence_ids`` are
    ``set_members[set_ptr[c]:set_ptr[c + 1]]``).
    """

    identity: dict[str, Any]
    files: tuple[str, ...]
    data_types: tuple[str, ...]
    evidence_ids: tuple[str, ...]
    catalog: tuple[EvidenceFacts, ...]
    contracts: dict[str, ContractDoc]
    row_id: np.ndarray
    digest: np.ndarray
    content_hash: np.ndarray
    file: np.ndarray
    line: np.ndarray
    data_type: np.ndarray
    set_code: np.ndarray
    set_ptr: np.ndarray
    set_members: np.ndarray
    loading_problems: int = 0
    findings: tuple[dict[str, Any], ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.row_id)

    @property
    def version(self) -> str:
        return str(self.identity.get("format_version") or "v0.2")

    def evidence_set(self, code: int) -> np.ndarray:
        """Positions into ``evidence_ids`` of evidence set ``code``."""
        return self.set_members[self.set_ptr[code] : self.set_ptr[code + 1]]

    def row_id_str(self, pos: int) -> str:
        return bytes(self.row_id[pos]).decode("utf-8", "replace")

    def counts_by(self, column: str) -> dict[str, int]:
        """Rows per data type (``data_type``) or per bare file name (``file``)."""
        table = (
            self.data_types
            if column == "data_type"
            else tuple(f.rsplit("/", 1)[-1] for f in self.files)
        )
        counts = (
            np.bincount(getattr(self, column), minlength=len(table))
            if len(self)
            else np.zeros(len(table), np.int64)
        )
        out: dict[str, int] = {}
        for name, n in zip(table, counts.tolist(), strict=True):
            if n:
                out[name] = out.get(name, 0) + int(n)
        return out

    # -- file ------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The fingerprint as the bytes :meth:`save` writes (a compressed ``.npz``)."""
        meta = {
            "format": FINGERPRINT_FORMAT,
            "identity": self.identity,
            "files": list(self.files),
            "data_types": list(self.data_types),
            "evidence_ids": list(self.evidence_ids),
            "catalog": [list(e) for e in self.catalog],
            "contracts": {k: list(v) for k, v in self.contracts.items()},
            "loading_problems": self.loading_problems,
            "findings": list(self.findings) if self.findings is not None else None,
            "extra": self.extra,
        }
        arrays = {f"col_{name}": getattr(self, name) for name in _ROW_ARRAYS}
        arrays["meta"] = np.frombuffer(orjson.dumps(meta), dtype=np.uint8)
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        return buf.getvalue()

    def save(self, path: Path | str) -> None:
        """Write the fingerprint to ``path`` atomically (a compressed ``.npz``, no pickles)."""
        data = self.to_bytes()
        atomic_write(Path(path), lambda fh: fh.write(data), mode="wb")

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "fingerprint") -> Fingerprint:
        """Read what :meth:`to_bytes` wrote; raises :class:`FingerprintError`."""
        return cls._read(io.BytesIO(data), name)

    @classmethod
    def load(cls, path: Path | str) -> Fingerprint:
        """Read a file written by :meth:`save`; raises :class:`FingerprintError`."""
        try:
            with open(Path(path), "rb") as fh:
                return cls._read(fh, str(path))
        except FileNotFoundError:
            raise FingerprintError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise FingerprintError(f"{path}: a folder, not a fingerprint file") from None

    @classmethod
    def _read(cls, fh: Any, path: str) -> Fingerprint:
        try:
            with zipfile.ZipFile(fh) as zf:  # refuse a zip bomb before inflating it
                if sum(i.file_size for i in zf.infolist()) > _MAX_FILE_BYTES:
                    raise FingerprintError(f"{path}: too large to be a fingerprint")
            fh.seek(0)
            with np.load(fh, allow_pickle=False) as z:
                names = set(z.files)
                missing = {*(f"col_{n}" for n in _ROW_ARRAYS), "meta"} - names
                if missing:
                    raise FingerprintError(
                        f"{path}: not an aa-review fingerprint "
                        f"(missing {', '.join(sorted(missing))})"
                    )
                meta_arr = z["meta"]
                if meta_arr.dtype != np.uint8 or meta_arr.size > _MAX_META_BYTES:
                    raise FingerprintError(f"{path}: damaged fingerprint (bad meta)")
                meta = orjson.loads(meta_arr.tobytes())
                arrays = {name: z[f"col_{name}"] for name in _ROW_ARRAYS}
        except FingerprintError:
            raise
        except (
            OSError,
            ValueError,
            zipfile.BadZipFile,
            orjson.JSONDecodeError,
            KeyError,
            EOFError,
        ) as exc:
            raise FingerprintError(
                f"{path}: not a readable aa-review fingerprint ({exc})"
            ) from None
        return _from_parts(meta, arrays, path)


def _from_parts(meta: Any, arrays: dict[str, np.ndarray], path: Path | str) -> Fingerprint:
    def bad(what: str) -> FingerprintError:
        return FingerprintError(f"{path}: damaged fingerprint ({what})")

    if not isinstance(meta, dict) or meta.get("format") != FINGERPRINT_FORMAT:
        raise bad(f"format is not {FINGERPRINT_FORMAT}")
    n = len(arrays["row_id"])
    if arrays["row_id"].dtype.kind != "S":
        raise bad("row ids")
    for name, kind in (
        ("digest", "u"),
        ("content_hash", "u"),
        ("file", "i"),
        ("line", "i"),
        ("data_type", "i"),
        ("set_code", "i"),
    ):
        a = arrays[name]
        if a.dtype.kind != kind or a.shape != (n,):
            raise bad(f"column {name}")
    ptr, members = arrays["set_ptr"], arrays["set_members"]
    try:
        files = tuple(str(f) for f in meta["files"])
        types = tuple(str(t) for t in meta["data_types"])
        ev_ids = tuple(str(e) for e in meta["evidence_ids"])
        catalog = tuple(EvidenceFacts(*e) for e in meta["catalog"])
        contracts = {str(k): ContractDoc(*v) for k, v in meta["contracts"].items()}
        identity = dict(meta["identity"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise bad(str(exc)) from None
    n_sets = len(ptr) - 1
    ok = (
        ptr.dtype.kind == "i"
        and members.dtype.kind == "i"
        and n_sets >= 0
        and (
            n == 0
            or (n_sets > 0 and arrays["set_code"].min() >= 0 and arrays["set_code"].max() < n_sets)
        )
        and (
            not len(arrays["file"])
            or 0 <= arrays["file"].min() <= arrays["file"].max() < len(files)
        )
        and (
            not len(arrays["data_type"])
            or 0 <= arrays["data_type"].min() <= arrays["data_type"].max() < len(types)
        )
        and (
            n_sets < 0
            or (ptr[0] == 0 and ptr[-1] == len(members) and bool(np.all(np.diff(ptr) >= 0)))
        )
        and (not len(members) or 0 <= members.min() <= members.max() < len(ev_ids))
    )
    if not ok:
        raise bad("columns out of range")
    findings = meta.get("findings")
    return Fingerprint(
        identity=identity,
        files=files,
        data_types=types,
        evidence_ids=ev_ids,
        catalog=catalog,
        contracts=contracts,
        **arrays,
        loading_problems=int(meta.get("loading_problems") or 0),
        findings=tuple(findings) if isinstance(findings, list) else None,
        extra=dict(meta.get("extra") or {}),
    )


def identity_of(pkg: Package) -> dict[str, Any]:
    """Who a package is: ids, versions and the manifest's compiler fields."""
    m = pkg.docs.manifest
    extras = m.extras() if m else {}
    return {
        "package_id": pkg.package_id,
        "task_id": pkg.task_id,
        "format_version": pkg.version,
        "schema_versions": pkg.schema_versions(),
        "source_package_id": m.source_package_id if m else None,
        "compiler_id": m.compiler_id if m else None,
        "compiler_version": extras.get("compiler_version"),
        "package_version": m.package_version if m else None,
        "created_at": m.created_at if m else None,
        "catalog_derived_from_rows": pkg.catalog_derived,
    }


def contract_docs(pkg: Package) -> dict[str, ContractDoc]:
    """Each contract and checklist document, read through the loader's JSON reader."""
    out: dict[str, ContractDoc] = {}
    for name, rel in CONTRACT_DOCS.items():
        problems: list[Finding] = []
        raw = read_json(pkg.safe, rel, problems, required=False)
        if raw is None:
            out[name] = ContractDoc("unreadable" if problems else "missing", None, None)
            continue
        canon = orjson.dumps(raw, option=orjson.OPT_SORT_KEYS)
        digest = "sha256:" + hashlib.sha256(canon).hexdigest()
        out[name] = ContractDoc("ok", digest, raw if len(canon) <= MAX_KEPT_DOC_BYTES else None)
    return out


def finding_dicts(findings: Sequence[Finding]) -> tuple[dict[str, Any], ...]:
    return tuple(f.model_dump(mode="json", exclude_defaults=True) for f in findings)


def fingerprint(pkg: Package, *, findings: Sequence[Finding] | None = None) -> Fingerprint:
    """The fingerprint of an opened package (its index columns, catalog and contracts).

    ``findings`` (an audit's) are kept too, so that a later diff can say which are new.
    """
    ix = pkg.index
    sets = ix.sets
    sizes = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
    ptr = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    members = np.concatenate(sets).astype(np.int32) if sets else np.empty(0, np.int32)
    catalog = tuple(
        EvidenceFacts(
            e.evidence_id,
            e.ref,
            e.evidence_type,
            e.visibility,
            e.resolves,
            e.content_hash,
            e.confidence,
        )
        for e in pkg.catalog
    )
    return Fingerprint(
        identity=identity_of(pkg),
        files=tuple(ix.files),
        data_types=tuple(ix.data_types),
        evidence_ids=tuple(ix.evidence_ids),
        catalog=catalog,
        contracts=contract_docs(pkg),
        row_id=ix.row_id,
        digest=ix.digest,
        content_hash=ix.content_hash,
        file=ix.file,
        line=ix.line,
        data_type=ix.data_type,
        set_code=ix.set_code,
        set_ptr=ptr,
        set_members=members,
        loading_problems=len(pkg.problems),
        findings=finding_dicts(findings) if findings is not None else None,
    )
