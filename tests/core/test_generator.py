"""The package generator: determinism, format invariants, faithfulness to the sample, defects."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from aa_review.cli import main as cli_main
from aa_review.core.package import derive
from aa_review.generator import DEFECT_NAMES, DEFECTS, generate_corpus, generate_package
from aa_review.generator._copies import copy_pairs

EC = "experience_compiler/"
MAP = EC + "source_evidence_map.json"
FIXED = {
    f + ".jsonl"
    for f in (
        "training_examples",
        "evaluation_examples",
        "verifier_examples",
        "reward_model_rows",
        "preference_pairs",
        "failure_cases",
        "task_variants",
    )
}
CORE = {"training_example", "evaluation_example", "verifier_example", "reward_model_row"}
SECRET = re.compile(r"sk-[A-Za-z0-9-]{20,}|Bearer [A-Za-z0-9]{20,}|BEGIN [A-Z ]*PRIVATE KEY")
Problems = set[tuple[str, str]]


@pytest.fixture(autouse=True)
def _check_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every templated row is also rendered field by field and compared."""
    monkeypatch.setenv("AA_REVIEW_GENERATOR_CHECK", "1")


def primary(file: str) -> str:
    return EC + ("training_time_package/" if file in FIXED else "environment/") + file


def load(root: Path, rel: str) -> Any:
    return json.loads((root / rel).read_text(encoding="utf-8"))


def load_jsonl(root: Path, rel: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / rel).read_text().splitlines()]


def catalog_problems(root: Path, catalog: dict[str, dict[str, Any]]) -> Problems:
    """Catalog entries against the disk (format 7.1-7.3, 10.1)."""
    out: Problems = set()
    for e in catalog.values():
        ref, path = e["ref"], root / e["ref"]
        if ref.startswith("/") or ".." in ref.split("/"):
            out.add(("ref_unsafe", ref))
            continue
        if e["evidence_id"] != derive.evidence_id(ref):
            out.add(("catalog_id", ref))
        if path.is_symlink() and not str(path.resolve()).startswith(str(root.resolve()) + os.sep):
            out.add(("symlink_out", ref))
        if e["resolves"] != (path.exists() or ref.startswith(derive.ALWAYS_RESOLVING_PREFIXES)):
            out.add(("catalog_resolves", ref))
        data = path.read_bytes() if path.is_file() else None
        want = derive.content_hash_bytes(data) if data and len(data) <= 2_000_000 else None
        if e["content_hash"] != want:
            out.add(("catalog_hash", ref))
        try:
            (data or b"").decode("utf-8")  # 10.1: text files decode as UTF-8
        except UnicodeDecodeError:
            out.add(("not_utf8", ref))
    return out


def row_problems(
    f: str, row: dict[str, Any], text: str, catalog: dict[str, Any], schema: str
) -> Problems:
    """One row against format 7.5, 8 and 10.2."""
    out: Problems = set()
    rid = row.get("pair_id") or row.get("row_id")
    out |= {(f"missing_{k}", f) for k in ("row_id", "task_lineage", "domain") if k not in row}
    seed = (
        row["data_type"],
        row["source_task_id"],
        row.get("source_trace_id"),
        row.get("source_step_ids"),
        row.get("source_attempt_ids"),
        row.get("input"),
        row.get("target"),
        row["tdo_round"],
    )
    if rid != derive.row_id(*seed):
        out.add(("row_id", f))
    if derive.row_id_of(row) != derive.row_id(*seed):  # the helper seeds as format 7.5 does
        out.add(("row_id_of", f))
    if derive.row_content_hash(row) != row["row_content_hash"]:
        out.add(("row_hash", f))
    if row["schema_version"] != schema:
        out.add(("schema_version", f))
    ids = row["source_evidence_ref_ids"]
    if not ids:
        out.add(("missing_evidence_ids", f))
    if ids != [derive.evidence_id(r) for r in row["evidence_refs"]]:
        out.add(("ids_refs", f))
    if row["data_type"] in CORE:
        out |= {(f"missing_core_{k}", f) for k in ("input", "target") if not row.get(k)}
    for kind, hit in (
        ("private_path", "/home/" in text),
        ("forbidden_key", '"buyer"' in text),
        ("secret", bool(SECRET.search(text))),
    ):
        if hit:
            out.add((kind, f))
    by_ref = dict(zip(row["evidence_refs"], ids, strict=False))
    for ref, h in row["source_content_hashes"].items():
        if ref not in by_ref or (catalog and catalog.get(by_ref[ref], {}).get("content_hash") != h):
            out.add(("content_hashes", f))
    if catalog and any(i not in catalog for i in ids):
        out.add(("orphan", f))
    if catalog and any(catalog[i]["visibility"] != "visible" for i in ids if i in catalog):
        out.add(("hidden_cited", f))
    return out


def problems(root: Path) -> Problems:
    """Every broken invariant of format section 10, as (kind, where)."""
    m, emap = load(root, EC + "compiler_manifest.json"), load(root, MAP)
    catalog = {e["evidence_id"]: e for e in emap.get("evidence_catalog", [])}
    out = catalog_problems(root, catalog)
    links = emap.get("row_evidence_links")
    rows: list[tuple[str, dict[str, Any]]] = []
    by_file: dict[str, int] = {}
    for f, n in sorted(m["training_row_counts_by_file"].items()):
        raw = (root / primary(f)).read_bytes()
        if raw and not raw.endswith(b"\n"):
            out.add(("truncated", f))
        by_file[f] = len(raw.splitlines())
        if by_file[f] != n:
            out.add(("count", f))
        for line in raw.splitlines():
            try:
                row = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                out.add(("bad_line", f))
                continue
            rows.append((f, row))
            out |= row_problems(f, row, line.decode(), catalog, m["training_row_schema_version"])
    ids = [r.get("pair_id") or r.get("row_id") for _, r in rows]
    out |= {("dup_id", f) for (f, _), i in zip(rows, ids, strict=True) if ids.count(i) > 1}
    by_type: dict[str, int] = {}
    for _, r in rows:
        by_type[r["data_type"]] = by_type.get(r["data_type"], 0) + 1
    if {t: n for t, n in m["rows_by_type"].items() if n} != by_type or m[
        "training_row_counts_by_file"
    ] != by_file:
        out.add(("manifest_counts", EC + "compiler_manifest.json"))
    if links is not None:
        out |= link_problems(emap, catalog, rows)
    out |= {
        ("copy", dst)
        for dst, src in copy_pairs()
        if (root / dst).exists() and (root / dst).read_bytes() != (root / src).read_bytes()
    }
    return out | file_problems(root, m)


def link_problems(
    emap: dict[str, Any], catalog: dict[str, Any], rows: list[tuple[str, dict[str, Any]]]
) -> Problems:
    """Links 1:1 with rows in sorted-file order, coverage recount, orphans (6, 7.8)."""
    out: Problems = set()
    links = emap["row_evidence_links"]
    if len(links) != len(rows):
        out.add(("link", "count"))
    for link, (f, row) in zip(links, rows, strict=False):
        if (
            link["row_id"] != (row.get("pair_id") or row.get("row_id") or "")
            or link["row_file"] != f
            or link["evidence_ref_ids"] != row["source_evidence_ref_ids"]
        ):
            out.add(("link", f))
    cited = {i for _, r in rows for i in r["source_evidence_ref_ids"]}
    out |= {("uncited", e["ref"]) for i, e in catalog.items() if i not in cited}
    orphans = sorted({i for link in links for i in link["evidence_ref_ids"] if i not in catalog})
    resolved = sum(e["resolves"] for e in catalog.values())
    want = {
        "evidence_ref_count": len(catalog),
        "resolved_evidence_ref_count": resolved,
        "unresolved_evidence_ref_count": len(catalog) - resolved,
        "row_link_count": len(links),
        "row_count_with_evidence_ids": sum(bool(x["evidence_ref_ids"]) for x in links),
        "orphan_evidence_id_count": len(orphans),
    }
    out |= {("coverage", k) for k, v in want.items() if emap["coverage_statistics"][k] != v}
    if sorted(emap["orphan_evidence_ref_ids"]) != orphans:
        out.add(("orphan_list", MAP))
    return out


def file_problems(root: Path, m: dict[str, Any]) -> Problems:
    """Contracts against the deliverables, manifest outputs, artifacts_index.json (10.4)."""
    out: Problems = set()
    checklist = load(root, EC + "runtime_learning_package/transfer_checklist.json")
    for c in checklist["artifact_contracts"]:
        if c["format"] == "csv":
            rows = list(csv.reader(io.StringIO((root / c["artifact_ref"]).read_text())))
            cols = [rows[0].index(col) for col in c["numeric_columns"] if col in rows[0]]
            numeric = all(re.fullmatch(r"-?[\d.]+", r[i]) for r in rows[1:6] for i in cols if r[i])
            if rows[0] != c["columns"] or not numeric:
                out.add(("contract", c["artifact_ref"]))
    for ref in m["compiler_output_refs"]:
        if not (root / ref).exists() and not ref.endswith("compiler_recipe.json"):
            out.add(("manifest_missing", ref))
    for e in load(root, "artifacts_index.json"):
        data = (root / e["package_relative_path"]).read_bytes()
        if (len(data), hashlib.sha256(data).hexdigest()) != (e["size_bytes"], e["content_hash"]):
            out.add(("index", e["package_relative_path"]))
    return out


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AA_REVIEW_GENERATOR_CHECK", "1")
        return generate_package(tmp_path_factory.mktemp("clean"), rows=250, seed=1).root


def test_clean_package_keeps_every_invariant(clean: Path) -> None:
    assert problems(clean) == set()
    counts = load(clean, EC + "compiler_manifest.json")["training_row_counts_by_file"]
    assert sum(counts.values()) == 250 and list(counts) == sorted(counts)
    ps = load_jsonl(clean, EC + "training_time_package/process_supervision.jsonl")
    assert len(ps) == sum(n for f, n in counts.items() if f not in FIXED)
    group = load_jsonl(clean, EC + "training_time_package/grpo_rollout_groups.jsonl")[0]
    rollouts = load_jsonl(clean, EC + "training_time_package/agentic_rollouts.jsonl")
    assert group["candidate_rollout_refs"] == [r["row_id"] for r in rollouts]
    quality = load(clean, EC + "quality_report.json")
    assert quality["source_evidence_map_coverage"] == load(clean, MAP)["coverage_statistics"]
    # the compiler's known quirks (format 12) are there, as in the sample
    m = load(clean, EC + "compiler_manifest.json")
    assert EC + "compiler_recipe.json" in m["compiler_output_refs"]
    assert not (clean / EC / "compiler_recipe.json").exists()
    assert load(clean, EC + "compiler_report.json")["compiler_id"].startswith("tdo_")
    assert m["compiler_id"].startswith("compiler_")
    trajectory = load_jsonl(clean, EC + "training_time_package/trajectory_rollouts.jsonl")
    assert trajectory[0]["trajectory_ref"] == "traces/agent_traces.jsonl"
    rejected = load_jsonl(clean, EC + "reports/rejected_rows.jsonl")
    assert any(r["rejection_reason"].startswith("duplicate_row_id:") for r in rejected)
    superseded = {
        r["tdo_round"] for r in rejected if r["rejection_reason"] == "superseded_by_later_tdo_round"
    }
    assert superseded == {1, 2}


@pytest.mark.parametrize("rows", [7, 12, 33, 60, 151])
def test_row_count_is_hit_exactly(tmp_path: Path, rows: int) -> None:
    pkg = generate_package(tmp_path, rows=rows, seed=rows)
    assert pkg.row_count == rows == sum(pkg.rows_by_file.values())


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    names = ["row_hash_mismatch", "hash_changed", "link_mismatch"]
    a = generate_package(tmp_path / "a", rows=90, seed=3, defects=names)
    b = generate_package(tmp_path / "b", rows=90, seed=3, defects=names)
    assert tree(a.root) == tree(b.root)
    assert a.defects == b.defects
    c = generate_package(tmp_path / "c", rows=90, seed=4, defects=names, package_id=a.package_id)
    assert tree(c.root) != tree(a.root)


def shape(value: Any) -> Any:
    """Keys in order, all the way down; values reduced to their JSON type."""
    if isinstance(value, dict):
        return [(k, shape(v)) for k, v in value.items()]
    return ["list"] if isinstance(value, list) else type(value).__name__


def json_shapes(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for rel, data in tree(root).items():
        if rel.endswith(".json"):
            out[rel] = shape(json.loads(data))
        elif rel.endswith(".jsonl"):
            out[rel] = sorted({json.dumps(shape(json.loads(x))) for x in data.splitlines()})
    return out


def indents(text: bytes) -> list[int]:
    return [len(x) - len(x.lstrip()) for x in text.splitlines()]


def test_faithful_to_the_sample(real_sample: Path, generated_sample: Path) -> None:
    """The stand-in every other test opens has the real sample's shapes (when it is here;
    on every clone, test_real_sample_facts.py holds it to the sample's recorded facts)."""
    gen = generated_sample
    ours, theirs = tree(gen), tree(real_sample)
    assert ours.keys() == theirs.keys()
    assert json_shapes(gen) == json_shapes(real_sample)
    custom = (
        "artifacts_index.json",
        MAP,
        "attempts/baseline/agent_trace.json",
        "attempts/revised/agent_trace.json",
    )
    # How the compiler writes each file is checked on every clone, without the real
    # sample: test_real_sample_facts.py::test_the_stand_in_is_written_as_the_compiler_writes.
    for rel in custom:  # one entry, link or step per line, like the sample
        assert set(indents(ours[rel])) == set(indents(theirs[rel])), rel
    same = [r for r in ours if ours[r] == theirs[r]]
    assert len(same) > len(ours) // 2  # all that is not drawn from the seed is byte-identical
    for key in ("evidence_type", "visibility"):
        assert {e[key] for e in load(gen, MAP)["evidence_catalog"]} == {
            e[key] for e in load(real_sample, MAP)["evidence_catalog"]
        }
    manifest = EC + "compiler_manifest.json"
    assert load(gen, manifest)["rows_by_type"] == load(real_sample, manifest)["rows_by_type"]


def test_v01_packages_have_no_catalog_or_links(tmp_path: Path) -> None:
    root = generate_package(tmp_path, rows=50, seed=2, version="v0.1").root
    emap = load(root, MAP)
    assert "evidence_catalog" not in emap and "row_evidence_links" not in emap
    assert emap["schema_version"] == "aa-source-evidence-map-v0.1"
    m = load(root, EC + "compiler_manifest.json")
    assert m["schema_version"] == "aa-experience-compiler-v0.1"
    assert m["training_row_schema_version"] == "aa-training-row-v0.1"
    assert (root / EC / "compiler_recipe.json").exists()  # the 0.2.1 copy bug is not in 0.1.x
    assert problems(root) == set()
    with pytest.raises(ValueError, match="catalog"):
        generate_package(tmp_path / "x", rows=50, version="v0.1", defects=["link_mismatch"])


def expectations(table: str) -> dict[str, tuple[set[str], set[str]]]:
    """``name: kinds that must appear | kinds that may appear too`` per line."""
    out = {}
    for line in table.strip().splitlines():
        name, kinds = line.split(":", 1)
        must, _, may = kinds.partition("|")
        out[name] = (set(must.split()), set(may.split()))
    return out


# Damage after compiling leaves the manifest and links describing the compiled rows.
EXPECTED = expectations("""
hash_changed: catalog_hash
evidence_missing: catalog_resolves catalog_hash
evidence_oversize_hashed: catalog_hash
evidence_bad_encoding: not_utf8
ref_absolute: ref_unsafe
ref_dotdot: ref_unsafe
symlink_out: symlink_out
ref_unresolved: catalog_resolves
orphan_evidence_id: orphan
uncited_evidence: uncited
hidden_cited: hidden_cited
link_mismatch: link
evidence_id_mismatch: catalog_id ids_refs
coverage_mismatch: coverage
counts_mismatch: manifest_counts count
orphan_list_mismatch: orphan_list
missing_row_id: missing_row_id row_id
duplicate_row_id: dup_id
missing_lineage: missing_task_lineage
missing_domain: missing_domain
missing_evidence_ids: missing_evidence_ids
missing_core_input: missing_core_input
missing_core_target: missing_core_target
schema_version_mismatch: schema_version
row_id_mismatch: row_id
row_hash_mismatch: row_hash
private_path: private_path
forbidden_key: forbidden_key
secret_token: secret
contract_drift: contract
copy_differs: copy
malformed_line: bad_line | count link manifest_counts
bad_encoding: bad_line | count link manifest_counts
truncated_file: truncated bad_line | count link manifest_counts
empty_file: count | link manifest_counts
manifest_missing_file: manifest_missing
""")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_defect_is_the_only_fault_and_is_where_recorded(tmp_path: Path, name: str) -> None:
    pkg = generate_package(tmp_path, rows=60, seed=5, defects=[name])
    (rec,) = pkg.defects
    assert rec.name == name and rec.file and rec.detail
    must, may = EXPECTED[name]
    found = problems(pkg.root)
    assert must <= {k for k, _ in found} <= must | may, found
    root = pkg.root
    if rec.line is not None and rec.file.endswith(".jsonl"):
        lines = (root / rec.file).read_bytes().splitlines()
        assert 1 <= rec.line <= len(lines)
        if rec.row_id and name not in ("malformed_line", "truncated_file", "missing_row_id"):
            assert rec.row_id.encode() in lines[rec.line - 1]
    if rec.file == MAP and rec.line is not None:
        entry = json.loads((root / MAP).read_text().splitlines()[rec.line - 1].rstrip(","))
        cited = (entry.get("evidence_id"), *entry.get("evidence_ref_ids", []))
        assert rec.evidence_id in cited or entry["row_id"] == rec.row_id
    if rec.ref and rec.evidence_id and name != "evidence_id_mismatch":
        assert rec.evidence_id == derive.evidence_id(rec.ref)


SPREAD_KINDS = {
    "hidden_cited": "hidden_cited",
    "orphan_evidence_id": "orphan",
    "row_hash_mismatch": "row_hash",
    "private_path": "private_path",
    "missing_lineage": "missing_task_lineage",
}


@pytest.mark.parametrize("name", sorted(SPREAD_KINDS))
def test_a_defect_spread_over_rows_is_in_exactly_those_rows(tmp_path: Path, name: str) -> None:
    pkg = generate_package(tmp_path, rows=60, seed=5, defects=[name], defect_rows={name: 11})
    (rec,) = pkg.defects
    assert len(rec.rows) == 11 == len({(r["file"], r["line"]) for r in rec.rows})
    kind = SPREAD_KINDS[name]
    catalog = {e["evidence_id"]: e for e in load(pkg.root, MAP)["evidence_catalog"]}
    m = load(pkg.root, EC + "compiler_manifest.json")
    hit: set[tuple[str, int]] = set()
    for f in m["training_row_counts_by_file"]:
        for n, line in enumerate((pkg.root / primary(f)).read_bytes().splitlines(), 1):
            found = row_problems(
                f, json.loads(line), line.decode(), catalog, m["training_row_schema_version"]
            )
            if any(k == kind for k, _ in found):
                hit.add((primary(f), n))
    assert hit == {(r["file"], r["line"]) for r in rec.rows}
    must, may = EXPECTED[name]
    assert must <= {k for k, _ in problems(pkg.root)} <= must | may | {"ids_refs"}
    with pytest.raises(ValueError, match="several rows"):
        generate_package(tmp_path / "x", defects=["copy_differs"], defect_rows={"copy_differs": 2})


def test_huge_line_only_when_asked(tmp_path: Path) -> None:
    pkg = generate_package(tmp_path, rows=40, seed=1, defects=["huge_line"])
    (rec,) = pkg.defects
    line = (pkg.root / rec.file).read_bytes().splitlines()[rec.line - 1]
    assert len(line) > 50_000_000
    row = json.loads(line)
    assert derive.row_content_hash(row) == row["row_content_hash"]


def test_all_defects_together_land_in_distinct_places(tmp_path: Path) -> None:
    assert set(DEFECT_NAMES) - {"huge_line"} == set(EXPECTED)
    assert all(text for _, text in DEFECTS)
    names = [n for n in DEFECT_NAMES if n != "huge_line"]
    pkg = generate_package(tmp_path, rows=300, seed=8, defects=names)
    assert [d.name for d in pkg.defects] == names
    rows = [(d.file, d.line) for d in pkg.defects if d.file.endswith(".jsonl") and d.line]
    assert len(rows) == len(set(rows))
    with pytest.raises(ValueError, match="unknown"):
        generate_package(tmp_path / "x", defects=["no_such_defect"])


def test_corpus_and_folder_safety(tmp_path: Path) -> None:
    pkgs = generate_corpus(tmp_path, 3, rows=20, seed=10)
    assert [p.row_count for p in pkgs] == [20, 20, 20]
    assert len({tree(p.root)[EC + "compiler_manifest.json"] for p in pkgs}) == 3
    generate_package(tmp_path, rows=20, seed=10, package_id=pkgs[0].package_id)  # own output
    (tmp_path / "not_a_package").mkdir()
    (tmp_path / "not_a_package" / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        generate_package(tmp_path, package_id="not_a_package")


def test_cli_generate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", str(tmp_path), "--rows", "30", "--defect", "row_hash_mismatch", "--json"]
    assert cli_main(args) == 0
    (doc,) = json.loads(capsys.readouterr().out)
    assert doc["row_count"] == 30 and doc["defects"][0]["name"] == "row_hash_mismatch"
    assert cli_main(["generate", "--list-defects"]) == 0
    listed = capsys.readouterr().out
    assert all(n in listed for n in DEFECT_NAMES)
    assert cli_main(["generate", str(tmp_path), "--corpus", "2", "--rows", "15"]) == 0
    assert "pkg_corpus_s0_0001" in capsys.readouterr().out


LEAN_EC = {
    "compiler_manifest.json",
    "compiler_report.json",
    "quality_report.json",
    "source_evidence_map.json",
    *(
        f"runtime_learning_package/{n}.json"
        for n in (
            "output_contract",
            "artifact_contract",
            "prefinal_verification_checklist",
            "transfer_checklist",
        )
    ),
}


def test_lean_package_opens_like_the_full_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lean package (load benchmarks only) holds what opening reads, and opens the same."""
    import numpy as np

    from aa_review.core.package import open_package
    from aa_review.core.package.layout import ROW_FILES

    full = generate_package(tmp_path / "full", rows=300, seed=4, package_id="pkg_lean_check")
    lean = generate_package(
        tmp_path / "lean", rows=300, seed=4, package_id="pkg_lean_check", lean=True
    )
    assert lean.rows_by_file == full.rows_by_file and lean.row_count == 300
    assert not (lean.root / "tdo").exists()
    a, b = tree(full.root), tree(lean.root)
    ec = {k[len(EC) :] for k in b if k.startswith(EC)}
    assert ec == LEAN_EC | {rel[len(EC) :] for rel, _ in ROW_FILES}
    # the source package whole, and what it keeps of experience_compiler/ byte for byte
    assert {k for k in a if not k.startswith((EC, "tdo/", "artifacts_index.json"))} == {
        k for k in b if not k.startswith(EC)
    }
    assert all(a[k] == v for k, v in b.items())
    pf, pl = open_package(full.root), open_package(lean.root)
    assert pl.problems == pf.problems
    assert pl.catalog == pf.catalog and len(pl.catalog) > 0
    assert pl.docs == pf.docs and pl.version == pf.version
    ia, ib = pf.index, pl.index
    assert len(ib) == 300
    assert [ib.row_id_str(i) for i in range(len(ib))] == [ia.row_id_str(i) for i in range(len(ia))]
    assert (ib.files, ib.data_types, ib.tasks, ib.evidence_ids) == (
        ia.files,
        ia.data_types,
        ia.tasks,
        ia.evidence_ids,
    )
    assert len(ib.sets) == len(ia.sets) and all(
        np.array_equal(x, y) for x, y in zip(ia.sets, ib.sets, strict=True)
    )
    for col in (
        "row_id",
        "file",
        "data_type",
        "task",
        "line",
        "offset",
        "length",
        "set_code",
        "confidence",
        "quality",
    ):
        assert np.array_equal(getattr(ib, col), getattr(ia, col)), col
    with pytest.raises(ValueError, match="lean"):
        generate_package(tmp_path / "x", rows=60, lean=True, defects=["hash_changed"])
    assert cli_main(["generate", str(tmp_path / "cli"), "--rows", "40", "--lean"]) == 0
    assert "40 rows" in capsys.readouterr().out
    assert not (tmp_path / "cli" / "pkg_recon_s0_n40" / "tdo").exists()


def test_varied_package_keeps_every_invariant_but_the_hidden_items_it_cites(tmp_path: Path) -> None:
    """Rows cite subsets of a larger catalog and spread their scores; ids, hashes, links,
    counts and copies still hold, and the only broken rule is the one asked for."""
    from aa_review.generator import Variation

    var = Variation(items=150, hidden=4, hidden_every=7)
    root = generate_package(tmp_path, rows=400, seed=3, variation=var).root
    found = problems(root)
    assert found and {kind for kind, _ in found} == {"hidden_cited"}
    catalog = load(root, MAP)["evidence_catalog"]
    assert len(catalog) == 150 and sum(e["visibility"] != "visible" for e in catalog) == 4
    m = load(root, EC + "compiler_manifest.json")
    rows = [r for f in m["training_row_counts_by_file"] for r in load_jsonl(root, primary(f))]
    sets = [tuple(r["source_evidence_ref_ids"]) for r in rows]
    assert len(set(sets)) > 50 and max(map(len, sets)) < len(catalog)
    assert len({len(s) for s in sets}) > 10  # sizes vary too
    hidden = {e["evidence_id"] for e in catalog if e["visibility"] != "visible"}
    citing = [s for s in sets if hidden & set(s)]
    assert 0 < len(citing) < len(rows) // 4
    quality = [r["quality_score"] for r in rows]
    assert len(set(quality)) > len(rows) // 2 and min(quality) >= 0.65  # no low scores asked
    assert all(r["evidence_confidence"] == r["confidence"] for r in rows)
    assert all(len(str(q)) <= 6 for q in quality)  # rounded: no float noise in the files


def test_varied_package_audits_as_asked(tmp_path: Path) -> None:
    from aa_review.core.audits import audit_package
    from aa_review.generator import Variation

    var = Variation(items=90, hidden=2, hidden_every=5, low_score_every=10)
    root = generate_package(tmp_path, rows=200, seed=4, variation=var).root
    report = audit_package(root)
    codes = {f.code for f in report.findings if not f.quirk}
    assert codes == {"link.hidden_cited", "row.low_score"}
    # v0.1: no catalog; the catalog derived from the rows is what they cite
    old = generate_package(
        tmp_path / "old",
        rows=200,
        seed=4,
        version="v0.1",
        variation=Variation(items=90, hidden=0, hidden_every=0),
    )
    from aa_review.core.package import open_package

    pkg = open_package(old.root)
    assert pkg.problems == [] and len(pkg.index.sets) > 10


def test_row_id_of_needs_a_data_type_and_a_task() -> None:
    row = {"data_type": "failure_case", "target": "t", "tdo_round": 1}
    assert derive.row_id_of(row) is None  # no task: nothing to seed
    assert derive.row_id_of(row, "task_a") == derive.row_id(
        "failure_case", "task_a", None, None, None, None, "t", 1
    )
    assert derive.row_id_of({**row, "source_task_id": "task_b"}, "task_a") == derive.row_id(
        "failure_case", "task_b", None, None, None, None, "t", 1
    )
    assert derive.row_id_of({"source_task_id": "task_b"}) is None  # no data type
