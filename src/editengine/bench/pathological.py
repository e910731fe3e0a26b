"""Pathological inputs: shapes of file and quote that make a naive matcher quadratic.

``editengine bench --pathological`` (or ``python -m editengine.bench.pathological``) times each
case at 100 KB / 400 KB / 1.6 MB and prints the growth curve: a near-linear case grows
about x4 per step. Every case also states its right outcome (a strategy, or an error
code); a case whose outcome is wrong is reported as such, whatever its time.

Each case builds ``(content, old_string, new_string)`` of about ``size`` characters of file.

Why one long module: each pathological shape is a small generator beside its bound and its
check; the table of them is read as one list of what must stay linear.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from editengine._errors import EditError, FileNotFound
from editengine.matching._cascade import edit_text

SIZES = (100_000, 400_000, 1_600_000)
# The bound every case must keep at 400 KB (issue 15): an edit holds the file's lock.
LIMIT_SECONDS_AT_400KB = 2.0


@dataclass(frozen=True)
class Case:
    """One pathological input: how to build it, and what the right answer is."""

    name: str
    build: Callable[[int], tuple[str, str, str]]
    expect: str  # a strategy on success, or an EditError code
    about: str
    kwargs: dict[str, object] = field(default_factory=dict)
    # The result the edit must produce on success, from the built input (None: not checked).
    expected_content: Callable[[int], str] | None = None
    # Cases that are not one edit_text call: set up (untimed), then a timed call that
    # answers ``(outcome, right)``.
    prepare: Callable[[int], Callable[[], tuple[str, bool]]] | None = None


def _repeat_to(size: int, unit: str) -> str:
    return unit * max(1, size // len(unit))


def identical_lines(size: int) -> tuple[str, str, str]:
    """Thousands of identical lines; the quote, indented 2 columns short, fits everywhere."""
    content = _repeat_to(size, "    total = total + compute(item)\n")
    old = "  total = total + compute(item)\n  total = total + compute(item)\n"
    return content, old, old.replace("compute", "measure")


def _numbered_block(index: int, depth: str) -> list[str]:
    return [
        f"{depth}def step_{index}(state):",
        f"{depth}    state.advance({index})",
        f"{depth}    return state",
    ]


def elision_other_depth(size: int) -> tuple[str, str, str]:
    """The quoted lines stand at one depth for the first segment and at another for the
    last everywhere in the file: no place holds both at one depth."""
    lines: list[str] = []
    total = 0
    index = 0
    while total < size:
        block = ["def setup(state):", "    state.reset()", "    begin(state)", ""]
        block += ["    def teardown(state):", "        finish(state)", ""]
        lines.extend(block)
        total += sum(len(line) + 1 for line in block)
        index += 1
    content = "\n".join(lines) + "\n"
    old = "\n".join(
        [
            "def setup(state):",
            "    state.reset()",
            "    # ...",
            "def teardown(state):",
            "    finish(state)",
            "",
        ]
    )
    new = old.replace("finish(state)", "finish(state, quietly=True)")
    return content, old, new


def _marker_lines(size: int) -> list[str]:
    lines: list[str] = []
    total = 0
    index = 0
    while total < size:
        line = f"    result_{index} = compute_{index}(payload, index={index})"
        lines.append(line)
        total += len(line) + 1
        index += 1
    return lines


def many_markers(size: int) -> tuple[str, str, str]:
    """old_string keeps every other line of the file and elides the rest: one marker per
    skipped line, thousands of segments."""
    lines = _marker_lines(size)
    content = "def run(payload):\n" + "\n".join(lines) + "\n"
    quoted = ["def run(payload):"]
    for index, line in enumerate(lines):
        quoted.append(line if index % 2 == 0 else "    # ...")
    if len(lines) % 2 == 0:
        quoted.append(lines[-1])  # end on a real line
    old = "\n".join(quoted) + "\n"
    new = old.replace("def run(payload):", "def run(payload, strict=False):", 1)
    return content, old, new


def many_markers_result(size: int) -> str:
    content, _, _ = many_markers(size)
    return content.replace("def run(payload):", "def run(payload, strict=False):", 1)


def nested_brackets(size: int) -> tuple[str, str, str]:
    """One expression nested thousands of brackets deep; the quote, respaced, is its core."""
    depth = max(60, size // 3)
    content = "value = " + "f(" * depth + "x" + ")" * depth + "\n"
    core = "f(" * 50 + "x" + ")" * 50
    old = " ".join(core)  # every token respaced: only the whitespace tier reads it
    return content, old, old.replace("x", "y")


def nested_brackets_lines(size: int) -> tuple[str, str, str]:
    """Brackets nested over many lines, each line one level deeper; a respaced,
    indent-shifted quote of the innermost lines."""
    lines: list[str] = []
    total = 0
    depth = 0
    while total < size // 2:
        line = "  " * depth + "["
        lines.append(line)
        total += len(line) + 1
        depth += 1
    lines.append("  " * depth + "core_value")
    closing = ["  " * level + "]" for level in range(depth - 1, -1, -1)]
    content = "\n".join(lines + closing) + "\n"
    old = "[\n[\ncore_value\n]\n]"
    return content, old, old.replace("core_value", "other_value")


def long_shifted_quote(size: int) -> tuple[str, str, str]:
    """A 5,000-line quote indented two columns short, new_string rewriting lines all
    through it and dropping some: each new line is paired with an old one."""
    body: list[str] = []
    total = 0
    index = 0
    while total < size:
        block = [
            f"    def handler_{index}(self, request):",
            f"        value = request.get('field_{index}')",
            "",
            "        if value is None:",
            "            return None",
            f"        return transform(value, scale={index % 7 + 1})",
            "",
        ]
        body.extend(block)
        total += sum(len(line) + 1 for line in block)
        index += 1
    content = "class Service:\n" + "\n".join(body) + "\n"
    start = max(0, len(body) // 2 - 2_500)
    quoted = body[start : start + 5_000]
    old = "\n".join(line[2:] if line.startswith("  ") else line for line in quoted)
    new_lines = []
    for number, line in enumerate(old.split("\n")):
        if "scale=" in line and number % 3 == 0:
            continue  # dropped
        new_lines.append(line.replace("return None", "return default"))
    return content, old, "\n".join(new_lines)


def long_shifted_quote_result(size: int) -> str:
    content, _, _ = long_shifted_quote(size)
    lines = content.split("\n")
    first = 1 + max(0, (len(lines) - 2) // 2 - 2_500)
    out = lines[:first]
    for number, line in enumerate(lines[first : first + 5_000]):
        if "scale=" in line and number % 3 == 0:
            continue
        out.append(line.replace("return None", "return default"))
    return "\n".join(out + lines[first + 5_000 :])


def whitespace_repeated_token(size: int) -> tuple[str, str, str]:
    """``"a " * N`` and a respaced 200-token quote (the whitespace tier's own case)."""
    content = _repeat_to(size, "a ")
    old = "  ".join(["a"] * 200)
    return content, old, old.replace("a", "b", 1)


def whitespace_repeated_lines(size: int) -> tuple[str, str, str]:
    """``"a\\n" * N`` and a one-line 200-token quote (the whitespace tier's own case)."""
    content = _repeat_to(size, "a\n")
    old = " ".join(["a"] * 200)
    return content, old, old.replace("a", "b", 1)


def elision_repeated_lines(size: int) -> tuple[str, str, str]:
    """``"a\\n" * N`` and an elided quote of three ``a`` lines: a place at every line."""
    content = _repeat_to(size, "a\n")
    return content, "a\n...\na\n...\na", "b\n...\nb\n...\nb"


def elision_repeated_segments(size: int) -> tuple[str, str, str]:
    """``"a\\n" * N`` and a quote of fifty ``a`` lines between markers: every segment has
    a place at every line."""
    content = _repeat_to(size, "a\n")
    return content, "a\n...\n" * 50 + "a", "b\n...\n" * 50 + "b"


def path_suggestion(size: int) -> Callable[[], tuple[str, bool]]:
    """A 2,000-character wrong path in a workspace of ``size / 20`` files (20,000 at 400 KB;
    the walk stops at 20,000): the did-you-mean must still name the same-name file."""
    from editengine.engine import EditEngine

    # In memory where the system has it: creating 20,000 files on a loaded disk takes
    # longer than anything measured here.
    in_memory = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    root = Path(tempfile.mkdtemp(prefix="editengine-paths-", dir=in_memory))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    files = max(10, min(size // 20, 80_000))
    for folder in range(0, files, 500):
        directory = root / f"pkg_{folder // 500:03d}"
        directory.mkdir()
        for index in range(folder, min(folder + 500, files)):
            os.close(os.open(directory / f"module_{index}.py", os.O_CREAT | os.O_WRONLY, 0o644))
    missing = "src/" + "deeper/" * 284 + "module_7.py"  # 2,003 characters
    engine = EditEngine(root)

    def run() -> tuple[str, bool]:
        try:
            engine.edit(missing, "x = 1", "x = 2")
        except FileNotFound as error:
            return error.code, error.suggestions[:1] == ("pkg_000/module_7.py",)
        except EditError as error:
            return error.code, False
        return "edited", False

    return run


CASES: tuple[Case, ...] = (
    Case(
        "identical_lines",
        identical_lines,
        "ambiguous",
        "identical lines, an indent-shifted quote: ambiguous",
    ),
    Case(
        "elision_other_depth",
        elision_other_depth,
        "no_match",
        "elision, the same lines at another depth",
    ),
    Case(
        "many_markers",
        many_markers,
        "elision",
        "an elided quote with one marker per skipped line",
        expected_content=many_markers_result,
    ),
    Case(
        "nested_brackets",
        nested_brackets,
        "whitespace",
        "one line of nested calls, a respaced quote of its core",
    ),
    Case(
        "nested_brackets_lines",
        nested_brackets_lines,
        "line_trimmed",
        "brackets nested over many lines, a respaced quote",
    ),
    Case(
        "long_shifted_quote",
        long_shifted_quote,
        "line_trimmed",
        "a 5,000-line quote indented two columns short",
        expected_content=long_shifted_quote_result,
    ),
    Case(
        "path_suggestion",
        lambda size: ("", "", ""),
        "file_not_found",
        "did-you-mean for a 2,000-character wrong path, 20,000 files",
        prepare=path_suggestion,
    ),
    Case(
        "whitespace_repeated_token",
        whitespace_repeated_token,
        "ambiguous",
        "'a ' * N, a respaced 200-token quote",
    ),
    Case(
        "elision_repeated_lines",
        elision_repeated_lines,
        "ambiguous",
        "'a\\n' * N, an elided quote of three 'a' lines",
    ),
    Case(
        "elision_repeated_segments",
        elision_repeated_segments,
        "ambiguous",
        "'a\\n' * N, fifty 'a' lines between elision markers",
    ),
    Case(
        "whitespace_repeated_lines",
        whitespace_repeated_lines,
        "ambiguous",
        "'a\\n' * N, a 200-token quote on one line",
    ),
)


def case_named(name: str) -> Case:
    for case in CASES:
        if case.name == name:
            return case
    raise KeyError(f"no pathological case {name!r}; cases: {', '.join(c.name for c in CASES)}")


def run_case(case: Case, size: int) -> dict[str, object]:
    """Build and time one case in this process: ``{outcome, right, seconds}``."""
    if case.prepare is not None:
        timed = case.prepare(size)
        started = time.perf_counter()
        outcome, right = timed()
        seconds = time.perf_counter() - started
        return {
            "case": case.name,
            "size": size,
            "outcome": outcome,
            "expected": case.expect,
            "right": right and outcome == case.expect,
            "seconds": seconds,
        }
    content, old, new = case.build(size)
    started = time.perf_counter()
    try:
        result = edit_text(content, old, new, **case.kwargs)  # type: ignore[arg-type]  # a case's kwargs are edit_text's keyword arguments
        outcome = result.strategy
        right = outcome == case.expect
        if right and case.expected_content is not None:
            right = result.new_content == case.expected_content(size)
    except EditError as error:
        outcome = error.code
        right = outcome == case.expect
    seconds = time.perf_counter() - started
    return {
        "case": case.name,
        "size": len(content),
        "outcome": outcome,
        "expected": case.expect,
        "right": right,
        "seconds": seconds,
    }


def run_in_subprocess(name: str, size: int, timeout: float) -> dict[str, object]:
    """One case in a fresh interpreter, killed after ``timeout`` seconds (a hang guard)."""
    completed = subprocess.run(
        [sys.executable, "-m", "editengine.bench.pathological", "--one", name, str(size)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{name} at {size}: exit {completed.returncode}\n{completed.stderr}")
    figures: dict[str, object] = json.loads(completed.stdout.strip().splitlines()[-1])
    return figures


def print_curve(names: Sequence[str], sizes: Sequence[int], timeout: float) -> int:
    """Each case in a fresh process per size; prints seconds and growth. Exit 1 if any
    outcome is wrong or a case exceeds the 400 KB bound."""
    # Eighty columns: the outcome goes on a line of its own under each row.
    header = "".join(f"{_size_label(size):>11}" for size in sizes)
    print(f"{'case':<26}{header}  growth")
    failed = False
    for name in names:
        cells: list[str] = []
        times: list[float] = []
        outcomes: set[str] = set()
        for size in sizes:
            try:
                figures = run_in_subprocess(name, size, timeout)
            except subprocess.TimeoutExpired:
                cells.append(f">{timeout:g} s")
                failed = True
                continue
            seconds = float(figures["seconds"])  # type: ignore[arg-type]  # the child process wrote a number here
            times.append(seconds)
            mark = "" if figures["right"] else " WRONG"
            failed = failed or not figures["right"]
            if size == 400_000 and seconds > LIMIT_SECONDS_AT_400KB:
                mark += " SLOW"
                failed = True
            cells.append(f"{seconds:.3f} s{mark}")
            outcomes.add(str(figures["outcome"]))
        growth = " ".join(f"x{b / a:.1f}" for a, b in pairwise(times) if a > 0)
        row = "".join(f"{cell:>11}" for cell in cells)
        print(f"{name:<26}{row}  {growth}")
        print(f"{'':4}outcome: {', '.join(sorted(outcomes))}")
    return 1 if failed else 0


def _size_label(size: int) -> str:
    return f"{size / 1_000_000:g} MB" if size >= 1_000_000 else f"{size // 1_000} KB"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cases", nargs="+", default=[case.name for case in CASES], help="cases to run"
    )
    parser.add_argument(
        "--bytes", type=int, nargs="+", default=list(SIZES), help="file sizes in characters"
    )
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds before a case counts as hung"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m editengine.bench.pathological", description=__doc__
    )
    add_arguments(parser)
    parser.add_argument("--one", nargs=2, metavar=("CASE", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        name, size = args.one
        print(json.dumps(run_case(case_named(name), int(size))))
        return 0
    return print_curve(args.cases, args.bytes, args.timeout)


if __name__ == "__main__":
    raise SystemExit(main())
