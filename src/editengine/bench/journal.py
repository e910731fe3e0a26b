"""What the undo journal costs: ``python -m editengine.bench.journal``.

Per-edit time of ``EditEngine.edit`` on real files of 1,000 / 10,000 / 100,000 lines with
no journal and with one, the time of a one-step ``undo``, and the journal bytes per edit.
Every write is fsynced (file and journal), so the figures depend mostly on the disk.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from editengine.bench.speed import generated_source
from editengine.engine import EditEngine
from editengine.journal import Journal

SIZES = (1_000, 10_000, 100_000)


def measure(base: Path, lines: int, *, journal: bool, edits: int) -> dict[str, float]:
    root = base / f"ws-{lines}-{'journal' if journal else 'none'}"
    root.mkdir()
    text = generated_source(lines)
    (root / "f.py").write_text(text, encoding="utf-8")
    kept = Journal(root, directory=base / "journal") if journal else False
    engine = EditEngine(root, journal=kept, lock_dir=base / "locks")
    functions = text.count("def handler_")
    times = []
    for n in range(edits):
        index = (n * 7919) % functions
        old = f"def handler_{index}(request, context):"
        started = time.perf_counter()
        engine.edit("f.py", old, f"def handler_{index}(request, context, n={n}):")
        times.append(time.perf_counter() - started)
    figures = {"edit_ms": statistics.median(times) * 1000}
    if isinstance(kept, Journal):
        undos = []
        for _ in range(min(10, edits)):
            started = time.perf_counter()
            engine.undo()
            undos.append(time.perf_counter() - started)
        figures["undo_ms"] = statistics.median(undos) * 1000
        figures["bytes_per_edit"] = kept.path.stat().st_size / (edits + len(undos))
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m editengine.bench.journal")
    parser.add_argument("--edits", type=int, default=30, help="edits per size (30)")
    parser.add_argument("--dir", help="where to make the files (default: a temp folder)")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES), help="file sizes in lines"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        base = Path(scratch)
        print("| file | edit, no journal | edit, journal | undo, 1 step | journal bytes/entry |")
        print("|---|---|---|---|---|")
        for lines in args.sizes:
            plain = measure(base, lines, journal=False, edits=args.edits)
            kept = measure(base, lines, journal=True, edits=args.edits)
            print(
                f"| {lines:,} lines | {plain['edit_ms']:.1f} ms | {kept['edit_ms']:.1f} ms | "
                f"{kept['undo_ms']:.1f} ms | {kept['bytes_per_edit']:.0f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
