"""The cascade: run tiers in order, apply the count rules, build the new text.

The first tier that finds any candidate decides. A looser tier never gets to resolve an
ambiguity a stricter one found, and a fuzzy candidate must clear both a threshold and a
margin over the runner-up.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from editengine.errors import (
    AmbiguousMatch,
    BadRequest,
    CountMismatch,
    NoMatch,
    Region,
)
from editengine.matching.base import Match, Tier
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
    trace: list[TierAttempt] = []
    lines = LineIndex(content)

    for tier in tiers:
        started = time.perf_counter()
        candidates = _non_overlapping(tier.find(content, old))
        elapsed = (time.perf_counter() - started) * 1000
        if not candidates:
            trace.append(TierAttempt(tier.name, "no_candidates", 0, None, elapsed))
            continue
        best = max(candidate.similarity for candidate in candidates)
        chosen = _choose(tier, candidates, request, lines, trace, elapsed, best)
        trace.append(TierAttempt(tier.name, "matched", len(candidates), best, elapsed))
        return _apply(source, lines, tier.name, chosen, old, new, tuple(trace))

    raise _no_match(content, old, lines, tuple(trace))


def _non_overlapping(matches: list[Match]) -> list[Match]:
    """Sorted candidates; of overlapping ones the more similar (then earlier) is kept."""
    ordered = sorted(matches, key=lambda m: (m.start, -m.similarity))
    kept: list[Match] = []
    for match in ordered:
        if kept and match.start < kept[-1].end:
            if match.similarity > kept[-1].similarity:
                kept[-1] = match
            continue
        kept.append(match)
    return kept


def _regions(candidates: Sequence[Match], lines: LineIndex) -> tuple[Region, ...]:
    return tuple(
        Region(*lines.span_lines(m.start, m.end), similarity=m.similarity) for m in candidates
    )


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
    if found == wanted:
        return candidates

    regions = _regions(candidates, lines)
    where = ", ".join(region.describe() for region in regions[:20])
    if expected is None:
        trace.append(TierAttempt(tier.name, "ambiguous", found, best, elapsed))
        raise AmbiguousMatch(
            f"old_string matches {found} places ({tier.name} match): {where}.",
            hint=(
                "Include more surrounding lines in old_string so it matches exactly one place, "
                "or set replace_all=true to change every occurrence."
            ),
            candidates=regions,
            tier=tier.name,
            trace=(*trace,),
        )
    trace.append(TierAttempt(tier.name, "ambiguous", found, best, elapsed))
    raise CountMismatch(
        f"Expected {expected} replacement(s) but old_string matches {found} place(s) "
        f"({tier.name} match): {where}.",
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
    old: str,
    new: str,
    trace: tuple[TierAttempt, ...],
) -> TextEdit:
    spans = []
    for match in chosen:
        replacement = match.rewrite(new) if match.rewrite else new
        spans.append((match.start, match.end, replacement))
    new_content = source.splice(spans)
    return TextEdit(
        new_content=new_content,
        replacements=len(chosen),
        strategy=strategy,
        spans=_regions(chosen, lines),
        no_change=new_content == source.original,
        trace=trace,
    )


def _no_match(content: str, old: str, lines: LineIndex, trace: tuple[TierAttempt, ...]) -> NoMatch:
    return NoMatch(
        "old_string was not found in the file.",
        hint="Re-read the file and copy old_string exactly, including whitespace.",
        trace=trace,
    )
