"""What a fixer's correction writes, and why it is refused when it is not the request.

The carried edit (:mod:`._carry`) is what is written; the fixer's replace is only a
cross-check: it must have the same tokens, in the same order. An extra substitution, a
reordering, a dropped or added line, a change far away under a widened search: each shows
up as a token the carried edit does not have, and :func:`replacement_to_write` raises
:class:`NotTheRequestedEdit`. A whitespace-only request is judged gap by gap
(:func:`respacing_problem`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from rapidfuzz.distance import Indel

from editengine._text import to_lf, unescape_once
from editengine.verdict._carry import carry_edit
from editengine.verdict._compare import describe_difference, renames_by_fixer, same_hunks
from editengine.verdict._tokens import CannotCarry, NotQuoted, Tokens, same_tokens


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
