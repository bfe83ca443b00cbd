"""``python -m benchmarks NAME [ARGS]`` (or ``./dev bench NAME``): run one benchmark.

Without NAME, list them.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main() -> int:
    names = sorted(
        m.name[len("bench_") :]
        for m in pkgutil.iter_modules([str(Path(__file__).parent)])
        if m.name.startswith("bench_")
    )
    if len(sys.argv) < 2 or sys.argv[1] not in names:
        print(
            "usage: python -m benchmarks NAME [ARGS]   (NAME: " + ", ".join(names) + ")",
            file=sys.stderr,
        )
        for name in names:
            doc = (importlib.import_module(f"benchmarks.bench_{name}").__doc__ or "").strip()
            print(f"  {name:<8} {doc.splitlines()[0] if doc else ''}")
        return 2
    name = sys.argv.pop(1)
    sys.argv[0] = f"benchmarks.bench_{name}"
    importlib.import_module(f"benchmarks.bench_{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
