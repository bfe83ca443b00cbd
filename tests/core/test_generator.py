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
from aa_review.core import derive
from aa_review.core.generator import DEFECT_NAMES, DEFECTS, generate_corpus, generate_package
from aa_review.core.generator._copies import copy_pairs
from aa_review.core.generator._jsonfast import Raw, content_hash, dumps_line
from aa_review.core.generator._rows_steps import StepIds

EC = "experience_compiler/"
MAP = EC + "source_evidence_map.json"
FIXED = {"training_examples.jsonl", "evaluation_examples.jsonl", "verifier_examples.jsonl",
         "reward_model_rows.jsonl", "preference_pairs.jsonl", "failure_cases.jsonl", "task_variants.jsonl"}
CORE = {"training_example", "evaluation_example", "verifier_example", "reward_model_row"}
SECRET = re.compile(r"sk-[A-Za-z0-9-]{20,}|Bearer [A-Za-z0-9]{20,}|BEGIN [A-Z ]*PRIVATE KEY")


@pytest.fixture(autouse=True)
def _check_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every templated row is also rendered field by field and compared."""
    monkeypatch.setenv("AA_REVIEW_GENERATOR_CHECK", "1")


def primary(file: str) -> str:
    return EC + ("training_time_package/" if file in FIXED else "environment/") + file


def load(root: Path, rel: str) -> Any:
    return json.loads((root / rel).read_text(encoding="utf-8"))


def problems(root: Path) -> set[tuple[str, str]]:
    """Every broken invariant of format section 10, as (kind, where)."""
    out: set[tuple[str, str]] = set()
    m, emap = load(root, EC + "compiler_manifest.json"), load(root, MAP)
    catalog = {e["evidence_id"]: e for e in emap.get("evidence_catalog", [])}
    for e in catalog.values():
        ref, path = e["ref"], root / e["ref"]
        if ref.startswith("/") or ".." in ref.split("/"):
            out.add(("ref_unsafe", ref))
            continue
        if e["evidence_id"] != derive.evidence_id(ref):
            out.add(("catalog_id", ref))
        if path.is_symlink() and not str(path.resolve()).startswith(str(root.resolve())):
            out.add(("symlink_out", ref))
        if e["resolves"] != (path.exists() or ref.startswith(derive.ALWAYS_RESOLVING_PREFIXES)):
            out.add(("catalog_resolves", ref))
        data = path.read_bytes() if path.is_file() else None
        want = derive.content_hash_bytes(data) if data is not None and len(data) <= 2_000_000 else None
        if e["content_hash"] != want:
            out.add(("catalog_hash", ref))
    links = emap.get("row_evidence_links")
    cited: set[str] = set()
    link_at, by_type, by_file = 0, {}, {}
    for f, n in sorted(m["training_row_counts_by_file"].items()):
        raw = (root / primary(f)).read_bytes()
        if raw and not raw.endswith(b"\n"):
            out.add(("truncated", f))
        lines = raw.splitlines()
        by_file[f] = len(lines)
        if len(lines) != n:
            out.add(("count", f))
        seen: set[str] = set()
        for line in lines:
            try:
                row = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                out.add(("bad_line", f))
                continue
            by_type[row["data_type"]] = by_type.get(row["data_type"], 0) + 1
            rid = row.get("pair_id") or row.get("row_id")
            for key in ("row_id", "task_lineage", "domain"):
                if key not in row:
                    out.add((f"missing_{key}", f))
            if rid != derive.row_id(row["data_type"], row["source_task_id"], row.get("source_trace_id"),
                                    row.get("source_step_ids"), row.get("source_attempt_ids"), row.get("input"),
                                    row.get("target"), row["tdo_round"]):
                out.add(("row_id", f))
            if rid in seen:
                out.add(("dup_id", f))
            seen.add(rid)
            if derive.row_content_hash(row) != row["row_content_hash"]:
                out.add(("row_hash", f))
            if row["schema_version"] != m["training_row_schema_version"]:
                out.add(("schema_version", f))
            if not row["source_evidence_ref_ids"]:
                out.add(("missing_evidence_ids", f))
            if row["source_evidence_ref_ids"] != [derive.evidence_id(r) for r in row["evidence_refs"]]:
                out.add(("ids_refs", f))
            if row["data_type"] in CORE:
                out |= {(f"missing_core_{k}", f) for k in ("input", "target") if row.get(k) in (None, {}, "")}
            text = line.decode()
            if "/home/" in text:
                out.add(("private_path", f))
            if '"buyer"' in text:
                out.add(("forbidden_key", f))
            if SECRET.search(text):
                out.add(("secret", f))
            for ref, h in row["source_content_hashes"].items():
                if catalog and catalog[row["source_evidence_ref_ids"][row["evidence_refs"].index(ref)]][
                        "content_hash"] != h:
                    out.add(("content_hashes", f))
            cited |= set(row["source_evidence_ref_ids"])
            if catalog:
                if any(i not in catalog for i in row["source_evidence_ref_ids"]):
                    out.add(("orphan", f))
                if any(catalog[i]["visibility"] != "visible" for i in row["source_evidence_ref_ids"] if i in catalog):
                    out.add(("hidden_cited", f))
            if links is not None:
                link = links[link_at] if link_at < len(links) else {}
                link_at += 1
                if (link.get("row_id") != (rid or "") or link.get("row_file") != f
                        or link.get("evidence_ref_ids") != row["source_evidence_ref_ids"]):
                    out.add(("link", f))
    if links is not None:
        if link_at != len(links):
            out.add(("link", "count"))
        out |= {("uncited", e["ref"]) for i, e in catalog.items() if i not in cited}
        orphans = sorted({i for link in links for i in link["evidence_ref_ids"] if i not in catalog})
        resolved = sum(e["resolves"] for e in catalog.values())
        want = {"evidence_ref_count": len(catalog), "resolved_evidence_ref_count": resolved,
                "unresolved_evidence_ref_count": len(catalog) - resolved, "row_link_count": len(links),
                "row_count_with_evidence_ids": sum(bool(x["evidence_ref_ids"]) for x in links),
                "orphan_evidence_id_count": len(orphans)}
        out |= {("coverage", k) for k, v in want.items() if emap["coverage_statistics"][k] != v}
        if sorted(emap["orphan_evidence_ref_ids"]) != orphans:
            out.add(("orphan_list", MAP))
    if {t: n for t, n in m["rows_by_type"].items() if n} != by_type or m["training_row_counts_by_file"] != by_file:
        out.add(("manifest_counts", EC + "compiler_manifest.json"))
    out |= {("copy", dst) for dst, src in copy_pairs()
            if (root / dst).exists() and (root / dst).read_bytes() != (root / src).read_bytes()}
    for c in load(root, EC + "runtime_learning_package/transfer_checklist.json")["artifact_contracts"]:
        if c["format"] == "csv":
            rows = list(csv.reader(io.StringIO((root / c["artifact_ref"]).read_text())))
            bad = rows[0] != c["columns"] or any(
                r[rows[0].index(col)] and not re.fullmatch(r"-?[\d.]+", r[rows[0].index(col)])
                for col in c["numeric_columns"] if col in rows[0] for r in rows[1:6])
            if bad:
                out.add(("contract", c["artifact_ref"]))
    for ref in m["compiler_output_refs"]:
        if not (root / ref).exists() and not ref.endswith("compiler_recipe.json"):
            out.add(("manifest_missing", ref))
    for e in load(root, "artifacts_index.json"):
        data = (root / e["package_relative_path"]).read_bytes()
        if len(data) != e["size_bytes"] or hashlib.sha256(data).hexdigest() != e["content_hash"]:
            out.add(("index", e["package_relative_path"]))
    return out


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    os.environ["AA_REVIEW_GENERATOR_CHECK"] = "1"
    try:
        return generate_package(tmp_path_factory.mktemp("clean"), rows=400, seed=1).root
    finally:
        del os.environ["AA_REVIEW_GENERATOR_CHECK"]


def test_clean_package_keeps_every_invariant(clean: Path) -> None:
    assert problems(clean) == set()
    m = load(clean, EC + "compiler_manifest.json")
    assert sum(m["training_row_counts_by_file"].values()) == 400
    assert list(m["training_row_counts_by_file"]) == sorted(m["training_row_counts_by_file"])
    ps = (clean / EC / "training_time_package/process_supervision.jsonl").read_text().splitlines()
    assert len(ps) == sum(n for f, n in m["training_row_counts_by_file"].items() if f not in FIXED)
    group = load_jsonl(clean, EC + "training_time_package/grpo_rollout_groups.jsonl")[0]
    rollouts = load_jsonl(clean, EC + "training_time_package/agentic_rollouts.jsonl")
    assert group["candidate_rollout_refs"] == [r["row_id"] for r in rollouts]
    quality = load(clean, EC + "quality_report.json")
    assert quality["source_evidence_map_coverage"] == load(clean, MAP)["coverage_statistics"]


def load_jsonl(root: Path, rel: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / rel).read_text().splitlines()]


def test_clean_package_has_the_compilers_known_quirks(clean: Path) -> None:
    m = load(clean, EC + "compiler_manifest.json")
    assert EC + "compiler_recipe.json" in m["compiler_output_refs"]
    assert not (clean / EC / "compiler_recipe.json").exists()
    assert load(clean, EC + "compiler_report.json")["compiler_id"].startswith("tdo_")
    assert m["compiler_id"].startswith("compiler_")
    assert load_jsonl(clean, EC + "training_time_package/trajectory_rollouts.jsonl")[0]["trajectory_ref"] == (
        "traces/agent_traces.jsonl")
    rejected = load_jsonl(clean, EC + "reports/rejected_rows.jsonl")
    assert any(r["rejection_reason"].startswith("duplicate_row_id:") for r in rejected)
    rounds = {r["tdo_round"] for r in rejected if r["rejection_reason"] == "superseded_by_later_tdo_round"}
    assert rounds == {1, 2}


@pytest.mark.parametrize("rows", [7, 12, 33, 60, 257])
def test_row_count_is_hit_exactly(tmp_path: Path, rows: int) -> None:
    pkg = generate_package(tmp_path, rows=rows, seed=rows)
    assert pkg.row_count == rows == sum(pkg.rows_by_file.values())


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


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
    if isinstance(value, list):
        return ["list"]  # items may differ in number and content
    return type(value).__name__


def json_shapes(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for rel, data in tree(root).items():
        if rel.endswith(".json"):
            out[rel] = shape(json.loads(data))
        elif rel.endswith(".jsonl"):
            out[rel] = sorted({json.dumps(shape(json.loads(x))) for x in data.splitlines()})
    return out


def test_faithful_to_the_sample(tmp_path: Path, sample_copy: Path) -> None:
    gen = generate_package(tmp_path, rows=60, seed=0, package_id=sample_copy.name).root
    ours, theirs = tree(gen), tree(sample_copy)
    assert ours.keys() == theirs.keys()
    assert json_shapes(gen) == json_shapes(sample_copy)
    for rel, data in ours.items():  # same writers: indent=2 JSON files, json.dumps lines
        if rel.endswith(".jsonl"):
            assert all(json.dumps(json.loads(x)) == x.decode() for x in data.splitlines()), rel
        elif rel.endswith(".json") and rel not in ("artifacts_index.json", MAP) and "agent_trace" not in rel:
            assert data.decode() == json.dumps(json.loads(data), indent=2) + "\n", rel
    for rel in ("artifacts_index.json", MAP, "attempts/revised/agent_trace.json"):
        assert [len(x) - len(x.lstrip()) for x in ours[rel].splitlines()] == [
            len(x) - len(x.lstrip()) for x in theirs[rel].splitlines()][: len(ours[rel].splitlines())], rel
    same = [r for r in ours if ours[r] == theirs[r]]
    assert len(same) > len(ours) // 2  # everything not drawn from the seed is byte-identical
    for key in ("evidence_type", "visibility"):
        assert {e[key] for e in load(gen, MAP)["evidence_catalog"]} == {
            e[key] for e in load(sample_copy, MAP)["evidence_catalog"]}
    assert load(gen, EC + "compiler_manifest.json")["rows_by_type"] == load(
        sample_copy, EC + "compiler_manifest.json")["rows_by_type"]


def test_v01_packages_have_no_catalog_or_links(tmp_path: Path) -> None:
    root = generate_package(tmp_path, rows=50, seed=2, version="v0.1").root
    emap = load(root, MAP)
    assert "evidence_catalog" not in emap and "row_evidence_links" not in emap
    assert emap["schema_version"] == "aa-source-evidence-map-v0.1"
    m = load(root, EC + "compiler_manifest.json")
    assert (m["schema_version"], m["training_row_schema_version"]) == (
        "aa-experience-compiler-v0.1", "aa-training-row-v0.1")
    assert (root / EC / "compiler_recipe.json").exists()  # the 0.2.1 copy bug is not in 0.1.x
    assert problems(root) == set()
    with pytest.raises(ValueError, match="catalog"):
        generate_package(tmp_path / "x", rows=50, version="v0.1", defects=["link_mismatch"])


# defect -> (kinds that must appear, kinds that may also appear)
EXPECTED: dict[str, tuple[set[str], set[str]]] = {
    "hash_changed": ({"catalog_hash", "content_hashes"}, set()),
    "evidence_missing": ({"catalog_resolves", "catalog_hash"}, set()),
    "evidence_oversize_hashed": ({"catalog_hash"}, set()),
    "ref_absolute": ({"ref_unsafe"}, set()), "ref_dotdot": ({"ref_unsafe"}, set()),
    "symlink_out": ({"symlink_out"}, set()), "ref_unresolved": ({"catalog_resolves"}, set()),
    "orphan_evidence_id": ({"orphan"}, set()), "uncited_evidence": ({"uncited"}, set()),
    "hidden_cited": ({"hidden_cited"}, set()), "link_mismatch": ({"link"}, set()),
    "evidence_id_mismatch": ({"catalog_id", "ids_refs"}, set()), "coverage_mismatch": ({"coverage"}, set()),
    "counts_mismatch": ({"manifest_counts", "count"}, set()), "orphan_list_mismatch": ({"orphan_list"}, set()),
    "missing_row_id": ({"missing_row_id", "row_id"}, set()), "duplicate_row_id": ({"dup_id"}, set()),
    "missing_lineage": ({"missing_task_lineage"}, set()), "missing_domain": ({"missing_domain"}, set()),
    "missing_evidence_ids": ({"missing_evidence_ids"}, set()),
    "missing_core_input": ({"missing_core_input"}, set()), "missing_core_target": ({"missing_core_target"}, set()),
    "schema_version_mismatch": ({"schema_version"}, set()), "row_id_mismatch": ({"row_id"}, set()),
    "row_hash_mismatch": ({"row_hash"}, set()), "private_path": ({"private_path"}, set()),
    "forbidden_key": ({"forbidden_key"}, set()), "secret_token": ({"secret"}, set()),
    "contract_drift": ({"contract"}, set()), "copy_differs": ({"copy"}, set()),
    # damage after compiling: the manifest and links still describe the compiled rows
    "malformed_line": ({"bad_line"}, {"count", "link", "manifest_counts"}),
    "bad_encoding": ({"bad_line"}, {"count", "link", "manifest_counts"}),
    "truncated_file": ({"truncated", "bad_line"}, {"count", "link", "manifest_counts"}),
    "empty_file": ({"count"}, {"link", "manifest_counts"}),
    "manifest_missing_file": ({"manifest_missing"}, set()),
}


def test_every_defect_has_a_description_and_an_expectation() -> None:
    assert set(DEFECT_NAMES) - {"huge_line"} == set(EXPECTED)
    assert all(text for _, text in DEFECTS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_defect_is_the_only_fault_and_is_where_recorded(tmp_path: Path, name: str) -> None:
    pkg = generate_package(tmp_path, rows=60, seed=5, defects=[name])
    (rec,) = pkg.defects
    assert rec.name == name and rec.file and rec.detail
    found = problems(pkg.root)
    must, may = EXPECTED[name]
    assert must <= {k for k, _ in found} <= must | may, found
    root = pkg.root
    if rec.line is not None and rec.file.endswith(".jsonl"):
        lines = (root / rec.file).read_bytes().splitlines()
        assert 1 <= rec.line <= len(lines)
        if rec.row_id and name not in ("malformed_line", "truncated_file"):
            assert rec.row_id.encode() in lines[rec.line - 1] or name == "missing_row_id"
    if rec.file == MAP and rec.line is not None:
        entry = json.loads((root / MAP).read_text().splitlines()[rec.line - 1].rstrip(","))
        assert rec.evidence_id in (entry.get("evidence_id"), *entry.get("evidence_ref_ids", [])) or (
            name == "link_mismatch" and entry["row_id"] == rec.row_id)
    if rec.ref and rec.evidence_id and name != "evidence_id_mismatch":
        assert rec.evidence_id == derive.evidence_id(rec.ref)


def test_huge_line_only_when_asked(tmp_path: Path) -> None:
    pkg = generate_package(tmp_path, rows=40, seed=1, defects=["huge_line"])
    (rec,) = pkg.defects
    line = (pkg.root / rec.file).read_bytes().splitlines()[rec.line - 1]
    assert len(line) > 50_000_000
    assert derive.row_content_hash(json.loads(line)) == json.loads(line)["row_content_hash"]


def test_all_defects_together_land_in_distinct_places(tmp_path: Path) -> None:
    names = [n for n in DEFECT_NAMES if n != "huge_line"]
    pkg = generate_package(tmp_path, rows=300, seed=8, defects=names)
    assert [d.name for d in pkg.defects] == names
    rows = [(d.file, d.line) for d in pkg.defects if d.file and d.file.endswith(".jsonl") and d.line]
    assert len(rows) == len(set(rows))
    with pytest.raises(ValueError, match="unknown"):
        generate_package(tmp_path / "x", defects=["no_such_defect"])


def test_corpus_and_folder_safety(tmp_path: Path) -> None:
    pkgs = generate_corpus(tmp_path, 3, rows=20, seed=10)
    assert [p.row_count for p in pkgs] == [20, 20, 20]
    assert len({tree(p.root)[EC + "compiler_manifest.json"] for p in pkgs}) == 3
    generate_package(tmp_path, rows=20, seed=10, package_id=pkgs[0].package_id)  # replaces its own output
    (tmp_path / "not_a_package").mkdir()
    (tmp_path / "not_a_package" / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        generate_package(tmp_path, package_id="not_a_package")


def test_cli_generate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["generate", str(tmp_path), "--rows", "30", "--defect", "row_hash_mismatch", "--json"]) == 0
    (doc,) = json.loads(capsys.readouterr().out)
    assert doc["row_count"] == 30 and doc["defects"][0]["name"] == "row_hash_mismatch"
    assert cli_main(["generate", "--list-defects"]) == 0
    assert all(n in capsys.readouterr().out for n in DEFECT_NAMES)
    assert cli_main(["generate", str(tmp_path), "--corpus", "2", "--rows", "15"]) == 0
    assert "pkg_corpus_s0_0001" in capsys.readouterr().out


def test_fast_encoders_match_json_and_derive(clean: Path) -> None:
    for line in (clean / EC / "environment/api_interaction_events.jsonl").read_text().splitlines()[:5]:
        row = json.loads(line)
        raw = {k: Raw(v) if isinstance(v, dict | list) else v for k, v in row.items()}
        assert dumps_line(raw) == dumps_line(row) == json.dumps(row) == line
        assert content_hash(raw) == derive.row_content_hash(row) == row["row_content_hash"]
        ids = StepIds(row["data_type"], row["source_task_id"], row["source_trace_id"],
                      row["source_attempt_ids"], row["tdo_round"])
        assert ids(row["source_step_id"]) == row["row_id"]
