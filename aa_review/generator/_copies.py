"""Row-file copies (format 3, 5): tdo/ working copies and the copies inside experience_compiler/."""

from __future__ import annotations

import shutil

from ._ctx import Ctx
from ._final import ROW_FILES, primary_path

__all__ = ["copy_pairs", "write_copies"]

EC = "experience_compiler/"


def copy_pairs() -> list[tuple[str, str]]:
    """``(copy, source)`` for every copied file, package-relative."""
    pairs = [(f"tdo/{f}", primary_path(f)) for f in ROW_FILES]
    pairs.append(("tdo/rejected_rows.jsonl", EC + "reports/rejected_rows.jsonl"))
    ttp, env = EC + "training_time_package/", EC + "environment/"
    pairs += [
        (ttp + "sft_examples.jsonl", ttp + "training_examples.jsonl"),
        (EC + "evals/evaluation_examples.jsonl", ttp + "evaluation_examples.jsonl"),
        (EC + "eval_package/evaluation_examples.jsonl", ttp + "evaluation_examples.jsonl"),
        (EC + "verifier/verifier_examples.jsonl", ttp + "verifier_examples.jsonl"),
        (ttp + "verifier_training_rows.jsonl", ttp + "verifier_examples.jsonl"),
        (EC + "reward/reward_model_rows.jsonl", ttp + "reward_model_rows.jsonl"),
        (EC + "reward/preference_pairs.jsonl", ttp + "preference_pairs.jsonl"),
        (env + "state_transition_rows.jsonl", env + "environment_response_pairs.jsonl"),
        (ttp + "environment_response_pairs.jsonl", env + "environment_response_pairs.jsonl"),
    ]
    return pairs


def write_copies(ctx: Ctx) -> None:
    for dst, src in copy_pairs():
        p = ctx.path(dst)
        p.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ctx.path(src), p)
