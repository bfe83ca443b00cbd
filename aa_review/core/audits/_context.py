"""What checks share: the package, the enabled codes and results computed once for all."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from aa_review.core.audits._codes import code_info
from aa_review.core.audits._refrules import RefFacts, ref_facts
from aa_review.core.audits._rowrules import ScanConfig
from aa_review.core.findings import Finding, Location, Locations, RowTable, Severity
from aa_review.core.package.layout import SCHEMA_V01, SCHEMA_V02
from aa_review.core.package.safepath import printable
from aa_review.core.util.errors import UnsafeRefError

if TYPE_CHECKING:
    from aa_review.core.audits._files import FileHashes, ScanResult, Wants
    from aa_review.core.audits._mapscan import MapScan
    from aa_review.core.audits._rowscan import RowScan
    from aa_review.core.contracts import FileCheck
    from aa_review.core.package.model import Package

__all__ = ["AuditContext", "ROW_RULE_CODES"]

log = logging.getLogger(__name__)

# Codes the row pass produces: running it is needed when any of these is enabled.
ROW_RULE_PREFIXES = (
    "row.",
    "privacy.",
    "quirk.private_re_overmatch",
    "quirk.token_substring",
    "quirk.upper_replacement",
    "quirk.id_before_sanitize",
    "hash.row_disagrees",
    "link.bad_evidence_id",
    "link.hidden_cited",
    "ref.",
)
ROW_RULE_CODES = ROW_RULE_PREFIXES


class AuditContext:
    """Shared, lazily computed inputs of the checks of one audit.

    The engine fills ``rows`` and ``map`` before the checks run and starts
    ``hash_job``, which ``hashes`` awaits; a check run on its own computes what it
    needs on first use.
    """

    def __init__(
        self,
        pkg: Package,
        *,
        enabled: frozenset[str],
        workers: int | None = None,
        cap: int = 200,
        hash_threads: int = 4,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        self.pkg = pkg
        self.enabled = enabled
        self.workers = workers
        self.cap = cap
        self.hash_threads = hash_threads
        self.cancelled = cancelled
        self._hashes: FileHashes | None = None
        self.hash_job: Future[FileHashes] | None = None  # hashing started by the engine
        self.on_hash_wait: Callable[[], None] = lambda: None  # ticks while waiting for it
        self._map: MapScan | None = None
        self.map_job: Future[MapScan] | None = None  # the map read in a worker process
        # The contracted files compared (core.contracts.compare_package), started by the
        # engine beside the row pass: a large JSON artifact is parsed in a worker process.
        self.contracts_job: Future[list[FileCheck]] | None = None
        self._rows: RowScan | None = None
        self.extra: dict[str, Any] = {}
        self._row_table: RowTable | None = None

    def on(self, code: str) -> bool:
        return code in self.enabled

    def finding(
        self,
        code: str,
        message: str,
        *,
        severity: Severity | None = None,
        rows: Any = None,
        more: Locations | None = None,
        gathered: int = 0,
        locations: Locations | None = None,
        **where: Any,
    ) -> Finding:
        """A finding with the code's registered severity and quirk flag.

        ``where`` gives the location's fields. With ``rows`` (row positions), there is one
        location per row, each with ``where``'s fields (a field may also be one value per
        row; see :meth:`Locations.at_rows`). ``more``: further locations, after those;
        ``locations``: all of them, given whole.
        """
        info = code_info(code)
        if locations is not None:
            locs = locations
        elif rows is not None:
            locs = Locations.at_rows(
                self.row_table, rows, **{k: v for k, v in where.items() if v is not None}
            )
        else:
            locs = Locations.one(Location(**{k: v for k, v in where.items() if v is not None}))
        if more is not None and len(more):
            locs = Locations.concat([locs, more])
        # Names and refs may hold bytes that are not UTF-8: shown escaped, never a crash
        # (Location and Locations make their text printable themselves).
        return Finding(
            code=code,
            severity=severity or info.severity,
            message=printable(message),
            locations=locs,
            quirk=info.quirk,
            gathered=gathered,
        )

    @property
    def row_table(self) -> RowTable:
        """File, line and row id of every indexed row, shared by every finding's locations."""
        if self._row_table is None:
            self._row_table = RowTable.of_index(self.pkg.index)
        return self._row_table

    def at_rows(self, rows: Any, **fields: Any) -> Locations:
        """Locations of the rows at positions ``rows`` (see :meth:`Locations.at_rows`)."""
        return Locations.at_rows(self.row_table, rows, **fields)

    def row_where(self, pos: int) -> dict[str, Any]:
        """Location fields of the indexed row at ``pos``."""
        ix = self.pkg.index
        return {
            "file": ix.files[int(ix.file[pos])],
            "line": int(ix.line[pos]),
            "row_id": ix.row_id_str(pos) or None,
        }

    # -- shared results ---------------------------------------------------
    @property
    def hashes(self) -> FileHashes:
        """Every file's hashes: the engine's running job awaited, or computed here."""
        if self._hashes is None and self.hash_job is not None:
            while True:
                try:
                    self._hashes = self.hash_job.result(timeout=0.2)
                    break
                except TimeoutError:
                    self.on_hash_wait()
        if self._hashes is None:
            from aa_review.core.audits._files import hash_package

            self._hashes = hash_package(
                self.pkg.root, threads=self.hash_threads, cancelled=self.cancelled
            )
        return self._hashes

    def contract_checks(self) -> list[FileCheck]:
        """Every contracted file against its contracts: the engine's job awaited, or
        compared here."""
        if self.contracts_job is not None:
            job, self.contracts_job = self.contracts_job, None
            self.extra["contract_checks"] = job.result()
        if "contract_checks" not in self.extra:
            from aa_review.core.contracts import compare_package

            self.extra["contract_checks"] = compare_package(self.pkg, cancelled=self.cancelled)
        checks: list[FileCheck] = self.extra["contract_checks"]
        return checks

    def byte_scan(self, rel: str, wants: Wants) -> ScanResult | None:
        """Lines and needle counts of package file ``rel`` (None: absent or unsafe).

        Taken from the bytes while the file was hashed when the engine asked for them
        (checks declare ``reads``), else read here.
        """
        from aa_review.core.audits._files import scan_file

        if self.hash_job is not None or self._hashes is not None:
            facts = self.hashes.files.get(rel)
            scan = facts.scan if facts is not None else None
            if (
                scan is not None
                and (scan.lines is not None or not wants.lines)
                and set(wants.needles) <= scan.needles.keys()
            ):
                return scan
        try:
            self.pkg.safe.check(rel)
            return scan_file(self.pkg.root, rel, wants)
        except (OSError, UnsafeRefError):
            return None

    @property
    def map(self) -> MapScan:
        if self._map is None and self.map_job is not None:
            job, self.map_job = self.map_job, None
            try:
                self._map = job.result()
            except Exception as exc:  # noqa: BLE001 - the worker died: read it here
                log.debug("reading the evidence map in a worker failed: %s", exc)
        if self._map is None:
            from aa_review.core.audits._mapscan import scan_map

            self._map = scan_map(self.pkg.safe)
        return self._map

    @property
    def rows(self) -> RowScan:
        if self._rows is None:
            from aa_review.core.audits._rowscan import scan_rows

            self._rows = scan_rows(
                self.pkg, self.scan_config(), workers=self.workers, cancelled=self.cancelled
            )
        return self._rows

    @property
    def ref_facts(self) -> dict[str, RefFacts]:
        """(code, reason, exists) of every catalogued ref, computed once (path syscalls)."""
        facts = self.extra.get("ref_facts")
        if facts is None:
            facts = self.extra["ref_facts"] = {
                e.ref: ref_facts(self.pkg.safe, e.ref) for e in self.pkg.catalog
            }
        return facts

    def needs_rows(self) -> bool:
        return any(c.startswith(ROW_RULE_PREFIXES) for c in self.enabled)

    def row_schema(self) -> str | None:
        m = self.pkg.docs.manifest
        if m is not None and m.training_row_schema_version:
            return m.training_row_schema_version
        return (SCHEMA_V01 if self.pkg.version == "v0.1" else SCHEMA_V02)["row"]

    def scan_config(self) -> ScanConfig:
        rules = set(self.enabled)
        if any(
            c.startswith("privacy.")
            or c
            in ("quirk.private_re_overmatch", "quirk.token_substring", "quirk.upper_replacement")
            for c in rules
        ):
            rules.add("privacy")
        if "row.id_mismatch" in rules or "row.hash_mismatch" in rules:
            rules.update(("quirk.id_before_sanitize", "row.unverifiable"))
        rules.add("link.hidden_cited")  # always tracked: contamination needs it
        return ScanConfig(
            root=str(self.pkg.root),
            task_id=self.pkg.task_id,
            row_schema=self.row_schema(),
            catalog_hash={e.ref: e.content_hash for e in self.pkg.catalog},
            catalog_derived=self.pkg.catalog_derived,
            ref_facts=self.ref_facts,
            rules=frozenset(rules),
            cap=self.cap,
        )
