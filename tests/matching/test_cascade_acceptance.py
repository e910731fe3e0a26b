"""The cascade's judgement of what a tier found: a fuzzy tier's threshold and margin (its
own or the defaults), which candidates win and in what order they are written, when places
overlap, and what the result and the refusals report.

A scripted tier stands for any tier: it places old_string on chosen lines with chosen
similarities, so each rule is checked on the exact numbers at its edges.
"""

from __future__ import annotations

import time
from typing import ClassVar

import pytest

from editengine import (
    DEFAULT_CASCADE,
    AmbiguousMatch,
    BadRequest,
    Cascade,
    CountMismatch,
    NoMatch,
    edit_text,
)
from editengine.matching import ExactTier, LineTrimmedTier
from editengine.matching._base import Match, TooManyPlaces

CONTENT = "".join(f"line {number}\n" for number in range(8))
OLD, NEW = "quoted words", "written words"


def _line_span(number: int) -> tuple[int, int]:
    start = CONTENT.index(f"line {number}\n")
    return start, start + len(f"line {number}")


class _Scripted:
    """Finds old_string on line ``i`` with similarity ``similarities[i]`` (``None``: not
    there); ``held_to`` sets the tier's own ``threshold`` and ``margin``."""

    name: ClassVar[str] = "scripted"
    fuzzy: ClassVar[bool] = True

    def __init__(self, *similarities: float | None, **held_to: object) -> None:
        self.similarities = similarities
        for setting, value in held_to.items():
            setattr(self, setting, value)

    def find(self, content: str, old: str) -> list[Match]:
        return [
            Match(*_line_span(number), similarity)
            for number, similarity in enumerate(self.similarities)
            if similarity is not None
        ]


def _edit(tier: _Scripted, **request: object) -> str:
    return Cascade([tier]).edit(CONTENT, OLD, NEW, **request).new_content  # type: ignore[arg-type]  # passed on as given


def _written_on(*numbers: int) -> str:
    lines = CONTENT.splitlines(keepends=True)
    for number in numbers:
        lines[number] = NEW + "\n"
    return "".join(lines)


def _near_tie(tier: _Scripted, **request: object) -> AmbiguousMatch:
    with pytest.raises(AmbiguousMatch) as info:
        _edit(tier, **request)
    return info.value


# --------------------------------------------------------------- threshold and margin


class TestDefaultsOfATierWithoutSettings:
    """0.9 to be accepted, 0.05 ahead of the runner-up."""

    def test_a_candidate_exactly_at_the_threshold_is_accepted(self) -> None:
        assert _edit(_Scripted(0.9)) == _written_on(0)

    def test_a_candidate_just_under_it_is_refused(self) -> None:
        with pytest.raises(NoMatch) as info:
            _edit(_Scripted(0.89))
        assert info.value.trace[-1].outcome == "refused"

    def test_a_lead_of_the_margin_wins(self) -> None:
        assert _edit(_Scripted(0.96, 0.905)) == _written_on(0)

    def test_a_lead_under_the_margin_is_a_near_tie(self) -> None:
        assert _near_tie(_Scripted(0.95, 0.91)).tier == "scripted"

    def test_the_trace_records_the_defaults_the_tier_was_held_to(self) -> None:
        result = Cascade([_Scripted(0.95)]).edit(CONTENT, OLD, NEW)
        attempt = result.trace[-1]
        assert (attempt.threshold, attempt.margin) == (0.9, 0.05)
        assert (attempt.outcome, attempt.candidates, attempt.best_similarity) == (
            "matched",
            1,
            0.95,
        )
        assert isinstance(attempt.elapsed_ms, float)


class TestATiersOwnSettings:
    """Threshold 0.75 and margin 0.25: the edges are exact in binary."""

    def test_a_lead_under_its_own_margin_is_a_near_tie_though_over_the_default(self) -> None:
        _near_tie(_Scripted(1.0, 0.8, threshold=0.75, margin=0.25))

    def test_a_lead_of_exactly_its_margin_wins(self) -> None:
        assert _edit(_Scripted(0.75, 0.5, threshold=0.75, margin=0.25)) == _written_on(0)

    def test_the_trace_records_what_the_tier_was_held_to(self) -> None:
        result = Cascade([_Scripted(1.0, threshold=0.75, margin=0.25)]).edit(CONTENT, OLD, NEW)
        assert (result.trace[-1].threshold, result.trace[-1].margin) == (0.75, 0.25)

    def test_settings_that_are_no_numbers_give_way_to_the_defaults(self) -> None:
        # A flag is no similarity, though Python counts True as 1.
        tier = _Scripted(0.95, threshold=True, margin="wide")
        attempt = Cascade([tier]).edit(CONTENT, OLD, NEW).trace[-1]
        assert (attempt.threshold, attempt.margin) == (0.9, 0.05)
        assert attempt.outcome == "matched"  # held to 0.9, not to True


# --------------------------------------------------------------------- which places win


class TestTheWinners:
    def test_the_best_candidate_wins_wherever_it_stands(self) -> None:
        assert _edit(_Scripted(0.5, 0.95)) == _written_on(1)

    def test_the_wanted_number_of_best_candidates_are_written_in_file_order(self) -> None:
        result = Cascade([_Scripted(0.9, 1.0, 0.3)]).edit(
            CONTENT, OLD, NEW, expected_replacements=2
        )
        assert result.new_content == _written_on(0, 1)
        assert [span.start_line for span in result.spans] == [1, 2]

    def test_replace_all_writes_every_accepted_candidate_in_file_order(self) -> None:
        tier = _Scripted(0.8, 1.0, 0.2, threshold=0.75, margin=0.25)
        assert _edit(tier, replace_all=True) == _written_on(0, 1)

    def test_replace_all_takes_a_candidate_exactly_at_the_threshold(self) -> None:
        tier = _Scripted(1.0, 0.75, threshold=0.75, margin=0.25)
        assert _edit(tier, replace_all=True) == _written_on(0, 1)

    def test_replace_all_refuses_a_candidate_just_under_the_threshold(self) -> None:
        # 0.5 is the threshold less the margin: too close to tell whether it is meant.
        error = _near_tie(_Scripted(1.0, 0.5, threshold=0.75, margin=0.25), replace_all=True)
        assert [region.similarity for region in error.candidates] == [1.0, 0.5]

    def test_replace_all_leaves_out_a_candidate_clearly_under_the_threshold(self) -> None:
        tier = _Scripted(1.0, 0.49, threshold=0.75, margin=0.25)
        assert _edit(tier, replace_all=True) == _written_on(0)


class TestNearTieRefusals:
    def test_a_near_tie_names_the_candidates_best_first_and_its_trace(self) -> None:
        error = _near_tie(_Scripted(0.91, 0.95))
        assert error.code == "ambiguous"
        assert [(region.start_line, region.similarity) for region in error.candidates] == [
            (2, 0.95),
            (1, 0.91),
        ]
        assert "nearly fits several places" in str(error)
        assert [(attempt.tier, attempt.outcome) for attempt in error.trace] == [
            ("scripted", "ambiguous")
        ]

    def test_a_near_tie_names_five_candidates_at_most(self) -> None:
        error = _near_tie(_Scripted(*[0.95] * 6))
        assert [region.start_line for region in error.candidates] == [1, 2, 3, 4, 5]


# ------------------------------------------------------------------------ place counts


class _Overlapping:
    """A tier that is sure of two places that share a character."""

    name: ClassVar[str] = "overlapping"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        return [Match(0, 4), Match(3, 6)]


def test_overlapping_places_are_ambiguous_even_when_as_many_as_expected() -> None:
    with pytest.raises(AmbiguousMatch) as info:
        Cascade([_Overlapping()]).edit(CONTENT, OLD, NEW, expected_replacements=2)
    assert not isinstance(info.value, CountMismatch)
    assert info.value.tier == "overlapping"


def test_places_that_touch_without_overlapping_are_all_replaced() -> None:
    assert edit_text("aaa", "a", "b", replace_all=True).new_content == "bbb"


# ----------------------------------------------------------------- what the result says


def test_the_result_carries_new_string_as_written_into_the_file() -> None:
    result = edit_text("def f():\n    x = 1\n    y = 1\n", "x = 1\ny = 1", "x = 2\ny = 3")
    assert result.strategy == "line_trimmed"
    assert result.rewritten_new_string == "    x = 2\n    y = 3"


def test_an_edit_that_writes_the_text_already_there_reports_no_change() -> None:
    content = "print(\u201chi\u201d)\n"
    result = edit_text(content, 'print("hi")', "print(\u201chi\u201d)")
    assert result.strategy == "unicode_punctuation"
    assert result.new_content == content
    assert result.no_change is True
    assert edit_text(content, 'print("hi")', 'print("ho")').no_change is False


def test_identical_strings_change_nothing_and_say_so() -> None:
    result = edit_text("abc", "x", "x")
    assert (result.new_content, result.replacements, result.strategy) == ("abc", 0, "no_op")
    assert result.no_change is True
    assert result.note == "old_string and new_string are identical; nothing to change."


class TestWholeFile:
    def test_an_empty_file_takes_new_string_with_its_own_line_endings(self) -> None:
        result = edit_text("", "", "a\r\nb\r\n")
        assert (result.new_content, result.replacements, result.strategy) == (
            "a\r\nb\r\n",
            1,
            "whole_file",
        )
        assert result.no_change is False

    def test_a_file_rewritten_with_its_own_text_is_no_change(self) -> None:
        result = edit_text("a\r\nb\r\n", "", "a\nb\n", overwrite=True)
        assert (result.new_content, result.replacements) == ("a\r\nb\r\n", 1)
        assert result.no_change is True


def test_tiers_sharing_a_name_are_refused_with_the_names() -> None:
    with pytest.raises(ValueError, match=r"tier names must be unique: \['scripted', 'scripted'\]"):
        Cascade([_Scripted(1.0), _Scripted(1.0)])


# ------------------------------------------------------- retries, deletions, refusals


class TestAnEditMadeBefore:
    def test_new_string_around_a_quote_at_another_depth_is_a_retry_with_its_trace(self) -> None:
        content = "def f():\n    a1 = 1\n    b1 = 2\n    c1 = 3\n"
        result = edit_text(content, "a1 = 1\nb1 = 2", "a1 = 1\nb1 = 2\nc1 = 3")
        assert (result.strategy, result.new_content, result.no_change) == (
            "already_applied",
            content,
            True,
        )
        assert result.note == (
            "new_string is already in the file where old_string is; the edit was applied before."
        )
        assert [(attempt.tier, attempt.outcome) for attempt in result.trace] == [
            ("exact", "no_candidates"),
            ("line_trimmed", "matched"),
        ]

    def test_new_string_standing_elsewhere_is_refused_as_made_before_or_meant_here(self) -> None:
        content = "    alpha_one = 1\n    beta_two = 2\nalpha_one = 1\nbeta_two = 3\n"
        with pytest.raises(AmbiguousMatch) as info:
            edit_text(content, "alpha_one = 1\nbeta_two = 2", "alpha_one = 1\nbeta_two = 3")
        error = info.value
        assert error.tier == "line_trimmed"
        assert [(region.start_line, region.end_line) for region in error.candidates] == [
            (1, 2),
            (3, 4),
        ]
        assert "Either the edit was made before, or those lines are meant" in str(error)
        assert [(attempt.tier, attempt.outcome) for attempt in error.trace] == [
            ("exact", "no_candidates"),
            ("line_trimmed", "ambiguous"),
        ]


class TestADeletionOfQuotedLines:
    """new_string standing inside the quote's own place, at either of its edges, is what
    is left once the other lines are deleted: the edit is made."""

    content = "    alpha_one = 1\nbeta_two = 2\n    gamma_three = 3\n"
    old = "alpha_one = 1\nbeta_two = 2\ngamma_three = 3"

    def test_keeping_the_first_lines(self) -> None:
        result = edit_text(self.content, self.old, "    alpha_one = 1\nbeta_two = 2")
        assert result.strategy == "line_trimmed"
        assert result.new_content == "    alpha_one = 1\nbeta_two = 2\n"

    def test_keeping_the_last_lines(self) -> None:
        result = edit_text(self.content, self.old, "beta_two = 2\n    gamma_three = 3")
        assert result.strategy == "line_trimmed"
        assert result.new_content == "beta_two = 2\n    gamma_three = 3\n"


def test_a_partial_count_refusal_names_the_tier_and_ends_its_trace() -> None:
    content = "x = foo\ny = 1\nx = foo (a, b)\n"
    with pytest.raises(AmbiguousMatch) as info:
        edit_text(content, "x=foo", "x = bar", replace_all=True)
    assert info.value.tier == "whitespace"
    assert [region.start_line for region in info.value.candidates] == [1, 3]
    assert (info.value.trace[-1].tier, info.value.trace[-1].outcome) == ("whitespace", "ambiguous")
    assert len(info.value.trace) == len(DEFAULT_CASCADE.tiers_for("whitespace"))


# ------------------------------------------------------------------ the time a tier took


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Slow:
    """A tier that takes a quarter of a second on the cascade's clock."""

    name: ClassVar[str] = "slow"
    fuzzy: ClassVar[bool] = False

    def __init__(self, clock: _Clock, *, too_many: bool) -> None:
        self.clock, self.too_many = clock, too_many

    def find(self, content: str, old: str) -> list[Match]:
        self.clock.now += 0.25
        if self.too_many:
            raise TooManyPlaces(self.name, 3, ())
        return [Match(*_line_span(0))]


@pytest.mark.parametrize("too_many", [False, True], ids=["matched", "too many places"])
def test_the_trace_gives_a_tiers_time_in_milliseconds(
    monkeypatch: pytest.MonkeyPatch, too_many: bool
) -> None:
    clock = _Clock()
    monkeypatch.setattr(time, "perf_counter", clock)
    cascade = Cascade([_Slow(clock, too_many=too_many)])
    try:
        trace = cascade.edit(CONTENT, OLD, NEW).trace
    except AmbiguousMatch as error:
        assert too_many
        trace = error.trace
        assert (trace[-1].outcome, trace[-1].candidates) == ("ambiguous", 4)
    assert trace[-1].elapsed_ms == 250.0


# ---------------------------------------------------------------- requests and retries


class TestRequests:
    def test_an_unknown_match_mode_is_refused_with_the_modes_there_are(self) -> None:
        cascade = Cascade([ExactTier(), LineTrimmedTier()])
        with pytest.raises(BadRequest) as info:
            cascade.edit("a", "a", "b", match_mode="fuzzy")
        assert str(info.value) == (
            "Unknown match_mode 'fuzzy'. Use one of: auto, exact, line_trimmed."
        )

    def test_an_empty_match_mode_is_refused_as_such(self) -> None:
        with pytest.raises(BadRequest) as info:
            edit_text("a", "a", "b", match_mode="")
        assert str(info.value) == "match_mode must be a non-empty string, got ''."

    def test_content_that_is_not_a_string_is_refused_by_its_type(self) -> None:
        with pytest.raises(BadRequest) as info:
            edit_text(b"a", "a", "b")  # type: ignore[arg-type]  # a wrong type on purpose
        assert str(info.value) == "content must be a string, got bytes."

    def test_a_cascade_edits_one_place_unless_asked_for_more(self) -> None:
        with pytest.raises(AmbiguousMatch):
            Cascade([ExactTier()]).edit("a a", "a", "b")


class TestRetries:
    def test_new_string_standing_around_the_verbatim_quote_is_found_before_any_tier(
        self,
    ) -> None:
        content = "import os\nimport sys\n"
        result = edit_text(content, "import os", "import os\nimport sys")
        assert (result.strategy, result.new_content, result.trace) == (
            "already_applied",
            content,
            (),
        )
        assert result.note == (
            "new_string is already in the file where old_string is; the edit was applied before."
        )

    def test_new_string_standing_where_no_tier_found_the_quote_carries_every_tiers_miss(
        self,
    ) -> None:
        content = "def f():\n    return compute(a, b)\n"
        result = edit_text(content, "    return compute(a)", "    return compute(a, b)")
        assert result.strategy == "already_applied"
        assert [(attempt.tier, attempt.outcome) for attempt in result.trace] == [
            (name, "no_candidates") for name in DEFAULT_CASCADE.tier_names
        ]


def test_erasing_a_file_with_two_empty_strings_is_refused_with_what_to_do() -> None:
    with pytest.raises(BadRequest) as info:
        edit_text("abc", "", "")
    assert str(info.value).startswith(
        "old_string and new_string are both empty: that would erase the file."
    )
    assert info.value.hint == (
        "To replace the whole file pass its new text as new_string; to change part of it "
        "quote that part in old_string."
    )


# ------------------------------------------------------------- count refusals' traces


class TestCountRefusals:
    def test_an_ambiguity_records_how_many_places_the_tier_found(self) -> None:
        with pytest.raises(AmbiguousMatch) as info:
            edit_text("x = 1\ny = 2\nx = 1\n", "x = 1", "x = 3")
        assert [(a.tier, a.outcome, a.candidates) for a in info.value.trace] == [
            ("exact", "ambiguous", 2)
        ]

    def test_a_count_mismatch_names_its_tier_and_carries_the_trace(self) -> None:
        with pytest.raises(CountMismatch) as info:
            edit_text("a a", "a", "b", expected_replacements=3)
        assert info.value.tier == "exact"
        assert [(a.tier, a.outcome, a.candidates) for a in info.value.trace] == [
            ("exact", "ambiguous", 2)
        ]

    def test_an_ambiguity_among_accepted_fuzzy_candidates_counts_those_only(self) -> None:
        # Two overlapping candidates accepted, one far under the threshold left out.
        with pytest.raises(AmbiguousMatch) as info:
            Cascade([_FuzzyOverlapping()]).edit(CONTENT, OLD, NEW, replace_all=True)
        assert [(a.outcome, a.candidates) for a in info.value.trace] == [("ambiguous", 2)]


class _FuzzyOverlapping:
    name: ClassVar[str] = "fuzzy_overlapping"
    fuzzy: ClassVar[bool] = True

    def find(self, content: str, old: str) -> list[Match]:
        return [Match(0, 4, 1.0), Match(3, 6, 1.0), Match(10, 12, 0.2)]


class _VerbatimTwice:
    """Four places, the two quoted as they are side by side."""

    name: ClassVar[str] = "verbatim_twice"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        first, second = _line_span(0), _line_span(1)
        return [
            Match(first[0], first[1] + 1, verbatim=True),
            Match(second[0], second[1] + 1, verbatim=True),
            Match(*_line_span(3)),
            Match(*_line_span(5)),
        ]


def test_the_places_quoted_verbatim_are_taken_though_they_touch() -> None:
    result = Cascade([_VerbatimTwice()]).edit(CONTENT, OLD, "written\n", expected_replacements=2)
    assert result.new_content == "written\nwritten\n" + CONTENT.split("\n", 2)[2]
