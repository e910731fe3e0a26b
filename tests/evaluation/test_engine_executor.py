"""EngineExecutor: each case through the real EditEngine on a real file, with or without a fixer."""

from itertools import islice

import pytest

from editengine._resources import benchmark_path
from editengine.evaluation._dataset import EvalCase, case_from_record, read_dataset
from editengine.evaluation._engine_executor import EngineExecutor
from editengine.evaluation._executors import EngineConfig, TextExecutor, build_executor
from editengine.evaluation._llm import ScriptedFixers, SharedFixer
from editengine.evaluation._runner import run_cases
from editengine.evaluation._scoring import Outcome, score
from editengine.fixer import LLMFixer
from editengine.providers import ScriptedProvider

from .conftest import FILE, LLM_CASES, SMALL_CASES


def _case(record: dict) -> EvalCase:
    return case_from_record(record, default_id="x", default_category="test", path="<test>", line=1)


SMALL = [_case(r) for r in SMALL_CASES]
LLM = {r["id"]: _case(r) for r in LLM_CASES}


@pytest.fixture
def engine():
    executor = EngineExecutor()
    yield executor
    executor.close()


def test_the_engine_places_the_same_edits_as_edit_text(engine):
    text = TextExecutor()
    for case in SMALL:
        ours, pure = engine.run(case), text.run(case)
        assert (ours.ok, ours.strategy, ours.error_code) == (
            pure.ok,
            pure.strategy,
            pure.error_code,
        )
        assert score(case, ours) is score(case, pure)
        # A declined edit leaves the file as it was, read back from disk.
        assert ours.new_content == (pure.new_content if pure.ok else case.content)


def test_the_file_is_written_and_read_back_byte_for_byte(engine):
    content = "\ufeffa = 1\r\nb = 2\r\n"
    case = EvalCase(
        id="crlf", content=content, old_string="b = 2\n", new_string="b = 3\n",
        expected_content="\ufeffa = 1\r\nb = 3\r\n",
    )  # fmt: skip
    result = engine.run(case)
    assert result.ok, result.error
    assert result.new_content == "\ufeffa = 1\r\nb = 3\r\n"
    assert score(case, result) is Outcome.SUCCESS


def test_the_case_file_name_is_the_path_the_engine_edits():
    case = EvalCase(
        id="named", content=FILE, old_string="nowhere to be found", new_string="x",
        file_name="src/calc/ops.py", expect="refuse",
    )  # fmt: skip
    provider = ScriptedProvider()  # nothing scripted: the fixer sees the request, then fails
    executor = EngineExecutor(fixers=SharedFixer(LLMFixer(provider)))
    try:
        result = executor.run(case)
    finally:
        executor.close()
    assert result.error_code == "no_match"
    (request,) = provider.requests
    assert "src/calc/ops.py" in request.user


def test_a_crash_inside_the_engine_is_reported_and_the_file_kept(engine):
    class Exploding:
        def edit(self, *args, **kwargs):
            raise RuntimeError("boom")

    crashing = EngineExecutor(cascade=Exploding())
    try:
        result = crashing.run(SMALL[0])
    finally:
        crashing.close()
    assert (result.ok, result.error_code) == (False, "internal_error")
    assert "boom" in (result.error or "")
    assert result.new_content == SMALL[0].content


def test_a_scripted_correction_turns_a_refusal_into_the_expected_file():
    case = LLM["llm-good"]
    with_fixer = EngineExecutor(fixers=ScriptedFixers())
    without = EngineExecutor()
    try:
        fixed, plain = with_fixer.run(case), without.run(case)
    finally:
        with_fixer.close()
        without.close()
    assert score(case, plain) is Outcome.REFUSED
    assert plain.fixer_calls == 0
    assert score(case, fixed) is Outcome.SUCCESS
    assert fixed.corrected_by_fixer and fixed.fixer_calls == 1
    # Scripted answers cost nothing; their tokens are estimated from prompt and answer.
    assert fixed.input_tokens > len(FILE) // 4 and fixed.output_tokens > 0
    assert fixed.cache_hits == 0


@pytest.mark.parametrize("case_id", ["llm-bad-search", "llm-false-no-change", "llm-unanswered"])
def test_a_bad_or_missing_scripted_answer_ends_as_the_original_no_match(case_id):
    case = LLM[case_id]
    executor = EngineExecutor(fixers=ScriptedFixers())
    try:
        result = executor.run(case)
    finally:
        executor.close()
    assert (result.ok, result.error_code) == (False, "no_match")
    assert result.fixer_calls == 1 and not result.corrected_by_fixer
    assert result.new_content == case.content
    assert score(case, result) in (Outcome.REFUSED, Outcome.SUCCESS)  # never WRONG
    assert score(case, result) is (Outcome.SUCCESS if case.expect == "refuse" else Outcome.REFUSED)


def test_a_scripted_answer_that_edits_an_unrelated_block_is_refused():
    case = EvalCase(
        id="elsewhere", content=FILE, old_string="    return alpha - beta",
        new_string="    return beta - alpha", expect="refuse",
        fixer_answers=LLM["llm-good"].fixer_answers,  # edits add(), the request is about sub()
    )  # fmt: skip
    executor = EngineExecutor(fixers=ScriptedFixers())
    try:
        result = executor.run(case)
    finally:
        executor.close()
    assert score(case, result) is Outcome.SUCCESS


def test_cache_hits_are_counted_from_the_engine_telemetry():
    provider = ScriptedProvider([a.to_dict() for a in LLM["llm-good"].fixer_answers])
    executor = EngineExecutor(fixers=SharedFixer(LLMFixer(provider)))
    try:
        first, second = executor.run(LLM["llm-good"]), executor.run(LLM["llm-good"])
    finally:
        executor.close()
    assert len(provider.requests) == 1
    assert (first.cache_hits, second.cache_hits) == (0, 1)
    assert first.new_content == second.new_content == LLM["llm-good"].expected_content


def test_engine_configs_build_engine_executors():
    executor = build_executor(EngineConfig("e", kind="engine", llm="scripted"))
    try:
        assert isinstance(executor, EngineExecutor)
        assert isinstance(executor.fixers, ScriptedFixers)
    finally:
        executor.close()


@pytest.fixture(scope="module")
def benchmark_sample():
    by_category: dict[str, list[EvalCase]] = {}
    for case in read_dataset(benchmark_path()):
        by_category.setdefault(case.category, []).append(case)
    llm = [c for name, group in by_category.items() if name.startswith("llm") for c in group]
    others = [c for name, group in by_category.items() for c in islice(group, 2)]
    return others + llm[::3]


def test_parallel_and_serial_engine_runs_agree(benchmark_sample):
    config = EngineConfig("cascade+scripted", kind="engine", llm="scripted")
    serial = run_cases(benchmark_sample, config)
    parallel = run_cases(benchmark_sample, config, workers=2)
    assert [r.case.id for r in parallel.records] == [c.id for c in benchmark_sample]

    def seen(run):
        return [
            (r.outcome, r.result.new_content, r.result.strategy, r.result.error_code,
             r.result.fixer_calls, r.result.corrected_by_fixer, r.result.input_tokens)
            for r in run.records
        ]  # fmt: skip

    assert seen(serial) == seen(parallel)
    assert any(r.result.corrected_by_fixer for r in serial.records)
