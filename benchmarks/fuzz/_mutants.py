"""Mutation operators over a package folder, as an attacker or a careless user would apply them.

Each operator takes the package root, a seeded ``random.Random`` and a folder outside
the package (holding bait files whose content must never be read) and changes the
package in place; it returns the (possibly renamed) root and a one-line description.
Used by the property-based test (``tests/core/test_fuzz.py``) and ``./dev fuzz``.
"""

from __future__ import annotations

import json
import os
import random
import socket
from collections.abc import Callable
from pathlib import Path

__all__ = ["OPERATORS", "CLASSES", "BAIT", "apply", "plant_bait", "files_of", "deep_file"]

BAIT = b"OUTSIDE-BAIT-9f3c1e: content outside the package that must never be read\n"
MAP = "experience_compiler/source_evidence_map.json"
MANIFEST = "experience_compiler/compiler_manifest.json"
ROWS = "experience_compiler/training_time_package/evaluation_examples.jsonl"
Op = Callable[[Path, random.Random, Path], tuple[Path, str]]
# MB of the huge header string and the huge line: the campaign's sizes; the test suite
# sets a small one (what is measured is the same code path, not its memory).
HUGE_MB = (1, 20, 40)
OPERATORS: dict[str, Op] = {}
CLASSES: dict[str, str] = {}  # operator -> class named in the issue


def op(cls: str) -> Callable[[Op], Op]:
    def deco(fn: Op) -> Op:
        name = fn.__name__.lstrip("_")
        OPERATORS[name] = fn
        CLASSES[name] = cls
        return fn

    return deco


def plant_bait(outside: Path) -> Path:
    """Bait files outside the package: a secret, a JSON document and a JSONL row file."""
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.txt").write_bytes(BAIT)
    (outside / "doc.json").write_bytes(b'{"bait": "' + BAIT.strip() + b'"}')
    (outside / "rows.jsonl").write_bytes(b'{"row_id": "' + BAIT.strip() + b'"}\n')
    (outside / "dir").mkdir(exist_ok=True)
    (outside / "dir" / "secret.txt").write_bytes(BAIT)
    return outside


def files_of(root: Path) -> list[str]:
    """Regular files of the package, relative, sorted (never following a symlink)."""
    out = []
    for dirpath, _, names in os.walk(root):
        for n in names:
            p = os.path.join(dirpath, n)
            if os.path.isfile(p) and not os.path.islink(p):
                out.append(os.path.relpath(p, root))
    return sorted(out)


def _pick(root: Path, rng: random.Random, pattern: str = "") -> str:
    files = [f for f in files_of(root) if pattern in f] or files_of(root)
    return rng.choice(files)


def _read(p: Path) -> bytes:
    """The bytes of a regular file of the package; ValueError for anything else (an
    earlier operator may have left a FIFO, a folder or a symlink out there)."""
    if p.is_symlink() or not p.is_file():
        raise ValueError(f"{p.name} is no longer a regular file")
    return p.read_bytes()


def _bait_for(rel: str, outside: Path) -> Path:
    if rel.endswith(".jsonl"):
        return outside / "rows.jsonl"
    return outside / ("doc.json" if rel.endswith(".json") else "secret.txt")


def _important(root: Path, rng: random.Random) -> str:
    """One of the files every reader opens, if it is still a regular file."""
    rel = rng.choice(
        [
            MAP,
            MANIFEST,
            ROWS,
            "artifacts_index.json",
            "manifest.json",
            "experience_compiler/runtime_learning_package/output_contract.json",
            "task/task_intake_spec.json",
        ]
    )
    p = root / rel
    return rel if p.is_file() and not p.is_symlink() else _pick(root, rng)


# -- special files, unreadable files, links ---------------------------------------
@op("FIFO")
def _fifo_replace(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _important(root, rng) if rng.random() < 0.6 else _pick(root, rng)
    (root / rel).unlink(missing_ok=True)
    os.mkfifo(root / rel)
    return root, f"{rel} replaced by a FIFO"


@op("FIFO")
def _fifo_add(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = str(Path(_pick(root, rng)).parent / "pipe")
    os.mkfifo(root / rel)
    return root, f"FIFO added at {rel}"


@op("socket")
def _socket_add(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = (
        _important(root, rng) if rng.random() < 0.5 else str(Path(_pick(root, rng)).parent / "sock")
    )
    short = outside / f"s{rng.randrange(1 << 30)}"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(short))
    s.close()
    (root / rel).unlink(missing_ok=True)
    os.replace(short, root / rel)  # a socket is bound where its path fits, then moved in
    return root, f"unix socket at {rel}"


@op("unreadable file")
def _unreadable(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _important(root, rng) if rng.random() < 0.5 else _pick(root, rng)
    kind = rng.choice(["chmod", "dir", "loop"])
    p = root / rel
    if kind == "chmod":  # effective when the reader is not root
        p.chmod(0)
    elif kind == "dir":
        p.unlink()
        p.mkdir()
        (p / "inner.txt").write_text("a folder where a file should be\n")
    else:
        p.unlink()
        os.symlink(p.name, p)  # a symlink to itself
    return root, f"{rel} made unreadable ({kind})"


@op("symlink swap")
def _symlink_out_file(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _important(root, rng) if rng.random() < 0.5 else _pick(root, rng)
    p = root / rel
    p.unlink()
    os.symlink(_bait_for(rel, outside), p)
    return root, f"{rel} swapped for a symlink out of the package"


@op("symlink swap")
def _symlink_out_dir(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = str(Path(_pick(root, rng)).parent)
    if rel == ".":
        rel = "grading"
    target = outside / f"dir{rng.randrange(1 << 30)}"
    os.replace(root / rel, target)  # the real folder moved out, a link left in its place
    os.symlink(target, root / rel)
    return root, f"folder {rel} swapped for a symlink out of the package"


@op("symlink swap")
def _symlink_relative_escape(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _pick(root, rng)
    p = root / rel
    p.unlink()
    os.symlink(os.path.relpath(_bait_for(rel, outside), p.parent), p)
    return root, f"{rel} swapped for a relative symlink climbing out"


@op("hard link")
def _hard_link_out(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _pick(root, rng)
    p = root / rel
    p.unlink()
    os.link(outside / "secret.txt", p)
    return root, f"{rel} hard-linked to a file outside"


# -- names ------------------------------------------------------------------------------
@op("non-UTF-8 names")
def _non_utf8_name(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    folder = rng.choice(["grading", "feedback", "input", "experience_compiler"])
    name = b"r\xe9sultat_\xff" + bytes([rng.randrange(0x80, 0xFF)]) + b".json"
    base = os.fsencode(root / folder)
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, name), "wb") as fh:
        fh.write(b'{"score": 1}\n')
    return root, f"non-UTF-8 file name added in {folder}/"


@op("non-UTF-8 names")
def _non_utf8_folder(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    base = os.path.join(os.fsencode(root), b"attempts", b"\xfe\xffkind")
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, b"actual_outputs.json"), "wb") as fh:
        fh.write(b"{}")
    return root, "non-UTF-8 folder name under attempts/"


@op("non-UTF-8 names")
def _non_utf8_root(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    new = os.path.join(os.fsencode(root.parent), os.fsencode(root.name) + b"_\xff\xfe")
    os.rename(os.fsencode(root), new)
    return Path(os.fsdecode(new)), "package folder renamed to a non-UTF-8 name"


@op("long path")
def _long_path(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    deep_file(root / "input")
    return root, "a file at a path longer than PATH_MAX under input/"


def deep_file(folder: Path, levels: int = 20) -> str:
    """Write ``deep.txt`` (``deep\\n``) under ``levels`` folders of 250-byte names (20:
    past PATH_MAX), through folder descriptors; returns its path relative to ``folder``."""
    names = [f"{i:02d}" + "d" * 248 for i in range(levels)]
    fd = os.open(folder, os.O_RDONLY)
    try:
        for name in names:
            os.mkdir(name, dir_fd=fd)
            nfd = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        wfd = os.open("deep.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(wfd, b"deep\n")
        os.close(wfd)
    finally:
        os.close(fd)
    return "/".join([*names, "deep.txt"])


@op("long component")
def _long_component_ref(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    name = "c" * 300
    ref = rng.choice([f"input/{name}.csv", f"{name}/x.json", "/".join(["e" * 250] * 20)])
    return _replace_ref(root, rng, ref), f"a ref with an over-long name: {ref[:20]}..."


@op("long component")
def _escaping_ref(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    ref = rng.choice(
        [
            str(outside / "secret.txt"),
            "../" * 8 + "etc/passwd",
            "input/../../" + os.path.relpath(outside / "secret.txt", root.parent),
            "/etc/passwd",
            "input/\u0000nul",
        ]
    )
    return _replace_ref(root, rng, ref), f"a ref escaping the package: {ref[:30]}"


def _replace_ref(root: Path, rng: random.Random, ref: str) -> Path:
    """Put ``ref`` in the map's catalog, a row's refs and a transfer contract."""
    enc = json.dumps(ref)[1:-1].encode()
    for rel, key in (
        (MAP, b'"ref": "input/'),
        (ROWS, b'"evidence_refs": ["'),
        (
            "experience_compiler/runtime_learning_package/transfer_checklist.json",
            b'"artifact_ref": "',
        ),
    ):
        p = root / rel
        try:
            data = _read(p)
        except ValueError:
            continue
        at = data.find(key)
        if at < 0:
            continue
        start = at + len(key) - (len(b"input/") if key.endswith(b"input/") else 0)
        end = data.find(b'"', start)
        p.write_bytes(data[:start] + enc + data[end:])
    return root


# -- JSON content ------------------------------------------------------------------------------
def _insert_header(root: Path, text: bytes) -> None:
    p = root / MAP
    data = _read(p)
    at = data.index(b"{") + 1
    p.write_bytes(data[:at] + b'\n  "x_injected": ' + text + b"," + data[at:])


@op("deep nesting")
def _deep_nesting(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    depth = rng.choice([1_000, 20_000, 100_000])
    deep = b"[" * depth + b"]" * depth
    where = rng.choice(["map", "row", "doc"])
    _put_value(root, rng, where, deep)
    return root, f"{depth}-deep nesting in the {where}"


@op("huge ints")
def _huge_int(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    where = rng.choice(["map", "row", "doc"])
    _put_value(root, rng, where, b"1" + b"0" * rng.choice([400, 5000, 100_000]))
    return root, f"huge integer in the {where}"


@op("NaN")
def _nan(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    where = rng.choice(["map", "row", "doc"])
    _put_value(root, rng, where, rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999"]))
    return root, f"NaN/Infinity in the {where}"


@op("huge header string")
def _huge_header_string(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    mb = rng.choice(HUGE_MB)
    _insert_header(root, b'"' + b"a" * (mb << 20) + b'"')
    return root, f"a {mb} MB string in the map header"


@op("lone surrogate")
def _lone_surrogate(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    _put_value(root, rng, rng.choice(["map", "row", "doc"]), b'"\\udcff\\ud800x"')
    return root, "lone surrogate escapes"


def _put_value(root: Path, rng: random.Random, where: str, value: bytes) -> None:
    if where == "map":
        _insert_header(root, value)
        return
    rel = (
        ROWS if where == "row" else rng.choice([MANIFEST, "artifacts_index.json", "manifest.json"])
    )
    p = root / rel
    data = _read(p)
    if where == "row":
        lines = data.split(b"\n")
        i = rng.randrange(max(1, len(lines) - 1))
        lines[i] = b'{"x_injected": ' + value + b", " + lines[i][1:]
        p.write_bytes(b"\n".join(lines))
    elif data.lstrip().startswith(b"{"):
        at = data.index(b"{") + 1
        p.write_bytes(data[:at] + b'"x_injected": ' + value + b"," + data[at:])
    else:
        at = data.index(b"[") + 1
        p.write_bytes(data[:at] + value + b"," + data[at:])


# -- corrupted and edited files --------------------------------------------------------------
@op("corrupt artifacts_index")
def _corrupt_index(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    p = root / "artifacts_index.json"
    data = bytearray(_read(p))
    i = rng.randrange(len(data))
    data[i] = rng.choice(b'{}[],:"x\xff\x00')
    p.write_bytes(bytes(data))
    return root, f"artifacts_index.json byte {i} overwritten"


@op("edited manifest")
def _edit_manifest(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    p = root / "manifest.json"
    doc = json.loads(_read(p))
    doc["task_id"] = "another_task"
    p.write_text(json.dumps(doc, indent=2) + "\n")
    return root, "manifest.json task_id edited"


@op("injected rows")
def _inject_row(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    p = root / ROWS
    lines = [ln for ln in _read(p).split(b"\n") if ln.strip()]
    row = json.loads(rng.choice(lines))
    row["row_id"] = f"row_injected_{rng.randrange(1 << 30)}"
    row["target"] = {"criterion_description": "injected", "pass_threshold": 0}
    _read(p)  # only a regular file is appended to (a FIFO would block)
    with open(p, "ab") as fh:
        fh.write(json.dumps(row).encode() + b"\n")
    if rng.random() < 0.5:  # and the manifest edited to match
        _edit_manifest(root, rng, outside)
    return root, f"a row injected into {ROWS}"


@op("corrupt map")
def _corrupt_map_links(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    p = root / MAP
    data = bytearray(_read(p))
    start = data.find(b'"row_evidence_links"')
    i = rng.randrange(max(start, 0), len(data))
    data[i : i + 3] = rng.choice([b"@@@", b"\xff\xfe\xfd", b'"""', b"]]]"])
    p.write_bytes(bytes(data))
    return root, f"evidence map corrupted at byte {i} (after the catalog)"


@op("truncated file")
def _truncate(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _important(root, rng) if rng.random() < 0.6 else _pick(root, rng)
    p = root / rel
    size = p.stat().st_size
    os.truncate(p, rng.randrange(size + 1) if size else 0)
    return root, f"{rel} truncated"


@op("byte flip")
def _byte_flip(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _important(root, rng) if rng.random() < 0.6 else _pick(root, rng)
    p = root / rel
    data = bytearray(_read(p))
    if not data:
        return root, f"{rel} empty, unchanged"
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    p.write_bytes(bytes(data))
    return root, f"bytes of {rel} flipped"


@op("deleted file")
def _delete(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = _important(root, rng) if rng.random() < 0.6 else _pick(root, rng)
    (root / rel).unlink()
    return root, f"{rel} deleted"


@op("huge line")
def _huge_line(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    p = root / ROWS
    _read(p)  # only a regular file is appended to (a FIFO would block)
    with open(p, "ab") as fh:
        fh.write(b'{"row_id": "' + b"x" * (rng.choice(HUGE_MB) << 20) + b'"}\n')
    return root, "a huge line appended to a row file"


@op("wrong types")
def _wrong_types(root: Path, rng: random.Random, outside: Path) -> tuple[Path, str]:
    rel = rng.choice(
        [
            MANIFEST,
            MAP,
            "artifacts_index.json",
            "experience_compiler/runtime_learning_package/output_contract.json",
            "experience_compiler/runtime_learning_package/transfer_checklist.json",
        ]
    )
    p = root / rel
    _read(p)
    value = rng.choice(
        [
            b"[]",
            b"null",
            b"42",
            b'"text"',
            b'{"evidence_catalog": 5, "row_evidence_links": {"a": 1}}',
            b"{}",
        ]
    )
    p.write_bytes(value)
    return root, f"{rel} replaced by {value[:20]!r}"


def apply(root: Path, name: str, rng: random.Random, outside: Path) -> tuple[Path, str]:
    """Apply operator ``name``; returns the package root (renamed by some) and what changed."""
    return OPERATORS[name](root, rng, outside)
