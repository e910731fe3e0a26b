"""Block-anchor tier: a block quoted with a small typo, found by its intact lines."""

from __future__ import annotations

import math
import re
from difflib import SequenceMatcher
from typing import ClassVar

from rapidfuzz.distance import Indel, Levenshtein

from editengine.matching.base import DoubtfulMatch, Match
from editengine.matching.lines import LineBlock, LineView, OldLines, line_view

# Lines this short or this common say little about where a block is ("}", "", "else:").
_MIN_ANCHOR_CHARS = 4
_MAX_ANCHOR_OCCURRENCES = 64
# Voting with the longest few lines finds the block as well as voting with all, for less.
_MAX_VOTERS = 12


class BlockAnchorTier:
    """Forgives a typo or two: a block of at least three lines whose other lines are intact.

    Candidate places are voted for by old_string's distinctive lines that occur verbatim
    (after stripping) at the right offset, so the cost is linear in the file. A candidate
    is kept only when every differing line is within ``max_line_edits`` characters and at
    most ``max_differing_fraction`` of the lines differ: a typo, not a different line. The
    cascade then demands ``threshold`` similarity and a ``margin`` over the runner-up.
    """

    name: ClassVar[str] = "block_anchor"
    fuzzy: ClassVar[bool] = True

    def __init__(
        self,
        *,
        threshold: float = 0.9,
        margin: float = 0.04,
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
        old_lines = _trimmed_old(old)
        keys = [line.strip() for line in old_lines.lines]
        if sum(1 for key in keys if key) < self.min_lines:
            return []
        view = line_view(content)
        matches = []
        for start in voted_starts(view, keys, min_votes=_min_votes(keys)):
            similarity = self._similarity(view, start, keys)
            if similarity is not None:
                block = LineBlock(
                    view, start, len(keys), old_lines, similarity=similarity, fix_line=carry_fix
                )
                matches.append(block.to_match())
        return matches

    def _similarity(self, view: LineView, start: int, keys: list[str]) -> float | None:
        window = view.stripped[start : start + len(keys)]
        differing = 0
        for old_key, file_key in zip(keys, window):
            if old_key == file_key:
                continue
            differing += 1
            if not old_key or not file_key:
                return None
            if Levenshtein.distance(old_key, file_key, score_cutoff=self.max_line_edits + 1) > (
                self.max_line_edits
            ):
                return None
        allowed = max(1, math.floor(len([k for k in keys if k]) * self.max_differing_fraction))
        if differing == 0 or differing > allowed:
            return None
        return block_similarity(keys, window)


def block_similarity(old_keys: list[str], file_keys: list[str]) -> float:
    """Similarity in [0, 1] of two line sequences, whitespace at line ends ignored."""
    return Indel.normalized_similarity("\n".join(old_keys), "\n".join(file_keys))


def _trimmed_old(old: str) -> OldLines:
    old_lines = OldLines.of(old)
    lines = list(old_lines.lines)
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return OldLines(lines, old_lines.trailing_newline)


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
    for offset in voters:
        positions = view.lines_stripped_equal(keys[offset], limit=_MAX_ANCHOR_OCCURRENCES)
        for position in positions or ():
            start = position - offset
            if start >= 0 and start + size <= len(view):
                votes[start] = votes.get(start, 0) + 1
    return sorted(start for start, count in votes.items() if count >= min_votes)


_TOKEN = re.compile(r"\w+|[^\w\s]")


def carry_fix(line: str, misquoted: str, actual: str) -> str:
    """``line`` with the words ``misquoted`` got wrong (compared with ``actual``) put right.

    A model that misquoted ``exports`` as ``exportss`` writes the misquote again in the line
    it edits. Word-for-word fixes are carried over; a misquote that cannot be carried into
    the rewritten line is a guess, and the tier steps back (:class:`DoubtfulMatch`).
    """
    old_tokens, file_tokens = _TOKEN.findall(misquoted), _TOKEN.findall(actual)
    matcher = SequenceMatcher(None, old_tokens, file_tokens, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        wrong = old_tokens[i1:i2]
        if not wrong:
            continue  # the quote missed a token; nothing of it can be in new_string
        pattern = r"\s*".join(re.escape(token) for token in wrong)
        if not re.search(pattern, line):
            continue  # the edit rewrote that part anyway
        words = wrong + file_tokens[j1:j2]
        if (
            tag != "replace"
            or i2 - i1 != 1
            or j2 - j1 != 1
            or not all(token[0].isalnum() or token[0] == "_" for token in words)
        ):
            raise DoubtfulMatch(f"cannot carry the fix of {wrong!r} into the edited line")
        line = re.sub(rf"(?<!\w){re.escape(wrong[0])}(?!\w)", file_tokens[j1], line)
    return line
