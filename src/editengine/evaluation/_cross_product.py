"""Whole requests of the benchmark's cross product: an edit kind x a mistake class, cut from
a file, with the file the intended edit produces.

:func:`cut` makes one request of a cell (``mistakes.cross_pairings()``): a block edit
misquoted (:func:`cut_block`), a fragment replaced everywhere (:func:`cut_replace_all`), or a
fragment of a minified line (:func:`cut_long_line`). Every request it returns is decidable:
the quoted text stands once, also when indentation and spacing are forgiven, and the mistake
really breaks exact matching. :func:`retry_is_unchanged` says when the same request sent
again must leave the edited file as it is.

Why one long module: the three cutters share the checks that keep every request decidable.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from editengine.evaluation._edit_kinds import (
    BLOCK_EDITS,
    EDITS,
    FENCE_TAGS,
    IDENT,
    KEYWORDS,
    STRING_LITERAL,
    Edit,
    new_name,
    squash,
)
from editengine.evaluation._mistakes import (
    INVISIBLES,
    MEANING_CHANGING,
    TWO_MISTAKES,
    Quote,
    compress_line,
    curly,
    html_escape,
    misquote,
    respace_fragment,
    window_scores,
)

# --------------------------------------------------------------------------- whole requests


@dataclass(frozen=True)
class Cut:
    """One request cut from a file: what the model sends and the file it should produce."""

    old_string: str
    new_string: str
    lines_after: tuple[str, ...]  # the file's lines after the intended edit
    instruction: str
    notes: str
    mistakes: tuple[str, ...]
    kind: str
    quoted: str  # the text old_string stands for, as the file has it (LF)
    replace_all: bool = False
    expected_replacements: int | None = None
    block: tuple[int, int] | None = None  # the quoted lines, [start, end) of the file


def trimmed_windows(lines: Sequence[str], block: Sequence[str]) -> int:
    """How many runs of ``lines`` equal ``block`` when every line is stripped."""
    target = [x.strip() for x in block]
    stripped = [x.strip() for x in lines]
    size = len(target)
    return sum(1 for i in range(len(stripped) - size + 1) if stripped[i : i + size] == target)


def pick_block(
    rng: random.Random, lines: Sequence[str], *, min_lines: int, max_lines: int, tries: int = 40
) -> tuple[int, int] | None:
    """A run of whole lines (not starting or ending blank) that stands exactly once, also
    when indentation and spacing are forgiven: ``(start, end)``."""
    text = "\n".join(lines)
    squashed = squash(text)
    for _ in range(tries):
        size = rng.randint(min_lines, max_lines)
        if size > len(lines):
            continue
        start = rng.randint(0, len(lines) - size)
        block = lines[start : start + size]
        if not block[0].strip() or not block[-1].strip():
            continue
        if sum(1 for x in block if x.strip()) < max(2, min_lines // 2):
            continue
        quoted = "\n".join(block)
        if text.count(quoted) != 1 or squashed.count(squash(quoted)) != 1:
            continue
        if trimmed_windows(lines, block) != 1:
            continue
        return start, start + size
    return None


def cut_block(
    rng: random.Random,
    lines: Sequence[str],
    lang: str,
    kind: str,
    mistake: str,
    *,
    unit: str,
    eol: str = "\n",
) -> Cut | None:
    """A block edit of ``kind`` on ``lines`` (the file, LF-split), misquoted with
    ``mistake`` (``two_mistakes``: a pair of :data:`TWO_MISTAKES`); ``None`` when this draw
    cannot make it."""
    min_lines = 6 if mistake in ("elision", "two_mistakes") else 4
    picked = pick_block(rng, lines, min_lines=min_lines, max_lines=12)
    if picked is None:
        return None
    start, end = picked
    block = list(lines[start:end])
    edit = EDITS[kind](rng, block, lang)
    if edit is None or edit.new_lines == block:
        return None
    mistakes = rng.choice(TWO_MISTAKES) if mistake == "two_mistakes" else (mistake,)
    quote = Quote(tuple(block), tuple(edit.new_lines), start + 1, unit, eol, lang, tuple(lines))
    draft = misquote(rng, quote, mistakes)
    if draft is None:
        return None
    old, new = draft.render()
    if old == new:
        return None  # the mistake made the edit itself: nothing is asked
    text = "\n".join(lines) + "\n"  # as the file may end: with a final newline
    only_new = old == "\n".join(block) and new != "\n".join(edit.new_lines)
    if mistake == "crlf" and old in eol.join(lines):
        return None  # the line endings must really break exact matching
    if mistake not in ("exact", "crlf") and not only_new and old.replace("\r\n", "\n") in text:
        return None  # the mistake must really break exact matching (or be in new only)
    after = (*lines[:start], *edit.new_lines, *lines[end:])
    if mistake in MEANING_CHANGING and _stands_respaced(old, (lines, after)):
        return None  # a quote that says something else must stand nowhere, before or after
    return Cut(
        old,
        new,
        after,
        edit.instruction,
        "; ".join(draft.notes) or "old_string copied byte for byte",
        tuple(mistakes),
        kind,
        "\n".join(block),
        block=(start, end),
    )


def _stands_respaced(old: str, files: Iterable[Sequence[str]]) -> bool:
    """Whether ``old`` stands in one of ``files`` once whitespace is ignored, or as a run of
    whole lines once each line is stripped."""
    quoted = old.replace("\r\n", "\n").split("\n")
    for lines in files:
        if squash(old) in squash("\n".join(lines)) or trimmed_windows(lines, quoted):
            return True
    return False


def is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def token_bounded_count(haystack: str, needle: str) -> int:
    """Occurrences of ``needle`` that neither start nor end inside a word."""
    found, at = 0, haystack.find(needle)
    while at != -1:
        end = at + len(needle)
        head_ok = at == 0 or not (is_word_char(haystack[at - 1]) and is_word_char(needle[0]))
        tail_ok = end == len(haystack) or not (
            is_word_char(haystack[end]) and is_word_char(needle[-1])
        )
        found += head_ok and tail_ok
        at = haystack.find(needle, at + 1)
    return found


_FRAGMENT_PATTERNS = {
    "exact": r"\b[A-Za-z_][A-Za-z0-9_]{3,}\b",
    "markdown_fence": r"\b[A-Za-z_][A-Za-z0-9_]{3,}\b",
    "over_escaped": r"\"[A-Za-z][\w .-]{2,30}\"|'[A-Za-z][\w .-]{2,30}'",
    "unicode_punctuation": r"\"[A-Za-z][\w .-]{2,30}\"|'[A-Za-z][\w .-]{2,30}'",
    "reformatted_spacing": r"\b[A-Za-z_][\w.]*\([^()\n]{0,40}, [^()\n]{0,40}\)",
    "compressed_spacing": r"\b[A-Za-z_][\w.]* (?:==|!=|<=|>=|=|<|>|\+) [\w.]+\b",
    "html_entities": r"\"[A-Za-z][\w .-]{2,30}\"",
    "invisible_chars": r"\b[A-Za-z_][A-Za-z0-9_]{3,}\b",
}


# Fragments quoted with their spacing changed: placed only where they stop at a clean edge.
_RESPACED = ("reformatted_spacing", "compressed_spacing")


def _misquote_fragment(
    rng: random.Random, frag: str, mistake: str, lang: str, text: str
) -> tuple[str, str] | None:
    if mistake == "exact":
        return frag, "exact"
    if mistake == "markdown_fence":
        if any(x.lstrip().startswith(("```", "~~~")) for x in text.split("\n")):
            return None
        tag = FENCE_TAGS.get(lang, "") if rng.random() < 0.5 else ""
        return f"```{tag}\n{frag}\n```", f"fence ```{tag} around old"
    if mistake == "over_escaped":
        if "\\" in text:
            return None
        return frag.replace('"', '\\"').replace("'", "\\'"), "quotes over-escaped"
    if mistake == "unicode_punctuation":
        if any(ord(c) > 127 for c in text):
            return None
        if frag[0] == '"':
            return curly(frag, "curly double quotes"), "curly double quotes"
        return "\u2018" + frag[1:-1] + "\u2019", "curly single quotes"
    if mistake == "reformatted_spacing":
        return re.sub(r", (?=\S)", ",", frag), "no space after commas"
    if mistake == "html_entities":
        if re.search(r"&#?\w+;", text):
            return None
        return html_escape(frag), "quotes as HTML entities"
    if mistake == "invisible_chars":
        if any(c in text for c in INVISIBLES):
            return None
        char = rng.choice(INVISIBLES)
        return (
            (frag + char, "an invisible character after it")
            if rng.random() < 0.5
            else (
                char + frag,
                "an invisible character before it",
            )
        )
    return compress_line(frag, lang), "operators without spaces"


def cut_replace_all(
    rng: random.Random, lines: Sequence[str], lang: str, mistake: str
) -> Cut | None:
    """A fragment standing 2-25 times replaced everywhere (``replace_all``, or
    ``expected_replacements``), quoted with one of :data:`REPLACE_ALL_MISTAKES`."""
    if lang == "markdown":
        return None
    text = "\n".join(lines)
    fragments: list[str] = []
    for m in re.finditer(_FRAGMENT_PATTERNS[mistake], text):
        if m.group(0) not in fragments:
            fragments.append(m.group(0))
    rng.shuffle(fragments)
    for frag in fragments[:30]:
        n = text.count(frag)
        if not 2 <= n <= 25 or token_bounded_count(text, frag) != n:
            continue
        if is_word_char(frag[0]) and re.search(rf"(?:\.|->|::){re.escape(frag)}", text):
            continue  # `obj.get(...)`: the quote would drop the owner at some places
        if is_word_char(frag[-1]) and re.search(rf"{re.escape(frag)}[.(\[]", text):
            continue  # `x = next` of `x = next.prev`: the expression goes on
        if mistake in _RESPACED and re.search(rf"{re.escape(frag)}[*/%+\-^&|<>]", text):
            continue  # `unit=base` of `unit = base**i`: a prefix of a longer expression
        if squash(text).count(squash(frag)) != n:
            continue  # a re-spaced copy elsewhere would be a further place
        words = [w for w in IDENT.findall(frag) if len(w) >= 4 and w.lower() not in KEYWORDS]
        if not words:
            continue
        if mistake in ("over_escaped", "unicode_punctuation", "html_entities"):
            extra = rng.choice(["-v2", " (legacy)", "_old"])
            new_frag = frag[0] + frag[1:-1] + extra + frag[-1]
        else:
            word = rng.choice(words)
            new_frag = re.sub(rf"\b{re.escape(word)}\b", new_name(rng, word), frag)
        if new_frag == frag or new_frag in text:
            continue
        made = _misquote_fragment(rng, frag, mistake, lang, text)
        if made is None:
            return None
        old, note = made
        if mistake != "exact" and (old == frag or old in text):
            continue
        counted = rng.random() < 0.3
        return Cut(
            old,
            new_frag,
            tuple(text.replace(frag, new_frag).split("\n")),
            f"Replace `{frag}` with `{new_frag}` everywhere in this file.",
            f"{n} occurrences; {note}" + ("; expected_replacements given" if counted else ""),
            (mistake,),
            "replace_all",
            frag,
            replace_all=not counted,
            expected_replacements=n if counted else None,
        )
    return None


def _fragment_starts(seg: str) -> list[int]:
    """Where a quote may begin: a name, a literal or a bracket after a separator."""
    out = []
    for i, ch in enumerate(seg):
        before = seg[i - 1] if i else " "
        if ch.isspace() or (before in ".>:/" and is_word_char(ch)):
            continue  # a member, a path or a regex's flags: the expression goes on before
        if not (is_word_char(ch) or ch in "\"'`([{"):
            continue
        if before.isspace() or before in "([{," or (is_word_char(ch) and not is_word_char(before)):
            out.append(i)
    return out


def _fragment_ends(seg: str) -> list[int]:
    """Where a quote may end (exclusive): a word end or before a separator."""
    out = []
    for j in range(1, len(seg) + 1):
        last, after = seg[j - 1], seg[j] if j < len(seg) else " "
        if last.isspace() or (is_word_char(last) and after in "([."):
            continue
        if after.isspace() or after in ")]}," or (is_word_char(last) and not is_word_char(after)):
            out.append(j)
    return out


def _splits_literal(line: str, start: int, end: int) -> bool:
    return any(
        m.start() < start < m.end() or m.start() < end < m.end()
        for m in STRING_LITERAL.finditer(line)
    )


def cut_long_line(rng: random.Random, lines: Sequence[str], lang: str, kind: str) -> Cut | None:
    """A 30-150-character fragment of the file's longest line edited (``kind`` of
    :data:`LONG_LINE_KINDS`), quoted re-spaced (:func:`respace_fragment`)."""
    row = max(range(len(lines)), key=lambda i: len(lines[i]))
    line = lines[row]
    text = "\n".join(lines)
    for _ in range(10):
        at = rng.randrange(0, max(1, len(line) - 200))
        seg = line[at : at + 240]
        # The segment's own edges are no token boundaries (the line goes on either side).
        starts = [i for i in _fragment_starts(seg) if (i > 0 or at == 0) and i < 80]
        if not starts:
            continue
        begin = rng.choice(starts)
        fitting = [j for j in _fragment_ends(seg) if 30 <= j - begin <= 150 and j < len(seg)]
        if not fitting:
            continue
        end = rng.choice(fitting)
        frag = seg[begin:end]
        if _splits_literal(seg, begin, end) or frag != frag.strip():
            continue
        if text.count(frag) != 1 or squash(text).count(squash(frag)) != 1:
            continue
        edit = BLOCK_EDITS[kind](rng, [frag], lang)
        if edit is None or len(edit.new_lines) != 1 or edit.new_lines[0] == frag:
            continue
        respaced = respace_fragment(rng, frag)
        if respaced is None or respaced[0] in text:
            continue
        old, note = respaced
        new_line = line[: at + begin] + edit.new_lines[0] + line[at + end :]
        return Cut(
            old,
            edit.new_lines[0],
            (*lines[:row], new_line, *lines[row + 1 :]),
            edit.instruction,
            f"{len(line):,}-character line; fragment quoted with {note}",
            ("long_line",),
            kind,
            frag,
        )
    return None


def minified_lines(pieces: Sequence[str], size: int, lang: str, start: int) -> list[str]:
    """A minified file whose one long line (``size``+ characters) joins ``pieces`` (JSON
    members or JavaScript statements) from ``start`` on, cycling."""
    taken: list[str] = []
    separator = 2 if lang == "json" else 1  # ", " or " " between pieces
    length = (2 if lang == "json" else 0) - separator  # the braces; no separator first
    while length < size:
        piece = pieces[(start + len(taken)) % len(pieces)]
        taken.append(piece)
        length += len(piece) + separator
    if lang == "json":
        return ["{" + ", ".join(taken) + "}"]
    return ["/*! bundle - minified */", " ".join(taken), "//# sourceMappingURL=bundle.js.map"]


def cut(
    rng: random.Random,
    lines: Sequence[str],
    lang: str,
    kind: str,
    mistake: str,
    *,
    unit: str,
    eol: str = "\n",
) -> Cut | None:
    """One cell's request: a block edit, a rename everywhere, or a long-line fragment."""
    if mistake == "long_line":
        return cut_long_line(rng, lines, lang, kind)
    if kind == "replace_all":
        return cut_replace_all(rng, lines, lang, mistake)
    return cut_block(rng, lines, lang, kind, mistake, unit=unit, eol=eol)


def retry_is_unchanged(made: Cut) -> bool:
    """Whether the same request sent again to the edited file must leave it unchanged: the
    quoted text no longer stands anywhere, not even re-spaced or re-indented (a rename
    everywhere leaves it only inside the new text). Else a second place could be meant."""
    if made.kind == "replace_all":
        return True
    after = "\n".join(made.lines_after)
    if squash(after).count(squash(made.quoted)):
        return False
    return made.block is None or not trimmed_windows(made.lines_after, made.quoted.split("\n"))


def minified_pieces(files: Iterable[tuple[str, Sequence[str]]]) -> dict[str, list[str]]:
    """The pieces :func:`minified_lines` joins, from ``(language, lines)`` of real files:
    each JSON object's members (or each list item), each JavaScript statement line without a
    comment, with the spacing the file had."""
    pieces: dict[str, list[str]] = {"json": [], "javascript": []}
    for lang, lines in files:
        if lang == "json":
            try:
                data = json.loads("\n".join(lines))
            except ValueError:
                continue
            if isinstance(data, dict):
                for key, value in data.items():
                    pieces["json"].append(json.dumps({key: value}, ensure_ascii=False)[1:-1])
            elif isinstance(data, list):
                pieces["json"].extend(json.dumps(item, ensure_ascii=False) for item in data)
        elif lang == "javascript":
            for line in lines:
                body = line.strip()
                if body and not body.startswith(("//", "/*", "*")) and "//" not in body:
                    pieces["javascript"].append(body)
    return pieces


def _some_edit(rng: random.Random, block: list[str], lang: str) -> tuple[str, Edit] | None:
    """An edit of some block kind (tried in a random order) that changes ``block``."""
    kinds = list(BLOCK_EDITS)
    rng.shuffle(kinds)
    for kind in kinds:
        edit = BLOCK_EDITS[kind](rng, block, lang)
        if edit is not None and edit.new_lines != block:
            return kind, edit
    return None


def cut_absent(
    rng: random.Random,
    lines: Sequence[str],
    sibling: Sequence[str],
    lang: str,
    mistake: str,
    *,
    unit: str,
) -> Cut | None:
    """A block of a sibling file (same language) edited and misquoted with ``mistake``,
    sent to a file it stands nowhere near (every window under 70 % similar): the only right
    answer is a refusal. Line-number prefixes point into the file, as a confused agent's do."""
    picked = pick_block(rng, sibling, min_lines=3, max_lines=8)
    if picked is None:
        return None
    block = list(sibling[picked[0] : picked[1]])
    made = _some_edit(rng, block, lang)
    if made is None:
        return None
    kind, edit = made
    text = "\n".join(lines) + "\n"
    if any(x.lstrip().startswith(("```", "~~~")) for x in lines):
        return None  # a fence may be content here
    first = rng.randint(1, max(1, len(lines) - len(block)))
    quote = Quote(tuple(block), tuple(edit.new_lines), first, unit, "\n", lang, tuple(sibling))
    draft = misquote(rng, quote, (mistake,))
    if draft is None:
        return None
    old, new = draft.render()
    if window_scores(lines, block)[0] >= 0.7 or squash(old) in squash(text):
        return None  # something like it stands in the file: not absent
    return Cut(
        old,
        new,
        tuple(lines),
        edit.instruction,
        "old comes from another file; " + "; ".join(draft.notes),
        (mistake,),
        kind,
        "\n".join(block),
    )


def cut_ambiguous(
    rng: random.Random, lines: Sequence[str], lang: str, mistake: str, *, unit: str
) -> Cut | None:
    """A block standing twice verbatim (a copy is put after a blank line elsewhere), edited
    and misquoted with ``mistake``: it fits both copies alike, so the only right answer is a
    refusal. ``lines_after`` is the file with both copies (the case's content)."""
    picked = pick_block(rng, lines, min_lines=3, max_lines=8)
    if picked is None:
        return None
    start, end = picked
    block = list(lines[start:end])
    spots = [i for i in range(1, len(lines)) if not lines[i - 1].strip() and not start <= i <= end]
    if not spots:
        return None
    at = rng.choice(spots)
    doubled = [*lines[:at], *block, "", *lines[at:]]
    made = _some_edit(rng, block, lang)
    if made is None:
        return None
    kind, edit = made
    if mistake == "markdown_fence" and any(x.lstrip().startswith(("```", "~~~")) for x in lines):
        return None
    quote = Quote(tuple(block), tuple(edit.new_lines), start + 1, unit, "\n", lang, tuple(doubled))
    draft = misquote(rng, quote, (mistake,))
    if draft is None:
        return None
    old, new = draft.render()
    text = "\n".join(doubled) + "\n"
    if old.replace("\r\n", "\n") in text or trimmed_windows(doubled, block) != 2:
        return None
    if squash(text).count(squash("\n".join(block))) != 2:
        return None
    return Cut(
        old,
        new,
        tuple(doubled),
        edit.instruction,
        "old fits two identical blocks; " + "; ".join(draft.notes),
        (mistake,),
        kind,
        "\n".join(block),
    )
