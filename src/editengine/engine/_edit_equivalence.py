"""The requested edit, carried onto the text the fixer says old_string meant.

The agent asked for ``old_string -> new_string``; the fixer answers that old_string was
misquoted and the file holds ``search`` instead. The fixer's own ``replace`` is not trusted:
the edit to write is *derived* from the request. Compared token by token (words and single
punctuation marks; spacing does not count), ``old_string -> search`` is the misquote and
``old_string -> new_string`` the request. Each hunk of the request is placed on ``search``
through the misquote's alignment (a token-level three-way merge, like the line merge the
block-anchor tier uses to carry typo fixes), and the names the misquote renamed
(``line -> item``) are renamed the same way in the text the request inserts. What comes out
is ``search`` with exactly the requested hunks changed, laid out as new_string lays them out,
re-indented to the file's indentation.

The fixer's replace is then only a cross-check: it must have the same tokens, in the same
order, as the carried edit. An extra substitution, a reordering, a dropped or added line, a
change far away under a widened search: each shows up as a token the carried edit does not
have, and the correction is refused.

Why one long module: the carry is one algorithm (tokenise, align, merge per hunk, lay out,
re-indent) whose steps share the alignment; split, every part would need the others' private
structures.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from editengine._text import leading_whitespace, to_lf, unescape_once

_TOKEN = re.compile(r"\w+|[^\w\s]")
_NAME = re.compile(r"[^\W\d]\w*")
# Literal words a misquote may "rename" that are values, not names: carrying a True -> False
# misquote into inserted text would change what the agent's code does.
_LITERALS = frozenset({"True", "False", "None", "true", "false", "null", "nil", "undefined"})


class CannotCarry(Exception):
    """The request cannot be placed on the search mechanically; ``str()`` says why."""


class NotQuoted(CannotCarry):
    """The requested change falls on text of old_string the search does not quote at all:
    no search text can stand for it, whatever the fixer's replace says."""


@dataclass(frozen=True)
class Hunk:
    """``a[src_start:src_end]`` becomes ``b[dest_start:dest_end]`` (token indices)."""

    src_start: int
    src_end: int
    dest_start: int
    dest_end: int


@dataclass(frozen=True)
class Tokens:
    """A text's tokens and where each one stands in it."""

    text: str
    words: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> Tokens:
        found = list(_TOKEN.finditer(text))
        return cls(
            text,
            tuple(m.group() for m in found),
            tuple(m.start() for m in found),
            tuple(m.end() for m in found),
        )

    def gap_start(self, index: int) -> int:
        """Where the text before token ``index`` begins: just after the token before it."""
        return self.ends[index - 1] if index > 0 else 0

    def gap_end(self, index: int) -> int:
        """Where token ``index`` begins (the text's end after the last token)."""
        return self.starts[index] if index < len(self.words) else len(self.text)


def token_list(text: str) -> list[str]:
    return _TOKEN.findall(text)


def same_tokens(a: str, b: str) -> bool:
    return token_list(a) == token_list(b)


def hunks(a: Sequence[str], b: Sequence[str]) -> list[Hunk]:
    """The changes from ``a`` to ``b`` (a longest-common-subsequence alignment); a deletion
    next to an insertion is one hunk, a replacement."""
    out: list[Hunk] = []
    run: list[int] | None = None
    for op in Indel.opcodes(list(a), list(b)):
        if op.tag == "equal":
            if run is not None:
                out.append(Hunk(*run))
                run = None
        elif run is None:
            run = [op.src_start, op.src_end, op.dest_start, op.dest_end]
        else:
            run[1], run[3] = op.src_end, op.dest_end
    if run is not None:
        out.append(Hunk(*run))
    return out


def carry_edit(
    old: str, new: str, search: str, *, also_renamed: dict[str, str] | None = None
) -> str:
    """``search`` with the edit ``old -> new`` made on it, or :class:`CannotCarry`.

    The request must change tokens (a whitespace-only request has nothing to carry).
    ``also_renamed`` adds renames the misquote alone does not show.
    """
    old, new, search = to_lf(old), to_lf(new), to_lf(search)
    o, n, s = Tokens.of(old), Tokens.of(new), Tokens.of(search)
    requested = _at_line_starts(hunks(o.words, n.words), o, n)
    if not requested:
        raise CannotCarry("the request changes only whitespace")
    misquote = misquote_hunks(o.words, s.words, line_starts=_line_starts(s))
    renames = learned_renames(o.words, s.words, misquote) | (also_renamed or {})
    _check_quoted(requested, misquote, len(o.words), len(s.words))
    placed = clusters(requested, misquote, len(o.words))
    quoted = Counter(renames.get(w, w) for c in placed for w in o.words[c.old_start : c.old_end])
    for number in sorted({number for c in placed for number in c.misquotes}):
        change = misquote[number]
        unquoted = Counter(s.words[change.dest_start : change.dest_end]) - quoted
        if sum(unquoted.values()) > change.src_end - change.src_start:
            # The search holds text where the change goes that old_string does not quote at
            # all (a line the agent did not know of): the requested change would drop it.
            # Text old_string quotes elsewhere (moved) or misquotes word for word is fine.
            raise CannotCarry("the search has text old_string lacks where the change goes")
    pieces: list[str] = []
    kept: list[tuple[int, int, int]] = []  # (start, end) in the result, start in the search
    written = 0
    cursor = 0  # in search's text
    for cluster in placed:
        region_start, region_end, inserted = _spliced(cluster, o, n, s, renames)
        if region_start < cursor:
            raise CannotCarry("two requested changes fall on the same place of the search")
        kept.append((written, written + region_start - cursor, cursor))
        pieces.append(search[cursor:region_start])
        pieces.append(inserted)
        written += region_start - cursor + len(inserted)
        cursor = region_end
    kept.append((written, written + len(search) - cursor, cursor))
    pieces.append(search[cursor:])
    carried = "".join(pieces)
    return _indented_as_requested(carried, kept, o, n, s, requested, misquote)


def _indented_as_requested(
    carried: str,
    kept: Sequence[tuple[int, int, int]],
    o: Tokens,
    n: Tokens,
    s: Tokens,
    requested: Sequence[Hunk],
    misquote: Sequence[Hunk],
) -> str:
    """``carried`` with each line the request keeps indented as the request indents it.

    Tokens alone do not see a line moved in or out (new_string wrapping three lines in a
    ``with`` block, or leaving a closing ``);`` where it was): a line of the search kept
    as it is, or begun by a change's text, would keep the indentation it happens to get.
    A line whose first token is the search's, and is the first token of a line of
    old_string and of new_string too, gets the search's indentation of that line moved by
    what new_string adds to (or takes from) old_string's.
    """
    old_to_search = _paired_tokens(misquote, len(o.words), same_size=True)
    search_to_old = {mine: theirs for theirs, mine in old_to_search.items()}
    old_to_new = _paired_tokens(requested, len(o.words), same_size=False)
    step = _indent_step(o.text, n.text)
    out: list[str] = []
    line_start = 0
    for line in carried.split("\n"):
        body = line.lstrip(" \t")
        first = line_start + len(line) - len(body)
        out.append(line)
        line_start += len(line) + 1
        if not body:
            continue
        at_search = _in_kept(first, kept)
        if at_search is None:
            continue
        index = bisect_left(s.starts, at_search)
        if index >= len(s.words) or s.starts[index] != at_search:
            continue
        old_index = search_to_old.get(index)
        new_index = old_to_new.get(old_index) if old_index is not None else None
        if new_index is None or old_index is None:
            continue
        heads = (_line_head(s, index), _line_head(o, old_index), _line_head(n, new_index))
        if any(head is None for head in heads):
            continue
        file_indent, quoted_indent, new_indent = (str(head) for head in heads)
        if new_indent.startswith(quoted_indent):
            indent = file_indent + _in_file_unit(
                new_indent[len(quoted_indent) :], file_indent, step
            )
        elif quoted_indent.startswith(new_indent) and file_indent.endswith(
            removed := _in_file_unit(quoted_indent[len(new_indent) :], file_indent, step)
        ):
            indent = file_indent[: len(file_indent) - len(removed)]
        else:
            continue
        out[-1] = indent + body
    return "\n".join(out)


def _paired_tokens(changes: Sequence[Hunk], length: int, *, same_size: bool) -> dict[int, int]:
    """Token index -> index in the other text, for the tokens an alignment keeps (and, with
    ``same_size``, those a change swaps one for one: a misquoted name)."""
    pairs: dict[int, int] = {}
    src = dest = 0
    for change in changes:
        while src < change.src_start:
            pairs[src] = dest
            src, dest = src + 1, dest + 1
        size = change.src_end - change.src_start
        if same_size and size == change.dest_end - change.dest_start:
            for step in range(size):
                pairs[change.src_start + step] = change.dest_start + step
        src, dest = change.src_end, change.dest_end
    while src < length:
        pairs[src] = dest
        src, dest = src + 1, dest + 1
    return pairs


def _in_kept(position: int, kept: Sequence[tuple[int, int, int]]) -> int | None:
    """Where ``position`` of the carried text stands in the search, if a kept piece has it."""
    for start, end, search_at in kept:
        if start <= position < end:
            return search_at + position - start
    return None


def _line_head(tokens: Tokens, index: int) -> str | None:
    """The indentation before token ``index`` when it is the first token of its line."""
    start = tokens.starts[index]
    line_start = tokens.text.rfind("\n", 0, start) + 1
    head = tokens.text[line_start:start]
    return head if not head.strip(" \t") else None


def _at_line_starts(found: Sequence[Hunk], o: Tokens, n: Tokens) -> list[Hunk]:
    """Lines deleted (inserted) whole, where the alignment leaves a choice. Deleting
    ``impl A {}`` before ``impl B`` can be aligned as deleting ``A {} impl`` after the first
    ``impl``; the spacing then taken from new_string is the wrong one (a blank line lost)."""
    out: list[Hunk] = []
    for number, hunk in enumerate(found):
        deletes = hunk.dest_start == hunk.dest_end and hunk.src_start < hunk.src_end
        inserts = hunk.src_start == hunk.src_end and hunk.dest_start < hunk.dest_end
        if not (deletes or inserts):
            out.append(hunk)
            continue
        side = o if deletes else n
        start, end = (hunk.src_start, hunk.src_end) if deletes else (hunk.dest_start, hunk.dest_end)
        low = out[-1].src_end if deletes and out else out[-1].dest_end if out else 0
        following = found[number + 1] if number + 1 < len(found) else None
        high = (
            (following.src_start if deletes else following.dest_start)
            if following
            else len(side.words)
        )
        shifts = [0]
        step = 0
        while start + step > low and side.words[start + step - 1] == side.words[end + step - 1]:
            step -= 1
            shifts.append(step)
        step = 0
        while end + step < high and side.words[start + step] == side.words[end + step]:
            step += 1
            shifts.append(step)
        chosen = next(
            (shift for shift in shifts if _starts_line(side, start + shift)),
            0,
        )
        out.append(
            Hunk(
                hunk.src_start + chosen,
                hunk.src_end + chosen,
                hunk.dest_start + chosen,
                hunk.dest_end + chosen,
            )
        )
    return out


def _starts_line(tokens: Tokens, index: int) -> bool:
    return "\n" in tokens.text[tokens.gap_start(index) : tokens.gap_end(index)]


def _check_quoted(
    requested: Sequence[Hunk], misquote: Sequence[Hunk], old_len: int, search_len: int
) -> None:
    """:class:`NotQuoted` when a requested change touches the text old_string quotes before
    (or after) all that the search quotes. Placed at the search's edge, it would land on
    other text: a ``with`` meant to wrap four lines wrapping the last two, which the search
    narrowed to."""
    lead, trail = 0, old_len
    if misquote:
        first, last = misquote[0], misquote[-1]
        if first.src_start == 0 and first.dest_start == 0:
            lead = max(0, _size(first, 0) - _size(first, 1))
        if last.src_end == old_len and last.dest_end == search_len:
            trail = old_len - max(0, _size(last, 0) - _size(last, 1))
    for hunk in requested:
        if (
            hunk.src_start < lead
            or hunk.src_end > trail
            or (hunk.src_start == hunk.src_end and hunk.src_start > trail)
        ):
            raise NotQuoted("the requested change falls on old_string text the search leaves out")


def _size(hunk: Hunk, side: int) -> int:
    return hunk.src_end - hunk.src_start if side == 0 else hunk.dest_end - hunk.dest_start


def _spliced(
    cluster: Cluster, o: Tokens, n: Tokens, s: Tokens, renames: dict[str, str]
) -> tuple[int, int, str]:
    """``(start, end, text)``: the search's characters ``[start, end)`` become ``text``.

    A change takes the spacing around its tokens with it: from just after the token before
    it to just before the token after it, in the search and in new_string alike.
    """
    region_start, region_end = s.gap_start(cluster.search_start), s.gap_end(cluster.search_end)
    new_start, new_end = n.gap_start(cluster.new_start), n.gap_end(cluster.new_end)
    quoted_at = o.gap_start(cluster.old_start)
    # Where one of old_string and the search starts (or ends) at this change and the other
    # quotes more before it (after it), the spacing before the change's first token (after
    # its last) is the search's own: keep it, and take new_string's text from its first
    # token (to its last).
    cut_start = bool(s.words) and (cluster.old_start == 0) != (cluster.search_start == 0)
    cut_end = bool(s.words) and (cluster.old_end == len(o.words)) != (
        cluster.search_end == len(s.words)
    )
    if cut_start:
        region_start = (
            s.starts[cluster.search_start] if cluster.search_start < len(s.words) else len(s.text)
        )
        if cluster.old_start < len(o.words):
            quoted_at = o.starts[cluster.old_start]
        new_start = n.starts[cluster.new_start] if cluster.new_start < len(n.words) else new_end
    if cut_end:
        after_last = s.ends[cluster.search_end - 1] if cluster.search_end > 0 else 0
        region_end = max(region_start, after_last)
        if cluster.new_end > cluster.new_start:
            new_end = max(n.ends[cluster.new_end - 1], new_start)
        else:
            new_end = new_start
    inserted = _reindented(
        _renamed(n, cluster.new_start, cluster.new_end, renames, new_start, new_end),
        _indent_at(o.text, quoted_at),
        _indent_at(s.text, region_start),
        starts_line=cluster.new_start == 0 and not cut_start,
        ends_before_token=cluster.new_end < len(n.words) and not cut_end,
        step=_indent_step(o.text, n.text),
        unit=_indent_unit(s.text),
    )
    return region_start, region_end, inserted


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


def _line_starts(tokens: Tokens) -> list[int]:
    """Indices of the tokens that begin a line (after the first)."""
    return [i for i in range(1, len(tokens.words)) if _starts_line(tokens, i)]


def _without_context(
    old: Sequence[str], search: Sequence[str], found: list[Hunk], line_starts: Sequence[int]
) -> list[Hunk]:
    """``found``, or the alignment of old_string with the run of the search's lines most like
    it (up to three whole lines the search quotes before, or after, left outside as
    context), when that run is more like old_string than the whole search is. Heavily
    misquoted, old_string's ``(`` and ``)`` would otherwise pair with those of a context
    line (``Run(cfg Config)`` above the lines meant)."""
    codes: dict[str, str] = {}
    old_code = "".join(_code(word, codes) for word in old)
    search_code = "".join(_code(word, codes) for word in search)
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
    old_code = "".join(_code(word, codes) for word in old)
    search_code = "".join(_code(word, codes) for word in search)
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


def _code(word: str, codes: dict[str, str]) -> str:
    """One character per distinct token, so strings of them align token by token."""
    if word not in codes:
        number = len(codes)
        codes[word] = chr(0xE000 + number) if number < 6400 else chr(0xF0000 + number - 6400)
    return codes[word]


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
            if not (_is_name(word) and _is_name(renamed)) or _respelled(word, renamed):
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


def _is_name(word: str) -> bool:
    return bool(_NAME.fullmatch(word)) and word not in _LITERALS


def _renamed(
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


def _in_file_unit(extra: str, file_indent: str, step: int) -> str:
    """Indentation the request adds (``extra``), in the characters the file indents with
    there: ``step`` spaces of the agent's for each tab of a tab-indented file, a tab of the
    agent's as ``step`` spaces in a space-indented one. Mixed, a Go or Makefile line would
    read wrong and a Python one would not run."""
    if not extra or not file_indent or set(file_indent) == set(extra):
        return extra
    if set(file_indent) == {"\t"} and set(extra) == {" "} and len(extra) % step == 0:
        return "\t" * (len(extra) // step)
    if set(file_indent) == {" "} and set(extra) == {"\t"}:
        return " " * (step * len(extra))
    return extra


def _indent_step(*texts: str) -> int:
    """The agent's indentation step in spaces: the smallest rise from one line to a more
    indented one in its texts (4 when they show none)."""
    steps = []
    for text in texts:
        widths = [
            len(line) - len(line.lstrip(" "))
            for line in text.split("\n")
            if line.strip() and not line.startswith("\t")
        ]
        steps += [b - a for a, b in itertools.pairwise(widths) if b > a]
    return min(steps, default=4)


def _indent_at(text: str, position: int) -> str:
    line_start = text.rfind("\n", 0, position) + 1
    return leading_whitespace(text[line_start:])


def _indent_unit(text: str) -> str:
    """The indentation of the first indented line of ``text`` ("" when none is): what the
    file indents with, for a change that starts on a line at column 0."""
    for line in text.split("\n"):
        indent = leading_whitespace(line)
        if indent and line.strip():
            return indent
    return ""


def _reindented(
    inserted: str,
    quoted_indent: str,
    file_indent: str,
    *,
    starts_line: bool,
    ends_before_token: bool,
    step: int = 4,
    unit: str = "",
) -> str:
    """Lines begun inside ``inserted`` moved from old_string's indentation to the file's.

    ``starts_line``: ``inserted`` begins at new_string's start, so its first line's indent is
    in it too. ``ends_before_token``: its last line is the indent of a token that follows
    (else it is new_string's trailing space, kept as it is). ``unit``: what the file indents
    with where ``file_indent`` is empty (a change on a line at column 0), so that a level
    the request adds in spaces is a tab in a tab-indented file even there.
    """
    same_depth = quoted_indent == file_indent
    lines = inserted.split("\n")
    out: list[str] = []
    for number, line in enumerate(lines):
        if number == 0 and not starts_line:
            out.append(line)
            continue
        stripped = line.lstrip(" \t")
        indent = line[: len(line) - len(stripped)]
        last = number == len(lines) - 1
        if stripped or (last and ends_before_token):
            if not indent.startswith(quoted_indent):
                if same_depth:  # nothing to move: the line stays as new_string has it
                    out.append(line)
                    continue
                raise CannotCarry("new_string is indented less than old_string's first line")
            extra = _in_file_unit(indent[len(quoted_indent) :], file_indent or unit, step)
            out.append(file_indent + extra + stripped)
        else:
            out.append(line)  # a blank line, or the trailing space after the last token
    return "\n".join(out)


class NotTheRequestedEdit(Exception):
    """The correction makes another edit than the one requested; ``str()`` says how, as a
    clause completing "The LLM fixer proposed a correction, but ..."."""


def replacement_to_write(
    old: str, new: str, search: str, replace: str, *, file_text: str = ""
) -> str:
    """What ``search`` becomes: the requested edit carried onto it, cross-checked against the
    fixer's ``replace`` token by token; :class:`NotTheRequestedEdit` when they differ.

    - A whitespace-only request cannot be carried token-wise: the fixer's replace is written
      if it, too, only respaces the search.
    - When the carried edit and the fixer's replace differ only where the fixer wrote, for a
      name old_string used and the search does not, a name the search (or ``file_text``,
      the file) uses (``qty`` -> ``quantity`` in an inserted line), that rename is carried
      too.
    - When the request cannot be carried mechanically (it overlaps a misquote in a way no
      merge can settle), the fixer's edit must still be the requested one hunk by hunk.
    """
    # Where the model's own text is written, it may not touch more lines than the request
    # does (a second re-indented line is another edit), nor change the line breaks at its
    # edges unless the request does.
    edges_kept = _edges(old) != _edges(new) or _edges(search) == _edges(replace)
    edges_kept = edges_kept and _lines_changed(search, replace) <= _lines_changed(old, new)
    if same_tokens(old, new):
        if replace != search and same_tokens(search, replace) and edges_kept:
            problem = respacing_problem(old, new, search, replace)
            if problem is None:
                return replace
            raise NotTheRequestedEdit(
                f"the request only changes spacing, and its replacement {problem}"
            )
        raise NotTheRequestedEdit(
            "the request only changes spacing, and its replacement does not do just that"
        )
    try:
        carried = carry_edit(old, new, search)
    except CannotCarry as cannot:
        if (
            not isinstance(cannot, NotQuoted)
            and same_hunks(old, new, search, replace)
            and edges_kept
        ):
            return replace
        raise NotTheRequestedEdit(
            f"its edit is not the requested one, and the request cannot be carried onto its "
            f"search text ({cannot})"
        ) from cannot
    if not same_tokens(carried, replace):
        renames = renames_by_fixer(old, search, carried, replace, file_text=file_text)
        if renames:
            with contextlib.suppress(CannotCarry):  # then the mismatch below says why
                carried = carry_edit(old, new, search, also_renamed=renames)
    if not same_tokens(carried, replace):
        carried = _unescaped_carry(old, new, search, replace) or carried
    if not same_tokens(carried, replace):
        raise NotTheRequestedEdit(
            "its replacement makes another edit than the one requested: "
            + describe_difference(carried, replace)
        )
    return _layout_of(replace, carried)


def respacing_problem(old: str, new: str, search: str, replace: str) -> str | None:
    """Why ``search -> replace`` is not the respacing ``old -> new`` asks for, or ``None``.

    Both only respace (same tokens), so each is a list of changed gaps between tokens. A
    gap of the search stands for the gap of old_string between the same two tokens (as the
    misquote aligns them; at old_string's edges, the gap before its first token or after its
    last). Each gap the model changes must be one the request changes, changed the same
    way (as many line breaks added or taken, the space after the last one grown or shrunk
    alike, and made only of characters already there or that new_string writes: no
    U+00A0 or U+3000 for an indent of spaces), and each gap the request changes must be
    changed. Gaps neither side can place (next to a misquoted token) are paired in order.
    """
    o, n, s, r = (Tokens.of(to_lf(text)) for text in (old, new, search, replace))
    old_gaps, new_gaps = _gaps(o), _gaps(n)
    search_gaps, replace_gaps = _gaps(s), _gaps(r)
    if len(old_gaps) != len(new_gaps) or len(search_gaps) != len(replace_gaps):
        return "does not respace the same text"
    to_old = _gap_alignment(o.words, s.words)
    placed = set(to_old.values())
    loose_search: list[int] = []
    for j, (before, after) in enumerate(zip(search_gaps, replace_gaps)):
        if before == after:
            continue
        i = to_old.get(j)
        if i is None:
            loose_search.append(j)
        elif old_gaps[i] == new_gaps[i]:
            return f"changes spacing the request leaves alone ({_where(s, j)})"
        elif not _respaced_alike(old_gaps[i], new_gaps[i], before, after):
            return f"respaces {_where(s, j)} otherwise than the request does"
    loose_old: list[int] = []
    for i, (before, after) in enumerate(zip(old_gaps, new_gaps)):
        if before == after:
            continue
        if i not in placed:
            loose_old.append(i)
            continue
        j = next(j for j, mapped in to_old.items() if mapped == i)
        if search_gaps[j] == replace_gaps[j]:
            return f"leaves the spacing the request changes as it was ({_where(s, j)})"
    if len(loose_search) != len(loose_old):
        return "respaces other places than the request does"
    for i, j in zip(loose_old, loose_search):
        if not _respaced_alike(old_gaps[i], new_gaps[i], search_gaps[j], replace_gaps[j]):
            return f"respaces {_where(s, j)} otherwise than the request does"
    return None


def _gaps(tokens: Tokens) -> list[str]:
    """The text before each token, and after the last one."""
    return [
        tokens.text[tokens.gap_start(index) : tokens.gap_end(index)]
        for index in range(len(tokens.words) + 1)
    ]


def _gap_alignment(old: Sequence[str], search: Sequence[str]) -> dict[int, int]:
    """Gap index of the search -> gap index of old_string, where the gap stands between the
    same two tokens (or at old_string's edge, beside its first or last token)."""
    to_old: dict[int, int] = {}
    for op in Indel.opcodes(list(old), list(search)):
        if op.tag == "equal":
            for k in range(op.src_end - op.src_start):
                to_old[op.dest_start + k] = op.src_start + k
    gaps: dict[int, int] = {}
    for j in range(len(search) + 1):
        left, right = to_old.get(j - 1), to_old.get(j)
        if left is not None and right is not None and right == left + 1:
            gaps[j] = right
        elif right == 0 and old:
            gaps[j] = 0
        elif left == len(old) - 1 and old:
            gaps[j] = len(old)
    return gaps


def _respaced_alike(old: str, new: str, before: str, after: str) -> bool:
    """``before -> after`` changes a gap as ``old -> new`` does."""
    if new.count("\n") - old.count("\n") != after.count("\n") - before.count("\n"):
        return False
    grown = len(new.rpartition("\n")[2]) - len(old.rpartition("\n")[2])
    made = len(after.rpartition("\n")[2]) - len(before.rpartition("\n")[2])
    if (grown > 0) != (made > 0) or (grown < 0) != (made < 0):
        return False
    return set(after) <= set(before) | set(new) | {"\n"}


def _where(tokens: Tokens, gap: int) -> str:
    """The search's line a gap ends on, for a refusal."""
    line = tokens.text.count("\n", 0, tokens.gap_end(gap)) + 1
    return f"line {line} of its search text"


def _unescaped_carry(old: str, new: str, search: str, replace: str) -> str | None:
    """The request with one level of escaping undone, carried onto the search, when the
    agent escaped what the file does not (``\\"`` for ``"``: old_string has backslashes,
    the search none) and the fixer's replace agrees with it. new_string was escaped the
    same way, so its inserted text is unescaped too."""
    if "\\" not in old or "\\" in search:
        return None
    old_plain, new_plain = unescape_once(old), unescape_once(new)
    if old_plain == old:
        return None
    try:
        carried = carry_edit(old_plain, new_plain, search)
    except CannotCarry:
        return None
    return carried if same_tokens(carried, replace) else None


def _layout_of(replace: str, carried: str) -> str:
    """The carried edit, unless the fixer's text is the very same (line endings aside).

    A layout difference is never the model's to make: a re-indented line can move a Python
    statement out of its block, a dropped final newline joins two lines, and blank lines
    and trailing spaces are content in Markdown, YAML block scalars and string literals
    (a paragraph joined, a hard line break lost, a signature delimiter ``"-- "`` broken).
    """
    return replace if to_lf(replace) == to_lf(carried) else carried


def _lines_changed(before: str, after: str) -> int:
    """How many lines (trailing spaces aside) one text drops or adds to become the other."""

    def lines(text: str) -> list[str]:
        return [line.rstrip() for line in to_lf(text).split("\n")]

    return int(Indel.distance(lines(before), lines(after)))


def _edges(text: str) -> tuple[str, int]:
    """The space before a text's first token, and the line breaks after its last."""
    text = to_lf(text)
    lead = text[: len(text) - len(text.lstrip())]
    return lead, text[len(text.rstrip()) :].count("\n")


def renames_by_fixer(
    old: str, search: str, carried: str, replace: str, *, file_text: str = ""
) -> dict[str, str]:
    """Names the fixer's replace renames, word for word, from the carried edit: each from a
    name old_string uses and the search lacks to a like-spelled name the search (or the file)
    has (``qty -> quantity``, ``acct -> account``), consistently. Empty when it differs in
    any other way: ``qty -> price`` is another edit, not a correction of a misquote."""
    quoted, in_search = set(token_list(old)), set(token_list(search))
    found = in_search | set(token_list(file_text))
    mine, theirs = token_list(carried), token_list(replace)
    renames: dict[str, str] = {}
    for hunk in hunks(mine, theirs):
        ours, fixers = mine[hunk.src_start : hunk.src_end], theirs[hunk.dest_start : hunk.dest_end]
        if len(ours) != len(fixers):
            return {}
        for word, renamed in zip(ours, fixers):
            fits = (
                _is_name(word)
                and word in quoted
                and word not in in_search
                and renamed in found
                and _alike(word, renamed)
            )
            if not fits or renames.setdefault(word, renamed) != renamed:
                return {}
    return renames


def _alike(word: str, other: str) -> bool:
    """Spelled alike enough to be the same name misremembered (Indel similarity >= 0.5,
    case ignored)."""
    return Indel.normalized_similarity(word.lower(), other.lower()) >= 0.5


def same_hunks(old: str, new: str, search: str, replace: str) -> bool:
    """``search -> replace`` makes the same changes as ``old -> new``, hunk by hunk and in
    order, each with the same token before and after it (names renamed as the misquote
    renames them)."""
    o, n, s, r = token_list(old), token_list(new), token_list(search), token_list(replace)
    renames = learned_renames(o, s, hunks(o, s))
    wanted, made = hunks(o, n), hunks(s, r)
    if len(wanted) != len(made):
        return False

    def seen(words: Sequence[str], start: int, end: int, mapped: bool) -> list[str]:
        picked = list(words[max(start, 0) : max(end, 0)])
        return [renames.get(w, w) for w in picked] if mapped else picked

    for want, make in zip(wanted, made):
        sides = [
            (o, want.src_start - 1, want.src_start, s, make.src_start - 1, make.src_start),
            (o, want.src_end, want.src_end + 1, s, make.src_end, make.src_end + 1),
            (o, want.src_start, want.src_end, s, make.src_start, make.src_end),
            (n, want.dest_start, want.dest_end, r, make.dest_start, make.dest_end),
        ]
        for mine, a, b, theirs, c, d in sides:
            if seen(mine, a, b, True) != seen(theirs, c, d, False):
                return False
    return True


def describe_difference(expected: str, actual: str) -> str:
    """The first way ``actual`` differs from ``expected``, in the agent's terms."""
    mine, theirs = token_list(expected), token_list(actual)
    found = hunks(mine, theirs)
    if not found:
        return "it differs only in spacing"
    first = found[0]
    lost = _shown(mine[first.src_start : first.src_end])
    added = _shown(theirs[first.dest_start : first.dest_end])
    more = (
        f" (and {len(found) - 1} more change{'s' if len(found) > 2 else ''})"
        if len(found) > 1
        else ""
    )
    if lost and added:
        return f"it also turns {lost} into {added}{more}"
    if lost:
        return f"it also drops {lost}{more}"
    return f"it also adds {added}{more}"


def _shown(words: Sequence[str], limit: int = 12) -> str:
    if not words:
        return ""
    text = " ".join(words[:limit]) + (" ..." if len(words) > limit else "")
    if len(text) > 200:  # a token can be megabytes long (a data literal, a minified line)
        text = f"{text[:200]}... ({len(text) - 200:,} more characters)"
    return repr(text)
