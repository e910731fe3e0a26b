"""Mistakes of layout: indentation shifted, tabs for spaces, trailing blanks, line endings,
escaping, spacing around operators, blank lines at the block's edges.

Each changes how the lines are written, never what they say: the engine must find the
block and write new_string in the file's own layout.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace

from editengine.evaluation._edit_kinds import code_mask, indent_of
from editengine.evaluation._mistakes._drafts import Draft, Quote


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
