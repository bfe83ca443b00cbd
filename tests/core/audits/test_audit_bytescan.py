"""Counts taken from files' bytes while they are hashed: exact at any chunk boundary, and
the checks that use them report the same with or without the hashing pass."""

from __future__ import annotations

import random

import pytest

from aa_review.core.audits import _files, audit_package
from aa_review.core.audits._files import ByteScan, Wants, scan_file

NEEDLE = b'"rejection_reason": "duplicate_row_id'


def _expected(data: bytes, needle: bytes) -> tuple[int, tuple[int, int, int]]:
    lines = sum(1 for part in data.split(b"\n") if part)
    at = data.find(needle)
    first = (data.count(needle), at, data.count(b"\n", 0, at) + 1) if at >= 0 else (0, -1, 0)
    return lines, first


def _random_jsonl(rnd: random.Random) -> bytes:
    parts = []
    for _ in range(rnd.randint(0, 40)):
        kind = rnd.random()
        if kind < 0.1:
            parts.append(b"\n" * rnd.randint(1, 3))  # blank lines, runs of them
        elif kind < 0.3:
            parts.append(
                b'{"rejection_reason": "duplicate_row_id:'
                + bytes([97 + rnd.randint(0, 5)])
                + b'"}\n'
            )
        else:
            parts.append(b'{"a": "' + b"x" * rnd.randint(0, 30) + b'"}\n')
    data = b"".join(parts)
    return data[:-1] if data and rnd.random() < 0.3 else data  # sometimes no final newline


@pytest.mark.parametrize("chunk", [1, 5, 36, 37, 64, 1 << 20])
def test_byte_scan_is_exact_across_chunk_boundaries(chunk: int) -> None:
    rnd = random.Random(chunk)
    for _ in range(300):
        data = _random_jsonl(rnd)
        scan = ByteScan(Wants(lines=True, needles=(NEEDLE, b"x")))
        for i in range(0, len(data), chunk):
            scan.feed(bytearray(data[i : i + chunk]))  # the hasher feeds its reused buffer
        got = scan.result()
        lines, first = _expected(data, NEEDLE)
        assert got.lines == lines, data
        assert got.needles[NEEDLE] == first, data
        assert got.needles[b"x"] == _expected(data, b"x")[1]
        alone = ByteScan(Wants(needles=(NEEDLE,)))  # no lines: newlines counted to the hit
        for i in range(0, len(data), chunk):
            alone.feed(data[i : i + chunk])
        assert alone.result().lines is None and alone.result().needles[NEEDLE] == first


def test_scans_ride_on_hashing_and_copies_share_them(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(_files, "GROUP_MIN_BYTES", 1)
    monkeypatch.setattr(_files, "CHUNK", 1000)
    data = (
        b"".join(b'{"n": %d}\n' % i for i in range(5000)) + b'{"rejection_reason": '
        b'"duplicate_row_id:7"}\n'
    )
    (tmp_path / "rejected.jsonl").write_bytes(data)
    (tmp_path / "copy.jsonl").write_bytes(data)
    out = _files.hash_package(
        tmp_path, threads=2, scans={"copy.jsonl": Wants(lines=True, needles=(NEEDLE,))}
    )
    a, b = out.files["rejected.jsonl"], out.files["copy.jsonl"]
    assert {a.same_as, b.same_as} == {None, "copy.jsonl"}  # hashed once, compared once
    assert (
        a.scan == b.scan == scan_file(tmp_path, "copy.jsonl", Wants(lines=True, needles=(NEEDLE,)))
    )
    assert b.scan is not None and b.scan.lines == 5001
    assert b.scan.needles[NEEDLE] == (1, data.find(NEEDLE), 5001)


def test_counts_and_quirks_agree_with_and_without_the_hashing_pass(make_package, tmp_path) -> None:
    import shutil

    from aa_review.core.audits._context import AuditContext

    root = tmp_path / "pkg"
    shutil.copytree(make_package(defects=("duplicate_row_id",)).root, root)
    ps = root / "experience_compiler/training_time_package/process_supervision.jsonl"
    ps.write_bytes(b"".join(ps.read_bytes().splitlines(keepends=True)[:-1]))
    calls: list[str] = []
    real = AuditContext.byte_scan

    def spy(self, rel, wants):  # type: ignore[no-untyped-def]
        calls.append("hashed" if self.hash_job is not None else "alone")
        return real(self, rel, wants)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(AuditContext, "byte_scan", spy)
        full = audit_package(root, checks=["counts", "quirks"], digest=True)  # hashing runs
        alone = audit_package(root, checks=["counts", "quirks"], digest=False)
    assert calls == ["hashed"] * 3 + ["alone"] * 3

    def picked(report):  # type: ignore[no-untyped-def]
        return sorted(
            (f.code, f.location.file, f.location.line, f.message)
            for f in report.findings
            if f.code in ("count.derived", "quirk.duplicate_row_rejected")
        )

    assert picked(full) == picked(alone)
    assert {c for c, *_ in picked(full)} == {"count.derived", "quirk.duplicate_row_rejected"}
