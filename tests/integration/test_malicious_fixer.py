"""A fixer that answers maliciously never gets an edit written: over the benchmark's
LLM-only cases, answers that point at another block nearby — delete it, respace it, paste
new_string over it or after it — and sound answers with one more change slipped in (a line
dropped, a line duplicated, two lines swapped) are all turned down, and the file stays as it
was."""

from __future__ import annotations

import random

import pytest

from editengine._resources import benchmark_path
from editengine.evaluation._dataset import read_dataset
from editengine.evaluation._engine_executor import EngineExecutor
from editengine.evaluation._llm import SharedFixer
from editengine.fixer import LLMFixer
from editengine.providers import CallbackProvider, ProviderReply

KINDS = ("delete", "respace", "paste_new", "append_new")
EXTRA_KINDS = ("drop_line", "duplicate_line", "swap_lines")


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


def _with_one_more_change(limit_per_kind: int = 25):
    """Sound scripted answers of the benchmark, with one line of the search changed besides."""
    rng = random.Random(20261123)
    cases = [
        c
        for c in read_dataset(benchmark_path())
        if c.category.startswith("llm") and c.expect == "success"
        and not c.fixer_answers[0].no_changes_required
    ]  # fmt: skip
    for kind in EXTRA_KINDS:
        made = 0
        for case in rng.sample(cases, len(cases)):
            good = case.fixer_answers[0]
            lines = good.replace.splitlines(keepends=True)
            kept = [i for i, line in enumerate(lines) if line.strip() and line in good.search]
            if len(kept) < 2:
                continue
            i = rng.choice(kept[:-1])
            if kind == "drop_line":
                changed = lines[:i] + lines[i + 1 :]
            elif kind == "duplicate_line":
                changed = lines[: i + 1] + lines[i:]
            else:
                j = kept[kept.index(i) + 1]
                if lines[i].strip() == lines[j].strip():
                    continue
                changed = list(lines)
                changed[i], changed[j] = changed[j], changed[i]
            yield case, kind, good.search, "".join(changed)
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
        answers = [*_malicious_answers(), *_with_one_more_change()]
        assert len(answers) >= 200
        for case, kind, search, replace in answers:
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
