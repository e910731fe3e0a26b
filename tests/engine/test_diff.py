"""Unified diffs: same as difflib's on the whole file, computed on the changed middle only."""

from __future__ import annotations

import difflib
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from editengine._diff import unified_diff

lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "  d\n", "e"]), max_size=30)


def reference(old: str, new: str, path: str = "f") -> str:
    out = []
    for line in difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"
    ):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def apply_patch(old: str, patch: str) -> str:
    """Apply a unified diff strictly: every context and deleted line must be where it says."""
    source = old.splitlines(keepends=True)
    out: list[str] = []
    cursor = 0
    lines = patch.splitlines(keepends=True)[2:]
    index = 0
    while index < len(lines):
        header = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", lines[index])
        assert header, lines[index]
        start, length = int(header[1]), int(header[2] if header[2] is not None else 1)
        begin = start - 1 if length else start
        out.extend(source[cursor:begin])
        cursor = begin
        index += 1
        while index < len(lines) and not lines[index].startswith("@@"):
            line = lines[index]
            ends = index + 1 < len(lines) and lines[index + 1].startswith("\\")
            text = line[1:] if not ends else line[1:].rstrip("\n")
            if line[0] in " -":
                assert source[cursor] == text, (cursor, source[cursor], text)
                cursor += 1
            if line[0] in " +":
                out.append(text)
            index += 2 if ends else 1
    out.extend(source[cursor:])
    return "".join(out)


def normalise(text: str) -> str:
    # "e" without a newline is only valid as the very last line
    return text.replace("e", "e\n").rstrip("\n") + ("\n" if text.endswith("\n") else "")


@settings(max_examples=300, deadline=None)
@given(lines, lines)
def test_the_diff_turns_old_into_new(old_lines, new_lines):
    old, new = normalise("".join(old_lines)), normalise("".join(new_lines))
    diff = unified_diff(old, new, "f")
    if old == new:
        assert diff.text == ""
        return
    assert apply_patch(old, diff.text) == new
    body = diff.text.splitlines()[2:]
    assert diff.additions == sum(1 for line in body if line.startswith("+"))
    assert diff.deletions == sum(1 for line in body if line.startswith("-"))


def test_counts_and_headers():
    diff = unified_diff("a\nb\nc\n", "a\nB\nc\nd\n", "src/x.py")
    assert diff.text.startswith("--- a/src/x.py\n+++ b/src/x.py\n@@ -1,3 +1,4 @@\n")
    assert (diff.additions, diff.deletions) == (2, 1)


def test_far_down_a_large_file_has_file_line_numbers():
    old = "".join(f"line {i}\n" for i in range(10_000))
    new = old.replace("line 9000\n", "changed\n")
    diff = unified_diff(old, new, "big")
    assert "@@ -9998,7 +9998,7 @@" not in diff.text
    assert "@@ -8998,7 +8998,7 @@" in diff.text
    assert diff.text == reference(old, new, "big")


def test_crlf_and_bom_are_not_shown_as_changes():
    old = "\ufeffa\r\nb\r\n"
    new = "\ufeffa\r\nB\r\n"
    assert unified_diff(old, new, "f").text == "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n"


def test_style_only_change_is_said():
    diff = unified_diff("a\nb\n", "a\r\nb\r\n", "f")
    assert (diff.additions, diff.deletions) == (0, 0)
    assert "line endings" in diff.text


def test_new_file_header():
    assert unified_diff("", "x\n", "n.py", created=True).text.startswith(
        "--- /dev/null\n+++ b/n.py\n"
    )


def test_identical_is_empty():
    assert unified_diff("same\n", "same\n", "f").text == ""
