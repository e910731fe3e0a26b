"""Realignment: new_string written where old_string matched, in the file's frame.

The model may quote old_string at the wrong depth, with tabs for spaces, or flattened, and
write new_string in that frame or in the file's. Each new line moves by the difference
between the old line it stands for and that line in the file (docs/matching.md, "Writing
new_string in the file's frame"). The pairing of new lines with old lines
(:class:`Correspondence`, :func:`line_opcodes`) lives here too: it is what the moves follow.

Why one long module: the realignment rules and the pairing of new lines with old lines they
follow are read together.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from rapidfuzz.distance import Indel

from editengine._text import leading_whitespace
from editengine.matching._indent_style import COLUMNS, IndentStyle

KeyFunction = Callable[[str], str]
# (new line, the old line it rewrites, that line in the file) -> new line to write
FixLine = Callable[[str, str, str], str]


def realign_lines(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    key: KeyFunction,
    file_style: IndentStyle,
    fix_line: FixLine | None = None,
) -> list[str]:
    """Write ``new_lines`` where ``old_lines`` matched ``file_lines`` (paired one to one).

    The model may have quoted old_string at the wrong depth, with tabs for spaces, or with
    every line flattened, and new_string in the same wrong frame or already in the file's.
    Each new line is moved by the *difference* between the old line it stands for and that
    line in the file, so its relative indentation is kept and nothing is indented twice; when
    new_string is already at the file's depth it is not moved at all. New lines equal to an
    old line (by ``key``) and left at its depth are copied from the file byte for byte, so
    what the edit did not mean to change does not change. ``fix_line(new, old, file)``
    may repair a rewritten line from how its old line differs from the file's.
    """
    return Realignment.of(old_lines, file_lines, new_lines, key, file_style, fix_line).write()


@dataclass(frozen=True)
class Realignment:
    """What writing new_string in the file's frame needs to know, read once: the model's
    indentation style and the file's, each right-quoted line's shift, the most common shift,
    which old line each new line stands for, and whether new_string is already in the
    file's frame. :meth:`write` applies the rules of docs/matching.md ("Writing new_string
    in the file's frame"), one method a rule.
    """

    old_lines: Sequence[str]
    file_lines: Sequence[str]
    new_lines: Sequence[str]
    model_style: IndentStyle
    file_style: IndentStyle
    shifts: NearestShifts
    common: float
    pairing: Correspondence
    new_in_file_frame: bool
    fix_line: FixLine | None

    @classmethod
    def of(
        cls,
        old_lines: Sequence[str],
        file_lines: Sequence[str],
        new_lines: Sequence[str],
        key: KeyFunction,
        file_style: IndentStyle,
        fix_line: FixLine | None = None,
    ) -> Realignment:
        model_style = _model_style(old_lines, file_lines, new_lines, key, file_style)
        if not (model_style.uses_tabs or file_style.uses_tabs):
            # Spaces on both sides: count columns. Levels only translate tabs to spaces, and
            # a guessed level width would turn a 2-column shift into a 4-column one.
            model_style = file_style = COLUMNS

        def model_levels(line: str) -> float:
            return model_style.levels(leading_whitespace(line))

        def file_levels(line: str) -> float:
            return file_style.levels(leading_whitespace(line))

        shifts = _line_shifts(old_lines, file_lines, model_levels, file_levels, key)
        common = Counter(shifts.values()).most_common(1)[0][0] if shifts else 0.0
        pairing = Correspondence.of(
            [key(line) for line in old_lines], [key(line) for line in new_lines]
        )
        whole = _first_line_lost_its_indent(
            old_lines, file_lines, new_lines, pairing, model_levels, file_levels
        )
        if whole is not None:
            # new_string moves as a whole by the first line's depth (see that function).
            shifts, common, new_in_file_frame = NearestShifts(), whole, False
        else:
            new_in_file_frame = _new_is_in_file_frame(
                old_lines, file_lines, new_lines, pairing.kept,
                model_levels, file_levels, shifts, common,
            )  # fmt: skip
        return cls(
            old_lines, file_lines, new_lines, model_style, file_style, shifts, common,
            pairing, new_in_file_frame, fix_line,
        )  # fmt: skip

    def model_levels(self, line: str) -> float:
        return self.model_style.levels(leading_whitespace(line))

    def file_levels(self, line: str) -> float:
        return self.file_style.levels(leading_whitespace(line))

    def write(self) -> list[str]:
        """new_string's lines, each in the file's frame."""
        return [
            self._blank(index) if not line.strip() else self._written(index, line)
            for index, line in enumerate(self.new_lines)
        ]

    def _blank(self, index: int) -> str:
        """A blank line the file already has stays as the file has it, whitespace and all."""
        kept_blank = self.pairing.kept_blank.get(index)
        if kept_blank is None or kept_blank >= len(self.file_lines):
            return ""
        blank = self.file_lines[kept_blank]
        return blank if not blank.strip() else ""

    def _written(self, index: int, line: str) -> str:
        shift = self._shift(index, line)
        target = max(self.model_levels(line) + shift, 0.0)
        kept = self._kept_as_in_file(index, line, target)
        if kept is not None:
            return kept
        line = self._repaired(index, line)
        # A rewrite at its line's own depth takes that line's whitespace characters, even
        # where nothing moves: the quote's spaces for the file's tab were forgiven, not meant.
        own = self._at_its_own_lines_depth(index, line, target)
        if own is not None:
            return own
        beside = self._like_a_neighbour(index, target)
        if beside is not None:
            return beside + line.lstrip(" \t")
        if shift == 0 and self.model_style == self.file_style:
            return line  # nothing to move: keep its whitespace as written, tabs and all
        return self.file_style.render(target) + line.lstrip(" \t")

    def _shift(self, index: int, line: str) -> float:
        """How far new line ``index`` moves: by the shift of the old line it stands for,
        unless it was a misquote (below)."""
        shift = (
            0.0
            if self.new_in_file_frame
            else self.shifts.nearest(self._depth_source(index), self.common)
        )
        rewritten_from = self.pairing.rewritten.get(index)
        if rewritten_from is None:
            return self._inserted_shift(index, line, shift)
        if rewritten_from in self.shifts:
            if not _close(self.shifts[rewritten_from], self.common) and _close(
                self.model_levels(line), self.file_levels(self.file_lines[rewritten_from])
            ):
                # This line alone was quoted at an odd depth and its rewrite is already at
                # the file's: moving it by the odd shift would push it off.
                return 0.0
            return shift
        # A misquoted line rewritten at the misquote's own depth: the misquote's depth was
        # part of the mistake, so move the line to the file's.
        misquoted, actual = self.old_lines[rewritten_from], self.file_lines[rewritten_from]
        if (
            misquoted.strip()
            and actual.strip()
            and _close(self.model_levels(line), self.model_levels(misquoted))
        ):
            return self.file_levels(actual) - self.model_levels(misquoted)
        return shift

    def _inserted_shift(self, index: int, line: str, shift: float) -> float:
        """A line new_string inserts moves with the quote's frame, not with a neighbour
        quoted at an odd depth: a lone line's shift unlike the others' is that line's own
        misquote (the file's depth for it), and says nothing of the lines around it."""
        if index in self.pairing.kept or self.new_in_file_frame:
            return shift
        if _close(shift, self.common) or not self._an_odd_shift(shift):
            return shift
        # Only beside a line that moved like the others (at the quote's edge the odd line
        # is all there is to go by), and unless the inserted line stands at the odd line's
        # quoted depth and not at the other's: then it belongs with the odd line.
        odd = self.pairing.counterpart[index]
        after = self.pairing.following.get(index, odd + 1)
        if after not in self.shifts or not _close(self.shifts[after], self.common):
            return shift
        depth = self.model_levels(line)
        with_odd = _close(depth, self.model_levels(self.old_lines[odd]))
        with_after = _close(depth, self.model_levels(self.old_lines[after]))
        return shift if with_odd and not with_after else self.common

    def _an_odd_shift(self, shift: float) -> bool:
        """``shift`` is one line's alone: most quoted lines moved by the common shift."""
        alike = sum(1 for other in self.shifts.values() if _close(other, shift))
        common = sum(1 for other in self.shifts.values() if _close(other, self.common))
        return alike == 1 and common >= 2

    def _depth_source(self, index: int) -> int:
        """The old line whose shift moves new line ``index``: an inserted line at the depth
        of the line after it (and not of the one before) belongs with the line after."""
        before, after = self.pairing.counterpart[index], self.pairing.following.get(index)
        if after is None or after not in self.shifts:
            return before
        depth = self.model_levels(self.new_lines[index])
        if _close(depth, self.model_levels(self.old_lines[after])) and not _close(
            depth, self.model_levels(self.old_lines[before])
        ):
            return after
        return before

    def _kept_as_in_file(self, index: int, line: str, target: float) -> str | None:
        """A new line equal to an old line, left at its depth (or moved to the file's), is
        copied from the file byte for byte: what the edit did not mean to change does not."""
        old_index = self.pairing.kept.get(index)
        if old_index is None:
            return None
        file_line = self.file_lines[old_index]
        if _close(self.file_levels(file_line), target) or _close(
            self.model_levels(line), self.model_levels(self.old_lines[old_index])
        ):
            return file_line
        return None

    def _repaired(self, index: int, line: str) -> str:
        """A rewritten line repaired from how its old line differs from the file's (typos
        carried by ``fix_line``)."""
        if self.fix_line is None or index not in self.pairing.rewritten:
            return line
        old_index = self.pairing.rewritten[index]
        return self.fix_line(line, self.old_lines[old_index], self.file_lines[old_index])

    def _like_a_neighbour(self, index: int, target: float) -> str | None:
        """An inserted line at the depth of the file line it stands beside takes that
        line's whitespace characters: a tab where the file's line of that kind has a tab,
        in a file that mixes them."""
        if index in self.pairing.kept or index in self.pairing.rewritten:
            return None
        beside = [self._depth_source(index), self.pairing.counterpart[index]]
        following = self.pairing.following.get(index)
        if following is not None:
            beside.append(following)
        for old_index in beside:
            if old_index >= len(self.file_lines):
                continue
            file_line = self.file_lines[old_index]
            if file_line.strip() and _close(self.file_levels(file_line), target):
                return leading_whitespace(file_line)
        return None

    def _at_its_own_lines_depth(self, index: int, line: str, target: float) -> str | None:
        """A rewrite at its line's own depth takes that line's whitespace byte for byte: a
        tab followed by alignment spaces is not re-rendered as two tabs."""
        rewritten_from = self.pairing.rewritten.get(index)
        if rewritten_from is None:
            return None
        source_ws = leading_whitespace(self.file_lines[rewritten_from])
        if leading_whitespace(self.new_lines[index]) == leading_whitespace(
            self.old_lines[rewritten_from]
        ) and _close(self.file_style.levels(source_ws), target):
            return source_ws + line.lstrip(" \t")
        return None


def _model_style(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    key: KeyFunction,
    file_style: IndentStyle,
) -> IndentStyle:
    """How the model indented, read from the lines that show it.

    Lines quoted with the file's own whitespace (a block comment's aligned text, say), and
    their copies in new_string, say nothing about the model's indentation and would outvote
    the lines that do: the quoted lines it re-indented and the lines it wrote.
    """
    paired = [
        (old, file)
        for old, file in zip(old_lines, file_lines)
        if old.strip() and file.strip() and key(old) == key(file)
    ]
    as_in_file = {key(old) for old, file in paired if old == file}
    evidence = [old for old, file in paired if old != file]
    evidence += [line for line in new_lines if line.strip() and key(line) not in as_in_file]
    if evidence:
        return IndentStyle.of(evidence, fallback=file_style)
    if paired:
        return file_style  # every line quoted as the file has it: the same frame
    return IndentStyle.of([*old_lines, *new_lines], fallback=file_style)


class NearestShifts(dict[int, float]):
    """old line index -> (file depth - old depth), for the lines quoted right.

    :meth:`nearest` answers for any line: its own shift, else the nearest known line's (the
    lower one on a tie), else ``default`` when no line is known. Plain ``get`` and indexing
    stay a dict's.
    """

    def nearest(self, index: int, default: float = 0.0) -> float:
        if index in self:
            return self[index]
        if not self:
            return default
        # Bisect the sorted indexes: a min over every key per line made a long quote with
        # many blank lines quadratic.
        known = self._sorted()
        at = bisect_left(known, index)
        if at == 0:
            return self[known[0]]
        if at == len(known):
            return self[known[-1]]
        below, above = known[at - 1], known[at]
        return self[below] if index - below <= above - index else self[above]

    def _sorted(self) -> list[int]:
        cached = self.__dict__.get("_keys")
        if cached is None or len(cached) != len(self):
            cached = self.__dict__["_keys"] = sorted(self)
        return cached


def _line_shifts(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
    key: KeyFunction,
) -> NearestShifts:
    """Per paired line, how much deeper the file has it; only lines quoted right count (a
    misquoted line's indentation may be part of the misquote)."""
    shifts = NearestShifts()
    for index, (old_line, file_line) in enumerate(zip(old_lines, file_lines)):
        if old_line.strip() and file_line.strip() and key(old_line) == key(file_line):
            shifts[index] = round(file_levels(file_line) - model_levels(old_line), 4)
    return shifts


@dataclass(frozen=True)
class Correspondence:
    """Which old line each new line stands for.

    ``kept``: new lines equal to an old line (non-blank only). ``rewritten``: new lines
    that replace an old line one for one. ``counterpart``: for every new line, the old line
    whose depth it follows — itself, the line it replaces, or the line before an insertion.
    ``following``: for an inserted line, the old line after the insertion, if any.
    ``kept_blank``: blank new lines that stand where old_string had a blank line.
    """

    kept: dict[int, int]
    rewritten: dict[int, int]
    counterpart: list[int]
    following: dict[int, int]
    kept_blank: dict[int, int]

    @classmethod
    def of(cls, old_keys: Sequence[str], new_keys: Sequence[str]) -> Correspondence:
        kept: dict[int, int] = {}
        rewritten: dict[int, int] = {}
        counterpart = [0] * len(new_keys)
        following: dict[int, int] = {}
        kept_blank: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in line_opcodes(old_keys, new_keys):
            for j in range(j1, j2):
                if tag == "equal":
                    counterpart[j] = i1 + (j - j1)
                    if new_keys[j]:
                        kept[j] = counterpart[j]
                    else:
                        kept_blank[j] = counterpart[j]
                elif tag == "replace":
                    counterpart[j] = min(i1 + (j - j1), i2 - 1)
                    if i2 - i1 == j2 - j1:
                        rewritten[j] = counterpart[j]
                else:  # insert: follow the line before it, or the first line
                    counterpart[j] = max(i1 - 1, 0)
                    if i1 < len(old_keys):
                        following[j] = i1
            if tag == "replace" and i2 - i1 != j2 - j1:
                # Lines were added or dropped as well as rewritten: pair by likeness, not by
                # position, or a line inserted before a rewrite would take its old line.
                for j, i in _pair_by_likeness(old_keys[i1:i2], new_keys[j1:j2]):
                    rewritten[j1 + j] = i1 + i
        return cls(kept, rewritten, counterpart, following, kept_blank)


# difflib's matcher grows with the cube of the lines on code with many repeated lines
# (blank lines, "}", "return None"): 0.5 s at 1,000 lines. Above this many lines a side,
# a bit-parallel LCS in C (rapidfuzz) aligns the lines instead.
_DIFFLIB_MAX_LINES = 300
# A rewritten line is looked for among this many old lines after the last one paired: a
# hunk rewriting thousands of lines would otherwise compare every pair.
_LIKENESS_WINDOW = 64


def line_opcodes(
    old_keys: Sequence[str], new_keys: Sequence[str]
) -> list[tuple[str, int, int, int, int]]:
    """``SequenceMatcher.get_opcodes()`` of two line lists, in near-linear time when long."""
    if max(len(old_keys), len(new_keys)) <= _DIFFLIB_MAX_LINES:
        matcher = SequenceMatcher(None, list(old_keys), list(new_keys), autojunk=False)
        return list(matcher.get_opcodes())
    out: list[tuple[str, int, int, int, int]] = []
    changed: list[int] | None = None  # [i1, i2, j1, j2] of the current run of changes
    for op in Indel.opcodes(list(old_keys), list(new_keys)):
        if op.tag != "equal":
            if changed is None:
                changed = [op.src_start, op.src_end, op.dest_start, op.dest_end]
            else:
                changed[1], changed[3] = op.src_end, op.dest_end
            continue
        if changed is not None:
            out.append(_change(*changed))
            changed = None
        out.append(("equal", op.src_start, op.src_end, op.dest_start, op.dest_end))
    if changed is not None:
        out.append(_change(*changed))
    return out


def _change(i1: int, i2: int, j1: int, j2: int) -> tuple[str, int, int, int, int]:
    tag = "replace" if i2 > i1 and j2 > j1 else "delete" if i2 > i1 else "insert"
    return (tag, i1, i2, j1, j2)


def _pair_by_likeness(old_keys: Sequence[str], new_keys: Sequence[str]) -> list[tuple[int, int]]:
    """(new, old) index pairs, in order, of lines at least 60% alike (best first-come)."""
    pairs: list[tuple[int, int]] = []
    start = 0
    for j, new_key in enumerate(new_keys):
        if not new_key:
            continue
        scored = [
            (Indel.normalized_similarity(old_keys[i], new_key), -i, i)
            for i in range(start, min(len(old_keys), start + _LIKENESS_WINDOW))
            if old_keys[i]
        ]
        best = max(scored, default=None)
        if best is not None and best[0] >= 0.6:
            pairs.append((j, best[2]))
            start = best[2] + 1
    return pairs


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _first_line_lost_its_indent(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    pairing: Correspondence,
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
) -> float | None:
    """The file's depth for old_string's first line, when new_string moves as a whole by it.

    A quote copied from the middle of a line often loses the first line's indentation
    only: ``def f():`` at column 0, the body at the file's depth. When new_string starts at
    column 0 too and every later line it keeps or rewrites sits exactly that much shallower
    than its old line, new_string was written in one consistent frame from column 0, and
    moving only its first line would leave the body shallower than its header.
    """
    if not (old_lines and new_lines and old_lines[0].strip() and file_lines[0].strip()):
        return None
    depth = file_levels(file_lines[0])
    if _close(depth, 0.0) or not new_lines[0].strip():
        return None
    if not (_close(model_levels(old_lines[0]), 0.0) and _close(model_levels(new_lines[0]), 0.0)):
        return None
    later = [(o, f) for o, f in zip(old_lines[1:], file_lines[1:]) if o.strip() and f.strip()]
    if not later or not all(_close(model_levels(o), file_levels(f)) for o, f in later):
        return None
    stands_for = {**pairing.rewritten, **pairing.kept}
    pairs = [
        (new_lines[n], old_lines[o])
        for n, o in stands_for.items()
        if n > 0 and o > 0 and new_lines[n].strip() and old_lines[o].strip()
    ]
    if pairs and all(_close(model_levels(n) + depth, model_levels(o)) for n, o in pairs):
        return depth
    return None


def _new_is_in_file_frame(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    equal_pairs: dict[int, int],
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
    shifts: NearestShifts,
    shift: float,
) -> bool:
    """Was new_string written at the file's depth even though old_string was not?

    Kept lines vote, each with its own line's shift: a line quoted at the file's depth
    (a column-0 fence, say) says nothing about which frame new_string is in.
    """
    if _close(shift, 0.0):
        return False
    votes_file = votes_old = 0
    for new_index, old_index in equal_pairs.items():
        own_shift = shifts.nearest(old_index, shift)
        if _close(own_shift, 0.0):
            continue
        file_level = file_levels(file_lines[old_index])
        new_level = model_levels(new_lines[new_index])
        if _close(new_level, file_level):
            votes_file += 1
        elif _close(new_level + own_shift, file_level):
            votes_old += 1
    if votes_file or votes_old:
        return votes_file > votes_old
    first_new = next((line for line in new_lines if line.strip()), None)
    first_pair = next(
        ((o, f) for o, f in zip(old_lines, file_lines) if o.strip() and f.strip()), None
    )
    if first_new is None or first_pair is None:
        return False
    old_line, file_line = first_pair
    new_level = model_levels(first_new)
    return _close(new_level, file_levels(file_line)) and not _close(
        new_level, model_levels(old_line)
    )
