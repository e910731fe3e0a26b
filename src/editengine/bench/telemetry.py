"""How fast and how lean the report is: a million synthetic events, aggregated in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from editengine.telemetry._synthetic import SyntheticConfig, write_synthetic

# Events per synthetic edit with the default mix (started + tiers + fixer + finished).
_EVENTS_PER_EDIT = 4.6

_CHILD = """
import json, resource, sys, time
from editengine.telemetry._report import JSON_BACKEND, aggregate_paths
started = time.perf_counter()
report = aggregate_paths(sys.argv[1:])
wall = time.perf_counter() - started
peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"wall_seconds": wall, "events": report["input"]["events"],
                  "edits": report["edits"]["finished"], "peak_rss_mib": peak_kib / 1024,
                  "json_backend": JSON_BACKEND}))
"""


def run_report_benchmark(
    events: int = 1_000_000,
    *,
    seed: int = 0,
    workdir: str | os.PathLike[str] | None = None,
    python: str | None = None,
) -> dict[str, Any]:
    """Generate about ``events`` synthetic events, aggregate them in a fresh process.

    Returns ``events``, ``wall_seconds`` and ``events_per_second`` of the aggregation alone,
    ``peak_rss_mib`` of that process (``getrusage``; includes the interpreter, ~15 MiB),
    ``json_backend``, ``file_mib`` and ``generate_seconds``. ``python`` picks the
    interpreter for the aggregation (default: this one), e.g. one with orjson installed.
    """
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        path = Path(tmp) / "telemetry.jsonl"
        edits = max(1, round(events / _EVENTS_PER_EDIT))
        started = time.perf_counter()
        truth = write_synthetic(path, SyntheticConfig(edits=edits, seed=seed), keep_values=False)
        generate_seconds = time.perf_counter() - started
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        child = subprocess.run(
            [python or sys.executable, "-c", _CHILD, str(path)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        measured = json.loads(child.stdout)
        if measured["events"] != truth.events:
            raise RuntimeError(
                f"the report counted {measured['events']} events, {truth.events} were written"
            )
        return {
            **measured,
            "events_per_second": measured["events"] / measured["wall_seconds"],
            "file_mib": path.stat().st_size / 2**20,
            "generate_seconds": generate_seconds,
        }


def main(argv: list[str] | None = None) -> int:
    """``python -m editengine.bench.telemetry [EVENTS]``: the figures as JSON."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m editengine.bench.telemetry",
        description="Write about EVENTS synthetic telemetry events to a temporary file, "
        "aggregate them in a fresh process and print the figures as JSON (wall seconds, "
        "events per second, peak RSS).",
        epilog="example: python -m editengine.bench.telemetry 100000",
    )
    parser.add_argument(
        "events", nargs="?", type=int, default=1_000_000, help="events (default 1000000)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic events")
    args = parser.parse_args(argv)
    if args.events < 1:
        parser.error(f"EVENTS must be at least 1, got {args.events}")
    try:
        print(json.dumps(run_report_benchmark(args.events, seed=args.seed), indent=2))
    except KeyboardInterrupt:
        print("error[interrupted]: stopped by Ctrl-C (SIGINT).", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
