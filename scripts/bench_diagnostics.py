"""What the syntax check and the guard cost: per-edit time on generated files of 1,000 / 10,000 /
100,000 lines, with the guard off and on, through ``edit_text`` (pure) and ``EditEngine`` (real
files). Prints figures; it is not a test.

    python scripts/bench_diagnostics.py [--repeats N] [--sizes 10000,100000]

Targets (docs/diagnostics.md): at 10,000 lines the guard adds at most 2x + 10 ms to an edit;
at 100,000 lines a fuzzy miss stays within 4x the exact-only floor.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from editengine import EditEngine, edit_text
from editengine._errors import EditError
from editengine.bench.speed import generated_source


def _median_ms(run: Callable[[], object], repeats: int) -> float:
    with contextlib.suppress(EditError):
        run()  # warm up: grammars load on first use
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        with contextlib.suppress(EditError):
            run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _requests(lines: int) -> dict[str, tuple[str, str, str]]:
    """name -> (old, new, match_mode): an exact hit, a re-indented hit (line_trimmed), a
    re-indented hit that breaks the syntax (refused), and a fuzzy miss."""
    middle = (lines // 7) // 2
    first = f"def handler_{middle}(request, context):\n"
    body = f"    value = request.get('field_{middle}', {middle})\n    if value is None:\n"
    shifted = body.replace("    ", "  ")
    return {
        "exact hit": (first, first.replace("context", "ctx"), "auto"),
        "fuzzy hit": (shifted, shifted.replace("is None", "is None or value == 0"), "auto"),
        "fuzzy break": (shifted, shifted.replace("is None:", "is (None:"), "auto"),
        "fuzzy miss": (
            "    value = request.get('no_such_field', None)\n    if value is None:\n",
            "    value = 1\n",
            "auto",
        ),
        "exact-only miss": (
            "    value = request.get('no_such_field', None)\n    if value is None:\n",
            "    value = 1\n",
            "exact",
        ),
    }


def outcomes(lines: int) -> dict[str, str]:
    """What each request does with the guard on: the tier that placed it, or the error."""
    content = generated_source(lines)
    found = {}
    for name, (old, new, mode) in _requests(lines).items():
        try:
            found[name] = edit_text(content, old, new, match_mode=mode, path="gen.py").strategy
        except EditError as error:
            found[name] = error.code
    return found


def bench_text(lines: int, repeats: int) -> list[tuple[str, float, float]]:
    content = generated_source(lines)
    rows = []
    for name, (old, new, mode) in _requests(lines).items():

        def run(guard: str, old: str = old, new: str = new, mode: str = mode) -> object:
            return edit_text(content, old, new, match_mode=mode, path="gen.py", syntax_guard=guard)

        off = _median_ms(lambda run=run: run("off"), repeats)
        on = _median_ms(lambda run=run: run("refuse"), repeats)
        rows.append((name, off, on))
    return rows


def bench_engine(lines: int, repeats: int) -> list[tuple[str, float, float]]:
    content = generated_source(lines)
    rows = []
    with tempfile.TemporaryDirectory() as root:
        path = Path(root) / "gen.py"
        engines = {
            guard: EditEngine(root, journal=False, syntax_guard=guard)
            for guard in ("off", "refuse")
        }
        for name, (old, new, mode) in _requests(lines).items():
            figures = []
            for guard in ("off", "refuse"):
                engine = engines[guard]

                def run(
                    engine: EditEngine = engine, old: str = old, new: str = new, mode: str = mode
                ) -> object:
                    path.write_text(content)
                    return engine.edit("gen.py", old, new, match_mode=mode)

                figures.append(_median_ms(run, repeats))
            rows.append((name, figures[0], figures[1]))
        for engine in engines.values():
            engine.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000,100000")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print("requests, guard on:", outcomes(sizes[0]))
    for label, bench in (("edit_text", bench_text), ("EditEngine.edit", bench_engine)):
        print(f"\n{label}: median ms per edit, guard off -> guard on (refuse)")
        print(f"{'lines':>8}  {'request':<16} {'off':>9} {'on':>9} {'added':>8}  2x+10ms?")
        for lines in sizes:
            rows = bench(lines, args.repeats)
            floor = dict((name, off) for name, off, _ in rows)["exact hit"]
            for name, off, on in rows:
                within = "yes" if on <= 2 * off + 10 else "NO"
                print(f"{lines:>8,}  {name:<16} {off:>9.2f} {on:>9.2f} {on - off:>8.2f}  {within}")
            miss = dict((name, on) for name, _, on in rows)["fuzzy miss"]
            print(
                f"{lines:>8,}  fuzzy miss with the guard / exact hit without it (the exact-only "
                f"floor): {miss / floor:.1f}x"
            )


if __name__ == "__main__":
    main()
