"""The cascade: run tiers in order, apply the count rules, build the new text.

The first tier that finds any candidate decides. A looser tier never gets to resolve an
ambiguity a stricter one found, and a fuzzy candidate must clear both a threshold and a
margin over the runner-up.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from editengine._edits import EditSpec
from editengine._errors import BadRequest, EditError
from editengine._results import Region, TextEdit, TierAttempt, TierOutcome
from editengine._text import LineIndex, NormalizedText, to_lf
from editengine.diagnostics import forgiving, guard_edit, guard_mode
from editengine.matching import _already_applied as already_applied
from editengine.matching import _quotes as quotes
from editengine.matching import _refusals as refusals
from editengine.matching import _whitespace_only as whitespace_only
from editengine.matching import default_tiers
from editengine.matching._base import (
    DoubtfulMatch,
    FuzzySettings,
    Match,
    Tier,
    TooManyPlaces,
    fuzzy_settings,
)
from editengine.matching._elision import refuse_invented_markers

AUTO = "auto"


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
        overwrite: bool = False,
    ) -> TextEdit:
        if not isinstance(content, str):
            raise BadRequest(f"content must be a string, got {type(content).__name__}.")
        request = EditSpec(old_string, new_string, replace_all, expected_replacements, match_mode)
        tiers = self.tiers_for(match_mode)
        source = NormalizedText.of(content)

        if old_string == "":
            if new_string == "" and source.text:
                raise BadRequest(
                    "old_string and new_string are both empty: that would erase the file.",
                    hint="To replace the whole file pass its new text as new_string; to change "
                    "part of it quote that part in old_string.",
                )
            if source.text.strip() and not overwrite:
                raise refusals.overwrite_required()
            return _whole_file(source, new_string)
        if old_string == new_string:
            return _no_op(content)
        # Copy mistakes around the quote (a fence, line numbers) are taken off once, here,
        # so the already-applied rules and every tier see the text that was meant.
        reading = quotes.read(
            source.text, to_lf(old_string), to_lf(new_string), literal=match_mode == "exact"
        )
        if reading.old == reading.new:
            return reading.finish(_no_op(content))
        try:
            edit = _Pass.start(source, request, reading.old, reading.new).run(tiers)
        except EditError as error:
            reading.explain(error)
            raise
        return reading.finish(edit)


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
    path: str | None = None,
    syntax_guard: str = "refuse",
    overwrite: bool = False,
) -> TextEdit:
    r"""Apply one search/replace edit to ``content``; pure, no I/O.

    ``path`` names the file (only to pick its language; nothing is read): with it, the result's
    ``diagnostics`` hold the syntax problems the edit introduced, and ``syntax_guard``
    (``refuse`` | ``report`` | ``off``) says whether a forgiving placement that breaks the
    syntax of the region it touched raises :class:`~editengine.SyntaxBroken`.

    >>> edit_text("def f():\n    return 1\n", "return 1", "return 2").new_content
    'def f():\n    return 2\n'
    >>> edit_text("if a:\n\tgo()\n", "if a:\n    go()", "if a:\n    stop()").new_content
    'if a:\n\tstop()\n'

    An empty ``old_string`` replaces ``content`` whole only when it is blank or
    ``overwrite`` is set (otherwise :class:`~editengine.OverwriteRequired`).

    Raises :class:`~editengine.NoMatch`, :class:`~editengine.AmbiguousMatch`,
    :class:`~editengine.CountMismatch`, :class:`~editengine.UnmatchedElision`
    or :class:`~editengine.BadRequest`; ``content`` is never modified.
    """
    mode = guard_mode(syntax_guard)
    edit = (cascade or DEFAULT_CASCADE).edit(
        content,
        old_string,
        new_string,
        replace_all=replace_all,
        expected_replacements=expected_replacements,
        match_mode=match_mode,
        overwrite=overwrite,
    )
    if path is None or mode == "off" or edit.no_change:
        return edit
    check = guard_edit(
        content,
        edit.new_content,
        path,
        mode=mode,
        tier=edit.strategy,
        forgiven=forgiving(edit.strategy),
    )
    return replace(edit, diagnostics=check.introduced, diagnostics_note=check.note)


def _no_op(content: str) -> TextEdit:
    return TextEdit(
        new_content=content,
        replacements=0,
        strategy="no_op",
        no_change=True,
        note="old_string and new_string are identical; nothing to change.",
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


@dataclass(frozen=True)
class _TierRun:
    """What one tier found: its candidates in file order, how long it took, the best score."""

    tier: Tier
    candidates: list[Match]
    elapsed_ms: float

    @property
    def best(self) -> float | None:
        return max((m.similarity for m in self.candidates), default=None)

    def attempt(self, outcome: TierOutcome, candidates: int | None = None) -> TierAttempt:
        count = len(self.candidates) if candidates is None else candidates
        threshold, margin = _held_to(self.tier)
        return TierAttempt(
            self.tier.name, outcome, count, self.best, self.elapsed_ms, threshold, margin
        )


def _held_to(tier: Tier) -> tuple[float | None, float | None]:
    """The similarity a fuzzy tier demands and its lead over the runner-up (the Tier
    protocol's ``fuzzy_settings``): a tier that places only certain candidates has none."""
    settings = fuzzy_settings(tier)
    return (None, None) if settings is None else (settings.threshold, settings.margin)


@dataclass
class _Pass:
    """One edit going through the tiers: the text, the request, and the trace so far."""

    source: NormalizedText
    request: EditSpec
    old: str
    new: str
    lines: LineIndex
    trace: list[TierAttempt] = field(default_factory=list)

    @classmethod
    def start(cls, source: NormalizedText, request: EditSpec, old: str, new: str) -> _Pass:
        """A pass for ``old``/``new``: the request's strings, LF-ended and cleaned."""
        return cls(source, request, old, new, LineIndex(source.text))

    def run(self, tiers: Sequence[Tier]) -> TextEdit:
        refuse_invented_markers(self.old, self.new)
        around = already_applied.wraps_every_quote(self.source, self.old, self.new)
        if around:
            return already_applied.no_op(self.source, around, self.lines, (), old_is_inside=True)
        for tier in tiers:
            edit = self._try(tier)
            if edit is not None:
                return edit

        trace = tuple(self.trace)
        wanted = None if self.request.replace_all else self.request.expected_replacements or 1
        left = already_applied.left_after_a_miss(self.source, self.old, self.new, wanted)
        if left:
            return already_applied.no_op(self.source, left, self.lines, trace, old_is_inside=False)
        raise refusals.no_match(self.source.text, self.old, trace, self.new)

    def _try(self, tier: Tier) -> TextEdit | None:
        """The edit when ``tier`` decides; ``None`` to go on to the next tier."""
        started = time.perf_counter()
        try:
            found = sorted(tier.find(self.source.text, self.old), key=lambda match: match.start)
        except TooManyPlaces as many:
            run = _TierRun(tier, [], (time.perf_counter() - started) * 1000)
            self.trace.append(run.attempt("ambiguous", many.limit + 1))
            raise refusals.too_many_places(
                tier.name, many.limit, many.candidates, tuple(self.trace)
            ) from None
        run = _TierRun(tier, found, (time.perf_counter() - started) * 1000)
        if not found:
            self.trace.append(run.attempt("no_candidates"))
            return None
        if tier.fuzzy:
            found = self._clear_winners(run)
            if not found:
                self.trace.append(run.attempt("refused"))
                return None
        retried = self._made_before(run, found)
        if retried is not None:
            return retried
        self._refuse_a_partial_count(run, found)
        chosen = self._counted(run, found)
        try:
            if self._blind_to_the_change(tier):
                texts = self._whitespace_change_written(run, chosen)
                if all(
                    text == self.source.text[match.start : match.end]
                    for match, text in zip(chosen, texts)
                ):
                    # Each whitespace piece the change makes stands there byte for byte.
                    self.trace.append(run.attempt("matched"))
                    trace = tuple(self.trace)
                    return already_applied.no_op(
                        self.source, chosen, self.lines, trace, old_is_inside=True
                    )
            else:
                texts = [match.rewrite(self.new) if match.rewrite else self.new for match in chosen]
        except DoubtfulMatch:
            self.trace.append(run.attempt("refused"))
            return None
        self.trace.append(run.attempt("matched"))
        return self._apply(tier.name, chosen, texts)

    def _made_before(self, run: _TierRun, found: list[Match]) -> TextEdit | None:
        """The no-op when the places ``run`` found for old_string show an edit made before.

        Decided under the tier's own forgiveness: old_string found only inside the text
        new_string wrote is a retry; found elsewhere (a deletion whose kept lines are
        new_string, a block like the one edited) it is an edit to make. A fuzzy match is no
        proof either way while new_string already stands elsewhere: that is refused.
        """
        text = self.source.text
        inside = already_applied.holding_every_quote(run.tier, text, self.old, self.new, found)
        if inside:
            self.trace.append(run.attempt("matched"))
            trace = tuple(self.trace)
            return already_applied.no_op(self.source, inside, self.lines, trace, old_is_inside=True)
        if not already_applied.may_be_a_retry(self.old, self.new):
            return None
        if run.tier.fuzzy:
            standing = already_applied.where_new_stands(self.source, self.new)
        elif run.tier.name == "exact":
            return None  # the quote stands verbatim: the edit is to make
        else:
            # A quote found only at another depth than it was quoted, while new_string
            # stands verbatim: the copy quoted was edited, this is a copy like it.
            standing = already_applied.verbatim_elsewhere(self.source, self.old, self.new, found)
        if standing is None or any(
            match.start <= standing.start and standing.end <= match.end for match in found
        ):
            return None  # new_string stands nowhere, or inside the quote: a deletion
        self.trace.append(run.attempt("ambiguous"))
        raise refusals.made_before_or_meant_here(
            run.tier.name, self._regions(found), self._regions([standing])[0], tuple(self.trace)
        )

    def _blind_to_the_change(self, tier: Tier) -> bool:
        """A whitespace-only change placed by a tier that cannot tell old_string from
        new_string: the tier's own rewrite of new_string would undo the change."""
        return (
            tier.name != "exact"
            and whitespace_only.changes_only_whitespace(self.old, self.new)
            and not already_applied.tells_apart(tier, self.old, self.new)
        )

    def _whitespace_change_written(self, run: _TierRun, chosen: list[Match]) -> list[str]:
        """new_string's whitespace changes written over each place, the rest as the file
        has it (``matching._whitespace_only``); refused where that cannot be told."""
        texts = []
        for match in chosen:
            text = whitespace_only.written(
                self.source.text[match.start : match.end], self.old, self.new
            )
            if text is None:
                self.trace.append(run.attempt("refused"))
                raise refusals.whitespace_change_untold(
                    run.tier.name, self._regions([match]), tuple(self.trace)
                )
            texts.append(text)
        return texts

    def _refuse_a_partial_count(self, run: _TierRun, found: list[Match]) -> None:
        """Every occurrence is asked for (``replace_all``, ``expected_replacements``) but the
        tier also saw old_string inside longer expressions it will not cut: editing only
        the others would silently leave some behind."""
        counted = self.request.replace_all or self.request.expected_replacements is not None
        cut_places = getattr(run.tier, "cut_places", None)
        if not counted or cut_places is None:
            return
        cut = cut_places(self.source.text, self.old)
        if cut:
            self.trace.append(run.attempt("ambiguous"))
            raise refusals.partial_count(
                run.tier.name, self._regions(found), self._regions(cut), tuple(self.trace)
            )

    def _clear_winners(self, run: _TierRun) -> list[Match]:
        """A fuzzy tier's candidates above its threshold and clear of the runner-up.

        Raises when the best candidates are too close to tell apart; ``[]`` when none is
        good enough.
        """
        settings = fuzzy_settings(run.tier) or FuzzySettings()
        threshold, margin = settings.threshold, settings.margin
        ranked = sorted(run.candidates, key=lambda match: -match.similarity)
        accepted = [match for match in ranked if match.similarity >= threshold]
        if not accepted:
            return []
        if self.request.replace_all:
            if any(threshold - margin <= m.similarity < threshold for m in ranked):
                self._near_tie(run, ranked)
            return sorted(accepted, key=lambda match: match.start)
        wanted = self.request.expected_replacements or 1
        if len(ranked) > wanted:
            weakest = min(match.similarity for match in ranked[:wanted])
            if weakest - ranked[wanted].similarity < margin:
                self._near_tie(run, ranked)
        return sorted(ranked[:wanted], key=lambda match: match.start)

    def _near_tie(self, run: _TierRun, ranked: list[Match]) -> None:
        self.trace.append(run.attempt("ambiguous"))
        raise refusals.near_tie(run.tier.name, self._regions(ranked[:5]), tuple(self.trace))

    def _counted(self, run: _TierRun, found: list[Match]) -> list[Match]:
        """The places to edit under the count rules; raises when they do not hold."""
        expected = self.request.expected_replacements
        every = self.request.replace_all and expected is None
        wanted = len(found) if every else (expected or 1)
        overlapping = any(b.start < a.end for a, b in pairwise(found))
        if len(found) == wanted and not overlapping:
            return found
        verbatim = [match for match in found if match.verbatim]
        if (
            not every
            and len(found) > wanted == len(verbatim)
            and not any(b.start < a.end for a, b in pairwise(verbatim))
        ):
            # The places quoted as they are, indentation and all, are the ones meant: the
            # others differ from the quote in more than what the tier forgives.
            return verbatim
        self.trace.append(run.attempt("ambiguous", len(found)))
        regions, trace = self._regions(found), tuple(self.trace)
        if overlapping:
            raise refusals.overlapping(run.tier.name, regions, trace)
        if expected is None:
            raise refusals.ambiguous(run.tier.name, regions, trace)
        raise refusals.count_mismatch(run.tier.name, expected, regions, trace)

    def _regions(self, matches: Sequence[Match]) -> tuple[Region, ...]:
        return tuple(
            Region(*self.lines.span_lines(m.start, m.end), similarity=m.similarity) for m in matches
        )

    def _apply(self, strategy: str, chosen: list[Match], texts: list[str]) -> TextEdit:
        new_content = self.source.splice(
            [(match.start, match.end, text) for match, text in zip(chosen, texts)]
        )
        return TextEdit(
            new_content=new_content,
            replacements=len(chosen),
            strategy=strategy,
            spans=self._regions(chosen),
            no_change=new_content == self.source.original,
            trace=tuple(self.trace),
            rewritten_new_string=texts[0] if texts else None,
        )
