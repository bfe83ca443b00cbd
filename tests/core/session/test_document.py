"""A package file shown at a finding's place: key paths, lines, refusals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aa_review.core.package.safepath import PackageRoot
from aa_review.core.session import document
from aa_review.core.session.document import key_path_parts, locate_key_path, read_document
from aa_review.core.util.errors import AAReviewError

MANIFEST = """{
  "compiler_id": "ec-1",
  "compiler_output_refs": [
    "a.jsonl",
    {"path": "b.json", "note": "x"},
    "c.txt"
  ],
  "nested": {"inner": {"deep": [1, 2, {"k": true}]}}
}
"""


def test_key_paths_split_into_names_and_indexes() -> None:
    assert key_path_parts("a.b[3].c") == ["a", "b", 3, "c"]
    assert key_path_parts("[2]") == [2]
    assert key_path_parts("evidence_catalog[10].content_hash") == [
        "evidence_catalog",
        10,
        "content_hash",
    ]


@pytest.mark.parametrize(
    ("key", "line", "walked"),
    [
        ("compiler_id", 2, "compiler_id"),
        ("compiler_output_refs", 3, "compiler_output_refs"),
        ("compiler_output_refs[0]", 4, "compiler_output_refs[0]"),
        ("compiler_output_refs[1].note", 5, "compiler_output_refs[1].note"),
        ("compiler_output_refs[2]", 6, "compiler_output_refs[2]"),
        ("nested.inner.deep[2].k", 8, "nested.inner.deep[2].k"),
        ("nested.missing", 8, "nested"),  # the deepest part found
        ("compiler_output_refs[9]", 3, "compiler_output_refs"),
    ],
)
def test_a_key_path_is_found_at_its_line(key: str, line: int, walked: str) -> None:
    offset, got = locate_key_path(MANIFEST, key)
    assert offset is not None and MANIFEST.count("\n", 0, offset) + 1 == line
    assert got == walked


def test_not_json_finds_nothing() -> None:
    assert locate_key_path("not json {", "a") == (None, "")
    assert locate_key_path('{"a": [1', "a[1]")[1] == "a"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg"
    (pkg / "reports").mkdir(parents=True)
    (pkg / "compiler_manifest.json").write_text(MANIFEST)
    (pkg / "reports" / "rejected_rows.jsonl").write_text(
        "".join(f'{{"row_id": "r{i}"}}\n' for i in range(1, 11))
    )
    (tmp_path / "secret.json").write_text('{"secret": 1}')
    return pkg


def test_a_document_opens_at_its_key_path(root: Path) -> None:
    doc = read_document(
        PackageRoot(root), "compiler_manifest.json", key_path="compiler_output_refs[1].note"
    )
    assert doc.whole and doc.target == 5 and doc.first == 1
    assert '"note"' in doc.lines[doc.target - 1]
    assert "line 5" in doc.note


def test_a_jsonl_file_opens_at_its_line(root: Path) -> None:
    doc = read_document(PackageRoot(root), "reports/rejected_rows.jsonl", line=7)
    assert doc.target == 7 and doc.lines[doc.target - doc.first] == '{"row_id": "r7"}'
    past = read_document(PackageRoot(root), "reports/rejected_rows.jsonl", line=70)
    assert past.target is None and "past the end" in past.note


def test_a_large_file_shows_the_lines_around_the_place(root: Path, monkeypatch) -> None:
    monkeypatch.setattr(document, "WHOLE_LIMIT", 50)
    monkeypatch.setattr(document, "CONTEXT_LINES", 2)
    doc = read_document(PackageRoot(root), "reports/rejected_rows.jsonl", line=6)
    assert not doc.whole and doc.first == 4 and doc.target == 6
    assert doc.lines == tuple(f'{{"row_id": "r{i}"}}' for i in range(4, 9))
    whole = read_document(PackageRoot(root), "compiler_manifest.json", key_path="compiler_id")
    assert whole.lines == () and "too large" in whole.note


@pytest.mark.parametrize(
    "ref", ["../secret.json", "/etc/passwd", "link/secret.json", "linkfile.json"]
)
def test_a_ref_out_of_the_package_is_refused(root: Path, ref: str) -> None:
    os.symlink(root.parent, root / "link")
    os.symlink(root.parent / "secret.json", root / "linkfile.json")
    with pytest.raises((AAReviewError, OSError)):
        read_document(PackageRoot(root), ref)


def test_a_missing_file_says_so(root: Path) -> None:
    with pytest.raises(AAReviewError, match="not in the package"):
        read_document(PackageRoot(root), "nope.json")
