"""Size and start-up time of the frozen app (dist/aa-review/), as ratios to budgets.

Run after ``./dev bundle``: ``./dev bench bundle`` (``--build`` builds the bundle first).
Each ratio is measured / budget: below 1 is within budget.

Budgets, and why:

- Folder size 350 MiB. The pinned dependencies set a floor near 300 MiB: Qt's
  libraries and plugins (ICU's data alone is 31 MiB, and QtCore needs it), numpy and
  scipy each with their own OpenBLAS, and the CPython runtime. The rest is headroom
  for the window's assets and new code. Going over means something came in that the
  app never imports (the test extra's pandas and statsmodels are about 100 MiB, a
  second Qt binding more): look at the breakdown printed first.
- ``aa-review --version`` 1.0 s. The time a command-line user waits for any answer;
  one second is where a wait starts to feel like one. It pays the bootloader, the
  interpreter and the CLI's imports, as every headless command does.
- First window grab 3.0 s: from launch until ``--screenshot`` has saved the window
  with the demo package loaded and the process has exited (the demo is made on the
  very first launch only; that run is shown apart). About the longest a desktop app
  may take to show its content on this 2-core machine before people wonder whether
  it started at all.

Times depend on what else the machine is doing: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
BUDGET_MIB = 350.0
BUDGET_VERSION_S = 1.0
BUDGET_GRAB_S = 3.0


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def breakdown(internal: Path) -> dict[str, int]:
    """Bytes by component: the few big dependencies, then everything else."""
    groups = {
        "Qt (PySide6, shiboken6)": ("PySide6", "shiboken6"),
        "scipy (with its OpenBLAS)": ("scipy", "scipy.libs"),
        "numpy (with its OpenBLAS)": ("numpy", "numpy.libs"),
        "CPython runtime and stdlib": ("libpython3", "python3", "base_library.zip"),
        "aa_review (code is in the PYZ; data and assets)": ("aa_review",),
        "pyqtgraph": ("pyqtgraph",),
        "pydantic": ("pydantic", "pydantic_core"),
    }
    out = dict.fromkeys(groups, 0)
    out["system and other libraries"] = 0
    for entry in internal.iterdir():
        if entry.is_symlink():  # PyInstaller links some libraries to their real place
            continue
        size = folder_bytes(entry) if entry.is_dir() else entry.stat().st_size
        name = next(
            (
                g
                for g, prefixes in groups.items()
                if any(
                    entry.name == p
                    or entry.name.startswith(p + ".")
                    or (p.endswith("3") and entry.name.startswith(p))
                    for p in prefixes
                )
            ),
            "system and other libraries",
        )
        out[name] += size
    return out


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(
            f"bench_bundle: {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}"
        )
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(
    label: str,
    args: list[str],
    env: dict[str, str],
    repeats: int,
    budget: float | None,
    reference: list[str] | None = None,
) -> None:
    """The first run also reads the files from disk; the median is over the runs after it."""
    runs = [timed(args, env) for _ in range(repeats + 1)]
    wall = statistics.median(w for w, _ in runs[1:])
    cpu = statistics.median(c for _, c in runs[1:])
    line = (
        f"{label:<30} median {wall:5.2f} s (best {min(w for w, _ in runs[1:]):.2f}, "
        f"first {runs[0][0]:.2f}, CPU {cpu:.2f} s)"
    )
    if budget is not None:
        line += f"  budget {budget:.1f} s  ratio {wall / budget:.2f}"
    print(line)
    if reference is not None:
        # As installed: bytecode cached (the first, discarded run writes it).
        ref_env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        ref = statistics.median([timed(reference, ref_env)[0] for _ in range(repeats + 1)][1:])
        print(f"{'':<30} the same unfrozen (python -m aa_review): median {ref:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist" / "aa-review")
    parser.add_argument("--build", action="store_true", help="run ./dev bundle first")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    exe = args.dist / "aa-review"
    if args.build or not exe.is_file():
        subprocess.run([str(ROOT / "dev"), "bundle"], cwd=ROOT, check=True)

    total = folder_bytes(args.dist)
    print(f"bundle {args.dist}")
    for name, size in sorted(breakdown(args.dist / "_internal").items(), key=lambda kv: -kv[1]):
        print(f"  {name:<48} {size / MIB:7.1f} MiB")
    print(
        f"{'folder size':<30} {total / MIB:.1f} MiB  budget {BUDGET_MIB:.0f} MiB  "
        f"ratio {total / MIB / BUDGET_MIB:.2f}"
    )

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=tmp, XDG_DATA_HOME=tmp)
        for var in ("AA_REVIEW_SYNCHRONOUS", "AA_REVIEW_SAMPLE_DIR"):
            env.pop(var, None)
        py = [sys.executable, "-m", "aa_review"]
        measure(
            "aa-review --version",
            [str(exe), "--version"],
            env,
            args.repeats,
            BUDGET_VERSION_S,
            [*py, "--version"],
        )
        # No PATH: the demo package, as a user starts it. The first run also makes the demo.
        shot = ["--screenshot", str(Path(tmp) / "window.png")]
        measure(
            "first window grab", [str(exe), *shot], env, args.repeats, BUDGET_GRAB_S, [*py, *shot]
        )
    load = os.getloadavg()[0]
    print(
        f"({args.repeats} timed runs each; {os.cpu_count()} CPUs, load average {load:.1f}; "
        f"Python {sys.version.split()[0]})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
