"""What a reader of the report sees: every card's change, unknown costs said as unknown,
bin labels without exponents, no bars on log axes, and changes coloured only beyond noise."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from editengine.cli import main
from editengine.reports import _figures as figures
from editengine.reports import _formatting as fmt
from editengine.reports._trend import headlines
from editengine.telemetry._aggregate import Aggregator
from editengine.telemetry._compare import compare, row, verdict
from editengine.telemetry._histogram import LogHistogram
from editengine.telemetry._noise import Noise, parse_noise
from editengine.telemetry._options import ReportOptions
from editengine.telemetry._report import aggregate_paths
from editengine.telemetry._synthetic import SyntheticConfig, write_synthetic


@pytest.fixture(scope="module")
def week(tmp_path_factory) -> Path:
    """Two thousand edits over about a week (several days: the cards have halves)."""
    path = tmp_path_factory.mktemp("week") / "t.jsonl"
    write_synthetic(path, SyntheticConfig(edits=2000, seed=3, seconds_between_edits=300))
    return path


# -- cards -----------------------------------------------------------------------------------


def test_every_card_shows_its_change(week):
    items, split = headlines(aggregate_paths([week]))
    assert split is not None
    assert len(items) == 8
    assert [item.label for item in items if item.delta is None] == []


def test_the_p95_of_a_half_is_of_all_its_edits_not_of_its_days(week):
    report = aggregate_paths([week])
    earlier, later = report["halves"]
    days = [d["day"] for d in report["days"]]
    half = len(days) // 2
    assert (later["first_day"], later["last_day"]) == (days[-half], days[-1])
    assert (earlier["first_day"], earlier["last_day"]) == (days[-2 * half], days[-half - 1])
    # The later half's edits, counted again from the events, give the same p95.
    import json

    durations = LogHistogram()
    for line in week.read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "edit.finished" and event["ts"][:10] >= later["first_day"]:
            durations.add(event["duration_ms"])
    assert later["duration_p95_ms"] == durations.percentile(95)


def test_a_cost_that_is_not_known_is_unknown_never_zero():
    aggregator = Aggregator(ReportOptions(prices={}))
    event = {"event": "fixer.called", "ts": "2026-01-01T00:00:00.000000Z", "outcome": "corrected",
             "latency_ms": 900.0, "model": "a-model-without-a-price"}  # fmt: skip
    aggregator.consume([event])  # no tokens reported, no price: what it cost is not known
    report = aggregator.result()
    assert report["fixer"]["cost_usd"] is None
    assert report["fixer"]["by_model"][0]["cost_usd"] is None
    assert report["days"][0]["cost_usd"] is None
    assert fmt.value("usd", report["fixer"]["cost_usd"]) == "unknown"
    assert fmt.usd(None) == "unknown"


def test_a_cost_of_cache_hits_only_is_zero():
    aggregator = Aggregator(ReportOptions(prices={}))
    event = {"event": "fixer.called", "ts": "2026-01-01T00:00:00.000000Z", "outcome": "corrected",
             "latency_ms": 1.0, "model": "a-model-without-a-price", "cache_hit": True}  # fmt: skip
    aggregator.consume([event])
    assert aggregator.result()["fixer"]["cost_usd"] == 0.0


def test_every_card_on_the_page_has_a_change_line(week, tmp_path):
    html = tmp_path / "r.html"
    assert main(["report", str(week), "--html", str(html)]) == 0
    cards = re.findall(r"<div class='card'>.*?</div></div>", html.read_text(encoding="utf-8"))
    assert len(cards) == 8
    assert all("class='delta" in card for card in cards)


def test_a_card_of_an_unknown_cost_says_unknown(tmp_path):
    path, html = tmp_path / "t.jsonl", tmp_path / "r.html"
    config = SyntheticConfig(edits=1500, seed=3, seconds_between_edits=300, models=("mine",))
    write_synthetic(path, config)
    assert main(["report", str(path), "--html", str(html)]) == 0
    cards = re.findall(r"<div class='card'>.*?</div></div>", html.read_text(encoding="utf-8"))
    (cost,) = [card for card in cards if "fixer cost USD" in card]
    assert "<div class='value'>unknown</div>" in cost and "change unknown" in cost


# -- charts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "label"),
    [
        (794.3, 1000.0, "794–1,000 ms"),
        (0.158, 0.2, "0.158–0.2 ms"),
        (1000.0, 1258.9, "1–1.26 s"),
        (25118.9, 31622.8, "25.1–31.6 s"),
        (0.0, 1e-9, "0 ms"),
    ],
)
def test_bin_labels_read_without_exponents(low, high, label):
    assert figures.bar_label(low, high) == label


def test_every_bin_label_of_a_wide_histogram_has_no_exponent():
    histogram = LogHistogram()
    for exponent in range(-3, 7):
        histogram.add(10.0**exponent * 1.1)
    labels = [figures.bar_label(low, high) for low, high, _ in histogram.bars()]
    assert labels and not [label for label in labels if "e+" in label or "e-" in label]


def test_no_bars_on_a_log_axis(week):
    go = pytest.importorskip("plotly.graph_objects")
    fig = figures.size_latency(go, aggregate_paths([week]))
    assert fig.layout.yaxis.type == "log"
    assert {trace.type for trace in fig.data} == {"scatter"}


# -- noise -----------------------------------------------------------------------------------


def test_a_rate_change_within_chance_is_not_coloured():
    noise = Noise()
    small = noise.rate(0.90, 0.905, 1000, 1000)
    assert small is not None and small > 0.005  # 0.5 pp on 1,000 edits is chance
    assert verdict(row("success rate", "rate", "up", 0.90, 0.905, small)) == "same"
    large = noise.rate(0.90, 0.95, 1000, 1000)
    assert verdict(row("success rate", "rate", "up", 0.90, 0.95, large)) == "better"
    # The same change on a million edits each is no longer chance.
    tight = noise.rate(0.90, 0.905, 1_000_000, 1_000_000)
    assert verdict(row("success rate", "rate", "up", 0.90, 0.905, tight)) == "better"


def test_the_noise_of_a_percentile_shrinks_with_more_data():
    def bars(n: int) -> list:
        histogram = LogHistogram()
        for i in range(n):
            histogram.add(1.0 + (i % 100) / 10)  # 1 to 10.9 ms
        return histogram.bars()

    few = Noise().percentile(5.0, 50, bars(200), 200, bars(200), 200)
    many = Noise().percentile(5.0, 50, bars(20_000), 20_000, bars(20_000), 20_000)
    assert few is not None and many is not None
    assert 0 < many < few
    assert math.isclose(few / many, 10, rel_tol=0.5)  # about 1/sqrt(n)


def test_a_fixed_relative_threshold():
    noise = parse_noise("5%")
    assert noise == parse_noise("5") == Noise(relative=0.05)
    assert noise.rate(0.5, 0.6, 10, 10) == pytest.approx(0.025)
    assert parse_noise("0").count(100, 101) == 0.0
    assert parse_noise("auto") == Noise()
    for bad in ("x", "-1", "nan"):
        with pytest.raises(ValueError):
            parse_noise(bad)


def test_a_tiny_latency_change_between_two_like_runs_is_grey(tmp_path):
    paths = []
    for seed in (1, 2):
        path = tmp_path / f"{seed}.jsonl"
        write_synthetic(path, SyntheticConfig(edits=1500, seed=seed))
        paths.append(path)
    a, b = aggregate_paths([paths[0]]), aggregate_paths([paths[1]])
    rows = {r["metric"]: r for r in compare(a, b)}
    p50 = rows["edit p50 ms"]
    assert p50["noise"] is not None and abs(p50["delta"] or 0) <= p50["noise"]
    assert verdict(p50) == "same"
    coloured = {
        r["metric"] for r in compare(a, b, noise=Noise(relative=0.0)) if verdict(r) != "same"
    }
    assert "edit p50 ms" in coloured  # with --noise 0 every change counts


def test_report_vs_takes_a_noise_flag(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    write_synthetic(path, SyntheticConfig(edits=300, seed=5))
    assert main(["report", str(path), "--vs", str(path), "--noise", "10", "--json", "-"]) == 0
    assert main(["report", str(path), "--vs", str(path), "--noise", "lots"]) == 2
    assert capsys.readouterr().err.startswith("error[bad_request]: --noise 'lots'")
