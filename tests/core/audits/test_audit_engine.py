"""The engine: selection, caps, progress, cancellation, a failing check, helpers."""

from __future__ import annotations

import dataclasses

import pytest

from aa_review.core.audits import (
    CHECKS,
    AuditCancelled,
    AuditProgress,
    UnknownCheckError,
    _mapscan,
    audit_package,
    resolve_selection,
)
from aa_review.core.audits._files import hash_package
from aa_review.core.package import open_package, package_digest


def test_selection_by_check_code_and_family() -> None:
    checks, codes = resolve_selection(["hash.changed"])
    assert [c.name for c in checks] == ["hashes"] and codes == {"hash.changed"}
    checks, codes = resolve_selection(["privacy"])
    assert [c.name for c in checks] == ["privacy"] and "privacy.secret" in codes
    _, codes = resolve_selection(["row"])
    assert "row.id_mismatch" in codes and "rows" not in codes
    with pytest.raises(UnknownCheckError, match="nope"):
        resolve_selection(["nope"])


def test_only_selected_codes_are_reported(make_package) -> None:
    g = make_package(defects=("hidden_cited",))
    report = audit_package(g.root, checks=["hash"])
    assert report.checks == ["hashes"] and not report.findings
    report = audit_package(g.root, checks=["link.hidden_cited"])
    assert {f.code for f in report.findings} == {"link.hidden_cited"}


def test_rows_past_the_listing_limit_are_gathered_not_dropped(tmp_path) -> None:
    from aa_review.generator import generate_package

    g = generate_package(
        tmp_path,
        rows=120,
        seed=4,
        defects=["row_hash_mismatch"],
        defect_rows={"row_hash_mismatch": 20},
    )
    report = audit_package(g.root, cap=5, checks=["row.hash_mismatch"])
    listed = [f for f in report.findings if f.code == "row.hash_mismatch"]
    assert [f.gathered for f in listed] == [0] * 5 + [15]  # each message names its hashes
    assert {loc.row_id for f in listed for loc in f.locations} == {
        r["row_id"] for r in g.defects[0].rows
    }
    assert all(loc.key_path == "row_content_hash" for loc in listed[-1].locations)
    assert report.gathered == {"row.hash_mismatch": 15} and report.listing_limit == 5
    assert report.codes()["row.hash_mismatch"] == 6 == report.by_severity["error"]
    assert report.locations == 20 == sum(f.location_count for f in report.findings)
    line = report.summary_line()
    assert (
        line.startswith("6 findings at 20 locations (6 error)") and "row.hash_mismatch 15" in line
    )


def test_findings_of_any_check_past_the_limit_are_gathered(make_package, monkeypatch) -> None:
    from aa_review.core.findings import Location

    g = make_package()

    def many(pkg, ctx):  # type: ignore[no-untyped-def]
        for i in range(7):
            yield ctx.finding("copy.differs", f"copy {i} differs", file=f"copy_{i}.jsonl")

    monkeypatch.setitem(CHECKS, "copies", dataclasses.replace(CHECKS["copies"], func=many))
    report = audit_package(g.root, cap=3, checks=["copies"])
    assert [f.message for f in report.findings[:3]] == [f"copy {i} differs" for i in range(3)]
    last = report.findings[3]
    assert len(report.findings) == 4 and last.gathered == 4 and "4 more" in last.message
    assert list(last.locations) == [Location(file=f"copy_{i}.jsonl") for i in range(3, 7)]
    assert report.summary[0].codes == {"copy.differs": 4} and report.locations == 7


def test_progress_and_cancel(make_package) -> None:
    g = make_package()
    seen: list[AuditProgress] = []
    audit_package(g.root, progress=seen.append)
    stages = {p.stage for p in seen}
    assert {"hash", "rows", "checks"} <= stages
    assert all(0.0 <= p.fraction <= 1.0 for p in seen)
    with pytest.raises(AuditCancelled):
        audit_package(g.root, cancelled=lambda: True)


def test_a_failing_check_is_reported_and_the_rest_run(make_package, monkeypatch) -> None:
    g = make_package()

    def boom(pkg, ctx):  # type: ignore[no-untyped-def]
        raise RuntimeError("kaput")
        yield

    monkeypatch.setitem(CHECKS, "copies", dataclasses.replace(CHECKS["copies"], func=boom))
    report = audit_package(g.root)
    assert not report.complete and report.exit_code() == 2
    failed = [f for f in report.findings if f.code == "audit.check_failed"]
    assert len(failed) == 1 and "kaput" in failed[0].message
    assert [s.check for s in report.summary if not s.ran] == ["copies"]
    assert "quirk.recipe_absent" in report.codes()  # later checks still ran


def test_checks_needing_hashes_run_last_yet_report_in_order(make_package, monkeypatch) -> None:
    g = make_package()
    ran: list[str] = []
    for name in ("hashes", "refs", "files"):

        def spy(pkg, ctx, _orig=CHECKS[name].func, _name=name):  # type: ignore[no-untyped-def]
            ran.append(_name)
            yield from _orig(pkg, ctx)

        monkeypatch.setitem(CHECKS, name, dataclasses.replace(CHECKS[name], func=spy))
    report = audit_package(g.root)
    assert ran == ["refs", "hashes", "files"]  # hashing went on while refs was checked
    assert report.checks == [s.check for s in report.summary] == list(CHECKS)
    assert report.identity.package_digest == package_digest(g.root)


def test_hashing_digest_matches_the_core(make_package) -> None:
    g = make_package()
    assert hash_package(g.root).digest == package_digest(g.root)


def test_map_fast_path_equals_the_streaming_reader(make_package, monkeypatch) -> None:
    g = make_package(defects=("orphan_evidence_id",))
    pkg = open_package(g.root)
    fast = _mapscan.scan_map(pkg.safe)
    monkeypatch.setattr(_mapscan, "_fast", lambda path: None)
    slow = _mapscan.scan_map(pkg.safe)
    assert fast.tail == slow.tail and fast.links.row_id == slow.links.row_id
    assert fast.links.fingerprint == slow.links.fingerprint
    assert [fast.links.id_sets[c] for c in fast.links.ids] == [
        slow.links.id_sets[c] for c in slow.links.ids
    ]


def test_broken_map_links_are_reported(make_package, tmp_path) -> None:
    import shutil

    from aa_review.core.package.catalog import MAP_PATH

    g = make_package()
    root = tmp_path / g.root.name
    shutil.copytree(g.root, root)
    path = root / MAP_PATH
    text = path.read_text()
    cut = text.index('"row_evidence_links"') + 200
    path.write_text(text[:cut] + '"oops' + text[cut:])
    report = audit_package(root)
    bad = [f for f in report.findings if f.code == "link.mismatch"]
    assert bad and bad[0].location.file == MAP_PATH and bad[0].location.line


def _same_size_files(root, monkeypatch):  # type: ignore[no-untyped-def]
    """Three 3 MiB files of one size: two identical, one differing in its last byte."""
    from aa_review.core.audits import _files

    monkeypatch.setattr(_files, "GROUP_MIN_BYTES", 1)
    data = bytes(range(256)) * (3 * 4096) + b"\r\nend"
    (root / "a.txt").write_bytes(data)
    (root / "b.txt").write_bytes(data)
    (root / "c.txt").write_bytes(data[:-1] + b"E")
    return data


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_identical_files_are_compared_not_hashed_twice(tmp_path, monkeypatch, processes) -> None:
    import hashlib

    from aa_review.core.audits import _files

    data = _same_size_files(tmp_path, monkeypatch)
    if processes:
        monkeypatch.setattr(_files, "PROCESS_MIN_BYTES", 1)
    out = _files.hash_package(tmp_path, threads=2)
    a, b, c = (out.files[n] for n in ("a.txt", "b.txt", "c.txt"))
    assert a.sha256 == b.sha256 == hashlib.sha256(data).hexdigest()
    assert {a.same_as, b.same_as} == {None, "a.txt"}  # one hashed, the other compared
    assert c.same_as is None and c.sha256 == hashlib.sha256(data[:-1] + b"E").hexdigest()
    assert out.compared == len(data)
    assert out.digest == package_digest(tmp_path)


def test_a_copy_that_differs_is_still_found(make_package, tmp_path, monkeypatch) -> None:
    import shutil

    from aa_review.core.audits import _files

    monkeypatch.setattr(_files, "GROUP_MIN_BYTES", 1)  # every same-size pair compared
    root = tmp_path / "pkg"
    shutil.copytree(make_package().root, root)
    sft = root / "experience_compiler/training_time_package/sft_examples.jsonl"
    body = bytearray(sft.read_bytes())
    body[-10] = ord("X") if body[-10] != ord("X") else ord("Y")  # same size, other bytes
    sft.write_bytes(bytes(body))
    report = audit_package(root, checks=["copies"], digest=True)
    assert [(f.code, f.location.file) for f in report.findings] == [
        ("copy.differs", "experience_compiler/training_time_package/sft_examples.jsonl")
    ]
    assert report.identity.package_digest == package_digest(root)


def test_a_file_swapped_for_a_symlink_is_not_followed(tmp_path, outside_dir) -> None:
    from aa_review.core.audits import _files

    secret = outside_dir / "secret.txt"
    secret.write_bytes(b"outside the package\n")
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "a.txt").symlink_to(secret)  # as if swapped in after the listing
    ((rel, facts, error),) = _files._job(str(root), ["a.txt"], None)
    assert rel == "a.txt" and facts is None and error  # refused, not hashed


def test_the_digest_is_hashed_while_the_package_opens(make_package, monkeypatch) -> None:
    """A whole audit of a path hashes every file beside the opening's row pass, not after."""
    import threading

    from aa_review.core.audits import _engine

    g = make_package(defects=("malformed_line",))
    started = threading.Event()
    real_hash, real_open = _engine.hash_package, _engine.open_package

    def hash_spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        started.set()
        return real_hash(*args, **kwargs)

    def open_spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert started.wait(60), "file hashing had not started when the package opened"
        return real_open(*args, **kwargs)

    monkeypatch.setattr(_engine, "hash_package", hash_spy)
    monkeypatch.setattr(_engine, "open_package", open_spy)
    report = audit_package(g.root)
    assert report.identity.package_digest == package_digest(g.root)
    monkeypatch.setattr(_engine, "open_package", real_open)
    opened = audit_package(open_package(g.root))  # hashed after opening, as before
    assert report.model_dump(exclude={"seconds"}) == opened.model_dump(exclude={"seconds"})
    assert report.findings  # the defect is found on the path taken


def test_a_package_that_fails_to_open_stops_the_early_hashing(make_package, monkeypatch) -> None:
    import threading

    from aa_review.core.audits import _engine
    from aa_review.core.util.errors import PackageError

    g = make_package()

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PackageError("refused for the test", str(g.root))

    monkeypatch.setattr(_engine, "open_package", refuse)
    with pytest.raises(PackageError):
        audit_package(g.root)
    for t in threading.enumerate():
        if t.name.startswith("aa-audit-hash"):
            t.join(60)  # the job sees the audit finished and stops
            assert not t.is_alive()
