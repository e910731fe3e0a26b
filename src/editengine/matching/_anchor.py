"""Block-anchor tier: a block quoted with a small typo, found by its intact lines."""

from __future__ import annotations

import math
from typing import ClassVar

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel, Levenshtein

from editengine.matching._base import FUZZY_THRESHOLD, DoubtfulMatch, Match
from editengine.matching._lines import LineBlock, LineView, line_view, without_blank_edges
from editengine.matching._meaning import meaning_difference

# Lines this short or this common say little about where a block is ("}", "", "else:").
_MIN_ANCHOR_CHARS = 4
_MAX_ANCHOR_OCCURRENCES = 64
# Voting with the longest few lines finds the block as well as voting with all, for less.
_MAX_VOTERS = 12
# From this many voters, one pass over the stripped lines costs less than a search for each.
_VOTERS_IN_ONE_PASS = 3
# Without an intact distinctive line, candidates come from lines at least this like the
# longest quoted line (rapidfuzz ratio), itself long enough for a typo to be one.
_FUZZY_CANDIDATES = 5
_FUZZY_CUTOFF = 90.0
_MIN_FUZZY_PROBE = 12
# fuzzy_starts answers any limit and cutoff within these from one search of the file.
_SHARED_LIMIT = 5
_SHARED_CUTOFF = 40.0


# A line with several typos (more than max_line_edits): long enough that they are typos in
# it, not another line, and still this alike (the rapidfuzz ratio a model's slips leave).
_SEVERAL_TYPOS_MIN_CHARS = 20
_SEVERAL_TYPOS_LIKENESS = 0.75
_INTACT_AROUND_TYPOS = 2
_MAX_SLIPS = 6
# A slip changes a character or two: struck wrong or swapped (two), dropped or doubled
# (one). Slips may pile up in a long word, but a word changed in more than half its
# characters and in more than three (``unit`` for ``item``) is another word.
_MAX_SLIP_CHARS = 2
_SLIPPED_WORD_CHARS = 3  # ``iflee`` for ``file``: a swap and a doubled letter


def _several_typos(old_key: str, file_key: str) -> bool:
    """``old_key`` reads as ``file_key`` with a few slips of a key: characters dropped,
    doubled, swapped or struck wrong. A word or a number replaced (``true`` for ``false``,
    ``and`` for ``or``, ``1`` for ``0``) is another line."""
    if min(len(old_key), len(file_key)) < _SEVERAL_TYPOS_MIN_CHARS:
        return False
    if Indel.normalized_similarity(old_key, file_key) < _SEVERAL_TYPOS_LIKENESS:
        return False
    hunks = _hunks(file_key, old_key)
    if len(hunks) > _MAX_SLIPS:
        return False
    changed: dict[tuple[int, int], int] = {}
    for start, end, text in hunks:
        removed = file_key[start:end]
        if len(removed) > _MAX_SLIP_CHARS or len(text) > _MAX_SLIP_CHARS:
            return False
        if any(char.isdigit() for char in removed + text):
            return False
        word = _word_around(file_key, start, end)
        if removed and word == (start, end):
            return False  # a whole word replaced
        changed[word] = changed.get(word, 0) + len(removed) + len(text)
    return all(
        count <= max(_SLIPPED_WORD_CHARS, (end - start) // 2)
        for (start, end), count in changed.items()
    )


def _word_around(line: str, start: int, end: int) -> tuple[int, int]:
    """The span of the word ``line[start:end]`` lies in (itself when it touches none)."""
    while start and _is_word_char(line[start - 1]):
        start -= 1
    while end < len(line) and _is_word_char(line[end]):
        end += 1
    return start, end


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


class BlockAnchorTier:
    """Forgives a typo or two: a block of at least three lines whose other lines are intact.

    Candidate places are voted for by old_string's distinctive lines that occur verbatim
    (after stripping) at the right offset, so the cost is linear in the file. A candidate
    is kept only when every differing line is within ``max_line_edits`` characters, differs
    in no number, literal, operator or name (``_meaning``), and at most
    ``max_differing_fraction`` of the lines differ: a typo, not a different line. The
    cascade then demands ``threshold`` similarity and a ``margin`` over the runner-up.
    """

    name: ClassVar[str] = "block_anchor"
    fuzzy: ClassVar[bool] = True

    def __init__(
        self,
        *,
        threshold: float = FUZZY_THRESHOLD,
        margin: float = 0.04,  # narrower than the default: its candidates are whole blocks
        min_lines: int = 3,
        max_line_edits: int = 2,
        max_differing_fraction: float = 0.25,
    ) -> None:
        self.threshold = threshold
        self.margin = margin
        self.min_lines = min_lines
        self.max_line_edits = max_line_edits
        self.max_differing_fraction = max_differing_fraction

    def find(self, content: str, old: str) -> list[Match]:
        old_lines, trim_new = without_blank_edges(old)
        keys = [line.strip() for line in old_lines.lines]
        if sum(1 for key in keys if key) < self.min_lines:
            return []
        view = line_view(content)
        starts = voted_starts(view, keys, min_votes=_min_votes(keys))
        if not starts:
            # Only the misquoted line was distinctive (braces and blank lines around it
            # cannot vote): a close likeness of it places the candidates instead.
            likely = fuzzy_starts(
                view,
                keys,
                limit=_FUZZY_CANDIDATES,
                cutoff=_FUZZY_CUTOFF,
                min_probe=_MIN_FUZZY_PROBE,
            )
            starts = [s for s in likely if s >= 0 and s + len(keys) <= view.real_lines]
        matches = []
        for start in starts:
            similarity = self._similarity(view, start, keys, content)
            if similarity is not None:
                block = LineBlock(
                    view, start, len(keys), old_lines, similarity=similarity, fix_line=carry_fix
                )
                matches.append(block.to_match(trim_new))
        return matches

    def _similarity(
        self, view: LineView, start: int, keys: list[str], content: str
    ) -> float | None:
        # Only the window's lines: stripping the whole file would cost more than the search.
        window = [line.strip() for line in view.lines[start : start + len(keys)]]
        differing = 0
        misquoted = 0  # lines with more typos than max_line_edits
        for old_key, file_key in zip(keys, window):
            if old_key == file_key:
                continue
            differing += 1
            if not old_key or not file_key:
                return None
            if meaning_difference(old_key, file_key, content) is not None:
                return None  # a number, a literal, an operator or a name: no typo
            if Levenshtein.distance(old_key, file_key, score_cutoff=self.max_line_edits + 1) > (
                self.max_line_edits
            ):
                if not _several_typos(old_key, file_key):
                    return None
                misquoted += 1
        real = len([k for k in keys if k])
        allowed = max(1, math.floor(real * self.max_differing_fraction))
        if differing == 0 or differing > allowed:
            return None
        if misquoted and (differing > 1 or real - differing < _INTACT_AROUND_TYPOS):
            # Several typos are forgiven in one line only, held in place by intact lines.
            return None
        return block_similarity(keys, window)


def block_similarity(old_keys: list[str], file_keys: list[str]) -> float:
    """Similarity in [0, 1] of two line sequences, whitespace at line ends ignored."""
    return Indel.normalized_similarity("\n".join(old_keys), "\n".join(file_keys))


def _min_votes(keys: list[str]) -> int:
    distinctive = sum(1 for key in keys if len(key) >= _MIN_ANCHOR_CHARS)
    return max(1, math.ceil(distinctive / 2))


def voted_starts(view: LineView, keys: list[str], *, min_votes: int) -> list[int]:
    """First lines of windows where at least ``min_votes`` of the keys sit verbatim."""
    votes: dict[int, int] = {}
    size = len(keys)
    voters = sorted(
        (offset for offset, key in enumerate(keys) if len(key) >= _MIN_ANCHOR_CHARS),
        key=lambda offset: -len(keys[offset]),
    )[:_MAX_VOTERS]
    min_votes = min(min_votes, max(1, math.ceil(len(voters) / 2)))
    if len(voters) >= _VOTERS_IN_ONE_PASS or "stripped" in view.__dict__:
        view.look_up_stripped_equal((keys[offset] for offset in voters), _MAX_ANCHOR_OCCURRENCES)
    for offset in voters:
        positions = view.lines_stripped_equal(keys[offset], limit=_MAX_ANCHOR_OCCURRENCES)
        for position in positions or ():
            start = position - offset
            if start >= 0 and start + size <= len(view):
                votes[start] = votes.get(start, 0) + 1
    return sorted(start for start, count in votes.items() if count >= min_votes)


def fuzzy_starts(
    view: LineView, keys: list[str], *, limit: int, cutoff: float, min_probe: int = 1
) -> list[int]:
    """Window starts (possibly off the file's edges) placed by the file lines most like
    old_string's longest line, at least ``cutoff`` alike (rapidfuzz ratio)."""
    offset, probe = max(enumerate(keys), key=lambda item: len(item[1]))
    if len(probe) < min_probe:
        return []
    if limit <= _SHARED_LIMIT and cutoff >= _SHARED_CUTOFF:
        # One pass over the file serves the tier and the closest-region search of a miss:
        # the best lines at the looser cutoff, filtered, are the best at the stricter one.
        memo_key = ("similar_lines", probe)
        if memo_key not in view.memo:
            view.memo[memo_key] = process.extract(
                probe,
                view.stripped,
                scorer=fuzz.ratio,
                limit=_SHARED_LIMIT,
                score_cutoff=_SHARED_CUTOFF,
            )
        shared = view.memo[memo_key]
        found = [item for item in shared if item[1] >= cutoff][:limit]  # type: ignore[attr-defined]  # the memo holds rapidfuzz matches under this key
    else:
        found = process.extract(
            probe, view.stripped, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff
        )
    return sorted({position - offset for _, _, position in found})


def carry_fix(line: str, misquoted: str, actual: str) -> str:
    """``line`` (the edit of ``misquoted``) with ``misquoted``'s typos put right as in ``actual``.

    A three-way merge, character by character: the model's edit (misquoted -> line) and the
    typo fix (misquoted -> actual) are both applied when they touch different characters.
    When they overlap nobody can say what was meant, and the tier steps back
    (:class:`DoubtfulMatch`).
    """
    indent = line[: len(line) - len(line.lstrip())]
    trailing = line[len(line.rstrip()) :]
    base, ours, theirs = misquoted.strip(), actual.strip(), line.strip()
    if base == ours:
        return line
    merged = merge3(base, ours, theirs)
    if merged is None:
        raise DoubtfulMatch("the edited line and the misquote overlap")
    return indent + merged + trailing


def merge3(base: str, ours: str, theirs: str) -> str | None:
    """Apply both ``base -> ours`` and ``base -> theirs``; ``None`` when they conflict.

    A change both sides made alike is applied once; where ``theirs`` rewrote a stretch that
    holds all of one of ``ours``' changes, ``theirs`` wins (the edit replaced those
    characters anyway). Any other overlap is a conflict. When ``ours`` lies on a shortest
    edit path from ``base`` to ``theirs``, ``theirs`` already made ``ours``' changes (the
    model fixed its own typo in the rewrite) and is the answer: diffing it again could align
    the same fix at another offset and apply it twice.
    """
    if Indel.distance(base, ours) + Indel.distance(ours, theirs) == Indel.distance(base, theirs):
        return theirs
    our_hunks = _hunks(base, ours)
    their_hunks = [hunk for hunk in _hunks(base, theirs) if hunk not in our_hunks]
    kept_ours = []
    for our_start, our_end, our_text in our_hunks:
        clash = False
        for their_start, their_end, _ in their_hunks:
            if _covers(their_start, their_end, our_start, our_end):
                clash = True
                continue
            if _touch(our_start, our_end, their_start, their_end):
                return theirs if _rewrite_of_the_fixed_line(base, ours, theirs) else None
        if not clash:
            kept_ours.append((our_start, our_end, our_text))
    out: list[str] = []
    cursor = 0
    for start, end, text in sorted(kept_ours + their_hunks):
        out.append(base[cursor:start])
        out.append(text)
        cursor = end
    out.append(base[cursor:])
    return "".join(out)


def _rewrite_of_the_fixed_line(base: str, ours: str, theirs: str) -> bool:
    """``theirs`` is ``ours`` (the file's line) edited away from the typo fixes: the model
    put its typos right itself, though not along a shortest edit path (``maximumt`` ->
    ``maximums_count`` aligns the ``t`` with ``count``'s). It must be nearer the file's
    line than the misquote, and change nothing the fix changed."""
    if Indel.distance(ours, theirs) >= Indel.distance(base, theirs):
        return False  # nearer the misquote: the typos are repeated, not fixed
    fixes = [op for op in Indel.opcodes(base, ours) if op.tag != "equal"]
    for start, end, _ in _hunks(ours, theirs):
        for fix in fixes:
            if start < fix.dest_end and fix.dest_start < end:
                return False
            if start == end and fix.dest_start < start < fix.dest_end:
                return False
            if fix.dest_start == fix.dest_end and start < fix.dest_start < end:
                return False
    return True


def _covers(outer_start: int, outer_end: int, start: int, end: int) -> bool:
    """A non-empty stretch that holds ``[start, end)`` (an insertion strictly inside it)."""
    if outer_start == outer_end:
        return False
    if start == end:
        return outer_start < start < outer_end
    return outer_start <= start and end <= outer_end


def _touch(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    """Two changes that cannot both be applied in any order."""
    if a_start < b_end and b_start < a_end:
        return True
    if a_start == b_start and (a_start == a_end or b_start == b_end):
        return True
    inside_b = a_start == a_end and b_start < a_start < b_end
    inside_a = b_start == b_end and a_start < b_start < a_end
    return inside_a or inside_b


def _hunks(base: str, other: str) -> list[tuple[int, int, str]]:
    """``(start, end, text)``: ``base[start:end]`` becomes ``text`` in ``other``. Adjacent
    deletions and insertions form one hunk, as a replacement."""
    hunks: list[tuple[int, int, str]] = []
    run: list[int] | None = None  # [src_start, src_end, dest_start, dest_end]
    for op in Indel.opcodes(base, other):
        if op.tag == "equal":
            if run is not None:
                hunks.append((run[0], run[1], other[run[2] : run[3]]))
                run = None
        elif run is None:
            run = [op.src_start, op.src_end, op.dest_start, op.dest_end]
        else:
            run[1], run[3] = op.src_end, op.dest_end
    if run is not None:
        hunks.append((run[0], run[1], other[run[2] : run[3]]))
    return hunks
