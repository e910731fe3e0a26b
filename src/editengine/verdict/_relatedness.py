"""Is the fixer's correction the edit the agent asked for, at the place the agent meant?

A correction can match uniquely and apply cleanly and still be wrong: a confused (or
manipulated) model may answer with the requested edit plus one more (``verify=True`` ->
``False``, a dropped decorator, a line left out), or with a search string for an unrelated
block. The cascade cannot see that; :class:`RelatednessGuard` can, by comparing the
correction with what the agent asked for.

A correction is accepted only when both hold:

1. **What**: the text written is derived from the request, not taken from the model: the
   agent's edit (old_string -> new_string) is carried onto the corrected search, with the
   names old_string misquoted renamed as the search has them
   (:func:`~editengine.verdict.replacement_to_write`). The model's replace
   must agree with it token by token, in order; any extra substitution, reordering, dropped
   or added line, or change elsewhere in a widened search is a refusal.
2. **Where**: its match lies in or within ``near_lines`` lines of one of the regions the
   cascade found most like old_string (``NoMatch.closest``, those no more than
   ``closer_margin`` less similar than the best) and some run of its lines is as like
   old_string as that best region (give or take ``closer_margin``), *or* its search text is at
   least ``min_search_similarity`` similar to old_string (whitespace-normalised) and not
   clearly less like it (by more than ``closer_margin``) than the region the cascade found
   most like it: a correction that passes over a better-matching region for a worse one
   points elsewhere.

A "no change needed" answer is believed only when new_string stands where old_string meant
(:meth:`RelatednessGuard.already_applied_where_meant`), not anywhere in the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from editengine._errors import BadRequest
from editengine._results import Region
from editengine._text import to_lf
from editengine.matching import _already_applied as already_applied
from editengine.verdict._carry import carry_edit
from editengine.verdict._replacement import NotTheRequestedEdit, replacement_to_write
from editengine.verdict._tokens import CannotCarry, same_tokens


@dataclass(frozen=True)
class RelatednessGuard:
    """Decides what a fixer correction may write: the requested edit, where old_string meant.

    The settings tune *where* a correction may sit; *what* it writes is always the agent's
    edit carried onto its search (no setting turns that check off).

    >>> guard = RelatednessGuard()
    >>> guard.why_unrelated(
    ...     old_string="retrun a - b", new_string="return a + b",
    ...     search="return a - b", replace="return a + b",
    ...     spans=(), closest=()) is None
    True
    """

    near_lines: int = 3
    min_search_similarity: float = 0.6
    closer_margin: float = 0.05

    def __post_init__(self) -> None:
        if self.near_lines < 0:
            raise BadRequest(f"RelatednessGuard: near_lines must be >= 0 (got {self.near_lines}).")
        for name in ("min_search_similarity", "closer_margin"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise BadRequest(f"RelatednessGuard: {name} must be in [0, 1] (got {value!r}).")

    def replacement(
        self, *, old_string: str, new_string: str, search: str, replace: str, file_text: str = ""
    ) -> str:
        """What the correction's ``search`` is to become: the requested edit carried onto it
        and cross-checked against the model's ``replace``. Raises
        ``NotTheRequestedEdit`` saying how the
        model's edit differs from the requested one. ``file_text`` (the file) lets the model
        rename a misquoted name to one the file uses outside the search."""
        return replacement_to_write(old_string, new_string, search, replace, file_text=file_text)

    def why_unrelated(
        self,
        *,
        old_string: str,
        new_string: str,
        search: str,
        replace: str,
        spans: Sequence[Region],
        closest: Sequence[Region],
    ) -> str | None:
        """``None`` when the correction is the requested edit at the place meant, else why
        not (a clause that completes "The LLM fixer proposed a correction, but ...")."""
        placed = self.why_misplaced(
            old_string=old_string, search=search, spans=spans, closest=closest
        )
        if placed is not None:
            return placed
        try:
            self.replacement(
                old_string=old_string, new_string=new_string, search=search, replace=replace
            )
        except NotTheRequestedEdit as other:
            return str(other)
        return None

    def why_misplaced(
        self, *, old_string: str, search: str, spans: Sequence[Region], closest: Sequence[Region]
    ) -> str | None:
        """``None`` when the correction's matches (``spans``) are where old_string meant."""
        return self._placement_problem(old_string, search, spans, closest)

    def splits_a_word(self, *, text: str, search: str) -> str | None:
        """Why ``search`` cannot be checked token by token where it stands in ``text``: it
        starts or ends inside a word (``cartTota`` in ``cartTotal``), so what the file
        holds after the edit is not what the tokens compared say. ``None`` when it does
        not."""
        text, search = to_lf(text), to_lf(search)
        if not search:
            return None
        start = text.find(search)
        while start != -1:
            end = start + len(search)
            before = text[start - 1] if start > 0 else ""
            after = text[end] if end < len(text) else ""
            if (_is_word(search[0]) and _is_word(before)) or (
                _is_word(search[-1]) and _is_word(after)
            ):
                word = _word_around(text, start if _is_word(before) else end - 1)
                return (
                    f"its search text starts or ends inside a word of the file "
                    f"({search.strip()[:40]!r} in {word!r})"
                )
            start = text.find(search, start + 1)
        return None

    def contenders(self, closest: Sequence[Region]) -> list[Region]:
        """The regions old_string may have meant: the most similar one and those within
        ``closer_margin`` of it."""
        best = max(closest, key=lambda region: region.similarity, default=None)
        if best is None:
            return []
        return [r for r in closest if r.similarity >= best.similarity - self.closer_margin]

    def already_applied_where_meant(
        self,
        *,
        text: str,
        old_string: str,
        new_string: str,
        closest: Sequence[Region],
        search: str = "",
        count: int | None = 1,
    ) -> bool:
        """new_string stands where old_string meant: an occurrence of it overlaps one of the
        regions most like old_string, or a place of the fixer's ``search`` that is like
        old_string and passes the placement check. new_string elsewhere in the file says
        nothing about this place
        (``retries = 5`` in ``b()`` when the agent meant ``retries = 3`` in ``a()``). And
        the request, carried onto that place, must change none of its tokens: new_string
        merely *in* it is not the edit done (see :func:`_nothing_left_to_do`)."""
        wanted = to_lf(new_string)
        if not wanted.strip():
            return False  # a deletion is never "already applied"
        text = to_lf(text)
        meant = self.contenders(closest)
        found = to_lf(search) if isinstance(search, str) else ""
        # The search counts only when it is itself like old_string: a search widened to
        # the whole file would otherwise "show" new_string wherever it stands.
        if found.strip() and search_similarity(old_string, found) >= self.min_search_similarity:
            places = occurrences(text, found)
            if (
                places
                and self.why_misplaced(
                    old_string=old_string, search=found, spans=places, closest=closest
                )
                is None
            ):
                meant.extend(places)
        lines = text.split("\n")
        done = [
            (place, region)
            for place in occurrences(text, wanted)
            for region in meant
            if _overlap(place, region)
            and _nothing_left_to_do(old_string, new_string, _lines_of(lines, place, region))
        ]
        if count == 1:
            return bool(done)
        # A request with a count is done only when the count is: as many places hold
        # new_string as it expects, and (replace_all, ``count=None``) no place old_string
        # most nearly is is left to change beside the one the model points at.
        holding = {place for place, _ in done}
        if count is not None:
            return len(holding) >= count
        covered = {region for _, region in done}
        return bool(holding) and all(region in covered for region in self.contenders(closest))

    def why_not_the_one_pointed_at(
        self,
        *,
        text: str,
        closest: Sequence[Region],
        spans: Sequence[Region],
        instruction: str | None,
    ) -> str | None:
        """``None`` unless old_string is about as like two or more places (near-duplicate
        bodies, a docstring holding a copy) and the correction does not land on the one
        the instruction points at: the one whose enclosing definitions (the less indented
        lines above it) carry a name the instruction mentions and the others lack. When the
        instruction points at none of them, or at several, the correction is refused too:
        taking the first-best of equals is a guess."""
        alike = _distinct(self.contenders(closest))
        if len(alike) < 2 or not spans:
            return None
        lines = to_lf(text).split("\n")
        mentioned = set(_WORD.findall(instruction or ""))
        # The enclosing definitions first (``def load_user``): a docstring's or comment's
        # copy of the code has none of its own. Then any enclosing line (``production:``).
        for definitions_only in (True, False):
            names = [_enclosing_names(lines, region, definitions_only) for region in alike]
            shared = set.intersection(*names)
            pointed = [
                region for region, found in zip(alike, names) if (found - shared) & mentioned
            ]
            if len(pointed) == 1:
                break
        else:
            # The instruction does not tell them apart; old_string itself may, when it is
            # clearly more like one of them.
            ranked = sorted(alike, key=lambda region: region.similarity, reverse=True)
            if ranked[0].similarity - ranked[1].similarity > _TIED:
                pointed = ranked[:1]
        places = ", ".join(_lines(region) for region in alike[:5])
        if len(pointed) != 1:
            return (
                f"old_string is about as like {len(alike)} places ({places}), the instruction "
                "does not say which one is meant, and the correction picked one of them; "
                "quote a line that only the place you mean has (its def line, say)"
            )
        (meant,) = pointed
        others = [region for region in alike if region != meant]
        if all(
            _overlap(span, meant) and not any(_overlap(span, other) for other in others)
            for span in spans
        ):
            return None
        where = ", ".join(_lines(span) for span in spans)
        return (
            f"it pointed elsewhere: old_string is about as like {len(alike)} places "
            f"({places}); the instruction points at {_lines(meant)}, and the correction "
            f"lands at {where}"
        )

    def _placement_problem(
        self, old: str, search: str, spans: Sequence[Region], closest: Sequence[Region]
    ) -> str | None:
        best = max(closest, key=lambda region: region.similarity, default=None)
        contenders = [
            region
            for region in closest
            if best is not None and region.similarity >= best.similarity - self.closer_margin
        ]
        similarity = search_similarity(old, search)
        if spans and contenders and all(self._near_any(span, contenders) for span in spans):
            # Near is not enough: the next line over (``READ_TIMEOUT = 30`` beside the
            # ``MAX_RETRIES = 3`` meant) is near too, and the carried edit would rename its
            # way onto it. A search inside the place meant is fine (the carry places the
            # edit within it, or refuses); one that reaches outside it must have a stretch
            # about as like old_string as that place, the rest being context.
            if all(any(_within(span, region) for region in contenders) for span in spans):
                return None
            core = core_similarity(old, search)
            if best is None or core >= best.similarity - self.closer_margin:
                return None
            similarity = core
        where = ", ".join(_lines(span) for span in spans) or "a place it does not say"
        if similarity >= self.min_search_similarity:
            if best is None or similarity >= best.similarity - self.closer_margin:
                return None
            return (
                f"it pointed elsewhere: its search text at {where} is {similarity:.0%} similar "
                f"to old_string, while {_lines(best)} is {best.similarity:.0%} similar"
            )
        nearest = ", ".join(_lines(region) for region in closest)
        away = f", away from where old_string most nearly is ({nearest})," if nearest else ""
        return (
            f"it pointed elsewhere: its search text is at {where}{away} and only "
            f"{similarity:.0%} similar to old_string"
        )

    def _near_any(self, span: Region, regions: Sequence[Region]) -> bool:
        reach = self.near_lines
        return any(
            span.start_line <= region.end_line + reach
            and span.end_line >= region.start_line - reach
            for region in regions
        )


_WORD = re.compile(r"[^\W\d]\w{2,}")
# A line that defines something: a def, a class, a function, a method's signature.
_DEFINITION = re.compile(
    r"\s*(?:(?:export|public|private|protected|internal|static|async|abstract|final|pub|"
    r"override|virtual|inline|extern|const|default)\s+)*"
    r"(?:(?:def|class|function|fn|func|fun|sub|proc|procedure|struct|enum|impl|interface|"
    r"trait|module|namespace|object|record|type)\b"
    r"|(?!(?:if|for|while|switch|catch|with|elif|else|return)\b)[\w<>\[\],.*&\s]*\w\s*\(.*\)[^()]*\{\s*$)"
)
# Similarities this close are a tie: old_string does not tell the places apart.
_TIED = 0.01
# Enclosing lines read above a place (the def, the class, the block that holds it).
_ENCLOSING = 4


def _distinct(regions: Sequence[Region]) -> list[Region]:
    """``regions`` without those overlapping one listed before them (one place, twice)."""
    kept: list[Region] = []
    for region in regions:
        if not any(_overlap(region, other) for other in kept):
            kept.append(region)
    return kept


def _enclosing_names(lines: Sequence[str], region: Region, definitions_only: bool) -> set[str]:
    """The words of the lines that enclose ``region``: each less indented than the one
    found before it, read upwards from its first line (its def, its class); of those that
    define something only, when ``definitions_only``."""
    first = region.start_line - 1
    if not 0 <= first < len(lines):
        return set()
    depth = _indent_width(lines[first])
    # The place's own words count too (``def close`` where another has ``def balance``).
    names = set(_WORD.findall("\n".join(lines[first : region.end_line])))
    found = 0
    for number in range(first - 1, -1, -1):
        line = lines[number]
        if not line.strip() or _indent_width(line) >= depth:
            continue
        if not definitions_only or _DEFINITION.match(line):
            names.update(_WORD.findall(line))
        depth = _indent_width(line)
        found += 1
        if found == _ENCLOSING or depth == 0:
            break
    return names


def _indent_width(line: str) -> int:
    return len(line) - len(line.lstrip())


def occurrences(text: str, part: str) -> list[Region]:
    """The line ranges where ``part`` stands in ``text`` (both with ``\\n`` line endings)."""
    places: list[Region] = []
    start = text.find(part)
    while start != -1 and part:
        first = text.count("\n", 0, start) + 1
        body = part[:-1] if part.endswith("\n") else part
        places.append(Region(first, first + body.count("\n")))
        start = text.find(part, start + 1)
    return places


def _is_word(char: str) -> bool:
    return bool(char) and (char.isalnum() or char == "_")


def _word_around(text: str, index: int) -> str:
    start = index
    while start > 0 and _is_word(text[start - 1]):
        start -= 1
    end = index
    while end < len(text) and _is_word(text[end]):
        end += 1
    return text[start:end][:40]


def _lines_of(lines: Sequence[str], a: Region, b: Region) -> str:
    """The file's text of the lines ``a`` and ``b`` span together."""
    first, last = min(a.start_line, b.start_line), max(a.end_line, b.end_line)
    return "\n".join(lines[first - 1 : last])


def _nothing_left_to_do(old: str, new: str, place: str) -> bool:
    """The request, carried onto the place meant, changes none of its tokens: new_string is
    not merely *in* it (deleting ``beta = 1`` above ``count = 2`` leaves ``count = 2`` in
    the place, and the line still to delete beside it)."""
    try:
        carried = carry_edit(old, new, place)
    except CannotCarry:
        return False
    # Token for token, unless the change is whitespace only: then byte for byte.
    return already_applied.reads_as(to_lf(old), to_lf(new), carried, place, same_tokens)


def _within(inner: Region, outer: Region) -> bool:
    return outer.start_line <= inner.start_line and inner.end_line <= outer.end_line


def _overlap(a: Region, b: Region) -> bool:
    return a.start_line <= b.end_line and b.start_line <= a.end_line


def search_similarity(old: str, search: str) -> float:
    """Indel similarity of whitespace-normalised texts, case ignored, in [0, 1]. (Where a
    text stands is judged here, not what it says: ``read_timeout`` misremembered for
    ``READ_TIMEOUT`` points at the same line; the edit itself is checked token by token.)"""
    return float(Indel.normalized_similarity(_spaced(old), _spaced(search)))


def core_similarity(old: str, search: str) -> float:
    """How like old_string the run of the search's whole lines most like it is (about as
    many lines as old_string has: a search may quote a line or two of context around the
    text meant, or the whole file). Scored as the cascade scores its closest regions (the
    stripped lines, compared as one text), so the two compare."""
    keys, lines = _line_keys(old), _line_keys(search)
    wanted = "\n".join(keys)
    best = search_similarity(old, search)
    for size in range(max(1, len(keys) - 2), min(len(lines), len(keys) + 2) + 1):
        for start in range(len(lines) - size + 1):
            window = "\n".join(lines[start : start + size])
            best = max(best, float(Indel.normalized_similarity(wanted, window)))
    return best


def _line_keys(text: str) -> list[str]:
    return [line.strip().casefold() for line in to_lf(text).strip("\n").split("\n")]


def _spaced(text: str) -> str:
    return " ".join(text.casefold().split())


def _lines(region: Region) -> str:
    if region.start_line == region.end_line:
        return f"line {region.start_line}"
    return f"lines {region.start_line}-{region.end_line}"
