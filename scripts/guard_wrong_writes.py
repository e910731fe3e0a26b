"""How many wrong writes the syntax guard turns into refusals, and how many right ones it would
refuse. Prints figures; it is not a test.

    python scripts/guard_wrong_writes.py [DATASET ...]   (default: the bundled benchmark)

Every case whose expected file differs from its original, in a language with a grammar, gives
the right write (the expected file) and, from it, the wrong writes that forgiving matchers are
known to make (docs/diagnostics.md): the written lines' indentation doubled, a Makefile recipe's
tab turned into spaces, a read tool's line numbers or a Markdown fence written into the file,
escapes in new_string decoded (``\\n`` becoming a line break), and the new text written one
line off, over the line after the one meant. Each is judged as the guard judges a forgiving
placement.
"""

from __future__ import annotations

import argparse
import collections
import re
from collections.abc import Callable
from pathlib import Path

from editengine._resources import benchmark_path
from editengine.diagnostics import check_syntax, language_of
from editengine.diagnostics._guard import deletes_lines_only
from editengine.evaluation._dataset import load_cases


def refused(before: str, written: str, path: str | None) -> bool:
    """What the guard does with a forgiving placement that writes ``written``."""
    return check_syntax(before, written, path).broke and not deletes_lines_only(before, written)


def _changed_lines(before: str, after: str) -> tuple[int, int, int] | None:
    """(first changed line, end in before, end in after): whole lines, 0-based, exclusive."""
    old, new = before.split("\n"), after.split("\n")
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    tail = 0
    while (
        tail < min(len(old), len(new)) - start
        and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]
    ):
        tail += 1
    if start == len(new) - tail:
        return None  # a deletion only: no text written to mangle
    return start, len(old) - tail, len(new) - tail


def _rewrite(
    after: str, span: tuple[int, int, int], change: Callable[[list[str]], list[str]]
) -> str:
    lines = after.split("\n")
    start, _, end = span
    return "\n".join(lines[:start] + change(lines[start:end]) + lines[end:])


def doubled_indentation(lines: list[str]) -> list[str]:
    return [re.sub(r"^([ \t]+)", r"\1\1", line) for line in lines]


def tab_to_spaces(lines: list[str]) -> list[str]:
    return [("    " + line[1:]) if line.startswith("\t") else line for line in lines]


def line_numbers(lines: list[str]) -> list[str]:
    return [f"{number:>6}\t{line}" for number, line in enumerate(lines, 1)]


def fence(lines: list[str]) -> list[str]:
    return ["```", *lines, "```"]


def decoded_escapes(lines: list[str]) -> list[str]:
    return "\n".join(lines).replace("\\n", "\n").replace('\\"', '"').split("\n")


MANGLES: dict[str, Callable[[list[str]], list[str]]] = {
    "doubled indentation": doubled_indentation,
    "tab lost": tab_to_spaces,
    "line numbers written": line_numbers,
    "fence written": fence,
    "escapes decoded": decoded_escapes,
}


def one_line_off(before: str, after: str, span: tuple[int, int, int]) -> str | None:
    """The new lines written over the lines one further down than the ones meant."""
    old, new = before.split("\n"), after.split("\n")
    start, old_end, new_end = span
    if old_end + 1 > len(old):
        return None
    return "\n".join(old[: start + 1] + new[start:new_end] + old[old_end + 1 :])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", type=Path)
    parser.add_argument("--by-language", action="store_true", help="a row per language too")
    args = parser.parse_args()
    cases = load_cases(args.datasets or [benchmark_path()])
    wrong: collections.Counter[str] = collections.Counter()
    caught: collections.Counter[str] = collections.Counter()
    right = refused_right = no_grammar = 0
    seen: set[tuple[str, str]] = set()
    by_language: collections.Counter[str] = collections.Counter()
    caught_by_language: collections.Counter[str] = collections.Counter()
    for case in cases:
        expected = case.expected_content
        if expected is None or expected == case.content or case.expect != "success":
            continue
        if language_of(case.file_name) is None:
            no_grammar += 1
            continue
        if (case.content, expected) in seen:
            continue  # the same change reached by several mistakes: judged once
        seen.add((case.content, expected))
        right += 1
        if refused(case.content, expected, case.file_name):
            refused_right += 1
        span = _changed_lines(case.content, expected)
        if span is None:
            continue
        variants = {name: _rewrite(expected, span, mangle) for name, mangle in MANGLES.items()}
        off = one_line_off(case.content, expected, span)
        if off is not None:
            variants["one line off"] = off
        for name, written in variants.items():
            if written in (expected, case.content):
                continue  # this mistake changes nothing here: not a wrong write
            language = language_of(case.file_name)
            kind = f"{name} ({language.name if language else '?'})"
            wrong[name] += 1
            by_language[kind] += 1
            if refused(case.content, written, case.file_name):
                caught[name] += 1
                caught_by_language[kind] += 1
    print(f"right writes judged: {right} (cases without a grammar skipped: {no_grammar})")
    print(f"right writes the guard would refuse if placed forgivingly: {refused_right}")
    print(f"{'wrong write':<24} {'writes':>7} {'refused':>8} {'share':>7}")
    for name in wrong:
        share = caught[name] / wrong[name] if wrong[name] else 0.0
        print(f"{name:<24} {wrong[name]:>7} {caught[name]:>8} {share:>7.0%}")
    if args.by_language:
        for kind in sorted(by_language):
            share = caught_by_language[kind] / by_language[kind]
            print(
                f"  {kind:<40} {by_language[kind]:>7} {caught_by_language[kind]:>8} {share:>7.0%}"
            )
    total, stopped = sum(wrong.values()), sum(caught.values())
    print(f"{'all':<24} {total:>7} {stopped:>8} {stopped / max(total, 1):>7.0%}")


if __name__ == "__main__":
    main()
