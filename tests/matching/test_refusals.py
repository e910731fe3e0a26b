"""The refusals the cascade raises, word for word: what went wrong, where, and what next."""

from __future__ import annotations

from editengine._errors import AmbiguousMatch, CountMismatch, NoMatch
from editengine._results import Region, TierAttempt
from editengine.matching import _refusals as refusals

TRACE = (TierAttempt("exact", "no_candidates"), TierAttempt("line_trimmed", "ambiguous", 2))
TWO = (Region(3, 3), Region(7, 8, 0.9))


class TestPlacesListed:
    def test_twenty_places_are_listed_in_full(self):
        regions = tuple(Region(n, n) for n in range(1, 21))
        error = refusals.ambiguous("exact", regions, TRACE)
        assert error.message.endswith("line 19, line 20.")
        assert "more" not in error.message

    def test_past_twenty_places_the_rest_are_counted(self):
        regions = tuple(Region(n, n) for n in range(1, 24))
        error = refusals.ambiguous("exact", regions, TRACE)
        listed = ", ".join(f"line {n}" for n in range(1, 21))
        assert error.message == (
            f"old_string matches 23 places (exact match): {listed} and 3 more."
        )


class TestAmbiguous:
    def test_names_the_places_the_tier_and_what_to_do(self):
        error = refusals.ambiguous("line_trimmed", TWO, TRACE)
        assert isinstance(error, AmbiguousMatch) and error.code == "ambiguous"
        assert error.message == (
            "old_string matches 2 places (line_trimmed match): line 3, lines 7-8 (90% similar)."
        )
        assert error.hint == (
            "Include more surrounding lines in old_string so it matches exactly one place, "
            "or set replace_all=true to change every occurrence."
        )
        assert (error.candidates, error.tier, error.trace) == (TWO, "line_trimmed", TRACE)


class TestNearTie:
    def test_says_editing_one_of_them_would_be_a_guess(self):
        error = refusals.near_tie("fuzzy", TWO, TRACE)
        assert isinstance(error, AmbiguousMatch) and error.code == "ambiguous"
        assert error.message == (
            "old_string is not in the file verbatim and nearly fits several places "
            "(line 3, lines 7-8 (90% similar)); editing one of them would be a guess."
        )
        assert error.hint == (
            "Copy old_string exactly from the place you mean, with enough lines to tell it "
            "apart from the others."
        )
        assert (error.candidates, error.tier, error.trace) == (TWO, "fuzzy", TRACE)


class TestMadeBeforeOrMeantHere:
    def test_names_where_the_quote_loosely_stands_and_where_new_string_already_does(self):
        standing = Region(12, 13)
        error = refusals.made_before_or_meant_here("block_anchor", TWO, standing, TRACE)
        assert isinstance(error, AmbiguousMatch) and error.code == "ambiguous"
        assert error.message == (
            "old_string is not in the file as quoted: it stands only loosely at line 3, "
            "lines 7-8 (90% similar) (block_anchor match), while new_string already stands at "
            "lines 12-13. Either the edit was made before, or those lines are meant; telling "
            "which would be a guess."
        )
        assert error.hint == (
            "Re-read lines 12-13: if the edit is already there, nothing is left to do; "
            "otherwise copy old_string exactly from the lines you mean."
        )
        assert error.candidates == (*TWO, standing)
        assert (error.tier, error.trace) == ("block_anchor", TRACE)


class TestPartialCount:
    def test_names_the_whole_places_and_those_inside_longer_expressions(self):
        cut = (Region(20, 20),)
        error = refusals.partial_count("whitespace", TWO, cut, TRACE)
        assert isinstance(error, AmbiguousMatch) and error.code == "ambiguous"
        assert error.message == (
            "old_string is not in the file verbatim; respaced, it stands at line 3, lines 7-8 "
            "(90% similar) (whitespace match) but also inside longer expressions at line 20. "
            "Replacing only the first would leave the others behind."
        )
        assert error.hint == (
            "Quote old_string exactly as the file spells it, or edit the places one by one."
        )
        assert error.candidates == (*TWO, *cut)
        assert (error.tier, error.trace) == ("whitespace", TRACE)


class TestCountMismatch:
    def test_names_the_expected_and_found_counts(self):
        error = refusals.count_mismatch("exact", 3, TWO, TRACE)
        assert isinstance(error, CountMismatch) and error.code == "count_mismatch"
        assert error.message == (
            "Expected 3 replacement(s) but old_string matches 2 place(s) (exact match): "
            "line 3, lines 7-8 (90% similar)."
        )
        assert error.hint == (
            "Adjust expected_replacements, or make old_string match exactly the places to change."
        )
        assert (error.expected, error.found) == (3, 2)
        assert (error.candidates, error.tier, error.trace) == (TWO, "exact", TRACE)


class TestNoMatch:
    content = "".join(f"setting_{n} = load({n})\n" for n in range(1, 30))

    def test_names_the_tiers_tried_and_numbers_the_closest_region(self):
        error = refusals.no_match(self.content, "setting_7 = load(7)\nsetting_8 = lode(8)", TRACE)
        assert isinstance(error, NoMatch) and error.code == "no_match"
        assert error.message.startswith(
            "old_string was not found in the file (tried: exact, line_trimmed). The most "
            "similar region is lines 7-8 ("
        )
        assert error.message.split("\n")[1:3] == [
            "     7\tsetting_7 = load(7)",
            "     8\tsetting_8 = load(8)",
        ]
        assert error.closest[0] == Region(7, 8, error.closest[0].similarity, error.closest[0].text)
        assert error.trace == TRACE

    def test_lists_the_other_similar_regions_after_the_best(self):
        error = refusals.no_match(self.content, "setting_7 = load(7)", TRACE)
        others = ", ".join(region.describe() for region in error.closest[1:])
        assert len(error.closest) == 3
        assert error.message.endswith(f"\nOther similar regions: {others}.")
        assert error.closest[1].describe() in error.message.split("\n")[-1]

    def test_with_one_region_names_no_others(self):
        error = refusals.no_match("alpha = 1\n", "alpha = 2", TRACE)
        assert len(error.closest) == 1 and "Other similar regions" not in error.message

    def test_with_nothing_similar_names_only_the_tiers_tried(self):
        error = refusals.no_match("", "anything at all", TRACE)
        assert error.message == "old_string was not found in the file (tried: exact, line_trimmed)."
        assert error.closest == ()

    def test_tells_the_agent_to_copy_old_string_as_it_stands(self):
        error = refusals.no_match(self.content, "nothing like it", TRACE)
        assert error.hint == (
            "Re-read the file around those lines and copy old_string exactly as it stands "
            "there, including indentation; keep it short but unique."
        )
