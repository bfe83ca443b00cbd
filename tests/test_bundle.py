"""What ships, run as a user would: the PyInstaller bundle, and the wheel in a fresh venv.

These build things (a minute or two each), so they run only when asked:

    AA_REVIEW_BUNDLE_TEST=1 ./dev test -m bundle

A bundle in dist/aa-review/ newer than every source file is reused; otherwise
``./dev bundle`` builds one. The frozen binary is first started as a new user would
(no PATH: it makes the demo package and opens it; offscreen, ``--screenshot`` saves the
window), then run headless on that demo (``audit`` when ``--help`` lists it, and
``info``) and on a copy big enough to be read by spawned worker processes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from aa_review import __version__

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist" / "aa-review"
EXE = DIST / "aa-review"
SOURCES = [
    ROOT / "aa_review",
    ROOT / "packaging" / "aa_review.spec",
    ROOT / "pyproject.toml",
    ROOT / "resources",
]

pytestmark = [
    pytest.mark.bundle,
    pytest.mark.skipif(
        os.environ.get("AA_REVIEW_BUNDLE_TEST") != "1",
        reason="builds the PyInstaller bundle and a wheel (minutes): "
        "set AA_REVIEW_BUNDLE_TEST=1 to run",
    ),
]


def _newest_source() -> float:
    newest = 0.0
    for src in SOURCES:
        files = [src] if src.is_file() else [p for p in src.rglob("*") if p.is_file()]
        for p in files:
            if "__pycache__" not in p.parts:
                newest = max(newest, p.stat().st_mtime)
    return newest


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The user's config and data folders for every frozen run of this module."""
    return tmp_path_factory.mktemp("home")


def _env(home: Path) -> dict[str, str]:
    """A user's environment: offscreen Qt, settings and data under ``home``, threaded loading."""
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
    )
    env.pop("AA_REVIEW_SYNCHRONOUS", None)  # tests/qt sets it; the app must load as shipped
    env.pop("AA_REVIEW_SAMPLE_DIR", None)  # the demo goes where it goes for a user
    return env


def _run(args: list[str], home: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, env=_env(home), timeout=timeout, cwd=home
    )


@pytest.fixture(scope="module")
def frozen() -> Path:
    """The frozen executable, rebuilt with ``./dev bundle`` unless fresher than the sources."""
    if not (EXE.is_file() and EXE.stat().st_mtime > _newest_source()):
        proc = subprocess.run(
            [str(ROOT / "dev"), "bundle"], cwd=ROOT, capture_output=True, text=True, timeout=1500
        )
        assert proc.returncode == 0, f"./dev bundle failed:\n{proc.stdout}\n{proc.stderr}"
    assert EXE.is_file() and os.access(EXE, os.X_OK)
    return EXE


@pytest.fixture(scope="module")
def first_launch(frozen: Path, home: Path) -> tuple[Path, Path]:
    """``aa-review`` with no PATH, as a first-time user starts it: it makes the demo package
    and opens it; ``--screenshot`` saves the window and exits. Returns (demo, PNG)."""
    from aa_review.demo import SAMPLE_PACKAGE_ID, sample_home

    shot = home / "window.png"
    proc = _run([str(frozen), "--screenshot", str(shot)], home, timeout=300)
    assert proc.returncode == 0, proc.stderr
    with mock.patch.dict(os.environ, _env(home), clear=True):
        demo = sample_home() / SAMPLE_PACKAGE_ID
    assert demo.is_dir(), f"no demo package at {demo}"
    return demo, shot


@pytest.fixture(scope="module")
def package(first_launch: tuple[Path, Path]) -> Path:
    """The demo package the frozen app made for itself."""
    return first_launch[0]


def _has_command(exe: Path, name: str, tmp: Path) -> bool:
    """Whether ``aa-review --help`` lists the command (audit arrives after the bundle did)."""
    listed = _run([str(exe), "--help"], tmp)
    assert listed.returncode == 0, listed.stderr
    return re.search(rf"^\s+{name}\s", listed.stdout, re.MULTILINE) is not None


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_frozen_version(frozen: Path, home: Path) -> None:
    proc = _run([str(frozen), "--version"], home)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"aa-review {__version__}"


def _data_files(tree: Path) -> set[Path]:
    """Files other than Python source and bytecode under ``tree``, relative to it."""
    return {
        p.relative_to(tree)
        for p in tree.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".py", ".pyc")
    }


def test_frozen_carries_every_data_file(frozen: Path) -> None:
    """Schemas, assets and anything else beside the code is where importlib.resources looks."""
    inside = frozen.parent / "_internal" / "aa_review"
    missing = _data_files(ROOT / "aa_review") - _data_files(inside)
    assert not missing, f"not in the bundle: {sorted(map(str, missing))[:5]}"


def test_frozen_headless_on_the_sample(frozen: Path, package: Path, tmp_path: Path) -> None:
    info = _run([str(frozen), "info", str(package), "--json"], tmp_path)
    assert info.returncode in (0, 1), info.stderr  # 1: loaded with problems, still a package
    doc = json.loads(info.stdout)
    assert doc["tool"] == f"aa-review {__version__}"
    assert doc["identity"]["package_id"]
    assert doc["counts"]["rows"] > 0
    assert (info.returncode == 1) == bool(doc["problems"])

    if _has_command(frozen, "audit", tmp_path):
        audit = _run([str(frozen), "audit", str(package), "--json"], tmp_path, timeout=300)
        assert audit.returncode in (0, 1), audit.stderr  # 2 would mean the audit did not finish
        report = json.loads(audit.stdout)
        assert report["kind"] == "package" and report["complete"] is True
        assert report["identity"]["package_id"] == doc["identity"]["package_id"]
        assert report["counts"]["rows"] == doc["counts"]["rows"]


def test_frozen_loads_big_package_in_spawned_workers(
    frozen: Path, package: Path, tmp_path: Path
) -> None:
    """Past PARALLEL_MIN_BYTES the loader spawns processes: the frozen app must run them."""
    from aa_review.core.package.layout import ROW_FILES
    from aa_review.core.package.loader import PARALLEL_MIN_BYTES

    before = json.loads(_run([str(frozen), "info", str(package), "--json"], tmp_path).stdout)
    big = tmp_path / "big"
    shutil.copytree(package, big, symlinks=True)
    for p in [big, *big.rglob("*")]:  # the shared sample is read-only in CI
        if not p.is_symlink():
            p.chmod(p.stat().st_mode | 0o200)
    by_name = {rel.rsplit("/", 1)[1]: rel for rel, _type in ROW_FILES}
    name, n = max(before["counts"]["rows_by_file"].items(), key=lambda kv: kv[1])
    target = big / by_name[name]
    data = target.read_bytes()
    assert n > 0 and data.endswith(b"\n")
    copies = PARALLEL_MIN_BYTES // len(data) + 2
    target.write_bytes(data * copies)

    proc = _run([str(frozen), "info", str(big), "--json"], tmp_path, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    after = json.loads(proc.stdout)
    assert after["counts"]["rows"] == before["counts"]["rows"] + n * (copies - 1)
    if _has_command(frozen, "audit", tmp_path):  # its row scan spawns workers too
        audit = _run([str(frozen), "audit", str(big), "--json"], tmp_path, timeout=600)
        assert audit.returncode in (0, 1), audit.stderr  # the copies are findings, not failures
        report = json.loads(audit.stdout)
        assert report["complete"] is True
        assert report["counts"]["rows"] == after["counts"]["rows"]


def test_frozen_window_renders_offscreen(first_launch: tuple[Path, Path]) -> None:
    shot = first_launch[1]
    width, height = _png_size(shot)
    assert width >= 800 and height >= 600
    assert shot.stat().st_size > 20_000, "the grab looks blank"
    # Keep the picture where a person (or CI's artifacts) can look at it.
    out = ROOT / "build" / "bundle-window.png"
    out.parent.mkdir(exist_ok=True)
    shutil.copyfile(shot, out)


def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    """``python -m build`` (sdist, then the wheel from it) into a fresh venv: both commands run."""
    tools = tmp_path / "tools"
    subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True, timeout=120)
    subprocess.run(
        [
            str(tools / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "build",
        ],
        check=True,
        timeout=300,
    )
    out = tmp_path / "dist"
    built = subprocess.run(
        [str(tools / "bin" / "python"), "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    wheel = next(out.glob("aa_review-*.whl"))
    assert next(out.glob("aa_review-*.tar.gz"))

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            str(wheel),
        ],
        check=True,
        timeout=600,
    )
    for args in (
        [str(venv / "bin" / "aa-review"), "--version"],
        [str(venv / "bin" / "python"), "-m", "aa_review", "--version"],
        [str(venv / "bin" / "aa-review-gui"), "--version"],
    ):
        proc = _run(args, tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == f"aa-review {__version__}"
    # The window entry makes the demo and shows it; the command line reads that demo.
    shot = tmp_path / "wheel-window.png"
    proc = _run(
        [str(venv / "bin" / "aa-review-gui"), "--screenshot", str(shot)], tmp_path, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert _png_size(shot)[0] >= 800
    from aa_review.demo import SAMPLE_PACKAGE_ID, sample_home

    with mock.patch.dict(os.environ, _env(tmp_path), clear=True):
        demo = sample_home() / SAMPLE_PACKAGE_ID
    info = _run([str(venv / "bin" / "aa-review"), "info", str(demo), "--json"], tmp_path)
    assert info.returncode in (0, 1), info.stderr
    assert json.loads(info.stdout)["counts"]["rows"] > 0
    # The wheel carries the sample and assets wherever the source tree has them.
    site = next((venv / "lib").glob("python3*/site-packages/aa_review"))
    for tree in ("data", "qt/assets"):
        src = ROOT / "aa_review" / tree
        if src.is_dir():
            want = {
                p.relative_to(src)
                for p in src.rglob("*")
                if p.is_file() and "__pycache__" not in p.parts
            }
            got = {p.relative_to(site / tree) for p in (site / tree).rglob("*") if p.is_file()}
            assert want <= got, f"missing from the wheel: {sorted(want - got)[:5]}"
