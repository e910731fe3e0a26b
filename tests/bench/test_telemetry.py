"""The report benchmark runs end to end on a small event count (figures are printed, not judged)."""

from __future__ import annotations

from editengine.bench.telemetry import run_report_benchmark


def test_benchmark_reports_its_figures(tmp_path):
    result = run_report_benchmark(3_000, workdir=tmp_path)
    assert 2_500 < result["events"] < 3_500
    assert result["events_per_second"] == result["events"] / result["wall_seconds"]
    assert result["peak_rss_mib"] > 0 and result["json_backend"] in ("json", "orjson")
    assert list(tmp_path.iterdir()) == []  # the generated file is cleaned up
