"""Mistakes in the text of the lines: typos, typographic punctuation, elided lines, a read
tool's line numbers, a Markdown fence around the quote.

A typo is kept only where the block stays the one clear place in the file
(:func:`window_scores`), so a case never asks the engine to guess.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from editengine.evaluation._edit_kinds import FENCE_TAGS, indent_of
from editengine.evaluation._mistakes._drafts import Draft, Quote


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


def kept_run(old: Sequence[str], new: Sequence[str]) -> tuple[int, int]:
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
    head, tail = kept_run(draft.old, draft.new)
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
