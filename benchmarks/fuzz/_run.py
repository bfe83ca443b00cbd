"""``python -m benchmarks.fuzz._run`` (package paths on stdin): run ``info --json`` and
``audit --json`` on each package in this process and print one JSON line per package
saying how each went.

Every file this process opens is recorded (the descriptor's real path, see
:mod:`._opens`) and, as a second net, every ``open`` audit event with an absolute
path (``sys.addaudithook``). An uncaught exception, an exit code other than 0, 1 or
2, output that is not JSON, or an open outside the package is reported.
"""

from __future__ import annotations

import io
import json
import logging
import os
import sys
import traceback
from contextlib import redirect_stderr
from pathlib import Path

from benchmarks.fuzz._opens import record_opens

__all__ = ["run_one"]


def _cli(argv: list[str]) -> tuple[int | None, bytes, str, str | None]:
    """(exit code, stdout bytes, stderr text, traceback) of the headless command line."""
    from aa_review.cli import main

    out = io.BytesIO()
    err = io.StringIO()
    real = sys.stdout
    wrapper = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stdout = wrapper
    tb = None
    code: int | None = None
    logging.root.handlers.clear()  # so that the command's logging writes to ``err``
    try:
        with redirect_stderr(err):
            code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # noqa: BLE001 - what the fuzzer is looking for
        tb = traceback.format_exc()
    finally:
        wrapper.flush()
        wrapper.detach()  # leaves ``out`` open
        sys.stdout = real
    return code, out.getvalue(), err.getvalue(), tb


_EVENTS: list[str] = []
_HOOKED = False


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and args and isinstance(args[0], str) and args[0].startswith("/"):
        _EVENTS.append(os.path.realpath(args[0]))


def run_one(package: str, *, audit_hook: bool = True) -> dict[str, object]:
    """Run both commands on ``package``; the result names every failure.

    ``audit_hook`` installs :func:`sys.addaudithook` (for good: hooks cannot be removed,
    so a test process leaves it out and relies on the descriptor recorder).
    """
    global _HOOKED
    root = os.path.realpath(package)
    if audit_hook and not _HOOKED:
        sys.addaudithook(_hook)
        _HOOKED = True
    events = _EVENTS
    result: dict[str, object] = {
        "package": os.fsencode(package).decode("utf-8", "replace"),
        "failures": [],
    }
    del events[:]
    failures: list[str] = result["failures"]  # type: ignore[assignment]
    with record_opens() as opened:
        for cmd in ("info", "audit"):
            code, out, err, tb = _cli([cmd, package, "--json"])
            result[cmd] = code
            if tb is not None:
                failures.append(f"{cmd}: traceback\n{tb}")
            elif code not in (0, 1, 2):
                failures.append(f"{cmd}: exit code {code}")
            if "Traceback (most recent call last)" in err:
                failures.append(f"{cmd}: traceback on stderr\n{err[-3000:]}")
            if code in (0, 1):
                try:
                    json.loads(out)
                except ValueError as exc:
                    failures.append(f"{cmd}: --json output is not JSON ({exc})")
    watched = Path(root).parent  # the mutant's folder: the package and its bait beside it
    inside = root + os.sep
    for path in [*opened, *events]:
        if path == root or path.startswith(inside):
            continue
        if path.startswith((str(watched) + os.sep, "/etc/passwd")):
            failures.append(f"opened outside the package: {path}")
    return result


if __name__ == "__main__":
    # One package per line on stdin (surrogate-escaped paths), one JSON line out each:
    # the interpreter starts once for a batch; the caller times each line out.
    for line in sys.stdin.buffer:
        path = os.fsdecode(line.rstrip(b"\n"))
        if path:
            print(json.dumps(run_one(path)), flush=True)
