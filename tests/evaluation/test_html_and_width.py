"""``eval --html`` (rates per category, the fixer's cost, summary first), the --compare
heatmap, and text tables that fit the terminal."""

from __future__ import annotations

import pytest

from editengine.cli import main
from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._executors import EngineConfig
from editengine.evaluation._runner import CaseRecord, RunResult
from editengine.evaluation._scoring import CaseResult, Outcome
from editengine.reports._evaluation_html import HEATMAP_ID, RATES_CHART_PREFIX, render_html
from editengine.reports._palette import colour_of

from ..reports.pages import figures, parse


def _record(category: str, outcome: Outcome, index: int, **result) -> CaseRecord:
    case = EvalCase(
        id=f"{category}-{index}",
        content="a\n",
        old_string="a",
        new_string="b",
        expected_content="b\n",
        category=category,
    )
    ok = outcome is not Outcome.REFUSED
    return CaseRecord(case, CaseResult(ok=ok, strategy="exact" if ok else None, **result), outcome)


def _run(label: str, plan: dict[str, tuple[int, int, int]], **result) -> RunResult:
    """``plan``: category -> (successes, refusals, wrong edits)."""
    records = []
    for category, counts in plan.items():
        for outcome, n in zip(Outcome, counts, strict=True):
            records += [_record(category, outcome, len(records) + i, **result) for i in range(n)]
    return RunResult(EngineConfig(label), tuple(records), wall_s=0.25)


# A 12-case category that always succeeds next to a 140-case one that mostly does.
PLAN = {"large_file": (12, 0, 0), "exact": (126, 13, 1), "llm_wrong_identifier": (11, 31, 0)}


def test_one_run_shows_rates_per_category_and_the_fixers_cost_summary_first():
    run = _run("cascade+scripted", PLAN, fixer_calls=1, input_tokens=300, output_tokens=20)
    page = render_html([run])
    found = parse(page)
    rows = {row[0]: row for row in found.tables["table-rates-category"]}
    head = found.tables["table-rates-category"][0]
    assert head[:6] == ["category", "cases", "success %", "refused %", "wrong %", "wrong"]
    assert "fixer calls" in head and "tokens in" in head
    assert rows["large_file"][1:3] == ["12", "100.0%"]
    assert rows["exact"][2:6] == ["90.0%", "9.3%", "0.7%", "1"]
    assert rows["TOTAL"][head.index("tokens in")] == f"{300 * 194:,}"
    chart = figures(page)[RATES_CHART_PREFIX + "category"]
    success, refused, wrong = chart["data"]
    assert [t["name"] for t in chart["data"]] == ["success", "refused", "wrong"]
    assert all(t["marker"]["color"] == colour_of(t["name"]) for t in chart["data"])
    for i, label in enumerate(success["y"]):
        assert success["x"][i] + refused["x"][i] + wrong["x"][i] == pytest.approx(100.0), label
    small = success["y"].index("large_file (12)")
    assert success["x"][small] == 100.0  # a small category reads as well as a large one
    assert page.index("id='summary'") < page.index("table-rates-category")
    assert "fixer calls" in page[page.index("id='summary'") : page.index("table-rates-category")]


def test_compare_draws_a_heatmap_of_configurations_by_categories():
    runs = [
        _run("exact-only", {"large_file": (2, 10, 0), "exact": (140, 0, 0), "fence": (0, 90, 8)}),
        _run("cascade", {"large_file": (12, 0, 0), "exact": (140, 0, 0), "fence": (80, 16, 2)}),
    ]
    page = render_html(runs)
    charts = figures(page)
    assert list(charts) == [HEATMAP_ID]  # the overview; no chart per configuration
    (heat,) = charts[HEATMAP_ID]["data"]
    assert heat["type"] == "heatmap"
    assert heat["x"] == ["large_file", "exact", "fence", "TOTAL"]
    assert heat["y"] == ["exact-only", "cascade"]
    assert heat["z"][0][:3] == [pytest.approx(16.7), 100.0, 0.0]
    assert heat["z"][1][2] == pytest.approx(81.6)
    assert heat["text"][0][2] == "0<br>✗8"  # wrong edits written in the cell
    frames = charts[HEATMAP_ID]["layout"]["shapes"]
    # One red frame per cell with wrong edits: fence and TOTAL, on both rows.
    assert sorted((round(s["x0"] + 0.46), round(s["y0"] + 0.44)) for s in frames) == [
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
    ]
    assert page.count("<details") == 2 and "<details open" not in page
    assert page.index('id="chart-heatmap"') < page.index("<details")
    table = parse(page).tables["table-configurations"]
    assert [row[0] for row in table[1:]] == ["exact-only", "cascade"]
    assert "fixer calls" not in table[0]  # the fixer was never called: no empty columns


@pytest.mark.parametrize("width", [60, 80, 120])
def test_eval_tables_fit_the_terminal(small_dataset, monkeypatch, capsys, width):
    monkeypatch.setenv("COLUMNS", str(width))
    main(["eval", str(small_dataset), "--compare", "--no-progress"])
    lines = capsys.readouterr().out.splitlines()
    assert lines and max(len(line) for line in lines) <= width
    assert "wall s" not in lines[2]  # the per-category table has no wall-time column
    assert "…" not in "".join(lines)  # names are folded, never cut short


def test_eval_tables_name_categories_in_full_at_80_columns(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("COLUMNS", "80")
    run = _run("cascade", PLAN)
    from rich.console import Console

    from editengine.evaluation._tables import print_report

    console = Console(file=open(tmp_path / "out.txt", "w"), width=80)  # noqa: SIM115  # the console writes to it until the test ends
    print_report(console, [run])
    console.file.close()
    text = (tmp_path / "out.txt").read_text()
    assert "llm_wrong_identifier" in text
    assert "fixer calls" not in text and "wall s" not in text  # never called: no columns
