"""The edit kinds, mistake classes and cutting the benchmark and the property tests use,
each on a small block: what it changes, and what it must leave alone."""

import random
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from editengine.evaluation import _cross_product as cp
from editengine.evaluation import _edit_kinds as ek
from editengine.evaluation import _mistakes as mk

from .cross_sources import source_file, unit_of

BLOCK = (
    "def total(items, limit):",
    "    count = 0",
    '    label = "a, b"',
    "    for item in items:",
    "        if item == limit and ok:",
    "            count += 1",
    "    return count",
)
FILE = ("import os", "", *BLOCK, "", "print(total([], 3))")


def _quote(new=BLOCK, lang="python", file=FILE) -> mk.Quote:
    return mk.Quote(tuple(BLOCK), tuple(new), 3, "    ", "\n", lang, tuple(file))


def _draw(mistake, seed, quote=None) -> mk.Draft | None:
    quote = quote or _quote()
    return mk.BLOCK_MISTAKES[mistake](random.Random(seed), mk.Draft.of(quote), quote)


def _made(mistake, quote=None, *, tries=60, want=lambda d: True) -> mk.Draft:
    for seed in range(tries):
        draft = _draw(mistake, seed, quote)
        if draft is not None and want(draft):
            return draft
    raise AssertionError(f"{mistake} never made")


@pytest.mark.parametrize("kind", ek.BLOCK_KINDS)
def test_every_block_kind_changes_the_block(kind):
    for seed in range(20):
        edit = ek.BLOCK_EDITS[kind](random.Random(seed), list(BLOCK), "python")
        if edit is not None:
            assert edit.kind == kind and edit.new_lines != list(BLOCK) and edit.instruction
            return
    raise AssertionError(kind)


def test_deletions_and_flips_touch_only_what_they_say():
    for seed in range(30):
        edit = ek.edit_delete_lines(random.Random(seed), list(BLOCK), "python")
        assert edit is not None
        assert edit.new_lines[0] == BLOCK[0] and edit.new_lines[-1] == BLOCK[-1]
        assert [x for x in BLOCK if x not in edit.new_lines] and set(edit.new_lines) < set(BLOCK)
        flip = ek.edit_flip(random.Random(seed), list(BLOCK), "python")
        assert flip is not None
        changed = [(a, b) for a, b in zip(BLOCK, flip.new_lines, strict=True) if a != b]
        assert len(changed) == 1 and changed[0][0] == "        if item == limit and ok:"


def test_code_edits_never_touch_string_literals():
    line = 'x = f("a, b == c", 1) == 2'
    assert mk.compress_line(line, "python") == 'x=f("a, b == c", 1)==2'
    for seed in range(20):
        edit = ek.edit_flip(random.Random(seed), [line], "python")
        assert edit is not None and '"a, b == c"' in edit.new_lines[0]


def test_line_number_prefixes_are_consecutive_from_the_real_line():
    draft = _made("line_number_prefix")
    old, _ = draft.render()
    numbers = [int(re.match(r"^ *(\d+)", line).group(1)) for line in old.split("\n")]
    assert numbers == list(range(3, 3 + len(BLOCK)))


def test_a_fence_wraps_whole_strings_and_never_goes_into_fenced_files():
    draft = _made("markdown_fence", want=lambda d: "around both" in d.notes[0])
    old, new = draft.render()
    assert re.fullmatch(r"```\w*\n.*\n```\n?", old, re.DOTALL) and new.startswith("```")
    fenced = _quote(file=(*FILE, "```", "x", "```"))
    assert all(_draw("markdown_fence", seed, fenced) is None for seed in range(10))


def test_typos_stay_in_one_line_and_keep_one_clear_place():
    draft = _made("multi_typo")
    assert sum(a != b for a, b in zip(draft.old, BLOCK, strict=True)) == 1
    # Two identical blocks: no typo can be told apart, so none is made.
    twice = _quote(file=(*FILE, *BLOCK))
    assert all(_draw("one_char_typo", seed, twice) is None for seed in range(10))


def test_elision_hides_only_kept_lines():
    new = (*BLOCK[:-1], "    return count + 1")
    draft = _made("elision", _quote(new=new))
    marker = next(x for x in draft.old if "..." in x)
    assert marker.strip().startswith("#")
    assert draft.new[-1] == "    return count + 1"  # the changed line is spelled out


def test_over_escaping_is_reversible_and_skips_blocks_with_backslashes():
    old, _ = _made("over_escaped").render()
    assert "\n" not in old and '\\"a, b\\"' in old
    backslash = (*BLOCK[:-1], '    return "\\n"')
    quote = mk.Quote(backslash, backslash, 3, "    ", "\n", "python", backslash)
    assert all(_draw("over_escaped", seed, quote) is None for seed in range(10))


def test_two_mistakes_are_made_in_order_and_both_show():
    quote = _quote()
    for seed in range(30):
        draft = mk.misquote(random.Random(seed), quote, ("markdown_fence", "line_number_prefix"))
        if draft is None:
            continue
        old, new = draft.render()
        first = (old if old.startswith("```") else new).split("\n")[1]
        # Numbers go on the lines, the fence around them: never a number before the fence.
        assert not re.match(r"^ *\d+", old.split("\n")[0])
        assert re.match(r"^ *\d+", first) or not first
        return
    raise AssertionError("never made")


def test_cut_is_reproducible_and_says_what_it_made():
    lines = list(FILE) * 1
    first = cp.cut(random.Random(5), lines, "python", "rename", "indentation_shift", unit="    ")
    again = cp.cut(random.Random(5), lines, "python", "rename", "indentation_shift", unit="    ")
    assert first == again
    if first is not None:
        assert first.mistakes == ("indentation_shift",) and first.kind == "rename"
        assert first.quoted in "\n".join(lines)


def test_minified_lines_reach_their_size():
    line = cp.minified_lines(['"a": 1', '"b": [1, 2]'], 2_000, "json", 0)[0]
    assert 2_000 <= len(line) < 2_020 and line.startswith("{") and line.endswith("}")
    script = cp.minified_lines(["var a = 1;", "f(a, b);"], 5_000, "javascript", 1)
    assert len(script) == 3 and 5_000 <= len(script[1]) < 5_012


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    cell=st.sampled_from(mk.cross_pairings()),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_cut_request_is_decidable_and_changes_the_file(cell, seed):
    """Whatever the draw: the quoted text stands in the file, once unless replaced
    everywhere, also with whitespace forgiven; the edit changes the file; the mistake breaks
    exact matching (a fence around new_string only leaves old as the file has it)."""
    mistake, kind = cell
    rng = random.Random(seed)
    lines, lang = source_file(rng, mistake)
    made = cp.cut(rng, lines, lang, kind, mistake, unit=unit_of(lines))
    assume(made is not None)
    text = "\n".join(lines) + "\n"
    after = "\n".join(made.lines_after) + "\n"
    assert after != text and made.kind == kind
    count = text.count(made.quoted)
    assert count == 1 or (kind == "replace_all" and count >= 2)
    assert ek.squash(text).count(ek.squash(made.quoted)) == count
    old = made.old_string.replace("\r\n", "\n")
    if mistake not in ("exact", "crlf") and not (
        made.mistakes == ("markdown_fence",) and "around new" in made.notes
    ):
        assert old not in text
    if made.block is not None:
        start, end = made.block
        assert "\n".join(lines[start:end]) == made.quoted
        assert cp.trimmed_windows(lines, made.quoted.split("\n")) == 1
