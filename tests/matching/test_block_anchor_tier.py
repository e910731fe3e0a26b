"""The block-anchor tier's rules: what a slip is, how many lines may differ, where a block
may stand, how candidates are voted for and placed, and how a typo fix merges with an edit."""

from __future__ import annotations

import pytest

from editengine import AmbiguousMatch, Cascade, edit_text
from editengine.matching import BlockAnchorTier, default_tiers
from editengine.matching._anchor import fuzzy_starts, merge3, voted_starts
from editengine.matching._base import Match
from editengine.matching._lines import LineView


def apply(content: str, match: Match, new: str) -> str:
    replacement = match.rewrite(new) if match.rewrite else new
    return content[: match.start] + replacement + content[match.end :]


def block_around(line: str) -> str:
    return f"def handle(request):\n    check(request)\n    {line}\n    log(request)\n    return 1\n"


def forgiven(line: str, misquoted: str) -> bool:
    """Whether the tier finds a five-line block whose middle line is quoted misspelt."""
    content = block_around(line)
    quote = block_around(misquoted).rstrip("\n")
    return len(BlockAnchorTier().find(content, quote)) == 1


class TestWhatASlipOfAKeyIs:
    """A line quoted with more typos than max_line_edits is forgiven only when each is a
    slip: a character or two dropped, doubled, swapped or struck wrong, inside a word."""

    @pytest.mark.parametrize(
        ("line", "misquoted"),
        [
            # five characters struck wrong in twenty: exactly the likeness required
            ("if key in seen: skip", "of kry un sewn: skop"),
            # two letters dropped at once, and a swap
            ("result = compute_total(values)", "reslut = compute_total(vals)"),
            # a letter struck thrice: two extra characters at once, and a swap
            ("result = compute_total(values)", "reslut = compute_total(valuuues)"),
            # as many slips in one short word as it may take (three characters)
            ("result = compute_total(values)", "reslut = compute_toatl(vakes)"),
            # a long word may take slips in up to half its characters
            ("result = compute_total(parameters)", "reslut = compute_total(paranetwrs)"),
            # an underscore joins a name into one word: its slips are counted over all of it
            ("total_amount = compute(values)", "total_amiunr = compuet(values)"),
        ],
    )
    def test_these_are_slips(self, line, misquoted):
        assert forgiven(line, misquoted)

    @pytest.mark.parametrize(
        ("line", "misquoted"),
        [
            # long, but another line altogether
            ("result = compute_total(values)", "answer = summarise_everything(items)"),
            # seven slips are too many, however alike the line stays
            (
                "first_value + second_value + third_value + fourth",
                "firsr_valuw + secons_valie + thirf_balue + foueth",
            ),
            # three characters dropped at once
            ("result = compute_total(values)", "reslut = compute_total(val)"),
            # a number changed beside the slips
            ("retries = fetch_all(limit=10)", "retires = fetch_all(limti=19)"),
            # a one-letter name replaced beside the slips
            ("point = scale(x, factor)", "piont = scale(y, factro)"),
        ],
    )
    def test_these_are_not(self, line, misquoted):
        assert not forgiven(line, misquoted)


class TestHowManyLinesMayDiffer:
    lines = tuple(f"value_{name} = load('{name}')" for name in "abcdefgh")

    def block(self, size: int) -> str:
        return "\n".join(self.lines[:size]) + "\n"

    def test_a_quarter_of_the_lines_may_each_hold_a_small_typo(self):
        content = self.block(8)
        # Typos in names; the inside of a string literal is never forgiven (test_meaning).
        old = content.replace("load('b')", "laod('b')").replace("load('f')", "loaad('f')")
        (match,) = BlockAnchorTier().find(content, old)
        new = old.replace("value_h", "value_last")
        assert apply(content, match, new) == content.replace("value_h", "value_last")

    def test_more_than_a_quarter_is_not_a_typo(self):
        content = self.block(7)
        old = content.replace("load('b')", "laod('b')").replace("load('f')", "load('ff')")
        assert BlockAnchorTier().find(content, old) == []

    def test_a_line_with_several_typos_allows_no_other_typo_in_the_block(self):
        content = (
            "def handle(request):\n"
            "    check(request)\n"
            "    result = compute_total(values)\n"
            "    log(request)\n"
            "    notify(request)\n"
            "    store(request)\n"
            "    audit(request)\n"
            "    return 1\n"
        )
        old = content.replace("compute_total(values)", "comptue_total(vaules)")
        assert len(BlockAnchorTier().find(content, old)) == 1
        assert BlockAnchorTier().find(content, old.replace("audit(", "audti(")) == []

    def test_a_line_with_several_typos_between_two_intact_lines_is_enough(self):
        content = "check(request)\nresult = compute_total(values)\nreturn 1\n"
        old = content.replace("result = compute_total", "reslut = comptue_total")
        (match,) = BlockAnchorTier().find(content, old)
        assert (match.start, match.end) == (0, len(content))

    def test_a_line_with_several_typos_needs_two_intact_lines_to_hold_it(self):
        content = "check(request)\nresult = compute_total(values)\n"
        old = content.replace("result = compute_total", "reslut = comptue_total")
        assert BlockAnchorTier(min_lines=2).find(content, old) == []
        # one typo in the same place is held by the single intact line
        one_typo = content.replace("compute_total", "compute_totl")
        assert len(BlockAnchorTier(min_lines=2).find(content, one_typo)) == 1

    def test_a_blank_line_is_no_typo_of_a_closing_bracket(self):
        content = "values = [\n    first_value,\n    second_value,\n]\nresult = combine(values)\n"
        old = content.replace("\n]\n", "\n\n")
        assert BlockAnchorTier().find(content, old) == []

    def test_blank_lines_quoted_around_the_block_are_not_written_twice(self):
        content = "a = 1\n\ndef total(items):\n    count = len(items)\n    return count\n\nb = 2\n"
        old = "\ndef total(itemz):\n    count = len(items)\n    return count\n\n"
        new = "\ndef total(itemz):\n    count = len(items)\n    return count + 1\n\n"
        (match,) = BlockAnchorTier().find(content, old)
        assert apply(content, match, new) == content.replace("return count", "return count + 1")


def default_cascade() -> Cascade:
    """The default tiers, made afresh (the shared default cascade is made once, on import)."""
    return Cascade(default_tiers())


class TestInTheCascade:
    content = (
        "def total(items):\n"
        "    result = 0\n"
        "    for item in items:\n"
        "        result += item.price\n"
        "    return result\n"
    )

    def test_a_block_quoted_with_a_typo_is_edited_by_the_default_tiers(self):
        old = self.content.replace("for item in items", "for item in itemz")
        new = old.replace("return result", "return round(result)")
        result = edit_text(self.content, old, new, cascade=default_cascade())
        assert result.strategy == "block_anchor"
        assert result.new_content == self.content.replace("return result", "return round(result)")

    def test_of_two_blocks_the_clearly_closer_one_is_edited(self):
        near = "first = 1\nsecond = 2\nthird = 3\n"
        far = near.replace("third = 3", "third = 99")
        content = near + "\n" + far
        old = near.replace("third = 3", "thrid = 3")
        new = old.replace("first = 1", "first = 0")
        result = edit_text(content, old, new, cascade=default_cascade())
        assert result.new_content == content.replace("first = 1", "first = 0", 1)

    def test_two_blocks_alike_within_the_margin_are_refused_as_a_near_tie(self):
        first = "alpha = 1\nbeta = 2\ngamma = 3\ndelta = 4\n"
        second = first.replace("gamma = 3", "gamme = 3")
        content = first + "\n" + second
        old = first.replace("gamma = 3", "gammo = 3")
        with pytest.raises(AmbiguousMatch):
            edit_text(content, old, old.replace("alpha", "omega"), cascade=default_cascade())


class TestVotesForTheBlock:
    def test_half_the_distinctive_lines_must_sit_verbatim_to_vote_a_place(self):
        # Two of the three lines of four characters or more are misquoted: the intact one
        # alone does not vote. Its likeness then places the first five lines like it, and
        # the block, at the sixth, is not among them.
        block = "{\nshared_setup_line()\n}\nabcd\n}\nefgh\n}\n}\n"
        old = block.replace("abcd", "abcx").replace("efgh", "efgx")
        assert len(BlockAnchorTier().find(block, old)) == 1
        elsewhere = "".join(f"shared_setup_line()\nunrelated_{n}()\n\n" for n in range(5))
        assert BlockAnchorTier().find(elsewhere + block, old) == []


class TestPlacedByTheMisquotedLine:
    """When only the misquoted line is distinctive (braces around it cannot vote), a line
    like it places the block: the block must then lie wholly inside the file."""

    def test_a_block_at_the_very_start_of_the_file(self):
        content = "{\n    total_value = compute(x)\n}\nafter()\n"
        old = "{\n    total_valeu = compute(x)\n}"
        (match,) = BlockAnchorTier().find(content, old)
        assert (match.start, match.end) == (0, content.index("\nafter"))

    def test_a_block_at_the_very_end_of_the_file(self):
        content = "before()\n{\n    total_value = compute(x)\n}"
        old = "{\n    total_valeu = compute(x)\n}"
        (match,) = BlockAnchorTier().find(content, old)
        assert (match.start, match.end) == (content.index("{"), len(content))

    def test_a_block_that_would_start_above_the_file_is_not_there(self):
        content = "total_value = compute(x)\n}"
        assert BlockAnchorTier().find(content, "{\ntotal_valeu = compute(x)\n}") == []

    def test_a_block_that_would_run_past_the_file_is_not_there(self):
        content = "{\ntotal_value = compute(x)"
        assert BlockAnchorTier().find(content, "{\ntotal_valeu = compute(x)\n}") == []

    def test_a_misquoted_line_too_short_to_be_told_from_others_places_nothing(self):
        content = "{\ntotal = sum\n}\n"
        assert BlockAnchorTier().find(content, "{\ntotal = sun\n}") == []
        # the same slip in a line of twelve characters is enough
        content = "{\ntotals = sum\n}\n"
        assert len(BlockAnchorTier().find(content, "{\ntotals = sun\n}")) == 1


class TestVoting:
    """voted_starts: windows where enough of the quote's distinctive lines sit verbatim."""

    def test_the_twelve_longest_lines_vote_not_the_first_twelve(self):
        keys = ["else"] + [f"statement_number_{n} = compute({n})" for n in range(12)]
        content = "else\n" * 3 + "\n".join(keys) + "\n"
        assert voted_starts(LineView(content), keys, min_votes=1) == [3]

    def test_lines_shorter_than_four_characters_do_not_vote(self):
        view = LineView("if:\nx = 1\nelse\n")
        assert voted_starts(view, ["if:", "missing line"], min_votes=1) == []
        assert voted_starts(view, ["missing line", "else"], min_votes=1) == [1]

    def test_a_line_standing_in_too_many_places_does_not_vote(self):
        view = LineView("    pass\n" * 100)
        assert voted_starts(view, ["pass", "missing line"], min_votes=1) == []
        assert voted_starts(LineView("    pass\n" * 64), ["pass"], min_votes=1) == list(range(64))

    def test_a_window_needs_the_votes_asked_for(self):
        view = LineView("first line\nsecond line\nthird line\n")
        keys = ["first line", "other line", "third line"]
        assert voted_starts(view, keys, min_votes=2) == [0]
        assert voted_starts(view, ["first line", "other line", "third other"], min_votes=2) == []

    def test_no_more_votes_are_asked_than_half_the_voters(self):
        view = LineView("first line\nsecond line\n")
        assert voted_starts(view, ["first line", "other line"], min_votes=2) == [0]
        assert voted_starts(view, ["first line"], min_votes=3) == [0]
        three = ["first line", "other line", "third line"]
        assert voted_starts(view, three, min_votes=3) == []

    def test_windows_lie_inside_the_file(self):
        view = LineView("alpha line\nbeta line\ngamma line")
        # alpha line is the quote's second line: its window would start above the file
        assert voted_starts(view, ["missing", "alpha line"], min_votes=1) == []
        # gamma line starts a three-line quote: its window would run past the file
        assert voted_starts(view, ["gamma line", "x", "y"], min_votes=1) == []
        assert voted_starts(view, ["beta line", "gamma line"], min_votes=1) == [1]


class TestFuzzyPlaces:
    """fuzzy_starts: windows placed by the file lines most like the quote's longest line."""

    content = "".join(f"line number {n}\n" for n in range(10))

    def test_as_many_places_as_asked_for_beyond_the_shared_five(self):
        view = LineView(self.content)
        assert len(fuzzy_starts(view, ["line number 1"], limit=8, cutoff=40)) == 8

    def test_a_cutoff_below_the_shared_one_keeps_what_it_admits(self):
        # a third alike (ratio 33) is in, nothing alike is out
        view = LineView("line number 1\nsomething else entirely\nzzz\n")
        assert fuzzy_starts(view, ["line number 1"], limit=3, cutoff=30) == [0, 1]

    def test_each_probe_has_its_own_places(self):
        view = LineView("alpha = compute(1)\nbeta = other(2)\n")
        assert fuzzy_starts(view, ["alpha = compute(1)"], limit=1, cutoff=90) == [0]
        assert fuzzy_starts(view, ["beta = other(2)"], limit=1, cutoff=90) == [1]

    @pytest.mark.parametrize("limit", [3, 8])
    def test_likeness_is_of_whole_lines(self, limit):
        # the probe stands inside a much longer line: alike in part, not as a line
        view = LineView("total = compute_total(values) + offset + extra_term\n")
        assert fuzzy_starts(view, ["compute_total(values)"], limit=limit, cutoff=90) == []

    def test_a_one_character_probe_is_enough_by_default(self):
        assert fuzzy_starts(LineView("x\ny\n"), ["", "y"], limit=1, cutoff=90) == [0]


class TestMergingTheFixWithTheEdit:
    """merge3(base, ours, theirs): the misquote, the file's line, new_string's line."""

    @pytest.mark.parametrize(
        ("base", "ours", "theirs", "merged"),
        [
            # the edit deleted the stretch the fix was in: the edit wins
            ("ebb", "edb", "b", "b"),
            ("edd", "ede", "bdc", "bdc"),
            # the edit inserted just before an insertion the fix made elsewhere
            ("ebe", "ebbe", "aee", "aebe"),
            # the edit appended where the fix deleted: both apply
            ("adc", "bad", "adcb", "badb"),
            ("dce", "dc", "e", ""),
            # the edit is the file's line rewritten: taken as written
            ("dca", "ccac", "dccc", "dccc"),
            ("edd", "ec", "aedc", "aedc"),
            ("abb", "eb", "bae", "bae"),
            ("bac", "bcca", "dbcc", "dbcc"),
        ],
    )
    def test_merges(self, base, ours, theirs, merged):
        assert merge3(base, ours, theirs) == merged

    @pytest.mark.parametrize(
        ("base", "ours", "theirs"),
        [
            # the edit is no nearer the file's line than the misquote
            ("bbd", "bdb", "bcd"),
            # the edit changed characters the fix changed
            ("dcd", "de", "ad"),
            ("ddc", "d", "dc"),
        ],
    )
    def test_conflicts(self, base, ours, theirs):
        assert merge3(base, ours, theirs) is None
