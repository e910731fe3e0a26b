"""The realignment's pieces: which new line stands for which old line, the line diff it
follows, the nearest known shift, and blank lines written in the file's frame."""

from __future__ import annotations

from editengine.matching._indent_style import COLUMNS
from editengine.matching._realign import (
    Correspondence,
    NearestShifts,
    _pair_by_likeness,
    line_opcodes,
    realign_lines,
)


def test_rewritten_lines_pair_with_the_old_lines_they_are_like_not_by_position() -> None:
    old = ["alpha = 1", "beta = 2"]
    assert _pair_by_likeness(old, ["new line", "alpha = 10", "beta = 20"]) == [(1, 0), (2, 1)]
    # A blank new line pairs with nothing and the lines after it still pair.
    assert _pair_by_likeness(old, ["", "alpha = 10", "beta = 20"]) == [(1, 0), (2, 1)]


def test_each_old_line_is_paired_once_in_order_the_first_of_equals_first() -> None:
    assert _pair_by_likeness(["same = 1", "same = 1"], ["same = 2"]) == [(0, 0)]
    assert _pair_by_likeness(["x = 1", "y = 2", "z = 3"], ["x = 10", "x = 11"]) == [(0, 0)]
    assert _pair_by_likeness(["aaaa", "bbbb"], ["aaaa", "bbbb"]) == [(0, 0), (1, 1)]


def test_lines_pair_from_sixty_percent_alike() -> None:
    assert _pair_by_likeness(["abcde"], ["abcxy"]) == [(0, 0)]  # 60% alike
    assert _pair_by_likeness(["abcde"], ["abxyz"]) == []


def test_a_frequent_line_is_not_taken_for_junk_in_a_long_diff() -> None:
    # difflib's autojunk would ignore a line making up more than 1% of 200 or more lines
    # and see no equal line at all.
    old = ["x"] * 250
    new = [*old[:120], "y", *old[121:]]
    assert any(tag == "equal" for tag, *_ in line_opcodes(old, new))


def _long(count: int) -> list[str]:
    return [f"line {n} = {n * 7 % 13}" for n in range(count)]


def test_a_long_diff_names_inserts_deletes_and_replaces_to_the_end() -> None:
    old = _long(400)
    inserted = [*old[:10], "new a", "new b", *old[10:]]
    assert ("insert", 10, 10, 10, 12) in line_opcodes(old, inserted)
    deleted = old[:10] + old[13:]
    assert ("delete", 10, 13, 10, 10) in line_opcodes(old, deleted)
    changed_last = [*old[:-1], "the last line rewritten"]
    assert line_opcodes(old, changed_last)[-1] == ("replace", 399, 400, 399, 400)


def test_with_no_line_known_the_nearest_shift_is_none_at_all() -> None:
    assert NearestShifts().nearest(3) == 0.0


def test_the_nearest_shift_sees_lines_learned_after_an_earlier_question() -> None:
    shifts = NearestShifts({0: 1.0})
    assert shifts.nearest(5) == 1.0
    shifts[10] = 2.0
    assert shifts.nearest(9) == 2.0


def test_a_blank_line_inserted_in_new_string_is_written_empty() -> None:
    written = realign_lines(
        ["a = 1", "b = 2"], ["    a = 1", "    b = 2"], ["a = 1", "", "b = 3"], str.strip, COLUMNS
    )
    assert written == ["    a = 1", "", "    b = 3"]


def test_a_diff_of_two_hundred_lines_or_more_still_sees_a_frequent_line_as_equal() -> None:
    old = ["x"] * 250
    assert line_opcodes(old, ["y", *old]) == [("insert", 0, 0, 0, 1), ("equal", 0, 250, 1, 251)]


def test_a_hunk_that_adds_a_line_pairs_its_rewrites_by_likeness() -> None:
    pairing = Correspondence.of(
        ["keep = 0", "alpha = 1", "beta = 2", "tail = 9"],
        ["keep = 0", "inserted", "alpha = 10", "beta = 20", "tail = 9"],
    )
    assert pairing.kept == {0: 0, 4: 3}
    assert pairing.rewritten == {2: 1, 3: 2}
    # Each new line of the hunk follows the old line at its place, the last old line at most.
    assert pairing.counterpart == [0, 1, 2, 2, 3]


def test_a_hunk_of_as_many_lines_pairs_them_by_position() -> None:
    assert Correspondence.of(["alpha = 1", "beta = 2"], ["beta = 20", "alpha = 10"]).rewritten == {
        0: 0,
        1: 1,
    }
    shifted = Correspondence.of(["k", "alpha = 1", "beta = 2"], ["k", "beta = 20", "alpha = 10"])
    assert shifted.rewritten == {1: 1, 2: 2}


def test_an_inserted_line_follows_the_line_before_it_and_knows_the_line_after() -> None:
    middle = Correspondence.of(["a = 1", "b = 2", "c = 3"], ["a = 1", "b = 2", "new = 0", "c = 3"])
    assert (middle.counterpart, middle.following) == ([0, 1, 1, 2], {2: 2})
    first = Correspondence.of(["a = 1", "b = 2"], ["new = 0", "a = 1", "b = 2"])
    assert (first.counterpart, first.following) == ([0, 0, 1], {0: 0})


def test_a_quote_with_no_line_quoted_right_is_still_written() -> None:
    assert realign_lines(["a = 1"], ["    b = 2"], ["a = 3"], str.strip, COLUMNS) == ["    a = 3"]


def test_a_moved_line_keeps_every_character_after_its_indentation() -> None:
    written = realign_lines(
        ["Xa = 1", "Xb = 2"],
        ["    Xa = 1", "    Xb = 2"],
        ["Xa = 1", "Xray = 3"],
        str.strip,
        COLUMNS,
    )
    assert written == ["    Xa = 1", "    Xray = 3"]
    inserted = realign_lines(
        ["Xa = 1", "Xb = 2"],
        ["    Xa = 1", "    Xb = 2"],
        ["Xa = 1", "Xnew = 5", "Xb = 2"],
        str.strip,
        COLUMNS,
    )
    assert inserted == ["    Xa = 1", "    Xnew = 5", "    Xb = 2"]


QUOTED = ["x = 0", "a = 1", "b = 2", "c = 3", "d = 4"]  # quoted at column 0
IN_FILE = ["    " + line for line in QUOTED]


def _written(new: list[str], old: list[str] = QUOTED, file: list[str] = IN_FILE) -> list[str]:
    return realign_lines(old, file, new, str.strip, COLUMNS)


def test_new_string_is_in_the_file_s_frame_when_most_kept_lines_say_so() -> None:
    # Two kept lines at the file's depth, one at the quote's: new_string is not moved.
    new = ["    x = 0", "    a = 1", "b = 22", "c = 3"]
    assert _written(new, QUOTED[:4], IN_FILE[:4]) == [
        "    x = 0",
        "    a = 1",
        "b = 22",
        "    c = 3",
    ]


def test_a_tie_of_kept_lines_moves_new_string_with_the_quote() -> None:
    one_each = ["    x = 0", "a = 1", "b = 22", "c = 33", "d = 44"]
    assert _written(one_each) == [
        "        x = 0",
        "    a = 1",
        "    b = 22",
        "    c = 33",
        "    d = 44",
    ]
    two_each = ["    x = 0", "    a = 1", "b = 22", "c = 3", "d = 4"]
    assert _written(two_each) == [
        "        x = 0",
        "        a = 1",
        "    b = 22",
        "    c = 3",
        "    d = 4",
    ]


def test_with_no_kept_line_the_first_line_tells_the_frame() -> None:
    old, file = QUOTED[1:3], IN_FILE[1:3]
    # At the quote's depth: moved to the file's.
    assert _written(["a = 10", "b = 20"], old, file) == ["    a = 10", "    b = 20"]
    # At the file's depth already: left there.
    assert _written(["    a = 10", "    b = 20"], old, file) == ["    a = 10", "    b = 20"]
    # At neither: moved by the quote's shift.
    assert _written(["  a = 10", "  b = 20"], old, file) == ["      a = 10", "      b = 20"]


# A quote copied from the middle of a line: its first line lost the file's indentation,
# its body kept it.
CUT_OLD = ["def f():", "        x = 1", "        return 1"]
CUT_FILE = ["    def f():", "        x = 1", "        return 1"]


def test_new_string_written_from_column_zero_moves_as_a_whole_by_the_first_line_s_depth() -> None:
    new = ["def g():", "    x = 1", "    return 2"]
    assert _written(new, CUT_OLD, CUT_FILE) == ["    def g():", "        x = 1", "        return 2"]
    short = _written(["def g():", "    return 2"], CUT_OLD[::2], CUT_FILE[::2])
    assert short == ["    def g():", "        return 2"]


def test_blank_lines_do_not_stop_new_string_moving_as_a_whole() -> None:
    old, file = ["def f():", "", "        return 1"], ["    def f():", "", "        return 1"]
    new = ["def g():", "", "    return 2"]
    assert _written(new, old, file) == ["    def g():", "", "        return 2"]


def test_new_string_not_starting_at_column_zero_is_not_moved_as_a_whole() -> None:
    new = ["    def g():", "    return 2"]
    assert _written(new, CUT_OLD[::2], CUT_FILE[::2]) == ["    def g():", "    return 2"]


def test_an_inserted_line_moves_with_the_line_whose_depth_it_shares() -> None:
    # The header moves by 4 columns and the body by 8: a line inserted between them at the
    # body's depth moves as the body does, at the header's depth or any other as the header.
    old, file = ["def f():", "    return 1"], ["    def f():", "            return 1"]
    assert _written(["def f():", "    x = 0", "    return 1"], old, file)[1] == "            x = 0"
    assert _written(["def f():", "x = 0", "    return 1"], old, file)[1] == "    x = 0"
    assert _written(["def f():", "  x = 0", "    return 1"], old, file)[1] == "      x = 0"


def test_with_no_line_quoted_right_and_no_whole_move_nothing_moves() -> None:
    assert _written(["a = 3"], ["a = 1"], ["b = 2"]) == ["a = 3"]


def test_a_line_moved_shallower_stops_at_column_zero() -> None:
    assert _written(["    a = 2"], ["    a = 1"], ["a = 1"]) == ["a = 2"]


def test_a_line_alone_quoted_at_an_odd_depth_and_rewritten_at_the_file_s_is_not_moved() -> None:
    old, file = ["a = 1", "  b = 2", "c = 3"], ["    a = 1", "    b = 2", "    c = 3"]
    assert _written(["a = 1", "    b = 20", "c = 3"], old, file) == [
        "    a = 1",
        "    b = 20",
        "    c = 3",
    ]
