"""The fast paths give the answers of the plain code they replace.

Each speed-up (a search by a needle's first characters, a regex for the typography table,
a line index that steps back, a bisected nearest shift, an LCS for long line lists, memoised
lookups) is checked against a straightforward reference, on generated inputs.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from unittest import mock

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from editengine import edit_text
from editengine._text import _PUNCTUATION, LineIndex, NormalizedText, ascii_punctuation
from editengine.files._suggest import suggest_paths
from editengine.matching import _already_applied as already_applied
from editengine.matching import _search as search
from editengine.matching._anchor import fuzzy_starts
from editengine.matching._elision import ElisionTier
from editengine.matching._lines import LineView, line_view
from editengine.matching._realign import NearestShifts, line_opcodes
from editengine.matching._unicode import UnicodePunctuationTier, _plain_text
from editengine.matching._whitespace import WhitespaceTier

small_alphabet = st.sampled_from("ab(\n")


# ----------------------------------------------------------------------------- search


@settings(max_examples=300, deadline=None)
@given(
    unit=st.text(alphabet=small_alphabet, min_size=1, max_size=8),
    repeats=st.integers(1, 80),
    needle_len=st.integers(1, 180),
    tail=st.text(alphabet=small_alphabet, max_size=5),
    start=st.integers(0, 50),
)
def test_find_and_count_agree_with_str(unit, repeats, needle_len, tail, start):
    text = unit * repeats + tail + unit * repeats
    needle = (unit * (needle_len // len(unit) + 1))[:needle_len] + tail[:1]
    assert search.find(text, needle, start) == text.find(needle, start)
    assert search.count(text, needle) == text.count(needle)
    assert search.contains(text, needle) == (needle in text)


def test_a_common_first_piece_falls_back_to_the_plain_search():
    # Thousands of places start like the needle (100 characters or more, so searched by
    # its first piece); only the last is it.
    piece = "x" * 120
    text = (piece + "y\n") * 2_000 + piece + "z"
    needle = piece + "z"
    assert search.find(text, needle) == text.find(needle) == len(text) - len(needle)
    assert search.count(text, piece + "y") == 2_000


# ----------------------------------------------------------------------------- typography


@given(st.text(alphabet=st.sampled_from([*_PUNCTUATION, "a", " ", "'", "\n", "é"]), max_size=60))
def test_ascii_punctuation_is_the_translation_table(text):
    assert ascii_punctuation(text) == text.translate(str.maketrans(_PUNCTUATION))


def test_unicode_tier_finds_ascii_lines_among_typographic_ones_at_another_depth():
    content = (
        "def greet():\n"
        "    print(\u201chello\u201d)\n"
        "    return \u2018done\u2019\n"
        "def other():\n"
        "    return 'x'\n"
    )
    old = "print(\"hello\")\nreturn 'done'"  # ASCII, no indentation
    new = "print(\"hello\")\nreturn 'finished'"
    found = UnicodePunctuationTier().find(content, old)
    start = content.index("    print")
    end = content.index("\u2019\n") + 1
    assert [(m.start, m.end) for m in found] == [(start, end)]
    result = edit_text(content, old, new)
    assert result.strategy == "unicode_punctuation"
    assert "    print(\u201chello\u201d)\n    return \u2018finished\u2019\n" in result.new_content


# ----------------------------------------------------------------------------- line index


@given(
    text=st.text(alphabet=st.sampled_from("ab\n"), max_size=200),
    offsets=st.lists(st.integers(0, 200), max_size=30),
)
def test_line_index_answers_like_counting_from_the_start(text, offsets):
    index = LineIndex(text)
    for offset in offsets:
        offset = min(offset, len(text))
        assert index.line_of(offset) == text.count("\n", 0, offset) + 1


# ----------------------------------------------------------------------------- shifts


def _nearest_reference(shifts: dict[int, float], index: int, default: float) -> float:
    if index in shifts:
        return shifts[index]
    if not shifts:
        return default
    return shifts[min(shifts, key=lambda known: (abs(known - index), known))]


@given(
    known=st.dictionaries(st.integers(0, 60), st.floats(-4, 4), max_size=12),
    asked=st.lists(st.integers(-5, 70), max_size=20),
)
def test_nearest_shift_is_the_minimum_distance_one(known, asked):
    shifts = NearestShifts(known)
    for index in asked:
        assert shifts.nearest(index, 9.0) == _nearest_reference(known, index, 9.0)


# ----------------------------------------------------------------------------- line diff


@given(
    old=st.lists(st.sampled_from(["", "a", "b", "}", "return x"]), max_size=40),
    new=st.lists(st.sampled_from(["", "a", "b", "}", "return y"]), max_size=40),
)
def test_short_line_lists_are_diffed_by_difflib(old, new):
    expected = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    assert line_opcodes(old, new) == expected


def _check_opcodes(old: list[str], new: list[str], opcodes) -> int:
    """The opcodes cover both lists in order, equal blocks are equal; the lines kept."""
    i = j = kept = 0
    for tag, i1, i2, j1, j2 in opcodes:
        assert (i1, j1) == (i, j)
        if tag == "equal":
            assert old[i1:i2] == new[j1:j2]
            kept += i2 - i1
        elif tag == "replace":
            assert i2 > i1 and j2 > j1
        elif tag == "delete":
            assert i2 > i1 and j1 == j2
        else:
            assert tag == "insert" and j2 > j1 and i1 == i2
        i, j = i2, j2
    assert (i, j) == (len(old), len(new))
    return kept


def test_long_line_lists_are_aligned_at_least_as_well_as_difflib():
    old = []
    for index in range(90):  # 360 lines: past difflib's bound, and difflib still quick
        old += [f"def f_{index}():", "    return None", "", "}"]
    new = [line.replace("None", "0") if n % 3 else line for n, line in enumerate(old)]
    del new[100:140]
    opcodes = line_opcodes(old, new)
    kept = _check_opcodes(old, new, opcodes)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    assert kept >= sum(block.size for block in matcher.get_matching_blocks())


# ----------------------------------------------------------------------------- memoised lookups


def test_shared_fuzzy_search_answers_like_a_search_of_its_own():
    lines = [f"    value_{n} = compute(item_{n}, scale={n % 5})" for n in range(300)]
    lines[150] = "    value_150 = compute(item_150, scale=O)"
    text = "\n".join(lines) + "\n"
    keys = ["value_150 = compute(item_150, scale=0)"]
    asked = [(5, 90.0), (3, 40.0), (5, 40.0), (1, 95.0)]
    for order in (asked, asked[::-1]):
        view = LineView(text)  # one view: later calls are served from the first search
        for limit, cutoff in order:
            direct = process.extract(
                keys[0], view.stripped, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff
            )
            assert fuzzy_starts(view, keys, limit=limit, cutoff=cutoff) == sorted(
                {position for _, _, position in direct}
            )
    assert fuzzy_starts(LineView(text), keys, limit=1, cutoff=90.0) == [150]


def test_memoised_line_lookup_returns_fresh_lists():
    view = LineView("a\n  a\nb\n")
    first = view.lines_stripped_equal("a")
    assert first == [0, 1]
    first.append(99)
    assert view.lines_stripped_equal("a") == [0, 1]


def test_a_line_repeated_past_the_index_bound_is_found_everywhere():
    lines = []
    for n in range(900):
        lines.append("    total += 1" if n % 3 else "total += 1  # not only")
    lines.append("total += 1")
    view = LineView("\n".join(lines) + "\n")
    expected = [n for n, line in enumerate(lines) if line.strip() == "total += 1"]
    assert len(expected) > 256
    assert view.lines_stripped_equal("total += 1") == expected
    assert view.lines_stripped_equal("total += 1", limit=64) is None


# ----------------------------------------------------------------------------- elision


def test_elision_chain_skips_segments_at_another_depth():
    content = (
        "def setup():\n"
        "    reset()\n"
        "    def teardown():\n"  # the second segment, one level deeper: not it
        "        finish()\n"
        "def teardown():\n"
        "    finish()\n"
    )
    old = "def setup():\n    reset()\n# ...\ndef teardown():\n    finish()\n"
    found = ElisionTier().find(content, old)
    assert [(m.start, m.end) for m in found] == [(0, len(content))]


def test_many_markers_expand_to_the_skipped_lines():
    lines = [f"    step_{n}(state)" for n in range(40)]
    content = "def run(state):\n" + "\n".join(lines) + "\n"
    quoted = ["def run(state):"] + [
        line if n % 2 == 0 else "    # ..." for n, line in enumerate(lines[:-1])
    ]
    quoted.append(lines[-1])
    old = "\n".join(quoted) + "\n"
    new = old.replace("def run(state):", "def run(state, strict=False):")
    result = edit_text(content, old, new)
    assert result.strategy == "elision"
    assert result.new_content == content.replace("def run(state):", "def run(state, strict=False):")


# ----------------------------------------------------------------------------- whitespace


def test_nested_brackets_are_walked_from_their_rarest_token():
    content = "value = " + "f(" * 300 + "x" + ")" * 300 + "\n"
    core = "f(" * 5 + "x" + ")" * 5
    old = " ".join(core)
    found = WhitespaceTier().find(content, old)
    start = content.index(core)
    assert [(m.start, m.end) for m in found] == [(start, start + len(core))]
    result = edit_text(content, old, old.replace("x", "y"))
    assert result.new_content == content.replace(core, " ".join(core).replace("x", "y"))


# ----------------------------------------------------------------------------- paths


def _difflib_suggestions(root: Path, missing: str, limit: int = 3) -> tuple[str, ...]:
    name = Path(missing).name
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    same = [f for f in files if Path(f).name == name]
    same.sort(key=lambda path: -difflib.SequenceMatcher(None, missing, path).ratio())
    scored = [
        (difflib.SequenceMatcher(None, missing, f).ratio(), f) for f in files if f not in same
    ]
    similar = [f for score, f in sorted(scored, key=lambda i: (-i[0], i[1])) if score >= 0.6]
    return tuple([*same, *similar][:limit])


def test_path_suggestions_match_difflib_on_a_small_workspace(tmp_path):
    for path in ("src/app/models.py", "src/app/model.py", "src/app/views.py", "tests/models.py",
                 "docs/modules.md", "src/app/mode1s.py"):  # fmt: skip
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    for missing in ("app/models.py", "src/app/modls.py", "src/ap/views.py", "nothing.txt"):
        suggestions, _ = suggest_paths(tmp_path, missing)
        assert suggestions == _difflib_suggestions(tmp_path, missing), missing


def test_a_very_long_wrong_path_still_finds_the_same_name(tmp_path):
    (tmp_path / "pkg").mkdir()
    for index in range(300):
        (tmp_path / "pkg" / f"module_{index}.py").write_text("")
    missing = "src/" + "deeper/" * 284 + "module_7.py"
    suggestions, same_name = suggest_paths(tmp_path, missing)
    assert same_name == ("pkg/module_7.py",)
    assert suggestions[0] == "pkg/module_7.py"


# ------------------------------------------------------------------ shared line lookups

line_pieces = st.sampled_from(["ab", "ab ", "  ab", "x ab", "ab x", "\tab\t", "\u00a0ab", "abab"])


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(line_pieces | st.sampled_from(["", "b"]), max_size=14),
    final_newline=st.booleans(),
    limit=st.integers(0, 4),
)
def test_one_pass_line_lookup_answers_like_a_search_per_key(lines, final_newline, limit):
    text = "\n".join(lines) + ("\n" if final_newline else "")
    keys = ["ab", "abab", "b", "ab x"]
    searched = [LineView(text).lines_stripped_equal(key, limit=limit) for key in keys]
    view = LineView(text)
    view.look_up_stripped_equal(keys, limit)
    assert [view.lines_stripped_equal(key, limit=limit) for key in keys] == searched


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(
        st.text(alphabet=st.sampled_from('a -"\u2014\u201c\u201d\u00a0\t'), max_size=6),
        max_size=8,
    )
)
def test_plain_text_of_a_view_is_its_ascii_punctuation(lines):
    text = "\n".join(lines)
    plain = _plain_text(LineView(text))
    assert plain == ascii_punctuation(text)
    if text.isascii():
        assert plain is text  # the same object: the view's own text is searched


def test_equal_texts_share_one_line_view_and_others_do_not():
    text = "def f():\n    return 1\n" * 3
    same = "".join(["def f():\n    return 1\n"] * 3)
    other = text[:-2] + "2\n"  # same length, differs at the end
    assert same is not text
    assert line_view(same) is line_view(text)
    assert line_view(other) is not line_view(text)
    assert line_view(other).text is other


# ----------------------------------------------------------------------------- line offsets

line_queries = st.lists(
    st.tuples(st.sampled_from(["start", "line_end", "line_of_offset"]), st.integers(-3, 90)),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.text(alphabet=st.sampled_from("ab "), max_size=5), min_size=1, max_size=20),
    final_newline=st.booleans(),
    queries=line_queries,
)
def test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line(
    lines, final_newline, queries
):
    # Asked in any order, near and far, past the point where counting gives way to the
    # list of every line's offset; out-of-range questions answer (or fail) as that list does.
    text = "\n".join(lines) + ("\n" if final_newline else "")
    counted, listed = LineView(text), LineView(text)
    listed.start(0)
    _ = listed._bounds  # every answer from the list from the start
    for method, argument in queries:
        try:
            expected: object = getattr(listed, method)(argument)
        except IndexError:
            expected = IndexError
        try:
            answer: object = getattr(counted, method)(argument)
        except IndexError:
            answer = IndexError
        assert answer == expected, (method, argument)


def test_a_few_offsets_are_counted_without_listing_every_line():
    view = LineView("".join(f"line {number}\n" for number in range(1_000)))
    assert view.start(500) == len("".join(f"line {number}\n" for number in range(500)))
    assert view.line_of_offset(view.start(501) + 2) == 501
    assert view.line_end(499) == view.start(500) - 1
    assert "_bounds" not in view.__dict__


def test_offsets_far_apart_fall_back_to_the_list_of_every_line():
    view = LineView("x\n" * 1_000)
    for _ in range(3):  # each pair of questions counts through the whole file twice
        assert view.start(999) == 1_998
        assert view.line_of_offset(1) == 0
    assert "_bounds" in view.__dict__
    assert view.start(999) == 1_998


# ---------------------------------------------------------------- typography pre-search

typographic_lines = st.lists(
    st.text(alphabet=st.sampled_from("ab -\"'\u2014\u2013\u201c\u201d\u2019\u00a0\t"), max_size=7),
    min_size=1,
    max_size=8,
)


@settings(max_examples=400, deadline=None)
@given(lines=typographic_lines, first=st.integers(0, 7), count=st.integers(1, 4), data=st.data())
def test_unicode_tier_searched_first_for_stretches_finds_what_mapping_the_file_finds(
    lines, first, count, data
):
    # Quotes cut from the file (reindented, typography made ASCII, a character changed)
    # and found by the tier as it is and by the tier that always maps the file.
    text = "\n".join(lines) + "\n"
    quoted = lines[first : first + count] or lines[-1:]
    old = "\n".join(quoted)
    if data.draw(st.booleans()):
        old = ascii_punctuation(old)
    if data.draw(st.booleans()):
        old = "\n".join("  " + line.strip() for line in old.split("\n"))
    if data.draw(st.booleans()) and old:
        at = data.draw(st.integers(0, len(old) - 1))
        old = old[:at] + data.draw(st.sampled_from("ab -\u2014")) + old[at + 1 :]
    assume(old)  # the cascade never asks a tier for the empty quote
    tier = UnicodePunctuationTier()
    found = [(m.start, m.end) for m in tier.find(text, old)]
    with mock.patch.object(LineView, "may_hold_all", return_value=True):
        mapped = [(m.start, m.end) for m in tier.find(text, old)]
    assert found == mapped


def test_unicode_tier_does_not_map_a_file_without_a_stretch_of_the_quote():
    content = "intro \u2014 text\n" + "def handler(request):\n    return request\n" * 50
    view = line_view(content)
    assert UnicodePunctuationTier().find(content, "def handlr(request):\n    return request") == []
    assert ("ascii_punctuation",) not in view.memo
    # Every stretch is there: the file is mapped and the dash found.
    assert UnicodePunctuationTier().find(content, "intro - text")
    assert ("ascii_punctuation",) in view.memo


token_lines = st.lists(
    st.lists(st.sampled_from(["value", "val", "x", "=", "(", ")", "call", "callee", ","])).map(
        " ".join
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(lines=token_lines, first=st.integers(0, 5), count=st.integers(1, 3), data=st.data())
def test_whitespace_tier_looking_words_up_first_finds_what_walking_finds(lines, first, count, data):
    text = "\n".join(lines) + "\n"
    old = " ".join(" ".join(lines[first : first + count] or lines[-1:]).split())
    spacing = data.draw(st.sampled_from(["", " ", "\n  "]))
    old = old.replace(" ", spacing, data.draw(st.integers(0, 3)))
    if data.draw(st.booleans()):
        old = old.replace("value", "valeu", 1)
    tier = WhitespaceTier()

    def spans(matches):
        return [(m.start, m.end) for m in matches]

    found, cut = spans(tier.find(text, old)), spans(tier.cut_places(text, old))
    with mock.patch.object(LineView, "may_hold_all", return_value=True):
        assert (found, cut) == (spans(tier.find(text, old)), spans(tier.cut_places(text, old)))


def test_the_look_ups_of_one_view_read_the_text_at_most_twice_together():
    content = "".join(f"name_{index:04d} = {index}\n" for index in range(2_000))
    view = LineView(content)
    late = [f"name_{index:04d}" for index in range(1_999, 1_990, -1)]  # each read to the end
    assert view.may_hold_all(late)
    looked_up = [word for word in late if ("first_place", word) in view.memo]
    assert len(looked_up) == 3  # three reads of nearly the whole text pass the bound of two
    assert view.may_hold_all(["name_1980", "absent_name"])  # nothing more is read
    assert ("first_place", "absent_name") not in view.memo


def test_a_missing_word_is_looked_up_once_for_the_tiers_that_ask():
    content = "\u2014\n" + "result = compute(alpha, beta)\n" * 20
    view = line_view(content)
    old = "result = compute(alpha, betta)"
    assert UnicodePunctuationTier().find(content, old) == []
    assert view.memo[("first_place", "betta")] == -1
    with mock.patch("editengine.matching._search.find", side_effect=AssertionError):
        assert WhitespaceTier().find(content, old) == []  # answered from what was found


@settings(max_examples=300, deadline=None)
@given(lines=token_lines, first=st.integers(0, 5), count=st.integers(1, 3), data=st.data())
def test_new_string_looked_up_by_its_words_first_stands_where_it_stood(lines, first, count, data):
    # new_string cut from the file, re-indented, padded with blank lines or misspelt: where it
    # stands (verbatim, line for line, without its padding) is what it was without the look-up,
    # asked with the words of earlier questions remembered or not.
    text = "\n".join(lines) + "\n"
    new = "\n".join(lines[first : first + count] or lines[-1:])
    if data.draw(st.booleans()):
        new = "\n".join("    " + line for line in new.split("\n"))
    if data.draw(st.booleans()):
        new = "\n" + new + "\n\n"
    if data.draw(st.booleans()):
        new = new.replace("call", "cal", 1)
    source = NormalizedText.of(text)
    old = new + " extra_call_words"

    def answers():
        standing = already_applied.where_new_stands(source, new)
        left = already_applied.left_after_a_miss(source, old, new, None)
        verbatim = already_applied.verbatim_elsewhere(source, old, new, [])
        return (
            standing and (standing.start, standing.end),
            [(m.start, m.end) for m in left],
            verbatim and (verbatim.start, verbatim.end),
        )

    if data.draw(st.booleans()):
        line_view(text).may_hold_all(["cal", "callee", "value", "absent"])
    found = answers()
    with mock.patch.object(LineView, "may_hold_all", return_value=True):
        assert found == answers()


def test_a_long_quote_is_looked_up_by_its_ends_and_words_cut_there_still_count():
    # Words cross both cuts (every offset is inside a long word): the pieces looked up are
    # parts of words, which stand in the file wherever the quote does.
    body = " ".join(f"word_number_{index:05d}_of_the_quote" for index in range(600))
    content = f"start = 1\n{body}\nend = 2\n"
    respaced = body.replace(" ", "  ")
    assert len(respaced) > 3 * 4096
    assert [(m.start, m.end) for m in WhitespaceTier().find(content, respaced)] == [
        (content.index(body), content.index(body) + len(body))
    ]
    misspelt_at_the_end = respaced[:-5] + "quotation_marks"  # the longest word: looked up
    fresh = content + "# a file of its own: the look-ups of the view above are spent\n"
    assert WhitespaceTier().find(fresh, misspelt_at_the_end) == []
    missing = "word_number_00599_of_the_quotation_marks"
    assert line_view(fresh).memo[("first_place", missing)] == -1
