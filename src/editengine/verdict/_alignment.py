"""How old_string's tokens became the search's, and where each requested change lands on it.

The misquote (:func:`misquote_hunks`) is the alignment of old_string with the fixer's
search, slid to token edges and split where one text runs past the other; the names it
renames one for one are :func:`learned_renames`. Each requested hunk, grown over the
misquoted stretches it touches, is a :class:`Cluster` (:func:`clusters`): the requested
change as it stands on the search.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from editengine.verdict._tokens import Hunk, Tokens, hunks, is_name, token_code


@dataclass(frozen=True)
class Cluster:
    """One requested change, grown over the misquotes it touches: ``old[old_start:old_end]``
    (token indices) stands as ``search[search_start:search_end]`` in the file and becomes
    ``new[new_start:new_end]``."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int
    search_start: int
    search_end: int
    misquotes: frozenset[int] = frozenset()


def clusters(requested: Sequence[Hunk], misquote: Sequence[Hunk], old_len: int) -> list[Cluster]:
    """The requested hunks placed on the search.

    A requested hunk that overlaps a misquoted stretch takes all of it (the request rewrites
    those tokens anyway, as new_string says). Text the search has and old_string lacks
    (an insertion) is taken only when it falls strictly inside, or exactly where a requested
    insertion goes, except at old_string's very start or end, where the search may simply
    quote more context: an insertion there goes after (at the start) or before (at the end)
    that context.
    """
    # Hunks of either list are sorted and apart (a token or more between two), so the
    # misquotes a stretch may touch are found by bisection, and shifts are prefix sums.
    starts = [change.src_start for change in misquote]
    ends = [change.src_end for change in misquote]
    # [old_start, old_end, first requested hunk, last + 1, misquotes taken]
    spans: list[tuple[list[int], set[int]]] = [
        ([hunk.src_start, hunk.src_end, i, i + 1], set()) for i, hunk in enumerate(requested)
    ]
    taken: set[int] = set()
    grown = True
    while grown:
        grown = False
        for span, mine in spans:
            low = bisect_left(ends, span[0])
            high = bisect_right(starts, span[1])
            for number in range(low, high):
                change = misquote[number]
                if number not in taken and _touches(span[0], span[1], change, old_len):
                    taken.add(number)
                    mine.add(number)
                    span[0] = min(span[0], change.src_start)
                    span[1] = max(span[1], change.src_end)
                    grown = True
        merged: list[tuple[list[int], set[int]]] = []
        for span, mine in spans:
            if merged and span[0] <= merged[-1][0][1]:
                last, theirs = merged[-1]
                last[0], last[1] = min(last[0], span[0]), max(last[1], span[1])
                last[3] = span[3]
                theirs |= mine
                grown = True
            else:
                merged.append((span, mine))
        spans = merged
    requested_shift = _prefix_shifts(requested)
    misquote_shift = _prefix_shifts(misquote)
    out = []
    for (start, end, first, stop), mine in spans:
        # Context the search inserts right at a stretch's edge stays outside it; an
        # insertion at old_string's very end goes before the search's extra context.
        at_end = start == end == old_len
        lead = _count_before(misquote, start, at_edge=not at_end)
        upto = _count_before(misquote, end, at_edge=start == end == 0)
        own_lead = sum(_delta(misquote[n]) for n in mine if n < lead)
        own_rest = sum(_delta(misquote[n]) for n in mine if n >= upto)
        out.append(
            Cluster(
                old_start=start,
                old_end=end,
                new_start=start + requested_shift[first],
                new_end=end + requested_shift[stop],
                search_start=start + misquote_shift[lead] - own_lead,
                search_end=end + misquote_shift[upto] + own_rest,
                misquotes=frozenset(mine),
            )
        )
    return out


def _delta(change: Hunk) -> int:
    return (change.dest_end - change.dest_start) - (change.src_end - change.src_start)


def _prefix_shifts(changes: Sequence[Hunk]) -> list[int]:
    """``out[i]``: how much longer the first ``i`` changes make the text."""
    out = [0]
    for change in changes:
        out.append(out[-1] + _delta(change))
    return out


def _count_before(changes: Sequence[Hunk], boundary: int, *, at_edge: bool) -> int:
    """How many of ``changes`` (sorted) lie before ``boundary`` (see :func:`_before`)."""
    low, high = 0, len(changes)
    while low < high:
        middle = (low + high) // 2
        if _before(changes[middle], boundary, at_edge=at_edge):
            low = middle + 1
        else:
            high = middle
    return low


def _before(change: Hunk, boundary: int, *, at_edge: bool) -> bool:
    """Does ``change`` lie before old_string's token boundary ``boundary``? An insertion
    right at it counts when ``at_edge``."""
    if change.src_start < change.src_end:
        return change.src_end <= boundary
    return change.src_start < boundary or (at_edge and change.src_start == boundary)


def _touches(start: int, end: int, change: Hunk, old_len: int) -> bool:
    """Does the misquote ``change`` overlap the requested stretch ``[start, end)``?"""
    if change.src_start < change.src_end:  # old_string text the search has otherwise, or not
        if start < end:
            return change.src_start < end and change.src_end > start
        return change.src_start < start < change.src_end
    at = change.src_start  # text only the search has, inserted before old token ``at``
    if start < end:
        return start < at < end
    return at == start and 0 < at < old_len


def _without_context(
    old: Sequence[str], search: Sequence[str], found: list[Hunk], line_starts: Sequence[int]
) -> list[Hunk]:
    """``found``, or the alignment of old_string with the run of the search's lines most like
    it (up to three whole lines the search quotes before, or after, left outside as
    context), when that run is more like old_string than the whole search is. Heavily
    misquoted, old_string's ``(`` and ``)`` would otherwise pair with those of a context
    line (``Run(cfg Config)`` above the lines meant)."""
    codes: dict[str, str] = {}
    old_code = "".join(token_code(word, codes) for word in old)
    search_code = "".join(token_code(word, codes) for word in search)
    starts = [0, *line_starts[:3]]
    ends = [*line_starts[-3:], len(search)]
    best_score = Indel.normalized_similarity(old_code, search_code)
    best_window: tuple[int, int] | None = None
    for start in starts:
        for end in ends:
            if end <= start or (start, end) == (0, len(search)):
                continue
            score = Indel.normalized_similarity(old_code, search_code[start:end])
            if score > best_score:
                best_score, best_window = score, (start, end)
    if best_window is None:
        return found
    start, end = best_window
    window = [Hunk(0, 0, 0, start)] if start else []
    window += [
        Hunk(h.src_start, h.src_end, h.dest_start + start, h.dest_end + start)
        for h in hunks(old, search[start:end])
    ]
    if end < len(search):
        window.append(Hunk(len(old), len(old), end, len(search)))
    return window


def misquote_hunks(
    old: Sequence[str], search: Sequence[str], *, line_starts: Sequence[int] = ()
) -> list[Hunk]:
    """How old_string's tokens became the search's.

    When the search quotes less than old_string, a global alignment may pair a token of the
    search with a like token anywhere in old_string (an ``=`` of ``===`` far from the line
    meant); the stretch of old_string most like the search (a partial alignment) is tried
    too, and kept when it pairs as many tokens, give or take one, in fewer hunks.
    """
    found = edges_split(_slid_to_edges(hunks(old, search), old, search), len(old), len(search))
    if line_starts and len(search) > len(old):
        found = edges_split(
            _without_context(old, search, found, line_starts), len(old), len(search)
        )
    if not search or len(search) >= len(old):
        return found
    codes: dict[str, str] = {}
    old_code = "".join(token_code(word, codes) for word in old)
    search_code = "".join(token_code(word, codes) for word in search)
    window = fuzz.partial_ratio_alignment(search_code, old_code)
    if window is None:
        return found
    start, end = window.dest_start, window.dest_end
    inner = [
        Hunk(h.src_start + start, h.src_end + start, h.dest_start, h.dest_end)
        for h in hunks(old[start:end], search)
    ]
    windowed = [Hunk(0, start, 0, 0)] if start else []
    windowed += inner
    if end < len(old):
        windowed.append(Hunk(end, len(old), len(search), len(search)))
    windowed = _merged(windowed)
    if _paired(windowed, len(search)) >= _paired(found, len(search)) - 1 and len(windowed) < len(
        found
    ):
        return windowed
    return found


def _slid_to_edges(found: Sequence[Hunk], old: Sequence[str], search: Sequence[str]) -> list[Hunk]:
    """``found`` with context the search quotes past old_string's end (or before its start)
    kept at that edge. A longest-common-subsequence alignment may pair old_string's last
    tokens (``" ,``) with the like tokens ending the extra line instead, which puts the
    extra line *inside* old_string and the requested insertion after it."""
    out = list(found)
    if out:
        last = out[-1]
        tail = list(old[last.src_end :])  # what old_string ends with, paired as it is
        # (Text inserted before all of old_string is context before it: left there.)
        before_all = last.src_start == last.src_end == 0
        if tail and not before_all and len(search) - last.dest_end == len(tail):
            # The same tail earlier in the hunk's search text (a replacement keeps at least
            # one token of its own): the rest of the search after it is the extra context.
            for at in range(last.dest_start + (last.src_start < last.src_end), last.dest_end):
                if list(search[at : at + len(tail)]) == tail:
                    out[-1:] = [
                        Hunk(last.src_start, last.src_end, last.dest_start, at),
                        Hunk(len(old), len(old), at + len(tail), len(search)),
                    ]
                    break
    if out:
        first = out[0]
        lead = first.src_start
        if (
            first.src_start == first.src_end
            and 0 < lead == first.dest_start
            and lead < len(old)  # text inserted after all of old_string is context after it
            and first.dest_end - lead >= first.dest_start
            and list(search[first.dest_end - lead : first.dest_end]) == list(old[:lead])
        ):
            out[0] = Hunk(0, 0, 0, first.dest_end - lead)
    return out


def _paired(found: Sequence[Hunk], search_len: int) -> int:
    """How many search tokens an alignment pairs with old_string's as they are."""
    return search_len - sum(h.dest_end - h.dest_start for h in found)


def _merged(found: Sequence[Hunk]) -> list[Hunk]:
    """Touching hunks as one (a deletion right before a replacement, say)."""
    out: list[Hunk] = []
    for hunk in found:
        if out and out[-1].src_end == hunk.src_start and out[-1].dest_end == hunk.dest_start:
            last = out.pop()
            hunk = Hunk(last.src_start, hunk.src_end, last.dest_start, hunk.dest_end)
        out.append(hunk)
    return out


def edges_split(found: Sequence[Hunk], old_len: int, search_len: int) -> list[Hunk]:
    """Misquote hunks at either end, split into the part that pairs with old_string's tokens
    and the part that is only context one text quotes and the other does not (the search
    quoting a line more, or less, than old_string). A line of context is not a misquote."""
    out: list[Hunk] = []
    for hunk in found:
        mine, theirs = hunk.src_end - hunk.src_start, hunk.dest_end - hunk.dest_start
        extra = abs(mine - theirs)
        if not (mine and theirs and extra):
            out.append(hunk)
        elif hunk.src_start == 0 and hunk.dest_start == 0:
            if theirs > mine:  # the search quotes more before
                out.append(Hunk(0, 0, 0, extra))
                out.append(Hunk(0, hunk.src_end, extra, hunk.dest_end))
            else:  # old_string quotes more before
                out.append(Hunk(0, extra, 0, 0))
                out.append(Hunk(extra, hunk.src_end, 0, hunk.dest_end))
        elif hunk.src_end == old_len and hunk.dest_end == search_len:
            if theirs > mine:
                out.append(Hunk(hunk.src_start, old_len, hunk.dest_start, hunk.dest_end - extra))
                out.append(Hunk(old_len, old_len, hunk.dest_end - extra, hunk.dest_end))
            else:
                out.append(Hunk(hunk.src_start, hunk.src_end - extra, hunk.dest_start, search_len))
                out.append(Hunk(hunk.src_end - extra, old_len, search_len, search_len))
        else:
            out.append(hunk)
    return out


def learned_renames(
    old: Sequence[str], search: Sequence[str], misquote: Sequence[Hunk]
) -> dict[str, str]:
    """Names old_string misquoted one for one (``line -> item``), when the misquote says so
    consistently: a name renamed two ways, or also kept as it is, is left alone."""
    pairs: dict[str, str] = {}
    doubtful: set[str] = set()
    for hunk in misquote:
        mine = old[hunk.src_start : hunk.src_end]
        theirs = search[hunk.dest_start : hunk.dest_end]
        if len(mine) != len(theirs):
            # Where one text runs on past the other's end (the search quotes less, or more,
            # than old_string), the stretch next to the shared part still pairs word for word.
            if hunk.src_end == len(old) or hunk.dest_end == len(search):
                size = min(len(mine), len(theirs))
                mine, theirs = mine[:size], theirs[:size]
            elif hunk.src_start == 0 or hunk.dest_start == 0:
                size = min(len(mine), len(theirs))
                mine, theirs = mine[len(mine) - size :], theirs[len(theirs) - size :]
            else:
                continue
        for word, renamed in zip(mine, theirs):
            if not (is_name(word) and is_name(renamed)) or _respelled(word, renamed):
                continue
            if pairs.setdefault(word, renamed) != renamed:
                doubtful.add(word)
    changed = {i for hunk in misquote for i in range(hunk.src_start, hunk.src_end)}
    kept = {word for i, word in enumerate(old) if i not in changed}
    left_alone = doubtful | kept
    return {mine: theirs for mine, theirs in pairs.items() if mine not in left_alone}


def _respelled(word: str, other: str) -> bool:
    """The same word typed without its accents or in another case (``a`` for ``à``): a
    slip of that one spelling, not another name. Carried as a rename it would respell every
    such word the request inserts (``Hola a todos`` -> ``Hola à todos``)."""
    return word != other and _letters(word) == _letters(other)


def _letters(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def renamed_text(
    tokens: Tokens, start: int, end: int, renames: dict[str, str], text_start: int, text_end: int
) -> str:
    """new_string's text from ``text_start`` to ``text_end`` (tokens ``[start, end)`` and the
    spacing around them), names renamed as the misquote renames them."""
    text = tokens.text
    out: list[str] = []
    cursor = text_start
    for i in range(start, end):
        word = tokens.words[i]
        if word in renames:
            out.append(text[cursor : tokens.starts[i]])
            out.append(renames[word])
            cursor = tokens.ends[i]
    out.append(text[cursor:text_end])
    return "".join(out)
