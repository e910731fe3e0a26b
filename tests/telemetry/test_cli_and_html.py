"""``editengine report`` end to end, and the HTML page."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from editengine._errors import BadRequest
from editengine.cli import main
from editengine.reports._html import CHART_IDS, SIMILARITY_CHART_PREFIX, render_html
from editengine.telemetry._report import aggregate_paths
from editengine.telemetry._synthetic import SyntheticConfig, write_synthetic


@pytest.fixture(scope="module")
def telemetry_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "t.jsonl"
    truth = write_synthetic(path, SyntheticConfig(edits=1500, seed=21))
    return path, truth


def test_report_prints_tables_and_writes_json(telemetry_file, tmp_path, capsys):
    path, truth = telemetry_file
    out = tmp_path / "report.json"
    assert main(["report", str(path), "--json", str(out), "--price", "gpt-4o-mini=1,2"]) == 0
    printed = capsys.readouterr().out
    for title in (
        "Strategy mix",
        "Tiers, in cascade order",
        "LLM fixer",
        "Errors that recur",
        "Edit latency by file size",
        "Recommendations",
        "Similarity of 'block_anchor'",
    ):
        assert title in printed
    assert f"{truth.edits:,}" in printed
    report = json.loads(out.read_text())
    assert report["edits"]["finished"] == truth.edits
    assert report["fixer"]["cost_usd"] == pytest.approx(
        (truth.input_tokens * 1 + truth.output_tokens * 2) / 1e6
    )
    assert "[tier_never_wins]" in printed  # 'boundary' never wins in the default mix


def test_json_to_stdout_is_pure_json(telemetry_file, capsys):
    path, truth = telemetry_file
    assert main(["report", str(path), "--json", "-", "--since", "2020-01-01"]) == 0
    assert json.loads(capsys.readouterr().out)["edits"]["finished"] == truth.edits


def test_vs_prints_a_side_by_side_table(telemetry_file, tmp_path, capsys):
    path, _ = telemetry_file
    other = tmp_path / "b.jsonl"
    write_synthetic(other, SyntheticConfig(edits=500, seed=22, p_ambiguous=0.3))
    out, page = tmp_path / "vs.json", tmp_path / "a.html"
    argv = ["report", str(path), "--vs", str(other), "--json", str(out), "--html", str(page)]
    assert main(argv) == 0
    assert page.exists() and not (tmp_path / "a.vs.html").exists()  # one page, not two
    assert "id='table-vs'" in page.read_text()
    printed = capsys.readouterr().out
    assert "A vs B" in printed and "ambiguity rate" in printed and "pp" in printed
    assert "Recommendations for A" in printed and "[ambiguity_high]" in printed  # B's 30%
    payload = json.loads(out.read_text())
    assert payload["a"]["edits"]["finished"] == 1500 and payload["b"]["edits"]["finished"] == 500
    (row,) = [r for r in payload["comparison"] if r["metric"] == "edits"]
    assert row["delta"] == -1000


@pytest.mark.parametrize(
    ("argv", "code", "needle"),
    [
        (["--since", "last tuesday"], "bad_request", "ISO 8601"),
        (["--price", "gpt-4o-mini"], "bad_request", "NAME=VALUE"),
        (["--price", "m=1"], "bad_request", "two numbers"),
        (["--threshold", "block_anchor=1.5"], "bad_request", "between 0 and 1"),
        (["--fixer-deadline", "0"], "bad_request", "positive"),
    ],
)
def test_bad_arguments_are_typed_errors(telemetry_file, capsys, argv, code, needle):
    path, _ = telemetry_file
    assert main(["report", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert f"error[{code}]" in err and needle in err


def test_missing_input_as_a_subprocess(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "editengine", "report", str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "error[file_not_found]" in done.stderr and "missing.jsonl" in done.stderr


def test_html_page_holds_its_charts_and_works_offline(telemetry_file, tmp_path, capsys):
    path, _ = telemetry_file
    page = tmp_path / "report.html"
    assert main(["report", str(path), "--html", str(page), "--threshold", "block_anchor=0.9"]) == 0
    capsys.readouterr()
    text = page.read_text()
    # One day of telemetry: no per-day chart (its table is there), every other chart is.
    charts = [c for c in CHART_IDS if c != "chart-daily"]
    for chart in (*charts, SIMILARITY_CHART_PREFIX + "block_anchor"):
        assert f'id="{chart}"' in text
    assert 'id="chart-daily"' not in text and "id='table-days'" in text
    assert "Strategy mix" in text and "Best similarity of" in text
    assert "<script src=" not in text  # plotly.js inline, no CDN
    assert text.count("Plotly.newPlot") == len(charts) + 1
    assert len(text) > 1_000_000  # the plotly.js bundle is embedded


def test_html_without_plotly_is_a_clear_error(telemetry_file, monkeypatch):
    report = aggregate_paths([telemetry_file[0]])
    monkeypatch.setitem(sys.modules, "plotly.graph_objects", None)
    with pytest.raises(BadRequest, match="plotly") as info:
        render_html(report)
    assert "editengine[html]" in str(info.value)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_report_tables_fit_the_terminal(telemetry_file, tmp_path, monkeypatch, capsys, width):
    path, _ = telemetry_file
    other = tmp_path / "b.jsonl"
    write_synthetic(other, SyntheticConfig(edits=200, seed=5))
    monkeypatch.setenv("COLUMNS", str(width))
    for argv in (["report", str(path)], ["report", str(path), "--vs", str(other)]):
        assert main(argv) == 0
        lines = capsys.readouterr().out.splitlines()
        assert max(len(line) for line in lines) <= width, argv
    assert main(["report", str(path)]) == 0
    text = capsys.readouterr().out
    # Tables lose columns on a narrow terminal, never their rows' names.
    assert "block_anchor" in text and "Tiers, in cascade order" in text.replace("\n", " ")
    if width >= 120:
        assert "total ms" in text and "ambiguous" in text
    if width <= 60:
        assert "total ms" not in text
