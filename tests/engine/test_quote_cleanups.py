"""Fenced and line-numbered quotes through ``EditEngine``: the bytes on disk, the result's
strategy and notes, a retry, and a refusal that leaves the file byte-identical."""

from __future__ import annotations

import pytest

from editengine._errors import BadRequest
from editengine.tools._numbered import number_lines

SOURCE = (
    "class Cache:\r\n"
    "    def get(self, key):\r\n"
    "        value = self._store.get(key)\r\n"
    "        return value\r\n"
)


def test_a_fenced_new_string_in_a_crlf_file(engine, write):
    path = write("cache.py", SOURCE)
    old = "        value = self._store.get(key)\n        return value"
    new = "```python\n        value = self._store.get(key, None)\n        return value\n```\n"

    result = engine.edit("cache.py", old, new)

    assert path.read_bytes() == SOURCE.replace("get(key)", "get(key, None)").encode()
    assert result.strategy == "markdown_fence+exact"
    assert any("fence around new_string was taken off" in note for note in result.notes)
    assert "markdown_fence+exact match" in result.summary


def test_lines_pasted_from_the_read_format_and_sent_again(engine, write):
    path = write("cache.py", SOURCE)
    shown = number_lines(SOURCE, start=3, limit=2).text
    edited = shown.replace("return value", "return value or default")

    first = engine.edit("cache.py", shown, edited)
    after = path.read_bytes()
    again = engine.edit("cache.py", shown, edited)

    assert after == SOURCE.replace("return value", "return value or default").encode()
    assert first.strategy == "line_number_prefix+exact"
    assert again.no_change and path.read_bytes() == after


def test_a_partly_numbered_new_string_is_refused_and_the_file_kept(engine, write):
    path = write("cache.py", SOURCE)
    shown = number_lines(SOURCE, start=3, limit=2).text
    with pytest.raises(BadRequest) as info:
        engine.edit("cache.py", shown, shown + "\n        log(key)")
    assert info.value.code == "bad_request"
    assert "without the line numbers" in str(info.value)
    assert path.read_bytes() == SOURCE.encode()


def test_a_markdown_file_keeps_its_fences(engine, write):
    path = write("README.md", "# Use\n\n```sh\nmake\n```\n")
    engine.edit("README.md", "```sh\nmake\n```", "```sh\nmake all\n```")
    assert path.read_text() == "# Use\n\n```sh\nmake all\n```\n"
