"""Speed of a big patch: ``python -m editengine.bench.patch``.

Builds a 20-file workspace (generated Python, ``--lines`` lines per file) and one patch of
100 hunks (5 per file, each with 3 lines of context) in each format, then times
:func:`editengine.apply_patch` (pure, in memory) and ``EditEngine.apply_patch`` (parse,
match, write 20 files atomically under their locks), plus a variant whose hunks quote the
code with the wrong indentation so that every hunk goes past the exact tier. Prints the
median and the worst of ``--repeat`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from editengine.bench.speed import generated_source
from editengine.engine import EditEngine
from editengine.patch import apply_patch
from editengine.patch._model import FORMATS

FILES = 20
HUNKS_PER_FILE = 5


def workspace_files(lines: int) -> dict[str, str]:
    source = generated_source(lines)
    return {
        f"pkg/module_{n:02d}.py": source.replace("handler_", f"m{n}_handler_") for n in range(FILES)
    }


def _hunks(content: str, shift: str) -> list[tuple[list[str], list[str]]]:
    """(before lines, after lines) of 5 hunks spread over the file."""
    lines = content.splitlines()
    step = len(lines) // (HUNKS_PER_FILE + 1)
    out = []
    for k in range(1, HUNKS_PER_FILE + 1):
        at = k * step
        while not lines[at].strip().startswith("result = transform"):
            at += 1
        before = [shift + line if shift else line for line in lines[at - 3 : at + 4]]
        after = list(before)
        after[3] = after[3].replace("result = transform", "result = transform_v2")
        out.append((before, after))
    return out


def build_patch(files: dict[str, str], format: str, *, shift: str = "") -> str:
    parts: list[str] = []
    for path, content in files.items():
        hunks = _hunks(content, shift)
        if format == "search_replace":
            for before, after in hunks:
                parts.append(
                    f"{path}\n<<<<<<< SEARCH\n" + "".join(x + "\n" for x in before)
                    + "=======\n" + "".join(x + "\n" for x in after) + ">>>>>>> REPLACE\n"
                )  # fmt: skip
            continue
        body = "".join(
            "@@\n"
            + "".join(
                (" " + b + "\n") if b == a else f"-{b}\n+{a}\n"
                for b, a in zip(before, after, strict=True)
            )
            for before, after in hunks
        )
        if format == "udiff":
            parts.append(f"--- a/{path}\n+++ b/{path}\n{body}")
        else:
            parts.append(f"*** Update File: {path}\n{body}")
    if format == "apply_patch":
        return "*** Begin Patch\n" + "".join(parts) + "*** End Patch\n"
    return "".join(parts)


def _time(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), max(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000, help="lines per file (default 1000)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    files = workspace_files(args.lines)
    print(
        f"{FILES} files x {args.lines} lines, {FILES * HUNKS_PER_FILE} hunks "
        f"(median / worst of {args.repeat}, ms)"
    )
    print(f"{'format':<16}{'hunks':<12}{'pure':>16}{'engine (writes)':>22}")
    for format in FORMATS:
        for label, shift in (("exact", ""), ("re-indented", "  ")):
            text = build_patch(files, format, shift=shift)
            result = apply_patch(files, text, format=format)
            assert len(result.hunks) == FILES * HUNKS_PER_FILE

            def in_memory(text: str = text, format: str = format) -> None:
                apply_patch(files, text, format=format)

            pure = _time(in_memory, args.repeat)
            with tempfile.TemporaryDirectory() as temp:
                root = Path(temp) / "ws"
                _seed(root, files)
                engine = EditEngine(root, lock_dir=Path(temp) / "l")

                def on_disk(
                    text: str = text,
                    root: Path = root,
                    engine: EditEngine = engine,
                    format: str = format,
                ) -> None:
                    _seed(root, files)
                    engine.apply_patch(text, format=format)

                disk = _time(on_disk, args.repeat)
            print(
                f"{format:<16}{label:<12}{pure[0]:>8.1f} / {pure[1]:<6.1f}"
                f"{disk[0]:>12.1f} / {disk[1]:<6.1f}"
            )
    return 0


def _seed(root: Path, files: dict[str, str]) -> None:
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
