"""How a model misquotes an edit: each mistake class is a small pure function.

A mistake is ``(rng, Draft, Quote) -> Draft | None``: it changes the draft request (old and new
lines, their line endings, text written around them) the way one everyday mistake does, or
returns ``None`` when it cannot be made on this block (a tab mistake needs indentation, a
fence needs a file without fence lines). Two compose (``two_mistakes``), in the order a model
makes them: the text of a line first, then its indentation, then what is written around the
lines. :func:`cross_pairings` says which mistake meets which edit kind in the benchmark's
cross product (``cross_product.cut`` makes one request of a cell).

Why one long module: one small function a mistake class, kept side by side with the table of
which mistake meets which edit kind.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from editengine.evaluation._edit_kinds import BLOCK_KINDS, FENCE_TAGS, code_mask, indent_of

# --------------------------------------------------------------------------- the request drafts


@dataclass(frozen=True)
class Quote:
    """The true edit on a block of a file, and what a mistake may look at."""

    old: tuple[str, ...]  # the block as the file has it (lines without terminators)
    new: tuple[str, ...]  # the block after the intended edit
    first_line: int  # 1-based number of the block's first line in the file
    unit: str  # one indentation level of the file: "\t", "  " or "    "
    eol: str  # the file's line ending
    lang: str
    file_lines: tuple[str, ...]  # the whole file, for mistakes that must stay decidable

    @property
    def file_has_fence(self) -> bool:
        return any(line.lstrip().startswith(("```", "~~~")) for line in self.file_lines)


@dataclass(frozen=True)
class Draft:
    """A request being misquoted: lines, their endings, text written around them."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    old_eol: str = "\n"
    new_eol: str = "\n"
    old_before: str = ""
    old_after: str = ""
    new_before: str = ""
    new_after: str = ""
    old_eols: tuple[str, ...] | None = None  # per line break, for mixed endings
    escaped: bool = False  # newlines, tabs and quotes written as backslash sequences
    notes: tuple[str, ...] = field(default=())
    extra_escapes: int = 0  # escaped this many more times (a tool layer that escapes twice)

    @classmethod
    def of(cls, quote: Quote, eol: str = "\n") -> Draft:
        return cls(quote.old, quote.new, eol, eol)

    def noted(self, note: str, **changes: Any) -> Draft:
        return replace(self, notes=(*self.notes, note), **changes)

    def render(self) -> tuple[str, str]:
        """The (old_string, new_string) the model sends."""
        if self.old_eols is not None:
            body = self.old[0] if self.old else ""
            for eol, line in zip(self.old_eols, self.old[1:], strict=True):
                body += eol + line
        else:
            body = self.old_eol.join(self.old)
        old = self.old_before + body + self.old_after
        new = self.new_before + self.new_eol.join(self.new) + self.new_after
        if self.escaped:
            old, new = _escape(old), _escape(new)
        for _ in range(self.extra_escapes):
            old, new = _escape(old), _escape(new)
        return old, new


def _escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("'", "\\'")
        .replace("\t", "\\t")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


Mistake = Callable[[random.Random, Draft, Quote], "Draft | None"]


def m_exact(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """No mistake: old and new byte for byte, in the file's own line endings (the control)."""
    return replace(draft, old_eol=quote.eol, new_eol=quote.eol)


def _shift(lines: Sequence[str], delta: int, unit: str) -> tuple[str, ...] | None:
    out = []
    for line in lines:
        if not line.strip():
            out.append(line)
        elif delta > 0:
            out.append(unit * delta + line)
        elif line.startswith(unit * -delta):
            out.append(line[len(unit) * -delta :])
        else:
            return None
    return tuple(out)


def _common_indent(lines: Sequence[str]) -> str:
    indents = [indent_of(x) for x in lines if x.strip()]
    common = indents[0] if indents else ""
    for ind in indents[1:]:
        while not ind.startswith(common):
            common = common[:-1]
    return common


def _dedent(lines: Sequence[str], by: str) -> tuple[str, ...]:
    return tuple(x[len(by) :] if x.startswith(by) else x.lstrip(" \t") for x in lines)


def m_indentation_shift(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Old and new one level too deep or too shallow, or with the common indentation
    stripped; or old stripped while new keeps the file's indentation."""
    if not any(indent_of(x) for x in draft.old if x.strip()):
        return None
    variant = rng.choice(["deeper", "shallower", "dedented", "dedented", "old_dedented"])
    if variant == "deeper":
        old, new = _shift(draft.old, 1, quote.unit), _shift(draft.new, 1, quote.unit)
    elif variant == "shallower":
        old, new = _shift(draft.old, -1, quote.unit), _shift(draft.new, -1, quote.unit)
    else:
        common = _common_indent(draft.old)
        if not common:
            return None
        old = _dedent(draft.old, common)
        new = draft.new if variant == "old_dedented" else _dedent(draft.new, common)
    if old is None or new is None or old == draft.old:
        return None
    return draft.noted(f"indentation {variant}", old=old, new=new)


def _swap_indent(line: str, unit: str, width: int) -> str:
    ind = indent_of(line)
    if unit == "\t":
        return ind.replace("\t", " " * width) + line[len(ind) :]
    spaces = len(ind) - len(ind.lstrip(" "))
    return "\t" * (spaces // len(unit)) + " " * (spaces % len(unit)) + line[spaces:]


def m_tabs_vs_spaces(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Tabs quoted as 2/4/8 spaces, or spaces quoted as tabs, in old and new."""
    width = rng.choice([2, 4, 8])
    old = tuple(_swap_indent(x, quote.unit, width) for x in draft.old)
    new = tuple(_swap_indent(x, quote.unit, width) for x in draft.new)
    if old == draft.old:
        return None
    return draft.noted(
        f"indentation as {'spaces' if quote.unit == chr(9) else 'tabs'}", old=old, new=new
    )


def m_trailing_whitespace(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Blanks at the end of some lines of old."""
    spots = [i for i, x in enumerate(draft.old) if x.strip()]
    if not spots:
        return None
    chosen = set(rng.sample(spots, rng.randint(1, len(spots))))
    old = tuple(
        x + rng.choice([" ", "  ", "\t", "   "]) if i in chosen else x
        for i, x in enumerate(draft.old)
    )
    return draft.noted(f"trailing blanks on {len(chosen)} line(s) of old", old=old)


def m_crlf(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Old and new in the other line ending than the file's, or old with mixed endings."""
    if len(draft.old) < 2:
        return None
    other = "\n" if quote.eol == "\r\n" else "\r\n"
    if rng.random() < 0.3 and len(draft.old) >= 3:
        eols = tuple(rng.choice(["\n", "\r\n"]) for _ in draft.old[1:])
        if len(set(eols)) == 2:
            return draft.noted("old with mixed line endings", old_eols=eols)
    return draft.noted(f"old and new with {other!r} endings", old_eol=other, new_eol=other)


def m_over_escaped(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Newlines, tabs and quotes written as backslash sequences, as in a JSON tool call."""
    text = "\n".join(draft.old)
    if "\\" in text or not any(c in text for c in "\n\t\"'"):
        return None  # a file's own backslashes would make the unescaping ambiguous
    return draft.noted("old and new over-escaped", escaped=True)


_RESPACE_RULES: tuple[tuple[str, str, str], ...] = (
    (r", (?=\S)", ",", "no space after commas"),
    (r",(?=[^\s\n])", ", ", "a space after commas"),
    (r" = ", "=", "no spaces around ="),
    (r"\((?=\S)", "( ", "a space inside parentheses"),
    (r": (?=\S)", ":", "no space after colons"),
    (r"(?<=\S)  +(?=\S)", " ", "alignment spaces collapsed"),
    (r" \{", "{", "no space before braces"),
)


def _respace_code(line: str, lang: str, pattern: str, repl: str) -> str:
    """``line`` with ``pattern`` replaced in its code part only (strings keep their spaces)."""
    mask = code_mask(line, lang)
    ind = indent_of(line)
    out, last = [], len(ind)
    out.append(ind)
    for m in re.finditer(pattern, line[len(ind) :]):
        start, end = m.start() + len(ind), m.end() + len(ind)
        if not all(mask[start:end]) or (start and not mask[start - 1]):
            continue
        out.append(line[last:start])
        out.append(repl)
        last = end
    out.append(line[last:])
    return "".join(out)


def m_reformatted_spacing(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Spaces added or dropped at token boundaries in some lines of old, as a formatter does."""
    rules = list(_RESPACE_RULES)
    rng.shuffle(rules)
    for pattern, repl, label in rules:
        hits = [
            i for i, x in enumerate(draft.old) if _respace_code(x, quote.lang, pattern, repl) != x
        ]
        if not hits:
            continue
        chosen = hits[: rng.randint(1, len(hits))]
        old = tuple(
            _respace_code(x, quote.lang, pattern, repl) if i in chosen else x
            for i, x in enumerate(draft.old)
        )
        return draft.noted(label, old=old)
    return None


_COMPRESS = re.compile(r" (===|!==|==|!=|<=|>=|\+=|-=|=>|=|<|>|\+|\*|&&|\|\||\?|:) ")


def compress_line(line: str, lang: str) -> str:
    """``line`` with the spaces around its operators dropped, in code only."""
    mask = code_mask(line, lang)
    out, last = [], 0
    for m in _COMPRESS.finditer(line):
        if m.start() < len(indent_of(line)) or not all(mask[m.start() : m.end()]):
            continue
        out.append(line[last : m.start()])
        out.append(m.group(1))
        last = m.end()
    out.append(line[last:])
    return "".join(out)


def m_compressed_spacing(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """One line of old with no spaces around its operators: ``i=0; i<n`` for ``i = 0; i < n``."""
    spots = [i for i, x in enumerate(draft.old) if compress_line(x, quote.lang) != x]
    if not spots:
        return None
    i = rng.choice(spots)
    old = (*draft.old[:i], compress_line(draft.old[i], quote.lang), *draft.old[i + 1 :])
    return draft.noted(f"operators without spaces in line {i + 1} of old", old=old)


def m_boundary_blank_lines(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Blank or whitespace-only lines around old, and around new in most."""
    before = rng.choice(["\n", "\n\n", "  \n", ""])
    after = rng.choice(["\n", "\n\n", "\n   \n"]) if before else rng.choice(["\n\n", "\n \n"])
    if rng.random() < 0.7:
        return draft.noted("blank lines around old and new", old_before=before,
                           old_after=after, new_before=before, new_after=after)  # fmt: skip
    return draft.noted("blank lines around old", old_before=before, old_after=after)


def typo(rng: random.Random, line: str) -> str | None:
    """One character substituted, dropped, doubled, inserted or two swapped (never the
    indentation, never the first or last letter)."""
    ind = indent_of(line)
    body = line[len(ind) :]
    letters = [i for i, ch in enumerate(body) if ch.isalpha()]
    if len(letters) < 6:
        return None
    i = rng.choice(letters[1:-1])
    kind = rng.choice(["sub", "del", "swap", "dup", "ins"])
    if kind == "ins":
        body = body[:i] + rng.choice("aeiourstnlm") + body[i:]
    elif kind == "sub":
        ch = body[i]
        repl = rng.choice([c for c in "aeiourstnlm" if c != ch.lower()])
        body = body[:i] + (repl.upper() if ch.isupper() else repl) + body[i + 1 :]
    elif kind == "del":
        body = body[:i] + body[i + 1 :]
    elif kind == "swap" and i + 1 < len(body) and body[i] != body[i + 1]:
        body = body[:i] + body[i + 1] + body[i] + body[i + 2 :]
    else:
        body = body[:i] + body[i] + body[i:]
    return ind + body


def window_scores(file_lines: Sequence[str], old: Sequence[str]) -> list[float]:
    """How similar ``old`` is to each run of as many lines of the file (compared
    line-stripped), best first."""
    size = len(old)
    key = "\n".join(x.strip() for x in old)
    lines = [x.strip() for x in file_lines]
    return sorted(
        (
            fuzz.ratio("\n".join(lines[i : i + size]), key) / 100
            for i in range(max(1, len(lines) - size + 1))
        ),
        reverse=True,
    )


def _one_clear_place(quote: Quote, old: Sequence[str], floor: float) -> bool:
    """Whether ``old`` is at least ``floor`` similar to exactly one window of the file and
    every other window is far behind: a typo stays decidable."""
    scores = window_scores(quote.file_lines, old)
    return scores[0] >= floor and (len(scores) < 2 or scores[0] - scores[1] >= 0.05)


def m_one_char_typo(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """One character wrong in one line of old (a block of 4+ lines)."""
    if len(draft.old) < 4:
        return None
    spots = [i for i, x in enumerate(draft.old) if len(x.strip()) >= 12]
    rng.shuffle(spots)
    for i in spots[:4]:
        bad = typo(rng, draft.old[i])
        if bad is None or bad == draft.old[i]:
            continue
        old = (*draft.old[:i], bad, *draft.old[i + 1 :])
        if _one_clear_place(quote, old, 0.9):
            return draft.noted(f"one character wrong in line {i + 1} of old", old=old)
    return None


def _each_word_still_readable(before: str, after: str) -> bool:
    """No word of the line took more than two of the slips: three in one short word make
    another word ('number' -> 'lmubber'), and then the meant text is no longer certain."""
    words_before, words_after = re.findall(r"\w+", before), re.findall(r"\w+", after)
    if len(words_before) != len(words_after):
        return False  # a slip removed a whole word
    return all(OSA.distance(a, b) <= 2 for a, b in zip(words_before, words_after))


def m_multi_typo(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Two or three typos in one line of old; the other lines (3+ in all) match."""
    if len(draft.old) < 3:
        return None
    spots = [i for i, x in enumerate(draft.old) if len(x.strip()) >= 24]
    rng.shuffle(spots)
    for i in spots[:4]:
        line, wanted = draft.old[i], rng.choice([2, 2, 3])
        for _ in range(wanted):
            line = typo(rng, line) or line
        if line == draft.old[i] or fuzz.ratio(line, draft.old[i]) < 75:
            continue
        if not _each_word_still_readable(draft.old[i], line):
            continue
        old = (*draft.old[:i], line, *draft.old[i + 1 :])
        if _one_clear_place(quote, old, 0.9):
            return draft.noted(f"{wanted} typos in line {i + 1} of old", old=old)
    return None


UNICODE_SWAPS: tuple[tuple[str, str, str], ...] = (
    ('"', "\u201c", "curly double quotes"),
    ("'", "\u2019", "curly apostrophes"),
    (" - ", " \u2013 ", "en dash"),
    (" ", "\u00a0", "non-breaking space"),
)


def curly(text: str, label: str) -> str:
    if label == "curly double quotes":
        out, opening = [], True
        for ch in text:
            if ch == '"':
                out.append("\u201c" if opening else "\u201d")
                opening = not opening
            else:
                out.append(ch)
        return "".join(out)
    for ascii_, uni, name in UNICODE_SWAPS:
        if name == label:
            return text.replace(ascii_, uni)
    return text


def m_unicode_punctuation(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Curly quotes, an en dash in prose, or non-breaking spaces in old (and sometimes new),
    where the file has ASCII."""
    text = "\n".join(draft.old)
    if any(ord(c) > 127 for c in "".join(quote.file_lines)):
        return None  # the file's own typography would make the mapping ambiguous
    labels = [s[2] for s in UNICODE_SWAPS if s[0] in text and s[0] != " "]
    if quote.lang != "markdown":
        labels = [x for x in labels if x != "en dash"]
    if not labels or rng.random() < 0.15:
        spots = [m.start() for m in re.finditer(r"(?<=\S) (?=\S)", text)]
        if not spots:
            return None
        chars = list(text)
        for p in rng.sample(spots, min(len(spots), rng.randint(1, 3))):
            chars[p] = "\u00a0"
        return draft.noted("non-breaking spaces in old", old=tuple("".join(chars).split("\n")))
    label = rng.choice(labels)
    old = tuple(curly(text, label).split("\n"))
    if rng.random() < 0.3:
        new = tuple(curly("\n".join(draft.new), label).split("\n"))
        return draft.noted(f"{label} in old and new", old=old, new=new)
    return draft.noted(f"{label} in old", old=old)


ELISION_MARKERS: dict[str, tuple[str, ...]] = {
    "hash": ("# ... existing code ...", "# ...", "# rest of the code unchanged"),
    "slash": ("// ...", "// ... existing code ...", "/* ... */", "// ... rest of the function ..."),
    "c": ("/* ... */", "// ...", "/* ... existing code ... */"),
    "markdown": ("...", "[...]", "<!-- ... -->"),
}
_MARKER_FAMILY = {
    "python": "hash",
    "yaml": "hash",
    "make": "hash",
    "javascript": "slash",
    "typescript": "slash",
    "go": "slash",
    "rust": "slash",
    "c": "c",
    "markdown": "markdown",
}


def _kept_run(old: Sequence[str], new: Sequence[str]) -> tuple[int, int]:
    """Lines of old that new keeps verbatim at the same place: the common head and tail,
    as ``(head, tail)`` counts."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def m_elision(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """A marker (``# ...``, ``// ... existing code ...``, ``[...]``) stands for 2+ unchanged
    lines in old and new, or in old only with new spelled out."""
    family = _MARKER_FAMILY.get(quote.lang)
    if family is None or len(draft.old) < 6:
        return None
    if any(x.strip() in ("...", "\u2026") or re.match(r"\s*(#|//|/\*)\s*\.\.\.", x)
           for x in quote.file_lines):  # fmt: skip
        return None  # lines already like a marker: a reader could not tell them apart
    head, tail = _kept_run(draft.old, draft.new)
    # A gap of 2+ lines inside the kept head or tail, with 2+ quoted lines around it.
    spans = []
    for lo, hi in ((1, head - 1), (len(draft.old) - tail + 1, len(draft.old) - 1)):
        for start in range(max(lo, 1), hi - 1):
            for end in range(start + 2, hi + 1):
                spans.append((start, end))
    spans = [
        (s, e)
        for s, e in spans
        if draft.old[s].strip() and draft.old[e - 1].strip() and s >= 1 and e <= len(draft.old) - 1
    ]
    if not spans:
        return None
    start, end = rng.choice(spans)
    marker = rng.choice(ELISION_MARKERS[family])
    marker = marker if quote.lang == "markdown" else indent_of(draft.old[start]) + marker
    old_head, old_tail = draft.old[:start], draft.old[end:]
    # Both parts must stand once in the file, else the marker's place is a guess.
    text = "\n".join(quote.file_lines)
    if text.count("\n".join(old_head)) != 1 or text.count("\n".join(old_tail)) != 1:
        return None
    old = (*old_head, marker, *old_tail)
    shift = len(draft.new) - len(draft.old)
    if start < head:  # the gap is in the kept head: new has it at the same place
        new_start, new_end = start, end
    else:
        new_start, new_end = start + shift, end + shift
    if rng.random() < 0.75:
        new = (*draft.new[:new_start], marker, *draft.new[new_end:])
        return draft.noted(f"lines {start + 1}-{end} elided in old and new", old=old, new=new)
    return draft.noted(f"lines {start + 1}-{end} elided in old only", old=old)


LINE_NUMBER_FORMATS: tuple[tuple[str, Callable[[int], str]], ...] = (
    ("'   42\\t'", lambda n: f"{n:>5}\t"),
    ("'    42\\t' (width 6)", lambda n: f"{n:>6}\t"),
    ("'42→'", lambda n: f"{n}\u2192"),
    ("'    42→'", lambda n: f"{n:>6}\u2192"),
    ("'42: '", lambda n: f"{n}: "),
    ("'  42 | '", lambda n: f"{n:>4} | "),
)


def m_line_number_prefix(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Every line of old carries the read tool's line-number prefix (consecutive numbers
    from the block's real line); new often carries it too."""
    label, fmt = rng.choice(LINE_NUMBER_FORMATS)
    first = quote.first_line
    old = tuple(fmt(first + i) + x for i, x in enumerate(draft.old))
    if rng.random() < 0.5:
        new = tuple(fmt(first + i) + x for i, x in enumerate(draft.new))
        return draft.noted(f"line numbers {label} on old and new", old=old, new=new)
    return draft.noted(f"line numbers {label} on old", old=old)


def m_markdown_fence(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """A Markdown fence (with or without a language tag) around old, new or both; never in a
    file that has fence lines of its own (there a fence may be content)."""
    if quote.file_has_fence:
        return None
    tag = FENCE_TAGS.get(quote.lang, "") if rng.random() < 0.6 else ""
    opening, closing = f"```{tag}\n", rng.choice(["\n```", "\n```\n"])
    where = rng.choice(["old", "new", "both"])
    changes: dict[str, Any] = {}
    if where in ("old", "both"):
        changes |= {
            "old_before": opening + draft.old_before,
            "old_after": draft.old_after + closing,
        }
    if where in ("new", "both"):
        changes |= {
            "new_before": opening + draft.new_before,
            "new_after": draft.new_after + closing,
        }
    return draft.noted(f"fence {'```' + tag!r} around {where}", **changes)


BLOCK_MISTAKES: dict[str, Mistake] = {
    "exact": m_exact,
    "indentation_shift": m_indentation_shift,
    "tabs_vs_spaces": m_tabs_vs_spaces,
    "trailing_whitespace": m_trailing_whitespace,
    "crlf": m_crlf,
    "over_escaped": m_over_escaped,
    "reformatted_spacing": m_reformatted_spacing,
    "compressed_spacing": m_compressed_spacing,
    "boundary_blank_lines": m_boundary_blank_lines,
    "one_char_typo": m_one_char_typo,
    "multi_typo": m_multi_typo,
    "unicode_punctuation": m_unicode_punctuation,
    "elision": m_elision,
    "line_number_prefix": m_line_number_prefix,
    "markdown_fence": m_markdown_fence,
}

# The order two mistakes are made in: a line's text, then its indentation, then its ending
# blanks, then what is written around the lines.
_ORDER = (
    "elision",
    "one_char_typo",
    "multi_typo",
    "reformatted_spacing",
    "compressed_spacing",
    "unicode_punctuation",
    "indentation_shift",
    "tabs_vs_spaces",
    "trailing_whitespace",
    "line_number_prefix",
    "boundary_blank_lines",
    "markdown_fence",
    "crlf",
    "over_escaped",
)

# Pairs a model really makes at once.
TWO_MISTAKES: tuple[tuple[str, str], ...] = (
    ("indentation_shift", "trailing_whitespace"),
    ("line_number_prefix", "markdown_fence"),
    ("indentation_shift", "markdown_fence"),
    ("one_char_typo", "indentation_shift"),
    ("reformatted_spacing", "indentation_shift"),
    ("unicode_punctuation", "trailing_whitespace"),
    ("tabs_vs_spaces", "trailing_whitespace"),
    ("line_number_prefix", "crlf"),
    ("boundary_blank_lines", "indentation_shift"),
    ("compressed_spacing", "trailing_whitespace"),
    ("elision", "indentation_shift"),
    ("over_escaped", "indentation_shift"),
)

CROSS_MISTAKES: tuple[str, ...] = (*BLOCK_MISTAKES, "two_mistakes", "long_line")
# A rename everywhere quotes one fragment: only mistakes a fragment can carry.
REPLACE_ALL_MISTAKES: tuple[str, ...] = (
    "exact",
    "markdown_fence",
    "over_escaped",
    "unicode_punctuation",
    "reformatted_spacing",
    "compressed_spacing",
)
# A fragment of a minified line is renamed, or has a value or an operator changed.
LONG_LINE_KINDS: tuple[str, ...] = ("rename", "literal", "flip")


# Quotes that must be refused whatever their mistake: old stands nowhere near the file
# (``absent``), or fits two identical blocks alike (``ambiguous``). The mistakes a new
# normalisation forgives must not make such a quote placeable.
SAFETY_MISTAKES: dict[str, tuple[str, ...]] = {
    "absent": (
        "markdown_fence",
        "line_number_prefix",
        "compressed_spacing",
        "multi_typo",
        "trailing_whitespace",
        "indentation_shift",
    ),
    "ambiguous": (
        "markdown_fence",
        "compressed_spacing",
        "trailing_whitespace",
        "indentation_shift",
    ),
}


def safety_cells() -> list[tuple[str, str]]:
    """Every (``absent`` or ``ambiguous``, mistake class) pairing the benchmark cuts."""
    return [(safety, m) for safety, mistakes in SAFETY_MISTAKES.items() for m in mistakes]


def cross_pairings() -> list[tuple[str, str]]:
    """Every (mistake class, edit kind) pairing that can be made: every block mistake and
    every pair of mistakes with every block edit, the fragment mistakes with a rename
    everywhere, and re-spaced fragments of long lines with the in-line edits."""
    pairs = [(m, k) for m in (*BLOCK_MISTAKES, "two_mistakes") for k in BLOCK_KINDS]
    pairs += [(m, "replace_all") for m in REPLACE_ALL_MISTAKES]
    pairs += [("long_line", k) for k in LONG_LINE_KINDS]
    return pairs


def misquote(rng: random.Random, quote: Quote, mistakes: Sequence[str]) -> Draft | None:
    """The request a model sends for ``quote`` with ``mistakes`` made (in their natural
    order); ``None`` when one of them cannot be made on this block."""
    draft = Draft.of(quote)
    for name in sorted(mistakes, key=lambda n: _ORDER.index(n) if n in _ORDER else -1):
        made = (BLOCK_MISTAKES.get(name) or UNLISTED_MISTAKES[name])(rng, draft, quote)
        if made is None:
            return None
        draft = made
    return draft


# --------------------------------------------------------------------------- long lines


def respace_fragment(rng: random.Random, fragment: str) -> tuple[str, str] | None:
    """A fragment of a long line with its spacing changed the way a model retypes it:
    spaces after commas or colons dropped or added, spaces around ``=`` dropped."""
    rules = [
        (r", (?=\S)", ",", "no space after commas"),
        (r",(?=\S)", ", ", "a space after commas"),
        (r": (?=\S)", ":", "no space after colons"),
        (r":(?=[\"'\w])", ": ", "a space after colons"),
        (r" = ", "=", "no spaces around ="),
    ]
    rng.shuffle(rules)
    for pattern, repl, label in rules:
        spots = [m for m in re.finditer(pattern, fragment)]
        if not spots:
            continue
        chosen = spots if rng.random() < 0.5 else rng.sample(spots, rng.randint(1, len(spots)))
        out, last = [], 0
        for m in sorted(chosen, key=lambda m: m.start()):
            out.append(fragment[last : m.start()])
            out.append(repl)
            last = m.end()
        out.append(fragment[last:])
        changed = "".join(out)
        if changed != fragment:
            return changed, label
    return None


# --------------------------------------------------------------------------- unlisted mistakes
#
# Mistakes no tier was tuned on, taken from how models and the layers that carry their tool
# calls mangle text (public reports against other agents' edit tools, named in
# docs/evaluation.md). They are cut in cells of their own (``u-`` cases of the benchmark) so
# that the earlier cells stay byte for byte as they were. Each says what a careful human makes
# of it (:data:`UNLISTED_OUTCOMES`):
#
# * ``intended``: the quote stands for one place once its transport damage is undone; the
#   intended file is right, a refusal is only a miss;
# * ``either``: the intended file or a refusal are both right (a careful human could not be
#   sure); anything else is wrong;
# * ``refuse``: old says something else than the file (a literal, an operator, a keyword):
#   writing anything is wrong, however close the rest of the block is.

_ENTITIES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("'", "&#39;"))


def html_escape(text: str) -> str:
    for plain, entity in _ENTITIES:
        text = text.replace(plain, entity)
    return text


def m_html_entities(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """``<``, ``>``, ``&`` and quotes written as HTML entities (``&lt;``, ``&quot;``), as a
    tool layer that carries calls in XML or HTML does, in old and often in new."""
    text = "\n".join(draft.old)
    if not any(c in text for c in "<>&\"'") or re.search(r"&#?\w+;", "\n".join(quote.file_lines)):
        return None  # the file's own entities would make the decoding ambiguous
    old = tuple(html_escape(x) for x in draft.old)
    if rng.random() < 0.7:
        new = tuple(html_escape(x) for x in draft.new)
        return draft.noted("HTML entities in old and new", old=old, new=new)
    return draft.noted("HTML entities in old", old=old)


def m_double_escaped(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Old and new escaped twice (``\\\\n`` for a newline), as a tool call whose arguments
    were JSON-encoded once too often."""
    text = "\n".join(draft.old)
    if "\\" in "\n".join(quote.file_lines) or not any(c in text for c in "\n\t\"'"):
        return None
    return draft.noted("old and new escaped twice", escaped=True, extra_escapes=1)


GUTTER_FORMATS: tuple[tuple[str, Callable[[int], str]], ...] = (
    ("'  42 │ '", lambda n: f"{n:>4} │ "),
    ("'L42: '", lambda n: f"L{n}: "),
    ("'42| '", lambda n: f"{n}| "),
    ("'  42  '", lambda n: f"{n:>4}  "),
    ("'42:\\t'", lambda n: f"{n}:\t"),
)


def m_read_tool_gutter(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """A read tool's gutter in a layout no tier was taught (``  42 │ ``, ``L42: ``,
    ``42| ``) on every line of old, often of new too."""
    label, fmt = rng.choice(GUTTER_FORMATS)
    first = quote.first_line
    old = tuple(fmt(first + i) + x for i, x in enumerate(draft.old))
    if rng.random() < 0.5:
        new = tuple(fmt(first + i) + x for i, x in enumerate(draft.new))
        return draft.noted(f"gutter {label} on old and new", old=old, new=new)
    return draft.noted(f"gutter {label} on old", old=old)


INVISIBLES: tuple[str, ...] = ("\u200b", "\ufeff", "\u2060", "\u200c", "\u00ad")


def _sprinkle(lines: Sequence[str], marks: Sequence[tuple[int, int, str]]) -> tuple[str, ...]:
    out = list(lines)
    for row, col, char in sorted(marks, reverse=True):
        out[row] = out[row][:col] + char + out[row][col:]
    return tuple(out)


def m_invisible_chars(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """One to three invisible characters (zero-width space, BOM, word joiner, soft hyphen)
    inside lines of old, and at the same places of new's lines that new keeps."""
    if any(c in "".join(quote.file_lines) for c in INVISIBLES):
        return None
    spots = [
        (i, j)
        for i, x in enumerate(draft.old)
        for j in range(len(indent_of(x)) + 1, len(x))
        if x[j - 1] != " " or x[j] != " "
    ]
    if not spots:
        return None
    marks = [
        (i, j, rng.choice(INVISIBLES))
        for i, j in rng.sample(spots, min(len(spots), rng.randint(1, 3)))
    ]
    old = _sprinkle(draft.old, marks)
    if rng.random() < 0.5:
        places = [(counterpart(draft, i), j, c) for i, j, c in marks]
        kept = [(at, j, c) for at, j, c in places if at is not None]
        new = _sprinkle(draft.new, kept)
        return draft.noted("invisible characters in old and new", old=old, new=new)
    return draft.noted("invisible characters in old", old=old)


_TYPOGRAPHY: tuple[tuple[str, str], ...] = (
    ("!=", "\u2260"),
    ("<=", "\u2264"),
    (">=", "\u2265"),
    ("->", "\u2192"),
    ("=>", "\u21d2"),
    ("...", "\u2026"),
    (" - ", " \u2212 "),
)


def _typeset(line: str, lang: str, only: str | None = None) -> tuple[str, str | None]:
    """``line`` with its first code operator of :data:`_TYPOGRAPHY` (or ``only``) typeset,
    and the operator that was."""
    mask = code_mask(line, lang)
    for plain, fancy in _TYPOGRAPHY:
        if only is not None and plain != only:
            continue
        at = line.find(plain)
        while at != -1:
            if all(mask[at : at + len(plain)]):
                return line[:at] + fancy + line[at + len(plain) :], plain
            at = line.find(plain, at + 1)
    return line, None


def m_typographic_operators(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """An operator typeset as a chat renderer or font ligature shows it (``\u2260`` for
    ``!=``, ``\u2264``, ``\u2192`` for ``->``, ``\u2026`` for ``...``) in one code line of
    old, and in the same line of new where new keeps it."""
    if any(ord(c) > 127 for c in "".join(quote.file_lines)):
        return None
    spots = list(range(len(draft.old)))
    rng.shuffle(spots)
    for i in spots:
        line, plain = _typeset(draft.old[i], quote.lang)
        if plain is None:
            continue
        old = (*draft.old[:i], line, *draft.old[i + 1 :])
        if rng.random() < 0.6:
            at = counterpart(draft, i)
            new = draft.new if at is None else (*draft.new[:at], line, *draft.new[at + 1 :])
            return draft.noted(
                f"{plain!r} typeset in line {i + 1} of old and new", old=old, new=new
            )
        return draft.noted(f"{plain!r} typeset in line {i + 1} of old", old=old)
    return None


def m_crlf_in_new(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """Old exact, new written with Windows line endings in a file of LF lines."""
    if quote.eol != "\n" or len(draft.new) < 2:
        return None
    return draft.noted("new with CRLF endings", new_eol="\r\n")


def _nbsp_indent(line: str) -> str:
    ind = indent_of(line)
    return ind.replace(" ", "\u00a0") + line[len(ind) :]


def m_nbsp_indentation(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """The indentation of old's lines (and new's) made of non-breaking spaces, as a chat
    window's copy gives it."""
    if quote.unit == "\t" or not any(indent_of(x) for x in draft.old):
        return None
    if "\u00a0" in "".join(quote.file_lines):
        return None
    old = tuple(_nbsp_indent(x) for x in draft.old)
    new = tuple(_nbsp_indent(x) for x in draft.new) if rng.random() < 0.7 else draft.new
    return draft.noted("non-breaking spaces as indentation", old=old, new=new)


def m_neighbour_indent(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """One line of old carries the indentation of the line before or after it; the same line
    in new (where new keeps it) too."""
    spots = []
    for i, line in enumerate(draft.old):
        if not line.strip():
            continue
        for j in (i - 1, i + 1):
            inside = 0 <= j < len(draft.old) and bool(draft.old[j].strip())
            if inside and indent_of(draft.old[j]) != indent_of(line):
                spots.append((i, j))
    if not spots:
        return None
    i, j = rng.choice(spots)
    moved = indent_of(draft.old[j]) + draft.old[i].lstrip(" \t")
    old = (*draft.old[:i], moved, *draft.old[i + 1 :])
    at = counterpart(draft, i)
    new = draft.new if at is None else (*draft.new[:at], moved, *draft.new[at + 1 :])
    return draft.noted(f"line {i + 1} of old indented like line {j + 1}", old=old, new=new)


def counterpart(draft: Draft, i: int) -> int | None:
    """Where new keeps old's line ``i`` verbatim at the same place (in the common head or
    tail of old and new), or ``None``."""
    head, tail = _kept_run(draft.old, draft.new)
    if i < head:
        return i
    if i >= len(draft.old) - tail:
        return i + len(draft.new) - len(draft.old)
    return None


def m_wrapped_line(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """One long line of old wrapped at a space in its code, the rest on a continuation line
    one level deeper (new keeps the line whole)."""
    spots = []
    for i, line in enumerate(draft.old):
        if len(line) < 50:
            continue
        mask = code_mask(line, quote.lang)
        first = len(indent_of(line)) + 12  # the head keeps some code, not only indentation
        breaks = [k for k in range(max(30, first), len(line) - 8) if line[k] == " " and mask[k]]
        if breaks:
            spots.append((i, breaks))
    if not spots:
        return None
    i, breaks = rng.choice(spots)
    k = rng.choice(breaks)
    line = draft.old[i]
    head, tail = line[:k], indent_of(line) + quote.unit + line[k + 1 :]
    old = (*draft.old[:i], head, tail, *draft.old[i + 1 :])
    return draft.noted(f"line {i + 1} of old wrapped", old=old)


def m_duplicated_line(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """One line of old written twice in a row (the model repeated itself); new is right."""
    spots = [
        i
        for i, x in enumerate(draft.old)
        if len(x.strip()) >= 8 and (i + 1 >= len(draft.old) or draft.old[i + 1] != x)
    ]
    if not spots:
        return None
    i = rng.choice(spots)
    old = (*draft.old[: i + 1], draft.old[i], *draft.old[i + 1 :])
    return draft.noted(f"line {i + 1} of old written twice", old=old)


def _changed_in_code(
    rng: random.Random, draft: Draft, quote: Quote, change: Callable[[str, list[bool]], str | None]
) -> tuple[int, str] | None:
    spots = list(range(len(draft.old)))
    rng.shuffle(spots)
    for i in spots:
        line = draft.old[i]
        changed = change(line, code_mask(line, quote.lang))
        if changed is not None and changed != line:
            return i, changed
    return None


def _carry(draft: Draft, i: int, changed: str, note: str) -> Draft:
    """Old's line ``i`` changed; new's copies of that line (kept lines) changed alike."""
    old = (*draft.old[:i], changed, *draft.old[i + 1 :])
    at = counterpart(draft, i)
    new = draft.new if at is None else (*draft.new[:at], changed, *draft.new[at + 1 :])
    return draft.noted(note, old=old, new=new)


_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
_STRING_WORD = re.compile(r"([\"'])([A-Za-z]{3,})")


def m_literal_differs(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """A number of old's code, or the first word inside one of its string literals, is not
    the file's (``y := 99`` where the file says ``y := 2``): meaning-changing, refused."""

    def change(line: str, mask: list[bool]) -> str | None:
        numbers = [m for m in _NUMBER.finditer(line) if all(mask[m.start() : m.end()])]
        if numbers:
            m = rng.choice(numbers)
            value = int(m.group(0)) + rng.choice([1, 2, 7, 97])
            return line[: m.start()] + str(value) + line[m.end() :]
        words = [
            m for m in _STRING_WORD.finditer(line) if m.start() < len(mask) and not mask[m.start(2)]
        ]
        if words and quote.lang != "markdown":
            m = rng.choice(words)
            word = m.group(2)
            return line[: m.start(2)] + word[::-1].lower() + line[m.end(2) :]
        return None

    made = _changed_in_code(rng, draft, quote, change)
    if made is None:
        return None
    return _carry(draft, made[0], made[1], f"a literal of line {made[0] + 1} differs")


_OPERATOR_SWAPS: tuple[tuple[str, str], ...] = (
    (" == ", " != "),
    (" != ", " == "),
    (" === ", " !== "),
    (" !== ", " === "),
    (" < ", " <= "),
    (" > ", " >= "),
    (" <= ", " < "),
    (" >= ", " > "),
    (" + ", " - "),
    (" - ", " + "),
    (" && ", " || "),
    (" || ", " && "),
    (" += ", " -= "),
)


def m_operator_differs(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """An operator of old's code is another one (``<`` for ``<=``, ``+`` for ``-``):
    meaning-changing, refused."""
    if quote.lang in ("markdown", "yaml", "json"):
        return None

    def change(line: str, mask: list[bool]) -> str | None:
        swaps = list(_OPERATOR_SWAPS)
        rng.shuffle(swaps)
        for plain, other in swaps:
            at = line.find(plain)
            while at != -1:
                if all(mask[at : at + len(plain)]):
                    return line[:at] + other + line[at + len(plain) :]
                at = line.find(plain, at + 1)
        return None

    made = _changed_in_code(rng, draft, quote, change)
    if made is None:
        return None
    return _carry(draft, made[0], made[1], f"an operator of line {made[0] + 1} differs")


_KEYWORD_SWAPS: dict[str, str] = {
    "True": "False", "False": "True", "true": "false", "false": "true", "const": "let",
    "let": "const", "break": "continue", "continue": "break", "public": "private",
    "private": "public", "and": "or", "or": "and", "min": "max", "max": "min",
    "if": "while", "while": "if", "None": "False", "null": "undefined", "nil": "err",
    "return": "yield", "static": "inline",
}  # fmt: skip
_WORD = re.compile(r"\b[A-Za-z]+\b")


def m_keyword_differs(rng: random.Random, draft: Draft, quote: Quote) -> Draft | None:
    """A keyword or constant of old's code is another one (``True`` for ``False``,
    ``break`` for ``continue``, ``min`` for ``max``): meaning-changing, refused."""
    if quote.lang in ("markdown", "json"):
        return None

    def change(line: str, mask: list[bool]) -> str | None:
        found = [
            m for m in _WORD.finditer(line)
            if m.group(0) in _KEYWORD_SWAPS and all(mask[m.start() : m.end()])
        ]  # fmt: skip
        if not found:
            return None
        m = rng.choice(found)
        return line[: m.start()] + _KEYWORD_SWAPS[m.group(0)] + line[m.end() :]

    made = _changed_in_code(rng, draft, quote, change)
    if made is None:
        return None
    return _carry(draft, made[0], made[1], f"a keyword of line {made[0] + 1} differs")


UNLISTED_MISTAKES: dict[str, Mistake] = {
    "html_entities": m_html_entities,
    "double_escaped": m_double_escaped,
    "read_tool_gutter": m_read_tool_gutter,
    "invisible_chars": m_invisible_chars,
    "typographic_operators": m_typographic_operators,
    "crlf_in_new": m_crlf_in_new,
    "nbsp_indentation": m_nbsp_indentation,
    "neighbour_indent": m_neighbour_indent,
    "wrapped_line": m_wrapped_line,
    "duplicated_line": m_duplicated_line,
    "literal_differs": m_literal_differs,
    "operator_differs": m_operator_differs,
    "keyword_differs": m_keyword_differs,
}

UNLISTED_OUTCOMES: dict[str, str] = {
    "html_entities": "intended",
    "double_escaped": "intended",
    "read_tool_gutter": "intended",
    "invisible_chars": "intended",
    "typographic_operators": "intended",
    "crlf_in_new": "intended",
    "nbsp_indentation": "intended",
    "neighbour_indent": "either",
    "wrapped_line": "either",
    "duplicated_line": "either",
    "literal_differs": "refuse",
    "operator_differs": "refuse",
    "keyword_differs": "refuse",
}
# Meaning-changing classes: whatever else the block gets right, the quote is refused.
MEANING_CHANGING: frozenset[str] = frozenset(
    name for name, outcome in UNLISTED_OUTCOMES.items() if outcome == "refuse"
)
# A rename everywhere quotes one fragment: the unlisted mistakes a fragment can carry.
UNLISTED_REPLACE_ALL: tuple[str, ...] = ("html_entities", "invisible_chars")


# A whitespace-only change quoted with the whitespace mistakes that a whitespace-blind
# comparison forgives: never "already applied" while the file does not have it.
WHITESPACE_CHANGE_MISTAKES: tuple[str, ...] = (
    "exact",
    "trailing_whitespace",
    "compressed_spacing",
    "indentation_shift",
    "tabs_vs_spaces",
    "boundary_blank_lines",
    "nbsp_indentation",
)
WHITESPACE_CHANGE = "whitespace_change"  # the category of those cells


def unlisted_pairings() -> list[tuple[str, str]]:
    """Every (mistake, edit kind) pairing the benchmark's ``u-`` cells cut: each unlisted
    mistake with every block edit, the fragment ones with a rename everywhere too, and the
    whitespace mistakes with a whitespace-only change."""
    pairs = [(m, k) for m in UNLISTED_MISTAKES for k in BLOCK_KINDS]
    pairs += [(m, "replace_all") for m in UNLISTED_REPLACE_ALL]
    pairs += [(m, "whitespace_only") for m in WHITESPACE_CHANGE_MISTAKES]
    return pairs


def unlisted_outcome(mistake: str, kind: str) -> str:
    """What a careful human makes of a ``u-`` cell's case (see :data:`UNLISTED_OUTCOMES`)."""
    if kind == "whitespace_only":
        return "intended"  # the change is whitespace; the quote stands once
    return UNLISTED_OUTCOMES[mistake]


def unlisted_category(mistake: str, kind: str) -> str:
    return WHITESPACE_CHANGE if kind == "whitespace_only" else mistake
