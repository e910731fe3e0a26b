"""The regions a NoMatch shows: where old_string most nearly stands, best first."""

from __future__ import annotations

from editengine.matching._closest import closest_regions


def _lines(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def _places(content: str, old: str, **options: int) -> list[tuple[int, int]]:
    return [(r.start_line, r.end_line) for r in closest_regions(content, old, **options)]


class TestWhichWindows:
    def test_a_quote_of_the_first_line_is_shown_at_line_one(self):
        content = _lines("first_setting = 1", "second_setting = 2", "third_setting = 3")
        (region,) = closest_regions(content, "first_setting = 1")[:1]
        assert (region.start_line, region.end_line, region.similarity) == (1, 1, 1.0)

    def test_a_quote_found_whole_is_its_own_region_at_full_similarity(self):
        # Letters old_string starts and ends with are part of it, whatever they are.
        content = _lines("x = 1", "XMLParser(strict=True).parse_X", "y = 2")
        best = closest_regions(content, "XMLParser(strict=True).parse_X")[0]
        assert (best.start_line, best.similarity) == (2, 1.0)

    def test_a_whitespace_only_first_line_counts_as_a_line_of_the_quote(self):
        content = _lines("alpha_value = 1", "beta_value = 2", "gamma_value = 3")
        best = closest_regions(content, "   \nbeta_value = 2\n")[0]
        assert (best.start_line, best.end_line) == (1, 2)
        assert best.text == "alpha_value = 1\nbeta_value = 2"

    def test_one_verbatim_line_of_three_places_the_quote(self):
        content = _lines("first_line = 1", "second_line = 2", "third_line = 3", "fourth = 4")
        quote = "z" * 40 + "\nsecond_line = 2\n" + "q" * 12
        assert _places(content, quote)[0] == (1, 3)

    def test_a_line_forty_percent_like_the_quote_is_still_shown(self):
        # The rapidfuzz ratio of these two lines is exactly 40, the loosest kept.
        regions = closest_regions(_lines("abcdwxyzuv"), "abcdefghij")
        assert [(r.start_line, r.similarity) for r in regions] == [(1, 0.4)]

    def test_a_window_placed_past_the_end_is_moved_back_inside_the_file(self):
        content = _lines("a = 1", "b = 2", "c = 3", "finalize_everything_now(y)")
        best = closest_regions(content, "finalize_everything_now(x)\nzz\nqq")[0]
        # The file's last line is its empty fifth: the window ends there, three lines long.
        assert (best.start_line, best.end_line) == (3, 5)

    def test_a_two_line_region_names_both_lines_and_shows_their_text(self):
        content = _lines("a = 1", "def handler(event):", "    return event.payload", "b = 2")
        best = closest_regions(content, "def handler(event):\n    return event.body")[0]
        assert (best.start_line, best.end_line) == (2, 3)
        assert best.text == "def handler(event):\n    return event.payload"

    def test_places_found_by_votes_up_to_the_limit_skip_the_fuzzy_search(self):
        # Three places hold the quote's short line verbatim: enough, so the place holding
        # only a near copy of its long line is not looked for.
        content = _lines(
            "common_line_here",
            "unrelated_one",
            "common_line_here",
            "unrelated_two",
            "common_line_here",
            "unrelated_three",
            "common_line_heer",
            "UNIQUE distinctive longest line xyy",
        )
        quote = "common_line_here\nUNIQUE distinctive longest line xyz"
        assert sorted(_places(content, quote)) == [(1, 2), (3, 4), (5, 6)]

    def test_fewer_voted_places_than_the_limit_are_completed_by_the_fuzzy_search(self):
        content = _lines(
            "common_line_here",
            "unrelated_one",
            "common_line_heer",
            "UNIQUE distinctive longest line xyy",
        )
        quote = "common_line_here\nUNIQUE distinctive longest line xyz"
        assert _places(content, quote)[0] == (3, 4)


class TestOrderAndOverlap:
    def test_equally_similar_regions_are_listed_in_file_order(self):
        content = _lines("handle(request)", "x = 1", "handle(request)", "y = 2")
        assert _places(content, "handle(request)") == [(1, 1), (3, 3)]

    def test_no_more_regions_than_the_limit_three_by_default(self):
        content = _lines(*[f"value = compute({n})" for n in range(6)])
        assert len(closest_regions(content, "value = compute(9)")) == 3
        assert len(closest_regions(content, "value = compute(9)", limit=5)) == 5

    def test_a_window_overlapping_a_better_one_that_starts_earlier_is_left_out(self):
        content = _lines("alpha_line", "beta_line", "beta_line", "x = 1", "y = 2")
        places = _places(content, "alpha_line\nbeta_line")
        assert places[0] == (1, 2) and (2, 3) not in places

    def test_a_window_overlapping_a_better_one_that_starts_later_is_left_out(self):
        content = _lines("alpha_line", "alpha_line", "beta_line", "x = 1", "y = 2")
        places = _places(content, "alpha_line\nbeta_line")
        assert places[0] == (2, 3) and (1, 2) not in places

    def test_a_weaker_place_after_an_overlapping_window_is_still_shown(self):
        # Lines 1-2 are more like the quote than lines 6-7, but overlap the best region.
        content = _lines(
            "alpha_line", "alpha_line", "beta_line", "x = 1", "y = 2", "alpha_line", "qqqqqqqqq"
        )
        assert _places(content, "alpha_line\nbeta_line") == [(2, 3), (6, 7)]


def _long_line(fill: str, length: int, inner: str = "", at: int = 0) -> str:
    line = (fill * length)[:length]
    return line[:at] + inner + line[at + len(inner) :] if inner else line


class TestFragmentsOfLongLines:
    key = "compute_total(items, tax_rate)"

    def test_a_one_line_quote_sixty_percent_like_a_line_is_shown_there(self):
        # 2 * 9 / 30 = 0.6: good enough, so long lines are not searched.
        short = "abcdefghiXXXXXX"
        long = _long_line("-", 600, "abcdefghijklmno", at=300)
        regions = closest_regions(_lines(short, long), "abcdefghijklmno")
        assert (regions[0].start_line, regions[0].similarity) == (1, 0.6)

    def test_a_one_line_quote_just_under_sixty_percent_like_any_line_is_looked_for_in_long_lines(
        self,
    ):
        # 2 * 10 / 34 = 0.588 for the short line.
        short = "abcdefghijXXXXXXX"
        long = _long_line("-", 600, "abcdefghijklmnopq", at=300)
        best = closest_regions(_lines(short, long), "abcdefghijklmnopq")[0]
        assert (best.start_line, best.similarity) == (2, 1.0)
        assert best.text == "-" * 20 + "abcdefghijklmnopq" + "-" * 20

    def test_a_one_line_quote_a_little_under_sixty_percent_like_a_line_is_looked_for_too(self):
        # 2 * 14 / 47 = 0.596 for the short line.
        short = "abcdefghijklmnXXXXXXXXX"
        long = _long_line("-", 600, "abcdefghijklmn0123456789", at=300)
        best = closest_regions(_lines(short, long), "abcdefghijklmn0123456789")[0]
        assert (best.start_line, best.similarity) == (2, 1.0)

    def test_a_multi_line_quote_is_not_looked_for_in_long_lines(self):
        long = _long_line(";", 800, "first_quoted_line()", at=100)
        content = _lines(long, "first_quoted_line()", "second_quoted_line()")
        best = closest_regions(content, "first_quoted_line()\nsecond_quoted_lime()")[0]
        assert (best.start_line, best.end_line) == (2, 3)

    def test_a_fragment_at_the_start_of_a_long_line_is_shown_from_the_line_start(self):
        long = _long_line(" x", 700, self.key, at=0)
        best = closest_regions(_lines("short = 1", long), self.key)[0]
        assert best.start_line == 2 and best.text == long[: len(self.key) + 20]

    def test_an_eight_character_fragment_is_looked_for_in_long_lines(self):
        long = _long_line("-", 600, "zq_fn(a)", at=200)
        best = closest_regions(_lines("short = 1", long), "zq_fn(a)")[0]
        assert (best.start_line, best.similarity) == (2, 1.0)
        assert best.text == "-" * 20 + "zq_fn(a)" + "-" * 20

    def test_a_line_of_exactly_five_hundred_characters_counts_as_long(self):
        long = _long_line("-", 500, self.key, at=200)
        best = closest_regions(_lines("short = 1", long), self.key)[0]
        assert best.start_line == 2 and len(best.text) == len(self.key) + 40

    def test_a_line_must_be_four_times_the_quote_to_count_as_long(self):
        key = "k" * 60 + self.key + "k" * 40
        four_times = _long_line("-", 4 * len(key), key, at=200)
        just_under = _long_line("+", 4 * len(key) - 1, key, at=200)
        found = closest_regions(_lines(four_times, "short = 1", just_under), key)
        # Only the first is searched as a long line: the other is shown whole.
        assert [(r.start_line, len(r.text)) for r in found][:1] == [(1, len(key) + 40)]
        assert all(region.start_line != 3 or region.text == just_under for region in found)

    def test_only_the_eight_longest_long_lines_are_searched(self):
        others = [_long_line("-", 600 + n, "", 0) for n in range(8)]
        holding = _long_line("+", 900, self.key, at=400)
        # The line that holds the fragment comes last but is the longest: it is searched.
        best = closest_regions(_lines(*others, holding), self.key)[0]
        assert best.start_line == 9 and best.similarity == 1.0

    def test_a_long_line_unlike_the_quote_is_passed_over_for_the_next(self):
        unlike = _long_line("#", 900)
        holding = _long_line("-", 700, self.key, at=300)
        best = closest_regions(_lines(unlike, holding), self.key)[0]
        assert (best.start_line, best.similarity) == (2, 1.0)

    def test_with_no_long_line_like_the_quote_the_ordinary_lines_are_shown(self):
        # The short line is only half like the quote, the long one less than 60% anywhere.
        content = _lines("lorem ipsum " * 80, "compute(x)")
        found = closest_regions(content, self.key)
        assert (found[0].start_line, found[0].similarity) == (2, 0.5)
        assert all(region.text in ("compute(x)", "lorem ipsum " * 80) for region in found)

    def test_long_line_stretches_come_best_first_then_in_file_order(self):
        near = self.key.replace("tax", "tux")
        lines = [
            _long_line("z", 600, near, at=100),
            _long_line("z", 700, self.key, at=100),
            _long_line("a", 800, self.key, at=100),
            _long_line("b", 650, self.key, at=100),
        ]
        found = closest_regions(_lines(*lines), self.key)
        assert [r.start_line for r in found] == [2, 3, 4]
        assert [r.similarity for r in found] == [1.0, 1.0, 1.0]

    def test_a_weaker_long_line_stretch_comes_after_a_better_one(self):
        near = self.key.replace("tax", "tux")
        lines = [_long_line("z", 900, near, at=100), _long_line("z", 600, self.key, at=100)]
        found = closest_regions(_lines(*lines), self.key)
        assert [r.start_line for r in found] == [2, 1]
        assert found[0].similarity == 1.0 and 0.9 < found[1].similarity < 1.0
