from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._executors import EngineConfig
from editengine.evaluation._runner import CaseRecord, RunResult
from editengine.evaluation._scoring import CaseResult, Outcome
from editengine.evaluation._tables import (
    TOTAL,
    by_category,
    failure_report,
    percentile,
    strategy_mix,
)


def _record(category: str, outcome: Outcome, **result) -> CaseRecord:
    case = EvalCase(
        id=f"{category}-{outcome.value}-{len(result)}",
        content="a\r\nb\r\n",
        old_string="a",
        new_string="c",
        expected_content="c\r\nb\r\n",
        category=category,
    )
    return CaseRecord(case, CaseResult(**result), outcome)


RUN = RunResult(
    EngineConfig("cascade"),
    (
        _record("x", Outcome.SUCCESS, ok=True, new_content="c\r\nb\r\n", strategy="exact"),
        _record("x", Outcome.REFUSED, ok=False, error_code="no_match", fixer_calls=1),
        _record("y", Outcome.WRONG, ok=True, new_content="c\nb  \n", strategy="fuzzy"),
    ),
    wall_s=0.5,
)


def test_tallies_per_category_and_total():
    table = by_category(RUN)
    assert list(table) == ["x", "y", TOTAL]
    assert (table["x"].cases, table["x"].success, table["x"].refused) == (2, 1, 1)
    assert table["x"].success_pct == 50.0
    assert table[TOTAL].wrong == 1
    assert table[TOTAL].fixer_calls == 1


def test_strategy_mix_counts_placements_and_declines():
    assert strategy_mix(RUN) == {"declined:no_match": 1, "exact": 1, "fuzzy": 1}


def test_nearest_rank_percentiles():
    values = [float(v) for v in range(1, 11)]
    assert percentile(values, 50) == 5.0
    assert percentile(values, 90) == 9.0
    assert percentile(values, 99) == 10.0
    assert percentile([], 50) == 0.0


def test_failure_report_shows_wrong_first_with_visible_line_endings():
    report = failure_report(RUN, 5)
    assert report.index("WRONG") < report.index("REFUSED")
    assert "c␍" in report  # the expected CRLF line
    assert "+b··" in report  # the trailing blanks the wrong edit introduced
