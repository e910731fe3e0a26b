"""Files whose lines end in a lone CR (classic Mac) are edited line by line, CRs kept."""

from __future__ import annotations

import pytest

from editengine import edit_text
from editengine._text import NormalizedText, dominant_newline, to_lf


def test_the_reported_file_ends_right(engine, write):
    path = write("f.py", b"def f():\r    hello()\r    x()\r")
    engine.edit("f.py", "hello()\nx()", "bye()\nx()")
    assert path.read_bytes() == b"def f():\r    bye()\r    x()\r"


def test_a_quote_with_lone_crs_matches_too(engine, write):
    path = write("f.txt", b"one\rtwo\rthree\r")
    engine.edit("f.txt", "two\rthree", "2\r3")
    assert path.read_bytes() == b"one\r2\r3\r"


def test_creating_content_in_a_cr_file_uses_cr(engine, write):
    path = write("f.txt", b"a\rb\r")
    engine.edit("f.txt", "b", "b\nc\nd")
    assert path.read_bytes() == b"a\rb\rc\rd\r"
    assert b"\n" not in path.read_bytes()


@pytest.mark.parametrize(
    ("content", "old", "new", "expected"),
    [
        ("x\ry\rz\r", "y\nz", "Y\nZ", "x\rY\rZ\r"),
        # mixed: bytes outside the edit are copied as they were
        ("a\r\nb\rc\nd\r\n", "c", "C", "a\r\nb\rC\nd\r\n"),
        ("\ufeffa\rb\r", "a\nb", "A\nB", "\ufeffA\rB\r"),
    ],
)
def test_edit_text_keeps_lone_cr_endings(content, old, new, expected):
    assert edit_text(content, old, new).new_content == expected


def test_normalized_text_maps_lone_cr_to_lf_without_shifting_offsets():
    source = NormalizedText.of("ab\rcd\r\nef\r")
    assert source.text == "ab\ncd\nef\n"
    assert source.newline in ("\r", "\r\n")
    assert source.original_offset(3) == 3  # after the lone CR: no shift
    assert source.original_offset(7) == 8  # after the CRLF: one more
    assert to_lf("a\rb\r\nc") == "a\nb\nc"


@pytest.mark.parametrize(
    ("text", "newline"),
    [("a\rb\rc\n", "\r"), ("a\r\nb\rc\n", "\r\n"), ("a\nb\nc\r", "\n"), ("abc", "\n")],
)
def test_dominant_newline_counts_lone_crs(text, newline):
    assert dominant_newline(text) == newline
