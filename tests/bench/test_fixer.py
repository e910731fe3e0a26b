"""The figures script runs and reports what the fixer promises (one call, within budget)."""

from __future__ import annotations

from editengine.bench import fixer as figures


def test_the_figures_script_prints_its_tables(capsys):
    figures.prompt_figures()
    figures.flight_figures(callers=5)

    out = capsys.readouterr().out
    assert "Prompt budget for gpt-4.1-mini: 80,000 bytes" in out
    rows = [line for line in out.splitlines() if line.startswith(("20,000", "310", "1 line"))]
    assert len(rows) == 3
    assert all(int(row.split()[-5].replace(",", "")) <= 80_000 for row in rows)
    assert "5 threads -> 1 call(s); 5 tasks -> 1" in out
