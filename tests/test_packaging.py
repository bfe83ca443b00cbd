"""What is published: the sdist holds the whole project, the wheel its license, the lock
covers what pyproject.toml declares and is what the tests run on.

The sdist and the wheel are built offline with the setuptools the lock installs (a few
seconds), from a copy of the project's files, never in the checkout itself.
"""

from __future__ import annotations

import email
import fnmatch
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# What the sdist must hold beyond the package, by the issue that asked for it.
MUST_HOLD = [
    "LICENSE",
    "README.md",
    "CHANGELOG.md",
    "pyproject.toml",
    "requirements.lock",
    "dev",
    "docs/findings.md",
    "docs/window.md",
    "docs/dossier_workspace.md",
    "resources/aa-review.svg",
    "resources/aa-review.png",
    "resources/aa-review.desktop",
    "tests/conftest.py",
    "tests/test_packaging.py",
    "tests/data/dossier/archive.json",
    "benchmarks/__main__.py",
    "benchmarks/README.md",
    "packaging/aa_review.spec",
]
_NEVER = ("*.pyc", "*/__pycache__/*", ".venv/*", "build/*", "dist/*", "bench-data/*")


def project_files() -> list[str]:
    """The project's files: git's (tracked, and new but not ignored), or the tree's."""
    if shutil.which("git") and (ROOT / ".git").exists():
        out = subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "ls-files",
                "--cached",
                "--others",
                "--exclude-standard",
                "-z",
            ],
            capture_output=True,
            check=True,
        )
        names = [n for n in out.stdout.decode().split("\0") if n]
        return sorted(n for n in names if (ROOT / n).is_file())
    ignored = [
        ln.strip().rstrip("/")
        for ln in (ROOT / ".gitignore").read_text().splitlines()
        if ln.strip() and not ln.startswith(("#", "!"))
    ]
    out_names = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT).as_posix()
        parts = rel.split("/")
        if path.is_file() and not any(fnmatch.fnmatch(p, pat) for p in parts for pat in ignored):
            out_names.append(rel)
    return sorted(n for n in out_names if n not in ("PKG-INFO", "setup.cfg"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    """(sdist, wheel built from the unpacked sdist, the project's files)."""
    files = project_files()
    src = tmp_path_factory.mktemp("project")
    for rel in files:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, src / rel)
    out = tmp_path_factory.mktemp("dist")
    code = (
        "import sys; from setuptools import build_meta as b; "
        "print(getattr(b, sys.argv[1])(sys.argv[2]))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SETUPTOOLS_")}

    def build(kind: str, where: Path) -> Path:
        proc = subprocess.run(
            [sys.executable, "-c", code, kind, str(out)],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        return out / proc.stdout.strip().splitlines()[-1]

    sdist = build("build_sdist", src)
    unpacked = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(sdist) as tar:
        tar.extractall(unpacked, filter="data")
    wheel = build("build_wheel", next(unpacked.iterdir()))
    return sdist, wheel, files


def test_sdist_holds_the_whole_project(built) -> None:
    sdist, _wheel, files = built
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        members = {m.name.removeprefix(top + "/"): m for m in tar.getmembers() if m.isfile()}
    missing = [f for f in MUST_HOLD if f not in members]
    assert not missing, f"not in the sdist: {missing}"
    left_out = [f for f in files if f not in members]
    assert not left_out, f"project files not in the sdist: {left_out[:10]}"
    junk = [n for n in members if any(fnmatch.fnmatch(n, p) for p in _NEVER)]
    assert not junk, junk
    assert members["dev"].mode & 0o111, "./dev must stay executable"
    assert members["LICENSE"].size == (ROOT / "LICENSE").stat().st_size


def test_license_is_mit_in_the_repository_sdist_and_wheel(built) -> None:
    sdist, wheel, _files = built
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 aa-review contributors" in text
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(whl.read(info))
        lic = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
        assert whl.read(lic).decode() == text
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]
    with tarfile.open(sdist) as tar:
        pkg_info = next(
            m for m in tar.getmembers() if m.name.endswith("/PKG-INFO") and m.name.count("/") == 1
        )
        fh = tar.extractfile(pkg_info)
        assert fh is not None
        assert email.message_from_bytes(fh.read())["License-Expression"] == "MIT"


def test_wheel_declares_ranges_not_pins(built) -> None:
    _sdist, wheel, _files = built
    with zipfile.ZipFile(wheel) as whl:
        info = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
        requires = email.message_from_bytes(whl.read(info)).get_all("Requires-Dist") or []
    assert len(requires) >= len(PYPROJECT["project"]["dependencies"])
    for line in requires:
        spec = Requirement(line).specifier
        assert spec and not any(s.operator in ("==", "===") for s in spec), line


# -- the lock -----------------------------------------------------------------------------

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def lock_entries() -> dict[str, list[tuple[str, str | None, list[str]]]]:
    """name -> [(version, marker, hashes)], as pip reads requirements.lock."""
    out: dict[str, list[tuple[str, str | None, list[str]]]] = {}
    current: list[str] | None = None
    for raw in LOCK.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash="):
            assert current is not None, f"a hash before any requirement: {raw}"
            current.append(line.removeprefix("--hash=").rstrip(" \\"))
            continue
        m = _PIN.match(line)
        assert m, f"not an exact pin: {raw!r}"
        current = []
        out.setdefault(canonicalize_name(m.group(1)), []).append((m.group(2), m.group(3), current))
    return out


def declared() -> list[Requirement]:
    reqs = list(PYPROJECT["project"]["dependencies"])
    for extra in PYPROJECT["project"]["optional-dependencies"].values():
        reqs += extra
    reqs += PYPROJECT["build-system"]["requires"]
    return [Requirement(r) for r in reqs]


def test_lock_pins_everything_with_hashes() -> None:
    entries = lock_entries()
    assert len(entries) > 20
    for name, pins in entries.items():
        for version, _marker, hashes in pins:
            assert hashes, f"{name}=={version} has no hash"
            assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), name
    assert LOCK.read_text().splitlines()[1].strip() == "#    ./dev lock"  # how to refresh it


def test_lock_covers_every_declared_dependency() -> None:
    """Every dependency of pyproject.toml (extras and build requirements too) is locked,
    at a version its declared range allows, on every platform the lock resolves for."""
    entries = lock_entries()
    for req in declared():
        pins = entries.get(canonicalize_name(req.name))
        assert pins, f"{req.name} is declared in pyproject.toml but not locked: ./dev lock"
        for version, _marker, _hashes in pins:
            assert req.specifier.contains(version, prereleases=True), (
                f"{req.name}=={version} is outside {req.specifier}: ./dev lock"
            )


def test_pyproject_declares_compatible_ranges() -> None:
    for req in declared():
        if req.name == "setuptools":
            continue
        ops = {s.operator for s in req.specifier}
        assert ">=" in ops and "<" in ops and "==" not in ops, f"{req}: a range, please"


def test_the_tests_run_on_the_locked_versions() -> None:
    """What ./dev installed is the lock, to the version (nothing floated in beside it)."""
    if Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        pytest.skip("not running in ./dev's .venv")
    wrong = []
    for name, pins in lock_entries().items():
        for version, marker, _hashes in pins:
            if marker and not Marker(marker).evaluate():
                continue
            try:
                installed = metadata.version(name)
            except metadata.PackageNotFoundError:
                wrong.append(f"{name}: not installed")
                continue
            if Version(installed) != Version(version):
                wrong.append(f"{name}: {installed} installed, {version} locked")
    assert not wrong, wrong


def test_dev_installs_from_the_lock_and_reinstalls_when_it_changes() -> None:
    """The setup ./dev runs: --require-hashes from requirements.lock; the stamp hashes it."""
    script = (ROOT / "dev").read_text()
    assert re.search(r'pip install [^\n]*--require-hashes -r "\$lock"', script)
    stamp = re.search(r"^stamp=.*$", script, re.MULTILINE)
    assert stamp and '"$lock"' in stamp.group(0) and "pyproject.toml" in stamp.group(0)
    probe = subprocess.run(
        [
            "bash",
            "-c",
            f'cd "{ROOT}"; lock=requirements.lock; venv=.venv; '
            + stamp.group(0)
            + '; echo "$stamp"',
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + LOCK.read_bytes())
    assert probe.stdout.strip() == f".venv/.installed-{want.hexdigest()[:16]}"


@pytest.mark.network
@pytest.mark.skipif(
    os.environ.get("AA_REVIEW_NETWORK_TEST") != "1",
    reason="resolves against the package index: set AA_REVIEW_NETWORK_TEST=1",
)
def test_lock_refresh_reproduces_the_lock() -> None:
    """``./dev lock --check``: resolving pyproject.toml again gives the same lock."""
    proc = subprocess.run(
        [str(ROOT / "dev"), "lock", "--check"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_every_benchmark_is_described_in_benchmarks_readme() -> None:
    """``./dev`` points to benchmarks/README.md: each benchmark has its section there."""
    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    names = sorted(p.stem.removeprefix("bench_") for p in (ROOT / "benchmarks").glob("bench_*.py"))
    assert names
    missing = [
        n
        for n in names
        if not re.search(rf"^## {n} — ", text, re.MULTILINE) or f"./dev bench {n}" not in text
    ]
    assert not missing, f"benchmarks without a section in benchmarks/README.md: {missing}"


def test_every_benchmark_module_imports() -> None:
    """A benchmark that no longer imports is found by the suite, not by its next run."""
    import importlib

    names = sorted(p.stem for p in (ROOT / "benchmarks").glob("bench_*.py"))
    broken = {}
    for name in names:
        try:
            importlib.import_module(f"benchmarks.{name}")
        except Exception as exc:  # noqa: BLE001 - every failure is reported
            broken[name] = repr(exc)
    assert not broken, broken


def test_the_test_command_lints_and_type_checks_before_the_tests(tmp_path: Path) -> None:
    """CI runs `./dev test` (.ci/run): a lint or type error must fail it before pytest runs."""
    dev = (ROOT / "dev").read_text()
    test_cmd = dev[dev.index("    test)") : dev.index("    aa-review)")]
    steps = ('"$venv/bin/ruff" check', '"$venv/bin/ruff" format --check', '"$venv/bin/mypy"')
    order = [test_cmd.find(s) for s in (*steps, "-m pytest")]
    assert -1 not in order and order == sorted(order), test_cmd
    # and the tree is clean by the same tools, so the first CI run is not red for style
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff is not installed beside this Python")
    done = subprocess.run(
        [str(ruff), "check", "--quiet", "--no-cache", "aa_review", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
