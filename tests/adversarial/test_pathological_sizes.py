"""Big requests and widened searches finish (a guard against a hang, not a timing test;
``guard_confusion.py`` and the notes in docs/fixer.md give the figures)."""

from __future__ import annotations

import threading

import pytest

from editengine.verdict import NotTheRequestedEdit, replacement_to_write

LINES = [f"    value_{i} = compute(item_{i}, flag=True) + {i}\n" for i in range(3000)]


def finished_within(seconds, work):
    """``work()``'s result (or its exception), provided it finishes within ``seconds``."""
    box = {}

    def run():
        try:
            box["out"] = work()
        except Exception as error:  # handed back to the test's thread
            box["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["out"]


def test_a_three_thousand_line_request_with_a_misquote_on_every_line():
    old = "".join(line.replace("item_", "itm_") for line in LINES)
    search = "".join(LINES)
    replace = search.replace("flag=True", "flag=False")
    new = old.replace("flag=True", "flag=False")

    assert finished_within(120, lambda: replacement_to_write(old, new, search, replace)) == (
        replace
    )


def test_a_whole_file_search_with_one_far_line_altered():
    content = "".join(LINES)
    old = LINES[1500].replace("item_", "itm_")
    new = old.replace("compute", "recompute")
    replace = content.replace(LINES[1500], LINES[1500].replace("compute", "recompute"))
    altered = replace.replace("value_10 =", "value_10 = -")

    assert finished_within(120, lambda: replacement_to_write(old, new, content, replace)) == (
        replace
    )
    with pytest.raises(NotTheRequestedEdit):
        finished_within(120, lambda: replacement_to_write(old, new, content, altered))
