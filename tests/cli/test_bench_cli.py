"""`editengine bench` prints a figure for every scenario and size (never a timed assertion)."""

from __future__ import annotations

from editengine.cli import main


def test_bench_prints_every_scenario_and_size(capsys):
    assert main(["bench", "--sizes", "300", "700", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line[:1].isalpha() and "ms" not in line]
    scenarios = {row[0] for row in rows if len(row) >= 3}
    assert {"exact", "indentation", "reformatted", "typography", "miss"} <= scenarios
    assert "700" in out and "300" in out


def test_bench_prints_real_code_scenarios_with_their_tiers(capsys):
    assert main(["bench", "--sizes", "400", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    real = out.split("real code", 1)[1]
    rows = {line.split()[0]: line for line in real.splitlines()[2:] if line.strip()}
    assert {"hit", "indentation", "typography", "typo", "miss"} <= set(rows)
    assert "exact" in rows["hit"] and "block_anchor" in rows["typo"]
    assert "no_match" in rows["miss"] and "unicode_punctuation" in rows["typography"]
    assert "line_number_prefix+exact" in rows["numbered"]
