"""Hashing reuses one pair of read buffers per thread, and no file's bytes leak into the
facts of the next one read with them."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from aa_review.core.audits._files import Wants, hash_group, scan_file
from aa_review.core.package.digest import file_sha256
from aa_review.core.util.buffers import CHUNK, read_buffers


def test_one_pair_per_thread() -> None:
    mine = read_buffers()
    assert read_buffers() is mine
    theirs: list[tuple[bytearray, bytearray]] = []
    t = threading.Thread(target=lambda: theirs.append(read_buffers()))
    t.start()
    t.join()
    assert theirs[0][0] is not mine[0] and theirs[0][1] is not mine[1]


def test_files_read_after_a_larger_one_hash_and_compare_on_their_own_bytes(tmp_path: Path) -> None:
    big = bytes(range(256)) * (CHUNK // 256) * 2 + b"tail"  # two full chunks and a part
    (tmp_path / "big.bin").write_bytes(big)
    (tmp_path / "a.txt").write_bytes(b"same size, A\n")
    (tmp_path / "b.txt").write_bytes(b"same size, B\n")
    (tmp_path / "c.txt").write_bytes(b"same size, A\n")
    root = str(tmp_path)
    first = hash_group(root, ["big.bin"])[0]
    assert first is not None and first.sha256 == hashlib.sha256(big).hexdigest()
    a, b, c = hash_group(root, ["a.txt", "b.txt", "c.txt"])
    assert a is not None and a.sha256 == hashlib.sha256(b"same size, A\n").hexdigest()
    assert b is None  # differs from the first file of its group: hashed on its own
    assert c is not None and c.same_as == "a.txt"
    assert file_sha256(root, "b.txt") == hashlib.sha256(b"same size, B\n").hexdigest()
    assert file_sha256(root, "big.bin") == hashlib.sha256(big).hexdigest()
    got = scan_file(root, "a.txt", Wants(lines=True, needles=(b"A",)))
    assert got.lines == 1 and got.needles[b"A"][0] == 1
