"""The package's small JSON documents: manifest, reports, contracts, checklist."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.package.jsondepth import MAX_DEPTH, may_be_too_deep, too_deep
from aa_review.core.package.layout import EC_DIR
from aa_review.core.package.records import (
    ArtifactContract,
    CompilerManifest,
    CompilerReport,
    EvidenceMapHeader,
    OutputContract,
    PrefinalChecklist,
    QualityReport,
)
from aa_review.core.package.safepath import (
    FileTooLargeError,
    PackageRoot,
    SpecialFileError,
    SymlinkOutError,
    printable,
)
from aa_review.core.util.errors import UnsafeRefError

__all__ = ["Documents", "read_documents", "read_json", "detect_version", "DOC_PATHS"]

MAX_DOC_BYTES = 64 * 1024 * 1024
_RLP = f"{EC_DIR}/runtime_learning_package"
DOC_PATHS = {
    "manifest": f"{EC_DIR}/compiler_manifest.json",
    "report": f"{EC_DIR}/compiler_report.json",
    "quality": f"{EC_DIR}/quality_report.json",
    "output_contract": f"{_RLP}/output_contract.json",
    "artifact_contract": f"{_RLP}/artifact_contract.json",
    "checklist": f"{_RLP}/prefinal_verification_checklist.json",
}
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Documents:
    """Parsed documents; ``None`` where a document is absent or unusable (a problem says why)."""

    manifest: CompilerManifest | None
    report: CompilerReport | None
    quality: QualityReport | None
    output_contract: OutputContract | None
    artifact_contract: ArtifactContract | None
    checklist: PrefinalChecklist | None


def file_problem(rel: str, exc: BaseException, what: str = "file") -> Finding:
    """The located finding for a package file that could not be opened or read."""
    if isinstance(exc, SymlinkOutError):
        return Finding(
            code="input.unsafe_file",
            severity=Severity.CRITICAL,
            location=Location(file=printable(rel)),
            message=str(exc.reason),
        )
    if isinstance(exc, SpecialFileError):
        return Finding(
            code="input.special_file",
            severity=Severity.ERROR,
            location=Location(file=printable(rel)),
            message=f"this {what} is {exc.kind_article}; it was not opened",
        )
    if isinstance(exc, FileTooLargeError):
        return Finding(
            code="input.too_large",
            severity=Severity.ERROR,
            location=Location(file=printable(rel)),
            message=exc.reason,
        )
    if isinstance(exc, UnsafeRefError):
        return Finding(
            code="input.unsafe_file",
            severity=Severity.CRITICAL,
            location=Location(file=printable(rel)),
            message=str(exc),
        )
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return Finding(
        code="input.unreadable",
        severity=Severity.ERROR,
        location=Location(file=printable(rel)),
        message=f"this {what} cannot be read ({reason})",
    )


def read_json(
    safe: PackageRoot, rel: str, problems: list[Finding], *, required: bool = True
) -> Any | None:
    """Parse one JSON file of the package, turning every failure into a located problem."""
    try:
        data = safe.read_bytes(rel, limit=MAX_DOC_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        if required:
            problems.append(
                Finding(
                    code="input.missing_file",
                    severity=Severity.WARNING,
                    location=Location(file=rel),
                    message="file is missing",
                )
            )
        return None
    except (OSError, UnsafeRefError) as exc:
        problems.append(file_problem(rel, exc, "document"))
        return None
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        code, msg = "input.bad_json", f"not valid JSON: {exc.msg}"
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            code, msg = "input.bad_encoding", "not valid UTF-8"
        if not data.strip():
            code, msg = "input.empty_file", "file is empty"
        problems.append(
            Finding(
                code=code,
                severity=Severity.ERROR,
                location=Location(file=rel, line=exc.lineno or None),
                message=msg,
            )
        )
        return None
    if may_be_too_deep(data) and too_deep(value):
        problems.append(
            Finding(
                code="input.too_deep",
                severity=Severity.ERROR,
                location=Location(file=rel),
                message=f"nests lists and objects more than {MAX_DEPTH} levels "
                "deep; it was not used",
            )
        )
        return None
    return value


def _typed(model: type[M], raw: Any, rel: str, problems: list[Finding]) -> M | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.append(
            Finding(
                code="input.not_an_object",
                severity=Severity.ERROR,
                location=Location(file=rel),
                message=f"expected a JSON object, found {type(raw).__name__}",
            )
        )
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        problems.append(
            Finding(
                code="input.bad_field",
                severity=Severity.ERROR,
                location=Location(file=rel, key_path=key),
                message=f"field {key!r}: {err['msg']}",
            )
        )
        return None


def read_documents(safe: PackageRoot, problems: list[Finding]) -> Documents:
    def read(name: str, model: type[M]) -> M | None:
        return _typed(model, read_json(safe, DOC_PATHS[name], problems), DOC_PATHS[name], problems)

    # Read in this order (the problems are listed in it).
    return Documents(
        manifest=read("manifest", CompilerManifest),
        report=read("report", CompilerReport),
        quality=read("quality", QualityReport),
        output_contract=read("output_contract", OutputContract),
        artifact_contract=read("artifact_contract", ArtifactContract),
        checklist=read("checklist", PrefinalChecklist),
    )


def detect_version(docs: Documents, header: EvidenceMapHeader | None) -> str:
    """``"v0.1"`` or ``"v0.2"`` from the schema versions (v0.2 when nothing says)."""
    for value in (
        docs.manifest.schema_version if docs.manifest else None,
        header.schema_version if header else None,
    ):
        if value and value.endswith("-v0.1"):
            return "v0.1"
    return "v0.2"
