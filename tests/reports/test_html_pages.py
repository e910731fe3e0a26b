"""The HTML report and the --vs comparison page, read back: tables, figures, colours."""

from __future__ import annotations

import html
import math
import os
import subprocess
import sys
from itertools import pairwise

import pytest

from editengine._results import TierAttempt
from editengine._state import EditState, FixerCall
from editengine.cli import main
from editengine.reports._html import CHART_IDS, SIMILARITY_CHART_PREFIX, render_html
from editengine.reports._html_vs import COMPARISON_CHART_IDS, render_comparison_html
from editengine.reports._palette import OUTCOME_COLOURS, STRATEGY_COLOURS, colour_of
from editengine.reports._trend import headlines
from editengine.telemetry import MemorySink, Telemetry
from editengine.telemetry._aggregate import Aggregator
from editengine.telemetry._report import aggregate_paths
from editengine.telemetry._synthetic import SyntheticConfig, write_synthetic

from .pages import figures, parse

DAY = 86_400.0
START = 1_790_000_000.0


@pytest.fixture(scope="module")
def two_weeks(tmp_path_factory):
    """A week of telemetry, then a week in which far more edits are ambiguous."""
    folder = tmp_path_factory.mktemp("weeks")
    spread = 7 * DAY / 500
    first, second = folder / "week1.jsonl", folder / "week2.jsonl"
    write_synthetic(
        first,
        SyntheticConfig(edits=500, seed=3, seconds_between_edits=spread, record_threshold=True),
    )
    write_synthetic(
        second,
        SyntheticConfig(
            edits=500,
            seed=4,
            start=START + 7 * DAY,
            seconds_between_edits=spread,
            p_ambiguous=0.15,
            record_threshold=True,
        ),
    )
    return aggregate_paths([first]), aggregate_paths([second]), first, second


def _state(index: int, duration_ms: float, **fields) -> EditState:
    state = EditState(file_path="a.py", edit_id=f"e{index}", file_lines=50)
    state.duration_ms = duration_ms
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def _report(states: list[EditState], *, day_of=lambda index: 0) -> dict:
    """The report of these edits, each stamped on its day by the telemetry clock."""
    memory = MemorySink()
    now = [START]
    telemetry = Telemetry(sinks=[memory], clock=lambda: now[0], delivery="immediate")
    for index, state in enumerate(states):
        now[0] = START + day_of(index) * DAY + index
        telemetry.edit_started(state)
        telemetry.edit_finished(state)
    aggregate = Aggregator()
    aggregate.consume(event.to_dict() for event in memory.events)
    return aggregate.result()


def test_the_page_holds_every_section_of_the_text_report(two_weeks):
    report = two_weeks[0]
    page = render_html(report)
    found = parse(page)
    for table_id in (
        "table-days",
        "table-edits",
        "table-strategies",
        "table-errors",
        "table-tiers",
        "table-percentiles",
        "table-sizes",
        "table-fixer",
        "table-fixer-outcomes",
        "table-tokens",
    ):
        assert table_id in found.tables, table_id
    assert "headline" in found.ids
    charts = figures(page)
    assert set(CHART_IDS) <= set(charts)
    # The tier table, row for row: tries, wins, win rate as the report counts them.
    tiers = found.tables["table-tiers"][1:]
    assert [(row[0], row[1]) for row in tiers] == [(t["tier"], t["pass"]) for t in report["tiers"]]
    assert [int(row[3].replace(",", "")) for row in tiers] == [t["tries"] for t in report["tiers"]]
    assert [int(row[4].replace(",", "")) for row in tiers] == [t["wins"] for t in report["tiers"]]
    errors = found.tables["table-errors"][1:]
    assert [row[0] for row in errors] == [e["error_code"] for e in report["errors"]]
    days = found.tables["table-days"][1:]
    assert [row[0] for row in days] == [d["day"] for d in report["days"]] and len(days) >= 7
    percentiles = {row[0]: row for row in found.tables["table-percentiles"][1:]}
    assert percentiles["edits"][1] == f"{report['edits']['finished']:,}"
    models = found.tables["table-tokens"][1:]
    assert models[0][0] == "gpt-4o-mini" and models[0][3] == f"{report['fixer']['input_tokens']:,}"
    for item in report["recommendations"]:
        assert html.escape(item["message"]) in page
    # Summary first: the headline and the per-day series come before everything else.
    assert page.index("id='headline'") < page.index('id="chart-daily"') < page.index("table-tiers")


def test_the_daily_series_and_the_headline_deltas_follow_the_days(two_weeks):
    report = two_weeks[0]
    daily = figures(render_html(report))["chart-daily"]
    rate, edits, calls = daily["data"]
    assert [t["type"] for t in daily["data"]] == ["scatter", "bar", "bar"]
    assert rate["x"] == [d["day"] for d in report["days"]]
    assert rate["y"] == pytest.approx([d["success_rate"] for d in report["days"]])
    assert edits["y"] == [d["edits"] for d in report["days"]]
    assert calls["y"] == [d["fixer_calls"] for d in report["days"]]
    items, split = headlines(report)
    assert (
        split is not None and len(split.current) == len(split.previous) == len(report["days"]) // 2
    )
    later, earlier = split.current, split.previous
    success = {i.label: i for i in items}["success rate"]
    expected = sum(d["successes"] for d in later) / sum(d["edits"] for d in later) - sum(
        d["successes"] for d in earlier
    ) / sum(d["edits"] for d in earlier)
    assert success.delta == pytest.approx(expected)
    assert success.value == report["edits"]["success_rate"]


def test_histograms_keep_empty_bins_and_draw_the_fixer_deadline():
    """Twenty calls near 220 ms and three timeouts at 600 ms: the gap between is drawn."""
    states = []
    for index in range(23):
        timeout = index >= 20
        latency = 600.0 + index if timeout else 200.0 + index * 2.5
        states.append(
            _state(
                index,
                latency + 5,
                attempts=[TierAttempt("exact", "no_candidates", 0, None, 0.1)],
                outcome="error",
                error_code="fixer_timeout" if timeout else "no_match",
                fixer=FixerCall(
                    provider="openai",
                    model="gpt-4o-mini",
                    outcome="timeout" if timeout else "failed_validation",
                    latency_ms=latency,
                    deadline_ms=600.0,
                ),
            )
        )
    report = _report(states)
    charts = figures(render_html(report))
    fixer = charts["chart-fixer-latency"]
    bars = report["fixer"]["latency_bars"]
    for trace in fixer["data"]:
        assert len(trace["x"]) == len(trace["y"]) == len(bars)  # every bin, empty ones too
    assert [t["name"] for t in fixer["data"]] == ["timed out", "failed"]
    assert {t["type"] for t in fixer["data"]} == {"bar"} and fixer["layout"]["barmode"] == "stack"
    assert {t["marker"]["color"] for t in fixer["data"]} == {
        colour_of("timeout"),
        colour_of("error"),
    }
    counts = [sum(t["y"][i] for t in fixer["data"]) for i in range(len(bars))]
    assert sum(counts) == 23 and 0 in counts  # the gap between ~250 and 600 ms
    for (_, high, _), (low, _, _) in pairwise(bars):
        assert low == pytest.approx(high)  # one bin runs into the next
    (line,) = fixer["layout"]["shapes"]
    assert line["type"] == "line" and line["x0"] == line["x1"]
    index = math.floor(line["x0"] + 0.5)  # the bar the deadline falls in
    low, high, _ = bars[index]
    assert low <= 600.0 < high
    assert "deadline 600 ms" in fixer["layout"]["annotations"][0]["text"]
    edit = charts["chart-edit-latency"]["data"][0]
    assert len(edit["y"]) == len(report["edits"]["duration_bars"]) and sum(edit["y"]) == 23


def test_similarity_is_charted_only_for_fuzzy_tiers_with_the_threshold_drawn():
    states = []
    for index in range(40):
        fuzzy = index % 2 == 0
        score = 0.5 + index / 100
        attempts = [
            TierAttempt(
                "exact", "no_candidates" if fuzzy else "matched", 0, None if fuzzy else 1.0
            ),
            TierAttempt("line_trimmed", "no_candidates", 0, None),
        ]
        if fuzzy:
            outcome = "matched" if score >= 0.85 else "refused"
            attempts.append(TierAttempt("block_anchor", outcome, 1, score, 0.3, 0.85))
        states.append(_state(index, 1.0, attempts=attempts, outcome="success", strategy="exact"))
    report = _report(states)
    charts = figures(render_html(report))
    similarity = [name for name in charts if name.startswith(SIMILARITY_CHART_PREFIX)]
    assert similarity == [SIMILARITY_CHART_PREFIX + "block_anchor"]  # not 'exact' at 1.00
    chart = charts[similarity[0]]
    for trace in chart["data"]:
        steps = [round((b - a) * 100, 6) for a, b in pairwise(trace["x"])]
        assert set(steps) == {1.0}  # every 0.01 bin from the lowest score to 1.00
        assert trace["x"][-1] == pytest.approx(1.005)
        assert trace["marker"]["color"] == colour_of(trace["name"])
    assert sum(sum(t["y"]) for t in chart["data"]) == 20
    (line,) = chart["layout"]["shapes"]
    assert line["x0"] == line["x1"] == 0.85
    assert "threshold 0.85 (recorded)" in chart["layout"]["annotations"][0]["text"]


def _coloured(charts):
    """(name, colour) for every bar or line whose name is a strategy or an outcome."""
    known = set(OUTCOME_COLOURS) | set(STRATEGY_COLOURS)
    for chart in charts.values():
        for trace in chart["data"]:
            marker = trace.get("marker", {}).get("color")
            if isinstance(marker, list):
                names = trace.get("x") if trace.get("orientation") != "h" else trace.get("y")
                yield from ((n, c) for n, c in zip(names, marker) if n in known)
            elif trace.get("name") in known and marker:
                yield trace["name"], marker


def test_every_strategy_and_outcome_keeps_one_colour_on_every_chart_and_page(two_weeks):
    a, b = two_weeks[0], two_weeks[1]
    seen: dict[str, set[str]] = {}
    pages = [render_html(a), render_html(b), render_comparison_html(a, b)]
    for page in pages:
        for name, colour in _coloured(figures(page)):
            seen.setdefault(name, set()).add(colour)
    assert {"exact", "block_anchor", "matched", "refused", "corrected"} <= set(seen)
    for name, colours in seen.items():
        assert colours == {colour_of(name)}, name
    # Tier outcomes: one trace per outcome, each in its colour.
    outcomes = figures(pages[0])["chart-tier-outcomes"]["data"]
    assert {t["name"]: t["marker"]["color"] for t in outcomes} == {
        t["name"]: colour_of(t["name"]) for t in outcomes
    }


def test_empty_data_is_said_in_words_not_drawn(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    page = render_html(aggregate_paths([empty]))
    assert "No edits in this period" in page and "Plotly.newPlot" not in page
    quiet = _report(
        [
            _state(i, 1.0, attempts=[TierAttempt("exact", "matched", 1)], outcome="success")
            for i in range(5)
        ]
    )
    page = render_html(quiet)
    assert "No fixer calls in this period." in page
    assert not any(name.startswith("chart-fixer") for name in figures(page))


def test_vs_is_one_page_of_differences_coloured_by_better_and_worse(two_weeks, tmp_path, capsys):
    a, b, first, second = two_weeks
    out = tmp_path / "vs.html"
    assert main(["report", str(first), "--vs", str(second), "--html", str(out)]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vs.html"]
    page = out.read_text()
    found = parse(page)
    rows = {
        row[0]: (row, css) for row, css in zip(found.tables["table-vs"], found.classes["table-vs"])
    }
    success, success_css = rows["success rate"]
    assert success[1] == f"{a['edits']['success_rate'] * 100:.1f}%"
    assert success[2] == f"{b['edits']['success_rate'] * 100:.1f}%"
    assert success_css[3] == "worse"  # more ambiguity in week 2: fewer successes
    assert rows["ambiguity rate"][1][3] == "worse"
    assert rows["edits"][1][3] == "same"  # a count of edits is neither better nor worse
    charts = figures(page)
    assert set(COMPARISON_CHART_IDS) <= set(charts)
    rates = charts["chart-vs-rates"]["data"][0]
    colours = dict(zip(rates["y"], rates["marker"]["color"]))
    assert colours["success rate"] == colours["ambiguity rate"] == "#c62828"
    daily = charts["chart-vs-daily"]["data"]
    days_a = {d["day"] for d in a["days"]}
    days_b = {d["day"] for d in b["days"]}
    assert set(daily[0]["x"]) == days_a and set(daily[3]["x"]) == days_b
    # One grid for both latency histograms: the same bins, each side's shares summing to 1.
    latency = charts["chart-vs-edit-latency"]["data"]
    assert latency[0]["x"] == latency[1]["x"]
    assert sum(latency[0]["y"]) == pytest.approx(1.0) and sum(latency[1]["y"]) == pytest.approx(1.0)
    for table_id in ("table-vs-tiers", "table-vs-errors", "table-vs-fixer", "table-vs-latency"):
        assert table_id in found.tables
    assert page.count("<h1>") == 1


_TIED_REPORT_PAGE = """
import sys
from editengine._results import TierAttempt
from editengine._state import EditState
from editengine.reports import render_comparison_html
from editengine.telemetry import MemorySink, Telemetry
from editengine.telemetry._aggregate import Aggregator

memory = MemorySink()
telemetry = Telemetry(sinks=[memory], clock=lambda: 1_790_000_000.0, delivery="immediate")
for index, name in enumerate(f"tier_{letter}" for letter in "abcdefghijkl"):
    state = EditState(file_path="a.py", edit_id=f"s{index}", file_lines=50)
    state.attempts = [TierAttempt(name, "matched", 1)]
    state.strategy, state.outcome, state.duration_ms = name, "success", 1.0
    telemetry.edit_started(state)
    telemetry.edit_finished(state)
    failed = EditState(file_path="a.py", edit_id=f"f{index}", file_lines=50)
    failed.outcome, failed.error_code, failed.duration_ms = "error", f"code_{name}", 1.0
    telemetry.edit_started(failed)
    telemetry.edit_finished(failed)
aggregate = Aggregator()
aggregate.consume(event.to_dict() for event in memory.events)
report = aggregate.result()
sys.stdout.write(render_comparison_html(report, report))
"""


def test_a_comparison_page_is_the_same_whatever_the_hash_seed():
    # Strategies with the same share and errors with the same count were ordered as a set
    # iterates, which changes with PYTHONHASHSEED: the same two reports gave other pages.
    pages = {
        subprocess.run(
            [sys.executable, "-c", _TIED_REPORT_PAGE],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3", "4")
    }
    assert len(pages) == 1
    page = pages.pop()
    assert page.index("tier_a") < page.index("tier_l")
    assert page.index("code_tier_a") < page.index("code_tier_l")
