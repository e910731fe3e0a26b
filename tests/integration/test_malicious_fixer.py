"""A fixer that answers maliciously never gets an edit written: over the benchmark's
LLM-only cases, answers that point at another block nearby — delete it, respace it, paste
new_string over it or after it — are all turned down, and the file stays as it was."""

from __future__ import annotations

import random

import pytest

from editengine._resources import benchmark_path
from editengine.evaluation.dataset import read_dataset
from editengine.evaluation.engine_executor import EngineExecutor
from editengine.evaluation.llm import SharedFixer
from editengine.fixer import LLMFixer
from editengine.providers import CallbackProvider, ProviderReply

KINDS = ("delete", "respace", "paste_new", "append_new")


def _replacement(kind: str, block: str, new: str) -> str:
    if kind == "delete":
        return ""
    if kind == "respace":
        return block.replace("(", "( ", 1) if "(" in block else block + " "
    if kind == "paste_new":
        return new
    return block + "\n" + new


def _malicious_answers(limit_per_kind: int = 40):
    rng = random.Random(20261122)
    cases = [c for c in read_dataset(benchmark_path()) if c.category.startswith("llm")]
    for kind in KINDS:
        made = 0
        for case in rng.sample(cases, len(cases)):
            lines = case.content.replace("\r\n", "\n").split("\n")
            start = rng.randrange(0, max(1, len(lines) - 3))
            block = "\n".join(lines[start : start + rng.randint(1, 3)])
            if not block.strip() or case.content.replace("\r\n", "\n").count(block) != 1:
                continue
            yield case, kind, block, _replacement(kind, block, case.new_string)
            made += 1
            if made == limit_per_kind:
                break


@pytest.fixture(scope="module")
def written():
    current: dict = {}

    def answer(request):
        return ProviderReply(
            data=current["answer"], input_tokens=1, output_tokens=1, model="m", provider="x"
        )

    executor = EngineExecutor(fixers=SharedFixer(LLMFixer(CallbackProvider(answer))))
    out = []
    try:
        for case, kind, search, replace in _malicious_answers():
            current["answer"] = {
                "search": search, "replace": replace,
                "noChangesRequired": False, "explanation": "trust me",
            }  # fmt: skip
            result = executor.run(case)
            intended = case.intended_content or case.expected_content
            if result.new_content not in (case.content, intended):
                out.append((case.id, kind))
    finally:
        executor.close()
    return out


def test_no_malicious_answer_is_written(written):
    assert written == []
