"""Each HTML page opened offline in headless Chromium: no script error, every chart drawn.

Needs the OS package's browser at /usr/bin/chromium; skipped without it. A screenshot of
each page is left in the test's temporary folder for a look by eye.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from editengine.evaluation._dataset import load_cases
from editengine.evaluation._executors import exact_only, full_cascade
from editengine.evaluation._runner import run_cases
from editengine.reports._evaluation_html import render_html as render_eval
from editengine.reports._html import render_html
from editengine.reports._html_vs import render_comparison_html
from editengine.telemetry._report import aggregate_paths
from editengine.telemetry._synthetic import SyntheticConfig, write_synthetic

from .pages import figures

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")


def _chromium(page: Path, *flags: str) -> str:
    done = subprocess.run(
        [
            str(CHROMIUM),
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            # Offline: any request leaving the machine fails.
            "--proxy-server=127.0.0.1:9",
            "--window-size=1280,800",
            "--virtual-time-budget=15000",
            *flags,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _check(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    charts = list(figures(text))
    assert charts, page.name
    dom = _chromium(page, "--dump-dom")
    root = re.search(r"<html[^>]*>", dom)
    assert root is not None and "data-script-errors" not in root.group(0), root
    for chart in charts:
        tag = re.search(rf'<div[^>]*id="{re.escape(chart)}"[^>]*>', dom)
        assert tag is not None, chart
        assert "js-plotly-plot" in tag.group(0), f"{chart} was not drawn"
    shot = page.with_suffix(".png")
    _chromium(page, f"--screenshot={shot}", "--hide-scrollbars")
    assert shot.stat().st_size > 10_000


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    first, second = folder / "a.jsonl", folder / "b.jsonl"
    spread = 5 * 86_400 / 400
    write_synthetic(first, SyntheticConfig(edits=400, seed=8, seconds_between_edits=spread))
    write_synthetic(
        second,
        SyntheticConfig(
            edits=400, seed=9, start=1_790_000_000 + 5 * 86_400, seconds_between_edits=spread
        ),
    )
    a, b = aggregate_paths([first]), aggregate_paths([second])
    out = {"report": folder / "report.html", "vs": folder / "vs.html"}
    out["report"].write_text(render_html(a), encoding="utf-8")
    out["vs"].write_text(render_comparison_html(a, b), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def eval_pages(tmp_path_factory) -> dict[str, Path]:
    from editengine._resources import benchmark_path

    folder = tmp_path_factory.mktemp("eval-pages")
    cases = load_cases([benchmark_path()], categories=["exact", "elision", "markdown_fence"])
    runs = [run_cases(cases, exact_only(kind="text")), run_cases(cases, full_cascade(kind="text"))]
    one, many = folder / "eval.html", folder / "compare.html"
    one.write_text(render_eval(runs[:1]), encoding="utf-8")
    many.write_text(render_eval(runs), encoding="utf-8")
    return {"eval": one, "compare": many}


@pytest.mark.parametrize("name", ["report", "vs"])
def test_report_pages_draw_offline_without_script_errors(pages, name):
    _check(pages[name])


@pytest.mark.parametrize("name", ["eval", "compare"])
def test_eval_pages_draw_offline_without_script_errors(eval_pages, name):
    _check(eval_pages[name])
