"""Hostile packages: the one package opener, the folder listing, and a result for every input.

Cases come from the contract's rules: nothing outside the package is read, no symlink
leads out of it (format 10.1), a reader never hangs or crashes on what a package holds,
and every problem is a located finding.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import threading
from pathlib import Path

import orjson
import pytest

from aa_review.cli import main as cli_main
from aa_review.core.audits import audit_package
from aa_review.core.package import open_package
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.digest import list_package, package_digest
from aa_review.core.package.jsonstream import ObjectStream
from aa_review.core.package.safepath import (
    FileTooLargeError,
    PackageRoot,
    SpecialFileError,
    SymlinkOutError,
    printable,
)
from aa_review.core.util.errors import RecordError
from aa_review.generator import generate_package
from benchmarks.fuzz._mutants import deep_file
from benchmarks.fuzz._opens import outside, record_opens


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("clean"), rows=30, seed=21).root


@pytest.fixture
def pkg(clean: Path, tmp_path: Path) -> Path:
    root = tmp_path / clean.name
    shutil.copytree(clean, root, symlinks=True)
    return root


def _cli(*argv: str | bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli_main([os.fsdecode(a) for a in argv])
    return code, capsys.readouterr().out


def _codes(report) -> dict[str, list]:  # type: ignore[no-untyped-def]
    out: dict[str, list] = {}
    for f in report.findings:
        out.setdefault(f.code, []).append(f)
    return out


# -- the opener ------------------------------------------------------------------------
def test_the_opener_refuses_a_symlink_out_at_any_component(tmp_path: Path) -> None:
    root, out = tmp_path / "pkg", tmp_path / "outside"
    (root / "a").mkdir(parents=True)
    out.mkdir()
    (out / "secret.txt").write_text("secret")
    (root / "a" / "inside.txt").write_text("inside")
    os.symlink(out / "secret.txt", root / "a" / "file_link")
    os.symlink(out, root / "dir_link")
    os.symlink("../../outside/secret.txt", root / "a" / "relative_link")
    os.symlink("inside.txt", root / "a" / "internal_link")  # stays inside: allowed (7.2)
    safe = PackageRoot(root)
    with record_opens() as opened:
        for ref in ("a/file_link", "dir_link/secret.txt", "a/relative_link"):
            with pytest.raises(SymlinkOutError):
                safe.read_bytes(ref)
            assert safe.is_symlink_out(ref)
        assert safe.read_bytes("a/internal_link") == b"inside"
    assert outside(root, opened, near=tmp_path) == []


def test_the_opener_never_blocks_on_a_fifo_and_refuses_special_files(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    os.mkfifo(tmp_path / "pipe")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    safe = PackageRoot(tmp_path)
    done = threading.Event()

    def read_all() -> None:
        for ref, kind in (("pipe", "FIFO"), ("sock", "socket"), ("d", "folder")):
            with pytest.raises(SpecialFileError) as exc:
                safe.read_bytes(ref)
            assert exc.value.kind == kind
        done.set()

    t = threading.Thread(target=read_all, daemon=True)
    t.start()
    t.join(10)
    sock.close()
    assert done.is_set(), "a read blocked on a special file"


def test_the_size_limit_is_enforced_on_the_descriptor(tmp_path: Path) -> None:
    (tmp_path / "big.json").write_bytes(b"x" * 1001)
    with pytest.raises(FileTooLargeError):
        PackageRoot(tmp_path).read_bytes("big.json", limit=1000)
    assert PackageRoot(tmp_path).read_bytes("big.json", limit=1001) == b"x" * 1001


def test_paths_longer_than_path_max_are_listed_and_read(tmp_path: Path) -> None:
    rel = deep_file(tmp_path)  # 20 folders of 250-byte names
    assert len(rel) > 4096
    assert PackageRoot(tmp_path).read_bytes(rel) == b"deep\n"
    assert [e.rel for e in list_package(tmp_path).files()] == [rel]
    assert package_digest(tmp_path).startswith("sha256:")


# -- the listing and its findings -------------------------------------------------------------
def test_special_files_hard_links_and_odd_names_are_located_findings(
    pkg: Path, tmp_path: Path
) -> None:
    os.mkfifo(pkg / "grading" / "pipe")
    os.link(pkg / "README.md", tmp_path / "shared_readme")  # README.md now has 2 links
    with open(os.path.join(os.fsencode(pkg / "grading"), b"r\xe9sultat.json"), "wb") as fh:
        fh.write(b"{}")
    report = audit_package(pkg)
    codes = _codes(report)
    assert [f.location.file for f in codes["file.special"]] == ["grading/pipe"]
    assert codes["file.special"][0].severity.value == "error"
    assert [f.location.file for f in codes["file.hard_link"]] == ["README.md"]
    assert codes["file.hard_link"][0].severity.value == "low"
    assert [f.location.file for f in codes["file.name_encoding"]] == ["grading/r\\xe9sultat.json"]
    orjson.dumps(report.model_dump(mode="json"))  # escaped: JSON output cannot fail


def test_audit_and_info_json_work_with_non_utf8_names(
    pkg: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open(os.path.join(os.fsencode(pkg / "grading"), b"\xff.json"), "wb") as fh:
        fh.write(b"{}")
    odd = os.path.join(os.fsencode(pkg.parent), b"pkg_\xfe")
    os.rename(os.fsencode(pkg), odd)
    code, out = _cli("audit", odd, "--json", capsys=capsys)
    doc = json.loads(out)
    assert code == 0 and doc["identity"]["package_id"] == "pkg_\\xfe"  # a warning only
    assert [
        f["code"] for f in doc["findings"] if f["location"].get("file") == "grading/\\xff.json"
    ] == ["file.name_encoding", "quirk.uncatalogued_grading"]
    code, out = _cli("info", odd, "--json", capsys=capsys)
    assert code == 0 and json.loads(out)["identity"]["package_id"] == "pkg_\\xfe"
    code, out = _cli("info", odd, capsys=capsys)
    assert code == 0 and "pkg_\\xfe" in out


def test_a_fifo_where_a_document_should_be_is_a_finding_not_a_hang(
    pkg: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for rel in (
        MAP_PATH,
        "experience_compiler/compiler_manifest.json",
        "experience_compiler/environment/database_events.jsonl",
    ):
        (pkg / rel).unlink()
        os.mkfifo(pkg / rel)
    p = open_package(pkg)
    special = {f.location.file for f in p.problems if f.code == "input.special_file"}
    assert special == {
        MAP_PATH,
        "experience_compiler/compiler_manifest.json",
        "experience_compiler/environment/database_events.jsonl",
    }
    assert _cli("info", str(pkg), capsys=capsys)[0] == 1
    assert _cli("audit", str(pkg), capsys=capsys)[0] == 1


def test_info_exits_1_when_the_links_after_the_catalog_are_broken(
    pkg: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = pkg / MAP_PATH
    data = path.read_bytes()
    at = data.index(b"{", data.index(b'"row_evidence_links"'))  # the second link's start
    at = data.index(b"{", at + 1)
    path.write_bytes(data[:at] + b"@" + data[at + 1 :])
    code, out = _cli("info", str(pkg), "--json", capsys=capsys)
    doc = json.loads(out)
    assert code == 1 and doc["counts"]["links"] is None
    assert [p["location"]["file"] for p in doc["problems"]] == [MAP_PATH]


# -- the evidence map's reader --------------------------------------------------------------
class _Counting(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.read_total = 0

    def read(self, n: int | None = -1) -> bytes:  # type: ignore[override]
        data = super().read(n)
        self.read_total += len(data)
        return data


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a": ' * 200 + b"1" + b"}" * 200, "more than 128 levels"),
        (b"1" + b"0" * 5000, "4,300 digits"),
        (b"NaN", "NaN"),
        (b"-Infinity", "Infinity"),
        (b"1e999", "beyond the range"),
        (b'"\\udcff"', "lone surrogate"),
    ],
)
def test_hostile_values_in_the_header_are_errors_of_the_file(value: bytes, why: str) -> None:
    doc = b'{"schema_version": "v", "x": ' + value + b', "row_evidence_links": []}'
    with pytest.raises(RecordError, match=why):
        list(ObjectStream(io.BytesIO(doc), MAP_PATH).items())


def test_a_huge_header_value_is_refused_after_reading_about_its_limit() -> None:
    limit = 1 << 20
    body = _Counting(b'{"schema_version": "' + b"a" * (40 * limit) + b'"}')
    with pytest.raises(RecordError, match="over 1,048,576 bytes"):
        list(ObjectStream(body, MAP_PATH, chunk=64 << 10, max_value=limit).items())
    assert body.read_total < 3 * limit  # not the 40 MB: bounded by the limit


def test_a_syntax_error_near_the_start_stops_the_reading_there() -> None:
    links = b",".join(b'{"row_id": "r%d"}' % i for i in range(200_000))
    body = _Counting(b'{"a": 1, "row_evidence_links": [{"row_id": @}, ' + links + b"]}")
    with pytest.raises(RecordError, match="invalid JSON"):  # noqa: PT012 - the error comes while streaming
        for key, value in ObjectStream(body, MAP_PATH, chunk=64 << 10).items(
            frozenset({"row_evidence_links"})
        ):
            if key == "row_evidence_links":
                list(value)
    assert body.read_total <= 2 * (64 << 10)


def test_a_large_value_is_read_in_linear_time() -> None:
    """Decoding restarts only when the buffer doubled: a value of n bytes in 4 KB chunks
    costs a few decodes, not n / 4096 of them."""
    calls = 0
    value = b'"' + b"b" * (8 << 20) + b'"'
    stream = ObjectStream(io.BytesIO(b'{"k": ' + value + b"}"), MAP_PATH, chunk=4096)
    real = stream._decoder.raw_decode

    def counted(s: str, i: int = 0):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return real(s, i)

    stream._decoder.raw_decode = counted  # type: ignore[method-assign]
    assert dict(stream.items())["k"] == "b" * (8 << 20)
    assert calls < 20  # 8 MB / 4 KB would be 2,048 with re-decoding after every chunk


def test_a_corrupt_or_hostile_map_header_still_gives_an_audit(pkg: Path) -> None:
    path = pkg / MAP_PATH
    data = path.read_bytes()
    path.write_bytes(data.replace(b"{", b'{"x": ' + b"[" * 100_000 + b"]" * 100_000 + b",", 1))
    report = audit_package(pkg)
    assert report.complete
    assert any(f.code == "input.bad_json" and f.location.file == MAP_PATH for f in report.findings)


@pytest.mark.parametrize("where", ["row", "document"])
def test_a_row_or_document_nested_1000_deep_is_a_located_finding(pkg: Path, where: str) -> None:
    """orjson reads 1,000 levels, but the checks walk values (the compiler's json.dumps
    text for row hashes): such a line is a problem of its file, and the audit completes."""
    deep = b"[" * 1000 + b"]" * 1000
    rel = (
        "experience_compiler/training_time_package/evaluation_examples.jsonl"
        if where == "row"
        else "experience_compiler/compiler_manifest.json"
    )
    data = (pkg / rel).read_bytes()
    (pkg / rel).write_bytes(b'{"x": ' + deep + b", " + data.lstrip()[1:])
    report = audit_package(pkg)
    assert report.complete, [f.message for f in report.findings if f.code == "audit.check_failed"]
    (f,) = [f for f in report.findings if f.code == "input.too_deep"]
    assert f.location.file == rel and f.location.line == (1 if where == "row" else None)


# -- artifacts_index.json and the root manifest ---------------------------------------------
def test_a_corrupt_artifacts_index_is_a_finding(pkg: Path) -> None:
    path = pkg / "artifacts_index.json"
    data = bytearray(path.read_bytes())
    data[0] = ord("}")
    path.write_bytes(bytes(data))
    codes = _codes(audit_package(pkg, checks=["files"]))
    (f,) = codes["artifacts.index_unreadable"]
    assert f.location.file == "artifacts_index.json" and f.severity.value == "error"
    path.unlink()
    codes = _codes(audit_package(pkg, checks=["files"]))
    assert codes["artifacts.index_missing"][0].severity.value == "warning"


def _index_manifest_as(pkg: Path, data: bytes) -> None:
    """Rewrite the index entry of manifest.json as if the compiler had indexed ``data``."""
    import hashlib

    path = pkg / "artifacts_index.json"
    entries = json.loads(path.read_bytes())
    for e in entries:
        if e["package_relative_path"] == "manifest.json":
            e["size_bytes"], e["content_hash"] = len(data), hashlib.sha256(data).hexdigest()
    path.write_text(json.dumps(entries, indent=2))


def test_the_manifest_quirk_is_low_and_an_edited_manifest_a_warning(pkg: Path) -> None:
    manifest = json.loads((pkg / "manifest.json").read_bytes())
    assert "trace_counters" in manifest
    before = {k: v for k, v in manifest.items() if k != "trace_counters"}
    _index_manifest_as(pkg, (json.dumps(before, indent=2) + "\n").encode())  # format 12.21
    codes = _codes(audit_package(pkg, checks=["files"]))
    assert set(codes) - {"quirk.recipe_absent"} == {"quirk.index_manifest_hash"}
    assert codes["quirk.index_manifest_hash"][0].severity.value == "low"
    manifest["task_id"] = "another_task"  # an edit 12.21 does not explain
    (pkg / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    codes = _codes(audit_package(pkg, checks=["files"]))
    assert set(codes) - {"quirk.recipe_absent"} == {"artifacts.manifest_changed"}
    (f,) = codes["artifacts.manifest_changed"]
    assert f.severity.value == "warning" and f.location.file == "artifacts_index.json"


def test_a_clean_package_has_only_quirks(clean: Path) -> None:
    report = audit_package(clean)
    assert report.complete and all(f.quirk for f in report.findings), [
        f.code for f in report.findings if not f.quirk
    ]


# -- refs that name no possible file --------------------------------------------------------------
def test_a_ref_with_a_300_byte_component_does_not_stop_the_audit(
    pkg: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = "input/" + "c" * 300 + ".csv"
    path = pkg / MAP_PATH
    data = path.read_bytes()
    at = data.index(b'"ref": "input/') + len(b'"ref": "')
    end = data.index(b'"', at)
    path.write_bytes(data[:at] + ref.encode() + data[end:])
    code, out = _cli("audit", str(pkg), "--json", capsys=capsys)
    doc = json.loads(out)
    assert code == 1 and doc["complete"] is True
    assert any(f.get("location", {}).get("ref") == ref for f in doc["findings"])


def test_printable_escapes_what_no_utf8_output_accepts() -> None:
    assert printable("plain é") == "plain é"
    assert printable(os.fsdecode(b"r\xe9s")) == "r\\xe9s"
    assert printable("\ud800") == "\\ud800"
