"""Loading packages: every input path, each malformed input a located problem."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from aa_review.core.package import LoadCancelled, PackageRoot, find_root, open_package
from aa_review.core.package.layout import EC_DIR, ROW_FILES
from aa_review.core.util.errors import PackageError, UnsafeRefError

ENV_PAIRS = f"{EC_DIR}/environment/environment_response_pairs.jsonl"


def codes(pkg) -> list[str]:
    return [p.code for p in pkg.problems]


def test_opens_sample_cleanly(sample_copy: Path) -> None:
    pkg = open_package(sample_copy)
    assert pkg.problems == []
    assert pkg.version == "v0.2"
    assert len(pkg.index) == 60
    assert len(pkg.catalog) == 33
    assert pkg.index.counts_by("data_type")["environment_response_pair"] == 20
    links = list(pkg.iter_links())
    assert [link.row_id for link in links] == [pkg.index.row_id_str(i) for i in range(60)]


def test_root_may_be_the_experience_compiler_folder(sample_copy: Path) -> None:
    assert find_root(sample_copy / EC_DIR) == sample_copy
    assert open_package(sample_copy / EC_DIR).package_id == sample_copy.name


@pytest.mark.parametrize("make", ["missing", "file", "plain_dir"])
def test_not_a_package(tmp_path: Path, make: str) -> None:
    target = tmp_path / "x"
    if make == "file":
        target.write_text("hi")
    elif make == "plain_dir":
        target.mkdir()
    with pytest.raises(PackageError, match=str(target)):
        open_package(target)


def test_row_evidence_lookups_both_ways(sample_copy: Path) -> None:
    pkg = open_package(sample_copy)
    ix = pkg.index
    row = ix.find_row(ix.row_id_str(7))
    assert row == 7
    row_dict = pkg.read_row(7)
    cited = [ix.evidence_ids[e] for e in ix.evidence_of_row(7).tolist()]
    assert cited == row_dict["source_evidence_ref_ids"]
    e = ix.evidence_pos[cited[0]]
    citing = ix.rows_citing(e)
    assert 7 in citing.to_array().tolist()
    expected = [i for i in range(len(ix)) if cited[0] in pkg.read_row(i)["source_evidence_ref_ids"]]
    assert sorted(citing.to_array().tolist()) == expected
    assert ix.find_row("row_does_not_exist") is None


def _rewrite_line(path: Path, line_no: int, data: bytes) -> None:
    lines = path.read_bytes().split(b"\n")
    lines[line_no - 1] = data
    path.write_bytes(b"\n".join(lines))


def test_malformed_line_is_located_and_rest_loads(sample_copy: Path) -> None:
    _rewrite_line(sample_copy / ENV_PAIRS, 3, b'{"row_id": "broken", ')
    pkg = open_package(sample_copy)
    bad = [p for p in pkg.problems if p.code == "input.malformed_line"]
    assert len(bad) == 1 and bad[0].location.file == ENV_PAIRS and bad[0].location.line == 3
    assert len(pkg.index) == 59


def test_bad_encoding_is_located(sample_copy: Path) -> None:
    path = sample_copy / ENV_PAIRS
    line = path.read_bytes().split(b"\n")[4]
    _rewrite_line(path, 5, line.replace(b"agent", b"ag\xffnt", 1))
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.code == "input.bad_encoding"]
    assert (p.location.file, p.location.line) == (ENV_PAIRS, 5)


def test_truncated_file_is_located(sample_copy: Path) -> None:
    path = sample_copy / ENV_PAIRS
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 200])
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.code == "input.truncated"]
    assert (p.location.file, p.location.line) == (ENV_PAIRS, 20)
    assert len(pkg.index) == 59


def test_empty_file_that_should_have_rows(sample_copy: Path) -> None:
    (sample_copy / ENV_PAIRS).write_bytes(b"")
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.code == "input.empty_file"]
    assert p.location.file == ENV_PAIRS
    assert len(pkg.index) == 40


def test_huge_line_reported_not_parsed(sample_copy: Path, monkeypatch) -> None:
    from aa_review.core.package import rowscan

    monkeypatch.setattr(rowscan, "MAX_LINE_BYTES", 1000)
    pkg = open_package(sample_copy)
    too_long = [p for p in pkg.problems if p.code == "input.line_too_long"]
    assert too_long and all(p.location.line for p in too_long)
    assert len(pkg.index) + len(too_long) == 60


def test_real_50mb_line_does_not_crash(sample_copy: Path) -> None:
    path = sample_copy / ENV_PAIRS
    row = json.loads(path.read_bytes().split(b"\n")[0])
    row["observed_environment_response"] = "x" * (50 * 1024 * 1024)
    with open(path, "ab") as fh:
        fh.write(json.dumps(row).encode() + b"\n")
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.code == "input.line_too_long"]
    assert (p.location.file, p.location.line) == (ENV_PAIRS, 21)
    assert len(pkg.index) == 60


def test_non_object_and_blank_lines(sample_copy: Path) -> None:
    path = sample_copy / ENV_PAIRS
    with open(path, "ab") as fh:
        fh.write(b"[1, 2]\n\n")
    pkg = open_package(sample_copy)
    assert "input.not_an_object" in codes(pkg)
    assert "input.blank_line" in codes(pkg)


def test_broken_manifest_is_a_problem_not_a_crash(sample_copy: Path) -> None:
    (sample_copy / EC_DIR / "compiler_manifest.json").write_text('{"schema_version": ')
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.location.file == f"{EC_DIR}/compiler_manifest.json"]
    assert p.code == "input.bad_json" and p.location.line == 1
    assert len(pkg.index) == 60


def test_truncated_evidence_map(sample_copy: Path) -> None:
    path = sample_copy / EC_DIR / "source_evidence_map.json"
    data = path.read_bytes()
    path.write_bytes(data[:3000])
    pkg = open_package(sample_copy)
    bad = [p for p in pkg.problems if p.location.file == f"{EC_DIR}/source_evidence_map.json"]
    assert bad and bad[0].code == "input.bad_json" and bad[0].location.line
    assert len(pkg.index) == 60


def test_missing_row_file(sample_copy: Path) -> None:
    (sample_copy / ENV_PAIRS).unlink()
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.code == "input.missing_file"]
    assert p.location.file == ENV_PAIRS


def test_row_file_symlink_out_is_never_opened(sample_copy: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    outside.write_bytes((sample_copy / ENV_PAIRS).read_bytes())
    (sample_copy / ENV_PAIRS).unlink()
    os.symlink(outside, sample_copy / ENV_PAIRS)
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.code == "input.unsafe_file"]
    assert p.location.file == ENV_PAIRS
    assert len(pkg.index) == 40


@pytest.mark.parametrize(
    ("ref", "reason"),
    [
        ("/etc/passwd", "absolute"),
        ("../outside.txt", "climbs"),
        ("a/../../b", "climbs"),
        ("C:/x", "absolute"),
        ("", "empty"),
    ],
)
def test_unsafe_refs_refused(sample_copy: Path, ref: str, reason: str) -> None:
    with pytest.raises(UnsafeRefError, match=reason):
        PackageRoot(sample_copy).resolve(ref)


def test_symlinked_dir_leading_out(sample_copy: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "secret.txt").write_text("s")
    os.symlink(tmp_path / "elsewhere", sample_copy / "input" / "linked")
    root = PackageRoot(sample_copy)
    assert root.is_symlink_out("input/linked/secret.txt")
    assert not root.exists("input/linked/secret.txt")


def test_v01_catalog_derived_from_rows(sample_copy: Path) -> None:
    path = sample_copy / EC_DIR / "source_evidence_map.json"
    data = json.loads(path.read_text())
    original_ids = [e["evidence_id"] for e in data["evidence_catalog"]]
    data["schema_version"] = "aa-source-evidence-map-v0.1"
    del data["evidence_catalog"], data["row_evidence_links"]
    path.write_text(json.dumps(data, indent=2))
    pkg = open_package(sample_copy)
    assert pkg.catalog_derived and pkg.version == "v0.1"
    assert [e.evidence_id for e in pkg.catalog] == original_ids
    links = list(pkg.iter_links())
    assert len(links) == 60 and links[0].evidence_ref_ids == original_ids


def test_progress_partial_and_cancel(sample_copy: Path, monkeypatch) -> None:
    from aa_review.core.package import loader

    monkeypatch.setattr(loader, "FIRST_CHUNK", 4096)
    monkeypatch.setattr(loader, "CHUNK", 8192)
    seen, partial = [], []
    pkg = open_package(sample_copy, progress=seen.append, on_partial=partial.append)
    assert seen[-1].fraction == 1.0 and seen[-1].rows == 60
    assert partial and 0 < len(partial[0]) < 60
    assert len(pkg.index) == 60
    with pytest.raises(LoadCancelled):
        open_package(sample_copy, cancelled=lambda: True)


def test_chunked_scan_keeps_line_numbers(sample_copy: Path, monkeypatch) -> None:
    from aa_review.core.package import loader

    monkeypatch.setattr(loader, "CHUNK", 5000)
    _rewrite_line(sample_copy / ENV_PAIRS, 17, b"{oops")
    pkg = open_package(sample_copy)
    (p,) = [p for p in pkg.problems if p.code == "input.malformed_line"]
    assert p.location.line == 17
    first = [i for i in range(len(pkg.index)) if pkg.index.files[pkg.index.file[i]] == ENV_PAIRS]
    assert [int(pkg.index.line[i]) for i in first] == [n for n in range(1, 21) if n != 17]


def test_parallel_scan_matches_serial(sample_copy: Path, monkeypatch) -> None:
    from aa_review.core.package import loader

    serial = open_package(sample_copy)
    monkeypatch.setattr(loader, "CHUNK", 20000)
    monkeypatch.setattr(loader, "PARALLEL_MIN_BYTES", 0)
    parallel = open_package(sample_copy, workers=2)
    assert parallel.index.row_id.tolist() == serial.index.row_id.tolist()
    assert parallel.index.line.tolist() == serial.index.line.tolist()


def test_row_files_in_link_order() -> None:
    names = [rel.rsplit("/", 1)[1] for rel, _ in ROW_FILES]
    assert names == sorted(names) and len(names) == 23


def test_workers_that_cannot_start_fall_back_to_one_process(sample_copy: Path, monkeypatch) -> None:
    from aa_review.core.package import loader

    def broken(*_a, **_k):
        raise RuntimeError("An attempt has been made to start a new process before ...")

    monkeypatch.setattr(loader, "CHUNK", 20000)
    monkeypatch.setattr(loader, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(loader, "_scan_parallel", broken)
    seen = []
    pkg = open_package(sample_copy, workers=2, progress=seen.append)
    assert len(pkg.index) == 60 and pkg.problems == []
    assert seen[-1].fraction == 1.0
