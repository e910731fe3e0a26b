"""The mistake classes no earlier benchmark listed, invented from the peers' public issue
trackers: HTML entities, double escaping, unknown read-tool gutters, invisible characters,
typographic operators, CRLF only in new_string, NBSP indentation, a neighbour's indentation,
a wrapped line, a duplicated line; and three that change meaning (a literal, an operator, a
keyword), which the engine must refuse.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from editengine.evaluation._edit_kinds import code_mask, indent_of
from editengine.evaluation._mistakes._drafts import Draft, Quote
from editengine.evaluation._mistakes._text import kept_run

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
    head, tail = kept_run(draft.old, draft.new)
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
