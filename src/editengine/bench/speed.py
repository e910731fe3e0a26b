"""Speed figures: ``editengine bench`` or ``python -m editengine.bench.speed``.

Cascade: per-edit time on generated files of 1,000 / 10,000 / 100,000 lines for an exact
hit, an indentation-shifted hit, a token-reformatted hit and a full-cascade miss. Every
repeat edits a fresh string, so nothing is served from a memo of the previous run.

Real code (:mod:`editengine.bench._real_code`): the bundled sources concatenated to the same
sizes, a hit, an indentation-shifted hit, typography, a typo and a miss, each with the
time of every tier that ran (the two slowest shown).

Pathological inputs (``--pathological``, :mod:`editengine.bench.pathological`): the growth curve
over 100 KB / 400 KB / 1.6 MB of the inputs that make a naive matcher quadratic.

Telemetry (``--telemetry-events N``): the time and peak memory of ``editengine report``
aggregating N synthetic events in a fresh process.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from editengine._errors import EditError
from editengine.bench._real_code import REAL_SCENARIOS, RealScenario
from editengine.bench._real_code import request as real_request
from editengine.matching._cascade import edit_text

SIZES = (1_000, 10_000, 100_000)
TARGETS_MS = {("miss", 10_000): 50.0, ("exact", 100_000): 5.0}
# Every request on 100,000 lines of real code, in process (issue 10).
REAL_TARGET_MS = 50.0


def generated_source(lines: int) -> str:
    """Python-like code: small functions with unique names, common lines in between."""
    out: list[str] = []
    index = 0
    while len(out) < lines:
        out.extend(
            [
                f"def handler_{index}(request, context):",
                f"    value = request.get('field_{index}', {index})",
                "    if value is None:",
                "        return None",
                f"    result = transform(value, scale={index % 7 + 1})",
                "    return result",
                "",
            ]
        )
        index += 1
    return "\n".join(out[:lines]) + "\n"


@dataclass(frozen=True)
class Scenario:
    name: str
    old: Callable[[int], str]
    new: Callable[[int], str]
    expect_success: bool


def _middle(lines: int) -> int:
    return (lines // 7) // 2


def _curly_stretch(lines: int) -> str:
    """A hundredth of the file from its middle, every apostrophe curly: a long quote the
    unicode tier maps back character for character."""
    source = generated_source(lines).split("\n")
    first = _middle(lines) * 7
    return "\n".join(source[first : first + max(7, lines // 100)]).replace("'", "\u2019")


SCENARIOS = (
    Scenario(
        "exact",
        lambda n: (
            f"    result = transform(value, scale={_middle(n) % 7 + 1})\n    return result\n\n"
            f"def handler_{_middle(n) + 1}(request, context):"
        ),
        lambda n: (
            f"    result = transform(value, scale=0)\n    return result\n\n"
            f"def handler_{_middle(n) + 1}(request, context):"
        ),
        True,
    ),
    Scenario(
        "indentation",
        lambda n: (
            f"value = request.get('field_{_middle(n)}', {_middle(n)})\nif value is None:\n"
            "    return None"
        ),
        lambda n: (
            f"value = request.get('field_{_middle(n)}', {_middle(n)})\nif value is None:\n"
            "    raise ValueError('missing')"
        ),
        True,
    ),
    Scenario(
        "reformatted",
        lambda n: f"value=request.get( 'field_{_middle(n)}',{_middle(n)} )",
        lambda n: f"value = request.get('field_{_middle(n)}', -1)",
        True,
    ),
    Scenario(
        "typography",
        lambda n: _curly_stretch(n),
        lambda n: _curly_stretch(n).replace("return None", "return 0", 1),
        True,
    ),
    Scenario(
        "miss",
        lambda n: "\n    return result\n    log_everything(value)\n    return None\n",
        lambda n: "\n    return result\n",
        False,
    ),
)


Clock = Callable[[], float]


def time_scenario(
    scenario: Scenario, lines: int, repeats: int, clock: Clock = time.perf_counter
) -> list[float]:
    base = generated_source(lines)
    old, new = scenario.old(lines), scenario.new(lines)
    timings: list[float] = []
    for repeat in range(repeats):
        content = f"{base}# run {repeat}\n"  # a fresh string: no memo of the last run helps
        started = clock()
        try:
            edit_text(content, old, new)
            succeeded = True
        except EditError:
            succeeded = False
        timings.append((clock() - started) * 1000)
        if succeeded != scenario.expect_success:
            raise AssertionError(f"{scenario.name} on {lines} lines: unexpected outcome")
    return timings


def run(
    sizes: Sequence[int] = SIZES, repeats: int = 7, clock: Clock = time.perf_counter
) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for scenario in SCENARIOS:
        for lines in sizes:
            timings = time_scenario(scenario, lines, repeats, clock)
            rows.append(
                {
                    "scenario": scenario.name,
                    "lines": lines,
                    "median_ms": statistics.median(timings),
                    "min_ms": min(timings),
                    "target_ms": TARGETS_MS.get((scenario.name, lines)),
                }
            )
    return rows


def time_real(
    scenario: RealScenario, lines: int, repeats: int, clock: Clock = time.perf_counter
) -> dict[str, object]:
    """Median and minimum of ``repeats`` edits, and each tier's median time."""
    content, old, new = real_request(scenario, lines)
    timings: list[float] = []
    tier_times: dict[str, list[float]] = {}
    outcome = ""
    for repeat in range(repeats):
        fresh = f"{content}# run {repeat}\n"  # a fresh string: no memo of the last run helps
        started = clock()
        try:
            result = edit_text(fresh, old, new)
            outcome, trace = result.strategy, result.trace
        except EditError as error:
            outcome, trace = error.code, getattr(error, "trace", ())
        timings.append((clock() - started) * 1000)
        for attempt in trace:
            tier_times.setdefault(attempt.tier, []).append(attempt.elapsed_ms)
    succeeded = outcome not in ("no_match", "ambiguous")
    if succeeded != scenario.expect_success or (
        scenario.strategy is not None and outcome != scenario.strategy
    ):
        raise AssertionError(f"real {scenario.name} on {lines} lines: unexpected {outcome}")
    return {
        "scenario": scenario.name,
        "lines": lines,
        "median_ms": statistics.median(timings),
        "min_ms": min(timings),
        "outcome": outcome,
        "tiers_ms": {tier: statistics.median(times) for tier, times in tier_times.items()},
    }


def run_real(
    sizes: Sequence[int] = SIZES, repeats: int = 7, clock: Clock = time.perf_counter
) -> list[dict[str, object]]:
    return [
        time_real(scenario, lines, repeats, clock) for scenario in REAL_SCENARIOS for lines in sizes
    ]


def print_real_rows(rows: list[dict[str, object]]) -> None:
    # Eighty columns: the slowest tiers go on a line of their own under each row.
    print(f"{'scenario':<13}{'lines':>9}{'median ms':>12}{'min ms':>10}{'target':>10}  outcome")
    for row in rows:
        median = float(row["median_ms"])  # type: ignore[arg-type]  # a row mixes names and numbers: this key holds a number
        lines = int(row["lines"])  # type: ignore[call-overload]  # a row mixes names and numbers: this key holds a number
        verdict = ""
        if lines == 100_000:
            verdict = f"<{REAL_TARGET_MS:g}" + (" ok" if median < REAL_TARGET_MS else " OVER")
        tiers = cast("dict[str, float]", row["tiers_ms"])
        slowest = sorted(tiers.items(), key=lambda item: -item[1])[:2]
        tier_text = ", ".join(f"{tier} {ms:.1f}" for tier, ms in slowest)
        print(
            f"{row['scenario']!s:<13}{lines:>9,}{median:>12.3f}"
            f"{float(row['min_ms']):>10.3f}{verdict:>10}  {row['outcome']!s}"  # type: ignore[arg-type]  # a row mixes names and numbers: this key holds a number
        )
        if tier_text:
            print(f"{'':13}slowest tiers: {tier_text}")


def print_rows(rows: list[dict[str, object]]) -> None:
    print(f"{'scenario':<13}{'lines':>9}{'median ms':>12}{'min ms':>10}{'target':>10}  growth")
    previous: dict[str, float] = {}
    for row in rows:
        name = str(row["scenario"])
        median = float(row["median_ms"])  # type: ignore[arg-type]  # a row mixes names and numbers: this key holds a number
        target = row["target_ms"]
        verdict = (
            ""
            if not isinstance(target, (int, float))
            else f"<{target:g}" + (" ok" if median < target else " OVER")
        )
        growth = f"x{median / previous[name]:.1f}" if previous.get(name) else ""
        previous[name] = median
        print(
            f"{name:<13}{row['lines']:>9,}{median:>12.3f}{float(row['min_ms']):>10.3f}"  # type: ignore[arg-type]  # a row mixes names and numbers: this key holds a number
            f"{verdict:>10}  {growth}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="editengine bench", description=__doc__)
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeats", type=int, default=7, help="edits per figure (median shown)")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES), help="file sizes in lines"
    )
    parser.add_argument(
        "--telemetry-events",
        type=int,
        default=0,
        metavar="N",
        help="also time the report over N synthetic telemetry events (1000000 for the target)",
    )
    parser.add_argument("--skip-cascade", action="store_true", help="only the telemetry figure")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time each edit in CPU time of this process, not wall-clock time (steadier "
        "on a loaded machine; per-tier times stay wall-clock)",
    )
    parser.add_argument(
        "--skip-real", action="store_true", help="leave out the real-code scenarios"
    )
    parser.add_argument(
        "--pathological",
        action="store_true",
        help="print the growth curve of the pathological inputs (100 KB / 400 KB / 1.6 MB, "
        "each case in a fresh process) instead of the cascade figures",
    )


def run_from_args(args: argparse.Namespace) -> int:
    if args.pathological:
        from editengine.bench import pathological

        print("Pathological inputs (seconds per edit, each in a fresh process)")
        return pathological.print_curve(
            [case.name for case in pathological.CASES], pathological.SIZES, timeout=30.0
        )
    if not args.skip_cascade:
        print("Cascade speed on generated code (per edit, fresh content each run)")
        clock = time.process_time if args.cpu_time else time.perf_counter
        print_rows(run(args.sizes, args.repeats, clock))
        if not args.skip_real:
            print("\nCascade speed on real code (the bundled sources concatenated)")
            print_real_rows(run_real(args.sizes, args.repeats, clock))
    if args.telemetry_events > 0:
        from editengine.bench.telemetry import run_report_benchmark

        figures = run_report_benchmark(args.telemetry_events)
        print(
            f"\nTelemetry report over {figures['events']:,} events "
            f"({figures['file_mib']:.0f} MiB, {figures['json_backend']}):\n"
            f"  {figures['wall_seconds']:.2f} s, {figures['events_per_second']:,.0f} events/s, "
            f"peak RSS {figures['peak_rss_mib']:.1f} MiB (targets: < 10 s, < 256 MiB)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
