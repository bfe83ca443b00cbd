"""Group/source/template graph: union-find components (spec 3)."""

from __future__ import annotations

import random

from aa_review.core.dossier import TaskGraph
from aa_review.core.dossier._models_archive import ArchiveGroup


def g(
    gid: str, src: list[str], tpl: list[str], split: str = "development", label: str = "x"
) -> ArchiveGroup:
    return ArchiveGroup(
        group_id=gid, split=split, family_label=label, source_ids=src, template_ids=tpl
    )


GROUPS = [
    g("A", ["s1"], ["t1"]),
    g("B", ["s2"], ["t2"]),
    g("C", ["s3"], ["t2"]),
    g("D", ["s4"], ["t4"], label="same"),
    g("E", ["s5"], ["t5"], label="same"),
    g("F", ["s3"], ["t6"], split="confirmatory_hidden"),
    g("H", ["s9"], ["t9"], split="calibration"),
]


def test_components_link_by_source_or_template_and_ignore_labels() -> None:
    graph = TaskGraph.from_groups(GROUPS)
    comp = graph.component_of
    assert comp["B"] == comp["C"] == comp["F"] == "B"  # template t2, then source s3
    assert comp["D"] != comp["E"]  # same family label, no shared source/template
    assert comp["A"] == "A"
    assert graph.component("nope") is None


def test_component_ids_do_not_depend_on_archive_order() -> None:
    expected = TaskGraph.from_groups(GROUPS).component_of
    for seed in range(5):
        shuffled = GROUPS[:]
        random.Random(seed).shuffle(shuffled)
        assert TaskGraph.from_groups(shuffled).component_of == expected


def test_hidden_groups_and_evaluation_components() -> None:
    graph = TaskGraph.from_groups(GROUPS)
    assert graph.hidden_groups == {"F", "H"}
    assert graph.evaluation_components(["D"]) == {"B", "H", "D"}
    assert graph.evaluation_components(["unknown"]) == {"B", "H"}


def test_chains_merge_transitively() -> None:
    chain = [g(f"G{i}", [f"s{i}", f"s{i + 1}"], [f"t{i}"]) for i in range(30)]
    graph = TaskGraph.from_groups(chain)
    assert set(graph.component_of.values()) == {"G0"}
