"""Comparisons of a fixer's replace with the request that need no carry.

Names the fixer renamed from the carried edit (:func:`renames_by_fixer`), whether the
fixer's edit makes the same hunks as the request (:func:`same_hunks`), and the first way two
texts differ, in the agent's terms (:func:`describe_difference`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz.distance import Indel

from editengine.verdict._alignment import learned_renames
from editengine.verdict._tokens import hunks, is_name, token_list


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
                is_name(word)
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
