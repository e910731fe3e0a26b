"""The cascade: run tiers in order, apply the count rules, build the new text.

The first tier that finds any candidate decides. A looser tier never gets to resolve an
ambiguity a stricter one found, and a fuzzy candidate must clear both a threshold and a
margin over the runner-up.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from editengine.errors import (
    AmbiguousMatch,
    BadRequest,
    CountMismatch,
    NoMatch,
    Region,
    UnmatchedElision,
)
from editengine.matching import default_tiers
from editengine.matching.base import DoubtfulMatch, Match, Tier
from editengine.matching.closest import closest_regions
from editengine.matching.elision import is_comment_marker, marker_count
from editengine.matching.exact import ExactTier
from editengine.matching.trimmed import LineTrimmedTier
from editengine.results import TextEdit, TierAttempt
from editengine.text import LineIndex, NormalizedText, to_lf

AUTO = "auto"


@dataclass(frozen=True)
class EditRequest:
    """One search/replace, validated."""

    old_string: str
    new_string: str
    replace_all: bool = False
    expected_replacements: int | None = None
    match_mode: str = AUTO

    def __post_init__(self) -> None:
        for name in ("old_string", "new_string"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise BadRequest(f"{name} must be a string, got {type(value).__name__}.")
        expected = self.expected_replacements
        if expected is not None and (
            isinstance(expected, bool) or not isinstance(expected, int) or expected < 1
        ):
            raise BadRequest(f"expected_replacements must be a positive integer, got {expected!r}.")
        if not isinstance(self.replace_all, bool):
            raise BadRequest(f"replace_all must be true or false, got {self.replace_all!r}.")
        if not isinstance(self.match_mode, str):
            raise BadRequest(f"match_mode must be a string, got {self.match_mode!r}.")


class Cascade:
    """An ordered sequence of tiers; reorder or drop tiers without touching the engine."""

    def __init__(self, tiers: Sequence[Tier]) -> None:
        names = [tier.name for tier in tiers]
        if len(set(names)) != len(names):
            raise ValueError(f"tier names must be unique: {names}")
        self.tiers: tuple[Tier, ...] = tuple(tiers)

    @property
    def tier_names(self) -> tuple[str, ...]:
        return tuple(tier.name for tier in self.tiers)

    def without(self, *names: str) -> Cascade:
        """The same cascade with the named tiers dropped (for ablations)."""
        return Cascade([tier for tier in self.tiers if tier.name not in names])

    def tiers_for(self, match_mode: str) -> tuple[Tier, ...]:
        """``auto``: every tier; a tier's name: the tiers up to and including it."""
        if match_mode == AUTO:
            return self.tiers
        for index, tier in enumerate(self.tiers):
            if tier.name == match_mode:
                return self.tiers[: index + 1]
        modes = ", ".join((AUTO, *self.tier_names))
        raise BadRequest(f"Unknown match_mode {match_mode!r}. Use one of: {modes}.")

    # ------------------------------------------------------------------ public entry

    def edit(
        self,
        content: str,
        old_string: str,
        new_string: str,
        *,
        replace_all: bool = False,
        expected_replacements: int | None = None,
        match_mode: str = AUTO,
    ) -> TextEdit:
        if not isinstance(content, str):
            raise BadRequest(f"content must be a string, got {type(content).__name__}.")
        request = EditRequest(
            old_string, new_string, replace_all, expected_replacements, match_mode
        )
        tiers = self.tiers_for(match_mode)
        source = NormalizedText.of(content)

        if old_string == "":
            if new_string == "" and source.text:
                raise BadRequest(
                    "old_string and new_string are both empty: that would erase the file.",
                    hint="To replace the whole file pass its new text as new_string; to change "
                    "part of it quote that part in old_string.",
                )
            return _whole_file(source, new_string)
        if old_string == new_string:
            return TextEdit(
                new_content=content,
                replacements=0,
                strategy="no_op",
                no_change=True,
                note="old_string and new_string are identical; nothing to change.",
            )
        return _run(source, request, tiers)


DEFAULT_CASCADE = Cascade(default_tiers())


def edit_text(
    content: str,
    old_string: str,
    new_string: str,
    *,
    replace_all: bool = False,
    expected_replacements: int | None = None,
    match_mode: str = AUTO,
    cascade: Cascade | None = None,
) -> TextEdit:
    r"""Apply one search/replace edit to ``content``; pure, no I/O.

    >>> edit_text("def f():\n    return 1\n", "return 1", "return 2").new_content
    'def f():\n    return 2\n'
    >>> edit_text("if a:\n\tgo()\n", "if a:\n    go()", "if a:\n    stop()").new_content
    'if a:\n\tstop()\n'

    Raises :class:`~editengine.errors.NoMatch`, :class:`~editengine.errors.AmbiguousMatch`,
    :class:`~editengine.errors.CountMismatch`, :class:`~editengine.errors.UnmatchedElision`
    or :class:`~editengine.errors.BadRequest`; ``content`` is never modified.
    """
    return (cascade or DEFAULT_CASCADE).edit(
        content,
        old_string,
        new_string,
        replace_all=replace_all,
        expected_replacements=expected_replacements,
        match_mode=match_mode,
    )


def _whole_file(source: NormalizedText, new_string: str) -> TextEdit:
    """``old_string == ""``: the new text replaces the file (or creates it) whole."""
    body = source.styled(to_lf(new_string)) if source.text else new_string
    new_content = source.bom + body
    return TextEdit(
        new_content=new_content,
        replacements=1,
        strategy="whole_file",
        no_change=new_content == source.original,
    )


def _run(source: NormalizedText, request: EditRequest, tiers: Sequence[Tier]) -> TextEdit:
    content = source.text
    old = to_lf(request.old_string)
    new = to_lf(request.new_string)
    check_elisions(old, new)
    lines = LineIndex(content)
    applied = _already_applied(source, old, new, lines)
    if applied is not None:
        return applied
    if old not in content and _distinctive(new) and content.count(new) == 1:
        # The quote is not in the file verbatim but the replacement is: an edit made before,
        # not one to make again somewhere a tolerant tier would find.
        return _no_op_already_applied(source, ExactTier().find(content, new), lines, ())

    trace: list[TierAttempt] = []
    for tier in tiers:
        started = time.perf_counter()
        candidates = sorted(tier.find(content, old), key=lambda match: match.start)
        elapsed = (time.perf_counter() - started) * 1000
        if not candidates:
            trace.append(TierAttempt(tier.name, "no_candidates", 0, None, elapsed))
            continue
        best = max(candidate.similarity for candidate in candidates)
        if tier.fuzzy:
            candidates = _fuzzy_accept(tier, candidates, request, lines, trace, elapsed, best)
            if not candidates:
                continue
        chosen = _choose(tier, candidates, request, lines, trace, elapsed, best)
        try:
            replacements = [match.rewrite(new) if match.rewrite else new for match in chosen]
        except DoubtfulMatch:
            trace.append(TierAttempt(tier.name, "refused", len(candidates), best, elapsed))
            continue
        trace.append(TierAttempt(tier.name, "matched", len(candidates), best, elapsed))
        return _apply(source, lines, tier.name, chosen, replacements, tuple(trace))

    if _distinctive(new, at_least=6):
        present = _present(content, new)
        if len(present) == 1:
            return _no_op_already_applied(source, present, lines, tuple(trace))
    raise _no_match(content, old, new, tuple(trace))


def _distinctive(text: str, at_least: int = 12) -> bool:
    """Long enough that finding it verbatim is no coincidence."""
    return len("".join(text.split())) >= at_least


def _present(content: str, text: str) -> list[Match]:
    """Where ``text`` stands in content verbatim, or line for line up to indentation.

    Only a single place matters to the caller, so a text found twice verbatim is reported
    by its first two places without walking all of them.
    """
    count = content.count(text)
    if count > 1:
        first = content.find(text)
        second = content.find(text, first + len(text))
        return [Match(first, first + len(text)), Match(second, second + len(text))]
    if count == 1:
        return ExactTier().find(content, text)
    return LineTrimmedTier().find(content, text)


def _already_applied(
    source: NormalizedText, old: str, new: str, lines: LineIndex
) -> TextEdit | None:
    """new_string contains old_string and is in the file around every copy of old_string.

    An agent retrying after a timeout sends the same edit again; applying it twice would
    duplicate what it added.
    """
    if old not in new:
        return None
    content = source.text
    occurrences_of_new = ExactTier().find(content, new)
    if not occurrences_of_new:
        return None
    occurrences_of_old = ExactTier().find(content, old)
    inside = all(
        any(outer.start <= inner.start and inner.end <= outer.end for outer in occurrences_of_new)
        for inner in occurrences_of_old
    )
    if not inside:
        return None
    return TextEdit(
        new_content=source.original,
        replacements=0,
        strategy="already_applied",
        spans=_regions(occurrences_of_new, lines),
        no_change=True,
        note="new_string is already in the file where old_string is; the edit was applied before.",
    )


def _no_op_already_applied(
    source: NormalizedText, present: list[Match], lines: LineIndex, trace: tuple[TierAttempt, ...]
) -> TextEdit:
    regions = _regions(present, lines)
    return TextEdit(
        new_content=source.original,
        replacements=0,
        strategy="already_applied",
        spans=regions,
        no_change=True,
        note=(
            f"old_string is not in the file but new_string already is ({regions[0].describe()}); "
            "the edit looks applied already, so nothing was changed."
        ),
        trace=trace,
    )


def check_elisions(old: str, new: str) -> None:
    """Refuse a new_string whose ``...`` markers have no counterpart in old_string.

    Written literally, such a marker would replace the code it stands for with a comment.
    """
    new_comment = sum(1 for line in new.split("\n") if is_comment_marker(line))
    old_comment = sum(1 for line in old.split("\n") if is_comment_marker(line))
    extra_bare = marker_count(new) - new_comment - (marker_count(old) - old_comment)
    lost_lines = {line.strip() for line in old.split("\n") if line.strip()} - {
        line.strip() for line in new.split("\n")
    }
    if new_comment > old_comment or (extra_bare > 0 and lost_lines):
        raise UnmatchedElision(
            "new_string contains an elision marker ('...' or '// ... existing code ...') that "
            "old_string does not have; written to the file it would delete the code it stands "
            "for.",
            hint="Write out the code in full in new_string, or put the same marker in "
            "old_string over the lines it skips.",
        )


def _fuzzy_accept(
    tier: Tier,
    candidates: list[Match],
    request: EditRequest,
    lines: LineIndex,
    trace: list[TierAttempt],
    elapsed: float,
    best: float,
) -> list[Match]:
    """Keep a fuzzy tier's candidates only above its threshold and clear of the runner-up."""
    threshold = getattr(tier, "threshold", 0.9)
    margin = getattr(tier, "margin", 0.05)
    ranked = sorted(candidates, key=lambda match: -match.similarity)
    accepted = [match for match in ranked if match.similarity >= threshold]
    doubtful = [match for match in ranked if threshold - margin <= match.similarity < threshold]
    wanted = request.expected_replacements or 1
    if not accepted:
        trace.append(TierAttempt(tier.name, "refused", len(candidates), best, elapsed))
        return []
    if request.replace_all:
        if doubtful:
            _raise_near_tie(tier, ranked, lines, trace, elapsed, best)
        return sorted(accepted, key=lambda match: match.start)
    contenders = ranked[: wanted + 1]
    if len(contenders) > wanted:
        runner_up = contenders[wanted].similarity
        weakest = min(match.similarity for match in contenders[:wanted])
        if weakest - runner_up < margin:
            _raise_near_tie(tier, ranked, lines, trace, elapsed, best)
    return sorted(ranked[:wanted], key=lambda match: match.start)


def _raise_near_tie(
    tier: Tier,
    ranked: list[Match],
    lines: LineIndex,
    trace: list[TierAttempt],
    elapsed: float,
    best: float,
) -> None:
    regions = _regions(ranked[:5], lines)
    trace.append(TierAttempt(tier.name, "ambiguous", len(ranked), best, elapsed))
    where = ", ".join(region.describe() for region in regions)
    raise AmbiguousMatch(
        f"old_string is not in the file verbatim and nearly fits several places ({where}); "
        "editing one of them would be a guess.",
        hint="Copy old_string exactly from the place you mean, with enough lines to tell it "
        "apart from the others.",
        candidates=regions,
        tier=tier.name,
        trace=(*trace,),
    )


def _regions(candidates: Sequence[Match], lines: LineIndex) -> tuple[Region, ...]:
    return tuple(
        Region(*lines.span_lines(m.start, m.end), similarity=m.similarity) for m in candidates
    )


def _overlapping(candidates: Sequence[Match]) -> bool:
    return any(later.start < earlier.end for earlier, later in pairwise(candidates))


def _choose(
    tier: Tier,
    candidates: list[Match],
    request: EditRequest,
    lines: LineIndex,
    trace: list[TierAttempt],
    elapsed: float,
    best: float,
) -> list[Match]:
    """Apply the count rules to one tier's candidates; raise when they do not hold."""
    found = len(candidates)
    expected = request.expected_replacements
    wanted = found if request.replace_all and expected is None else (expected or 1)
    if found == wanted and not _overlapping(candidates):
        return candidates

    regions = _regions(candidates, lines)
    where = ", ".join(region.describe() for region in regions[:20])
    more = f" and {found - 20} more" if found > 20 else ""
    trace.append(TierAttempt(tier.name, "ambiguous", found, best, elapsed))
    if expected is None or _overlapping(candidates):
        raise AmbiguousMatch(
            f"old_string matches {found} places ({tier.name} match): {where}{more}.",
            hint=(
                "Include more surrounding lines in old_string so it matches exactly one place, "
                "or set replace_all=true to change every occurrence."
            ),
            candidates=regions,
            tier=tier.name,
            trace=(*trace,),
        )
    raise CountMismatch(
        f"Expected {expected} replacement(s) but old_string matches {found} place(s) "
        f"({tier.name} match): {where}{more}.",
        hint="Adjust expected_replacements, or make old_string match exactly the places to change.",
        expected=expected,
        found=found,
        candidates=regions,
        tier=tier.name,
        trace=(*trace,),
    )


def _apply(
    source: NormalizedText,
    lines: LineIndex,
    strategy: str,
    chosen: list[Match],
    replacements: list[str],
    trace: tuple[TierAttempt, ...],
) -> TextEdit:
    spans = [(m.start, m.end, text) for m, text in zip(chosen, replacements)]
    new_content = source.splice(spans)
    return TextEdit(
        new_content=new_content,
        replacements=len(chosen),
        strategy=strategy,
        spans=_regions(chosen, lines),
        no_change=new_content == source.original,
        trace=trace,
        rewritten_new_string=replacements[0] if replacements else None,
    )


def _no_match(content: str, old: str, new: str, trace: tuple[TierAttempt, ...]) -> NoMatch:
    closest = closest_regions(content, old)
    tried = ", ".join(attempt.tier for attempt in trace)
    message = f"old_string was not found in the file (tried: {tried})."
    if closest:
        best = closest[0]
        numbered = "\n".join(
            f"{best.start_line + offset:>6}\t{line}"
            for offset, line in enumerate(best.text.split("\n"))
        )
        message += f" The most similar region is {best.describe()}:\n{numbered}"
        others = ", ".join(region.describe() for region in closest[1:])
        if others:
            message += f"\nOther similar regions: {others}."
    return NoMatch(
        message,
        closest=closest,
        hint="Re-read the file around those lines and copy old_string exactly as it stands "
        "there, including indentation; keep it short but unique.",
        trace=trace,
    )
