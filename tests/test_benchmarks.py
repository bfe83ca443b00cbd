"""Benchmarks that cannot mislead: a figure not measured fails the run with no verdict, and
every benchmark leaves ``bench-data/`` as it found it (checked before and after)."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pytest

from benchmarks import __main__ as runner
from benchmarks import _data
from benchmarks._measure import Report, Row, Timing, Unmeasured, spread


@pytest.fixture
def bench_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "bench-data"
    monkeypatch.setenv("AA_REVIEW_BENCH_DIR", str(d))
    (d / "pkg_a" / "rows").mkdir(parents=True)
    (d / "pkg_a" / "rows" / "r.jsonl").write_bytes(b'{"row_id": "r1"}\n')
    (d / ".pkg_a.complete").write_text("ok\n")
    return d


@pytest.mark.parametrize(
    "row",
    [
        Row("first rows painted", "nan ms", "goal 1 s", math.nan, "<= 1 s", "missed"),
        Row("first rows painted", "12 ms", "goal 1 s", None, "<= 1 s", "met"),
        Row("memory", "inf MB", "package 1 GB", 0.1, "<= 10%", "met"),
        Row("index build", "1.00 s", "floor nan s", 1.0, "<= 1x", "met"),
        Row("ratio", "1.00 s", "floor 1.00 s", math.inf, "<= 1x", "missed"),
    ],
)
def test_a_figure_that_was_not_measured_is_an_error_not_a_result(
    row: Row, capsys: pytest.CaptureFixture[str]
) -> None:
    rep = Report("t")
    with pytest.raises(Unmeasured):
        rep.add(row)
    assert rep.rows == [] and row.verdict not in capsys.readouterr().out


def test_a_failed_figure_fails_the_benchmark_and_no_verdict_is_printed(
    bench_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def bench() -> None:
        rep = Report("two figures")
        rep.add(Row("measured", "1.00 s", "floor 2.00 s", 0.5, "<= 1x", "met", spread="x"))
        rep.add(Row("window", "nan ms", "goal 1 s", math.nan, "<= 1 s", "missed"))
        rep.table()

    assert runner.run("fake", bench) == 1
    out, err = capsys.readouterr()
    assert "met" not in out.split() and "missed" not in out  # nothing judged
    assert "could not be measured" in err and "window" in err


def test_a_measurement_that_raises_fails_the_benchmark_and_no_verdict_is_printed(
    bench_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bench load``'s window part once raised (the window had no ``loader`` any more);
    the run fails with 1 and the error, and nothing is judged."""

    class Window:
        pass

    def bench() -> None:
        rep = Report("two figures")
        rep.add(Row("measured", "1.00 s", "floor 2.00 s", 0.5, "<= 1x", "met", spread="x"))
        seconds = Window().loader  # type: ignore[attr-defined]
        rep.add(Row("window", f"{seconds} s", "goal 1 s", seconds, "<= 1 s", "met"))
        rep.table()

    assert runner.run("fake", bench) == 1
    out, err = capsys.readouterr()
    assert "met" not in out.split() and "missed" not in out
    assert "FAILED, no verdict" in err and "loader" in err


def test_a_line_by_line_benchmark_judges_only_once_every_figure_was_measured(
    bench_data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``diff``, ``query``, ``ui`` and ``stalls`` print a line per figure: a verdict in
    that line would stand before a later figure fails, so they are all printed last."""
    from benchmarks import bench_diff
    from benchmarks._measure import Verdicts

    def bench(second: float) -> None:
        monkeypatch.setattr(bench_diff, "VERDICTS", Verdicts())
        bench_diff.report("fingerprint / index build", 0.05, 0.10)
        bench_diff.report("diff / index build", second, 2.0)
        bench_diff.VERDICTS.show()

    assert runner.run("fake", lambda: bench(math.nan)) == 1
    out, err = capsys.readouterr()
    assert "fingerprint / index build" in out  # the first figure was printed, unjudged
    assert "ok" not in out.split() and "MISSED" not in out
    assert "could not be measured" in err and "diff / index build" in err
    assert runner.run("fake", lambda: bench(5.0)) == 0
    out = capsys.readouterr().out
    verdicts = out.split("verdicts")[-1]
    assert "fingerprint / index build: ok" in verdicts
    assert "diff / index build: MISSED" in verdicts


def test_each_figure_is_printed_with_its_spread_and_the_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    t = Timing([1.5, 1.0, 1.25])
    assert t.spread() == "min 1.00 / median 1.25 / max 1.50 s, 3 runs"
    assert spread([0.012], 1000, "ms", 0) == "one run: 12 ms"
    with pytest.raises(Unmeasured):
        spread([1.0, math.nan])
    with pytest.raises(Unmeasured):
        spread([])
    rep = Report("t")
    rep.add(Row("index build", "1.00 s", "floor 1.00 s", 1.0, "<= 1x", "met", t.spread()))
    rep.table()
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("| index build"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[2] == t.spread() and cells[-1] == "met"
    assert float(cells[6]) == pytest.approx(os.getloadavg()[0], abs=5.0)


def test_a_benchmark_that_leaves_the_data_as_found_passes(bench_data: Path) -> None:
    def bench() -> None:
        (bench_data / "pkg_a" / "rows" / "r.jsonl").read_bytes()
        with _data.scratch("fake") as tmp:  # one run's scratch folder: removed after
            (tmp / "copy.jsonl").write_bytes(b"x")
        (bench_data / "pkg_new").mkdir()  # a data set made once, cached
        (bench_data / "pkg_new" / "rows.jsonl").write_bytes(b"{}\n")
        (bench_data / ".pkg_new.complete").write_text("ok\n")

    assert runner.run("fake", bench) == 0


@pytest.mark.parametrize(
    "change",
    ["hard link", "rewrite", "remove", "add inside", "touch"],
)
def test_a_benchmark_that_changes_the_data_fails(
    bench_data: Path, change: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = bench_data / "pkg_a" / "rows" / "r.jsonl"

    def bench() -> None:
        if change == "hard link":  # what the stalls baseline did: every file a file.hard_link
            os.link(rows, bench_data / "pkg_a_baseline.jsonl")
        elif change == "rewrite":
            rows.write_bytes(b'{"row_id": "r2"}\n')
        elif change == "remove":
            shutil.rmtree(bench_data / "pkg_a")
        elif change == "add inside":
            (bench_data / "pkg_a" / "bench-settings.ini").write_text("[x]\n")
        else:
            st = rows.stat()
            os.utime(rows, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))

    assert runner.run("fake", bench) == 1
    assert "changed bench-data/" in capsys.readouterr().err


def test_a_changed_copy_shares_no_file_with_its_source_and_goes_with_its_run(
    bench_data: Path, generated_sample: Path
) -> None:
    """The stalls and diff baselines: derived for the run, never hard-linked to the source
    (a hard link makes each shared file a ``file.hard_link`` finding of the source)."""
    src = bench_data / generated_sample.name
    shutil.copytree(generated_sample, src, symlinks=True)
    before = _data.data_listing()
    with _data.scratch("test") as tmp:
        copy = _data.changed_package(src, tmp, seed=7, rows_changed=2, evidence_rehashed=1)
        assert copy.is_dir() and copy.parent == tmp
        assert all(p.stat().st_nlink == 1 for p in src.rglob("*") if p.is_file())
    assert not tmp.exists()
    assert _data.data_changes(before, _data.data_listing()) == []


@pytest.mark.gui
def test_the_load_benchmark_measures_the_windows_first_rows(generated_sample: Path) -> None:
    """``bench load``'s window figures ran against a window attribute that no longer exists
    and printed "nan ms ... missed"; the window's first painted rows are measured."""
    from benchmarks import bench_load

    first, before, after = bench_load.first_paint(generated_sample)
    assert 0 < first < 600 and before > 0 and after > 0


def test_another_runs_scratch_folder_is_no_change_of_this_one(bench_data: Path) -> None:
    """Two benchmarks run side by side: one's scratch folder, made and removed during the
    other's run, made the other fail with "removed .scratch-…"."""
    theirs = bench_data / ".scratch-stalls-999999999-abc"

    def bench() -> None:
        shutil.rmtree(theirs)  # the other run ends meanwhile
        (bench_data / ".scratch-diff-999999999-def").mkdir()  # and another starts

    theirs.mkdir()
    (theirs / "copy.jsonl").write_bytes(b"x")
    assert runner.run("fake", bench) == 0


def test_its_own_scratch_folder_left_behind_fails_the_run(
    bench_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = []

    def bench() -> None:
        cm = _data.scratch("leak")
        cm.__enter__()  # never left (kept alive: a closed generator would remove it)
        kept.append(cm)

    assert runner.run("fake", bench) == 1
    assert "added .scratch-leak-" in capsys.readouterr().err
