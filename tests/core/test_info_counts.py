"""``aa-review info`` counts the rows without indexing them and the links while the rows
are read: the same document as from the whole loader, problems and their order included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from aa_review.core.package import linklines as ll
from aa_review.core.package import loader, open_package
from aa_review.core.package.hashcache import HashCache
from aa_review.core.package.layout import EC_DIR, MAP_PATH
from aa_review.core.package.loader import count_rows
from aa_review.core.package.model import RowCounts
from aa_review.core.package.safepath import PackageRoot
from aa_review.core.package.summary import count_links_now, summary
from aa_review.core.util import procpool
from aa_review.generator import generate_package

ENV = f"{EC_DIR}/environment/environment_response_pairs.jsonl"
ROW_DEFECTS = ["malformed_line", "bad_encoding", "truncated_file", "empty_file", "duplicate_row_id"]
OTHER_DEFECTS = ["missing_row_id", "link_mismatch", "counts_mismatch", "manifest_missing_file"]


def _edit_rows(root: Path) -> None:
    """Problems only the rows show: a blank line, a line that is no object, one nested
    too deep, one cut in the middle of the file, and a row file that is missing; and a
    row without a data type."""
    env = root / ENV
    lines = env.read_bytes().split(b"\n")
    deep = b'{"data_type": ' + b"[" * 200 + b"]" * 200 + b"}"
    lines[1:1] = [b"", b"[1, 2]", deep, b'{"row_id": "no_type"}']
    lines[6] = lines[6][: len(lines[6]) // 2]
    env.write_bytes(b"\n".join(lines))
    (root / f"{EC_DIR}/environment/document_events.jsonl").unlink()


@pytest.fixture(scope="module")
def defective(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("defects")
    root = generate_package(out, rows=120, seed=3, defects=ROW_DEFECTS + OTHER_DEFECTS).root
    _edit_rows(root)
    return root


@pytest.fixture(scope="module")
def v01(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("v01")
    return generate_package(out, rows=60, seed=2, version="v0.1", defects=["malformed_line"]).root


def _dumped(pkg_problems: list) -> list:
    return [p.model_dump(mode="json", exclude_defaults=True) for p in pkg_problems]


def _same_counts_as_the_loader(root: Path, **kw: object) -> None:
    full = open_package(root)
    pkg, rows = count_rows(root, **kw)  # type: ignore[arg-type]
    assert rows == RowCounts.of_index(full.index)
    assert rows.total == len(full.index)
    assert _dumped(pkg.problems) == _dumped(full.problems)
    assert pkg.catalog == full.catalog and pkg.version == full.version


def test_counts_and_problems_as_the_loader(defective: Path) -> None:
    codes = {p.code for p in open_package(defective).problems}
    # The rows' own problems are all there, so the comparison covers them.
    assert {"input.blank_line", "input.not_an_object", "input.too_deep"} <= codes
    assert {"input.malformed_line", "input.missing_file", "input.empty_file"} <= codes
    _same_counts_as_the_loader(defective)


def test_counts_as_the_loader_in_worker_processes(
    defective: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(loader, "CHUNK", 4096)  # many jobs, lines cut across their edges
    ran: list[bool] = []
    _same_counts_as_the_loader(defective, workers=2, meanwhile=lambda pkg: ran.append(True))
    assert ran == [True]


def test_v01_counts_from_its_index(v01: Path) -> None:
    pkg, _rows = count_rows(v01)
    assert pkg.catalog_derived and pkg.rows_read
    _same_counts_as_the_loader(v01)


def test_meanwhile_failure_is_raised_after_the_scan(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "PARALLEL_MIN_BYTES", 0)

    def boom(pkg: object) -> None:
        raise RuntimeError("meanwhile failed")

    with pytest.raises(RuntimeError, match="meanwhile failed"):
        count_rows(sample_copy, workers=2, meanwhile=boom)


def _old_document(root: Path) -> bytes:
    """What info printed before: the whole loader, links counted after it."""
    doc = summary(open_package(root), cache=HashCache(root))
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)


def _info(root: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "aa_review", "info", str(root), "--json"],
        capture_output=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )


def _break_links(root: Path, how: str) -> None:
    data = (root / MAP_PATH).read_bytes()
    if how == "bad_field":  # a link whose row_id is a number: a located BadLink
        data = data.replace(b'{"row_id": "', b'{"row_id": 7, "x": "', 1)
    elif how == "bad_json":  # the map ends early
        data = data[: len(data) * 3 // 4]
    (root / MAP_PATH).write_bytes(data)


@pytest.mark.parametrize("case", ["clean", "defects", "bad_field", "bad_json", "v01"])
def test_info_prints_what_it_printed_before(
    case: str, sample_copy: Path, defective: Path, v01: Path
) -> None:
    root = {"clean": sample_copy, "defects": defective, "v01": v01}.get(case, sample_copy)
    if case in ("bad_field", "bad_json"):
        _break_links(root, case)
    out = _info(root)
    assert out.returncode == (0 if case == "clean" else 1), out.stderr
    assert out.stdout == _old_document(root)


def test_links_counted_now_report_later(sample_copy: Path) -> None:
    _break_links(sample_copy, "bad_field")
    pkg = open_package(sample_copy, rows=False)
    counted = count_links_now(pkg)
    with pytest.raises(ll.BadLink):
        counted()


# -- the evidence map's links, counted in runs of lines --------------------------------


def _per_line(safe: PackageRoot) -> int:
    """The count as before runs: one line at a time."""
    counter = ll._Counter()
    with safe.open(MAP_PATH) as fh:
        ll.walk_link_lines(fh, counter.line)
    counter.flush()
    return counter.n


def _relaid(root: Path, how: str) -> None:
    path = root / MAP_PATH
    head, sep, rest = path.read_bytes().partition(b'\n  "row_evidence_links": [\n')
    links, end, tail = rest.partition(b"\n  ],")
    lines = links.split(b",\n")
    if how == "two_on_a_line":
        lines[3:5] = [lines[3] + b", " + lines[4].lstrip()]
    elif how == "pretty":
        lines[5] = lines[5].replace(b", ", b",\n      ")
    elif how == "crlf":
        lines = [x + b"\r" for x in lines]
    elif how == "not_an_object":
        lines[7] = b"    17"
    path.write_bytes(head + sep + b",\n".join(lines) + end + tail)


@pytest.mark.parametrize("how", ["as_written", "two_on_a_line", "pretty", "crlf", "not_an_object"])
@pytest.mark.parametrize("block", [2000, 5000, 1 << 20])
def test_link_runs_count_as_the_exact_reader(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch, how: str, block: int
) -> None:
    # A link line is about 1,600 bytes: runs of one line, of three, and none (the whole
    # map is within a megabyte, closing line included: lines one by one).
    monkeypatch.setattr(ll, "_BLOCK", block)
    if how != "as_written":
        _relaid(sample_copy, how)
    safe = PackageRoot(sample_copy)
    exact = ll._count_exactly(safe)
    assert ll.count_links(safe) == exact
    if how == "as_written":
        assert _per_line(safe) == exact == 60


def test_link_runs_are_used_and_end_before_the_links_do(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ll, "_BLOCK", 4096)
    runs: list[bytes] = []
    lines: list[bytes] = []
    with PackageRoot(sample_copy).open(MAP_PATH) as fh:
        tail = ll.walk_link_lines(fh, lines.append, runs.append)
    assert len(runs) > 1 and lines  # runs for the bulk, lines near the end
    assert all(orjson.loads(b"[" + r + b"]") for r in runs)
    assert sum(len(orjson.loads(b"[" + r + b"]")) for r in runs) + len(lines) == 60
    assert "coverage_statistics" in tail


def test_bad_link_in_a_run_is_located(sample_copy: Path) -> None:
    _break_links(sample_copy, "bad_field")
    with pytest.raises(ll.BadLink) as exc:
        ll.count_links(PackageRoot(sample_copy))
    assert exc.value.index == 0


def test_meanwhile_runs_while_the_workers_work() -> None:
    got: dict[int, int] = {}
    ran: list[int] = []
    procpool.run_in_processes(
        abs,
        {i: (-i,) for i in range(4)},
        got.__setitem__,
        lambda: False,
        RuntimeError,
        workers=2,
        meanwhile=lambda: ran.append(len(got)),
    )
    assert got == {i: i for i in range(4)} and ran == [0]
