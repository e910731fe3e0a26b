"""Serial and parallel runs agree, case by case, in dataset order."""

from itertools import islice

import pytest

from editengine._resources import benchmark_path
from editengine.evaluation._dataset import read_dataset
from editengine.evaluation._executors import EngineConfig
from editengine.evaluation._runner import run_cases


@pytest.fixture(scope="module")
def some_benchmark_cases():
    cases = read_dataset(benchmark_path())
    # A few of every category, so the comparison covers refusals and edits alike.
    by_category: dict[str, list] = {}
    for case in cases:
        by_category.setdefault(case.category, []).append(case)
    return [c for group in by_category.values() for c in islice(group, 3)]


def test_parallel_and_serial_runs_agree(some_benchmark_cases):
    config = EngineConfig("cascade")
    serial = run_cases(some_benchmark_cases, config)
    parallel = run_cases(some_benchmark_cases, config, workers=2)
    assert [r.case.id for r in parallel.records] == [c.id for c in some_benchmark_cases]
    assert [(r.outcome, r.result.new_content, r.result.strategy) for r in serial.records] == [
        (r.outcome, r.result.new_content, r.result.strategy) for r in parallel.records
    ]


def test_progress_is_reported_for_every_case(some_benchmark_cases):
    seen = []
    run_cases(some_benchmark_cases[:10], EngineConfig("cascade"), progress=seen.append)
    assert sum(seen) == 10


def test_workers_must_be_positive(some_benchmark_cases):
    with pytest.raises(ValueError):
        run_cases(some_benchmark_cases, EngineConfig("cascade"), workers=0)
