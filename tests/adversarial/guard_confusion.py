"""Print the fixer guard's confusion table.

    PYTHONPATH=src python tests/adversarial/guard_confusion.py

Every answer goes through :class:`~editengine.engine.EditEngine` on a real file with an
offline provider that gives it; what counts is what ends up on disk (or, for a "no change
needed" answer, whether success is reported). Two sources:

- the adversarial corpus (``corpus.json``): good answers are sound corrections, bad answers
  make a change nobody asked for or have the wrong shape;
- the hand-written corpus (``attack_cases.py``): answers aimed at how the guard carries the
  edit onto a search; a bad answer whose only fault is layout may be replaced by the
  requested edit itself ("written as intended");
- the bundled benchmark's LLM categories (``llm_wrong_identifier``, ``llm_paraphrased``) with
  their scripted answers: good where the case expects success, bad where it expects refusal.

Columns: *written as intended* (the file is what the agent meant), *written otherwise* (any
other change, or a success reported for a false "no change"), *refused* (nothing written).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from runner import load_corpus, run_all  # noqa: E402  # after sys.path names this folder

from editengine._resources import benchmark_path  # noqa: E402  # after sys.path names this folder
from editengine.evaluation._dataset import EvalCase, read_dataset  # noqa: E402  # after sys.path names this folder
from editengine.evaluation._engine_executor import EngineExecutor  # noqa: E402  # after sys.path names this folder
from editengine.evaluation._llm import ScriptedFixers  # noqa: E402  # after sys.path names this folder

LLM_CATEGORIES = ("llm_wrong_identifier", "llm_paraphrased")
Row = tuple[bool, str]  # (good answer, "as_intended" | "otherwise" | "refused")


def corpus_rows() -> list[Row]:
    rows: list[Row] = []
    for outcome in run_all(load_corpus()):
        if outcome.as_intended:
            verdict = "as_intended"
        elif outcome.written or outcome.reported_success:
            verdict = "otherwise"
        else:
            verdict = "refused"
        rows.append((outcome.good, verdict))
    return rows


def benchmark_rows(categories: Iterable[str] = LLM_CATEGORIES) -> list[Row]:
    cases = [case for case in read_dataset(benchmark_path()) if case.category in categories]
    executor = EngineExecutor(fixers=ScriptedFixers())
    rows: list[Row] = []
    try:
        for case in cases:
            result = executor.run(case)
            rows.append((case.expect == "success", _verdict(case, result.ok, result.new_content)))
    finally:
        executor.close()
    return rows


def _verdict(case: EvalCase, ok: bool, after: str | None) -> str:
    intended = case.intended_content or case.expected_content
    if case.expect == "success" and ok and after == intended:
        return "as_intended"
    if ok or (after is not None and after != case.content):
        return "otherwise"
    return "refused"


def attack_rows() -> list[Row]:
    from attack_cases import BY_NAME, all_answers
    from attack_runner import run_every

    rows: list[Row] = []
    for result in run_every(all_answers()):
        scenario = BY_NAME[result.answer.scenario]
        if result.after == scenario.expected:
            verdict = "as_intended"
        elif result.after != scenario.content or result.error is None:
            verdict = "otherwise"  # a change, or a success reported for a false "no change"
        else:
            verdict = "refused"
        rows.append((result.answer.good, verdict))
    return rows


def table(title: str, rows: list[Row]) -> str:
    counts = Counter(rows)
    lines = [
        f"**{title}**",
        "",
        "| answer | count | written as intended | written otherwise | refused |",
        "|---|---:|---:|---:|---:|",
    ]
    for good, label in ((True, "good"), (False, "bad")):
        total = sum(n for (g, _), n in counts.items() if g == good)
        cells = [counts[(good, verdict)] for verdict in ("as_intended", "otherwise", "refused")]
        lines.append(f"| {label} | {total} | " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def main() -> None:
    started = time.perf_counter()
    print(table("Adversarial corpus (tests/adversarial/corpus.json)", corpus_rows()))
    print()
    print(table("Hand-written corpus (tests/adversarial/attack_cases.py)", attack_rows()))
    print()
    print(table("Benchmark LLM categories, scripted answers", benchmark_rows()))
    print(f"\n({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
