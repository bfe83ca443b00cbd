"""``aa-review info`` narrow work: the per-file hash cache and link counting without objects.

The cache is keyed by device, inode, size, modification and change time (as git's index
and DVC's state database are): a file whose key changed is hashed again, a cache that
cannot be read is ignored, the file is written atomically and stays bounded, and it is
no defence against tampering, so ``--verify`` hashes every byte.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from aa_review.core.package import hashcache, open_package, package_digest
from aa_review.core.package.digest import cached_digest
from aa_review.core.package.hashcache import HashCache, cache_dir
from aa_review.core.package.linklines import BadLink, count_links
from aa_review.core.package.safepath import PackageRoot
from aa_review.core.package.summary import summary

MAP = "experience_compiler/source_evidence_map.json"


@pytest.fixture
def no_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files the tests just wrote may be remembered at once (no clock-tick doubt)."""
    monkeypatch.setattr(hashcache, "RACY_NS", 0)


def test_the_cache_lives_where_the_environment_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AA_REVIEW_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "aa-review"
    monkeypatch.setenv("AA_REVIEW_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"


def test_second_digest_reads_no_file_and_equals_the_full_one(
    sample_copy: Path, no_racy_window: None
) -> None:
    full = package_digest(sample_copy)
    first = HashCache(sample_copy)
    assert cached_digest(sample_copy, first) == full and first.hits == 0
    second = HashCache(sample_copy)
    assert cached_digest(sample_copy, second) == full
    assert second.misses == 0 and second.hits == first.misses > 100


def test_a_changed_file_is_hashed_again(sample_copy: Path, no_racy_window: None) -> None:
    cached_digest(sample_copy, HashCache(sample_copy))
    target = sample_copy / "input" / "invoices.csv"
    st = target.stat()
    data = target.read_bytes()
    target.write_bytes(data[:-2] + b"9\n")  # same size, other bytes
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the old modification time
    again = HashCache(sample_copy)
    # the change time moved (it cannot be set back): the key changed, the file is read
    assert cached_digest(sample_copy, again) == package_digest(sample_copy)
    assert again.misses == 1


def test_files_changed_within_the_racy_window_are_not_remembered(sample_copy: Path) -> None:
    cache = HashCache(sample_copy)
    cached_digest(sample_copy, cache)  # the copy was written just now: nothing is trusted
    assert HashCache(sample_copy).get("README.md", None) is None
    assert not any(HashCache(sample_copy)._files)


def test_a_wrong_remembered_hash_is_believed_until_verify(
    sample_copy: Path, no_racy_window: None
) -> None:
    """The cache is no defence against tampering: only --verify reads the bytes."""
    true = package_digest(sample_copy)
    cache = HashCache(sample_copy)
    cached_digest(sample_copy, cache)
    doc = json.loads(cache.path.read_bytes())
    doc["files"]["README.md"][5] = "0" * 64  # as if README.md had other bytes, same times
    cache.path.write_text(json.dumps(doc))
    assert cached_digest(sample_copy, HashCache(sample_copy)) != true
    env = dict(os.environ)
    out = subprocess.run(
        [sys.executable, "-m", "aa_review", "info", str(sample_copy), "--json", "--verify"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert json.loads(out.stdout)["identity"]["package_digest"] == true


def test_an_unreadable_or_foreign_cache_is_ignored(sample_copy: Path, no_racy_window: None) -> None:
    cache = HashCache(sample_copy)
    cache.path.parent.mkdir(parents=True, exist_ok=True)
    cache.path.write_bytes(b"\x00not json")
    assert cached_digest(sample_copy, HashCache(sample_copy)) == package_digest(sample_copy)
    doc = json.loads(cache.path.read_bytes())
    doc["root"] = "/elsewhere"  # another folder's cache under this name: not used
    cache.path.write_text(json.dumps(doc))
    other = HashCache(sample_copy)
    cached_digest(sample_copy, other)
    assert other.hits == 0


def test_the_cache_is_written_atomically_and_bounded(
    tmp_path: Path, sample_copy: Path, monkeypatch: pytest.MonkeyPatch, no_racy_window: None
) -> None:
    monkeypatch.setattr(hashcache, "MAX_PACKAGES", 2)
    folders = []
    for i in range(4):
        f = tmp_path / f"p{i}"
        (f / "sub").mkdir(parents=True)
        (f / "sub" / "a.txt").write_text(f"{i}\n")
        folders.append(f)
        cached_digest(f, HashCache(f))
    written = sorted(p.name for p in (cache_dir() / "file-hashes").iterdir())
    assert len(written) == 2 and not [n for n in written if n.startswith(".tmp")]
    assert HashCache(folders[-1]).get("sub/a.txt", _stamp(folders[-1] / "sub/a.txt"))
    assert HashCache(folders[0]).get("sub/a.txt", _stamp(folders[0] / "sub/a.txt")) is None


def _stamp(path: Path) -> tuple[int, int, int, int, int]:
    st = path.stat()
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def test_removed_files_are_forgotten(sample_copy: Path, no_racy_window: None) -> None:
    cached_digest(sample_copy, HashCache(sample_copy))
    (sample_copy / "README.md").unlink()
    cached_digest(sample_copy, HashCache(sample_copy))
    assert "README.md" not in HashCache(sample_copy)._files


# -- links counted without an object per link ----------------------------------------------
def test_link_count_agrees_with_the_model(sample_copy: Path) -> None:
    pkg = open_package(sample_copy)
    assert count_links(pkg.safe) == sum(1 for _ in pkg.iter_links()) == 60


def test_another_layout_is_counted_exactly(sample_copy: Path) -> None:
    path = sample_copy / MAP
    doc = json.loads(path.read_text())
    path.write_text(json.dumps(doc))  # all on one line: not the compiler's layout
    assert count_links(PackageRoot(sample_copy)) == 60


def test_a_link_with_a_wrong_type_is_located(sample_copy: Path) -> None:
    path = sample_copy / MAP
    doc = json.loads(path.read_text())
    doc["row_evidence_links"][7]["source_step_ids"] = ["not a number"]
    path.write_text(json.dumps(doc, indent=2))
    with pytest.raises(BadLink) as err:
        count_links(PackageRoot(sample_copy))
    assert err.value.index == 7
    found = summary(open_package(sample_copy))["problems"]
    assert [(p["code"], p["location"]["key_path"]) for p in found] == [
        ("input.bad_field", "row_evidence_links[7]")
    ]


def test_broken_links_are_a_located_problem(sample_copy: Path) -> None:
    path = sample_copy / MAP
    data = path.read_bytes()
    at = data.index(b"{", data.index(b'"row_evidence_links"'))
    path.write_bytes(data[:at] + b"{,,," + data[at + 1 :])
    found = summary(open_package(sample_copy))["problems"]
    assert [p["code"] for p in found] == ["input.bad_json"]
    assert found[0]["location"]["line"] == data[:at].count(b"\n") + 1


def test_a_file_name_that_is_not_utf8_is_hashed_each_time_not_a_traceback(
    sample_copy: Path, no_racy_window: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A package may hold a file whose name is not UTF-8 (POSIX names are bytes). The cache
    file is JSON, which cannot hold such a name; so that file is not remembered (it is hashed
    every time), the others still are, and ``info --json`` answers."""
    from aa_review.cli import main as cli_main

    odd = os.path.join(os.fsencode(sample_copy), b"input", b"\xff.txt")
    with open(odd, "wb") as fh:
        fh.write(b"not utf-8 by name\n")
    old = os.stat(odd).st_mtime - 10
    os.utime(odd, (old, old))  # long settled: outside any racy window
    full = package_digest(sample_copy)
    first = HashCache(sample_copy)
    assert cached_digest(sample_copy, first) == full
    second = HashCache(sample_copy)
    assert cached_digest(sample_copy, second) == full
    assert second.misses == 1 and second.hits == first.misses - 1  # only the odd name
    assert cli_main(["info", str(sample_copy), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["identity"]["package_digest"] == full
