"""The requested edit carried onto the text the fixer says old_string meant.

The agent asked for ``old_string -> new_string``; the fixer answers that old_string was
misquoted and the file holds ``search`` instead. The fixer's own ``replace`` is not trusted:
the edit to write is *derived* from the request. Each hunk of the request is placed on
``search`` through the misquote's alignment (a token-level three-way merge, like the line
merge the block-anchor tier uses to carry typo fixes), and the names the misquote renamed
(``line -> item``) are renamed the same way in the text the request inserts. What comes out
(:func:`carry_edit`) is ``search`` with exactly the requested hunks changed, laid out as
new_string lays them out, re-indented to the file's indentation.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

from editengine._text import to_lf
from editengine.verdict._alignment import (
    Cluster,
    clusters,
    learned_renames,
    misquote_hunks,
    renamed_text,
)
from editengine.verdict._layout import in_file_unit, indent_at, indent_step, indent_unit, reindented
from editengine.verdict._tokens import (
    CannotCarry,
    Hunk,
    NotQuoted,
    Tokens,
    begins_line,
    hunks,
    token_line_starts,
)


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
    misquote = misquote_hunks(o.words, s.words, line_starts=token_line_starts(s))
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
    step = indent_step(o.text, n.text)
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
            indent = file_indent + in_file_unit(new_indent[len(quoted_indent) :], file_indent, step)
        elif quoted_indent.startswith(new_indent) and file_indent.endswith(
            removed := in_file_unit(quoted_indent[len(new_indent) :], file_indent, step)
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
            (shift for shift in shifts if begins_line(side, start + shift)),
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
    inserted = reindented(
        renamed_text(n, cluster.new_start, cluster.new_end, renames, new_start, new_end),
        indent_at(o.text, quoted_at),
        indent_at(s.text, region_start),
        starts_line=cluster.new_start == 0 and not cut_start,
        ends_before_token=cluster.new_end < len(n.words) and not cut_end,
        step=indent_step(o.text, n.text),
        unit=indent_unit(s.text),
    )
    return region_start, region_end, inserted
