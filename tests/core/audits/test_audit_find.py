"""The block-wise search the quirk check uses in files of hundreds of MB finds what one
search would, needles across a block's end included."""

from __future__ import annotations

import mmap
import os

import pytest

from aa_review.core.audits import _chk_quirks


@pytest.mark.parametrize("needle", [b"XXZ", b"Z", b"QQQQQ"])
def test_blockwise_find_equals_one_search(tmp_path, monkeypatch, needle: bytes) -> None:
    monkeypatch.setattr(_chk_quirks, "_FIND_BLOCK", 64)
    data = bytearray(os.urandom(4000).replace(b"X", b"Y").replace(b"Z", b"Y").replace(b"Q", b"Y"))
    for pos in (0, 62, 63, 64, 126, 127, 128, 1000, 3997):  # on and across block ends
        data[pos : pos + 3] = b"XXZ"
    path = tmp_path / "blob"
    path.write_bytes(bytes(data))
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for start in [*range(200), *range(200, 4001, 37)]:
            assert _chk_quirks._find(mm, needle, start) == mm.find(needle, start), start
