"""The edits agents mean and the mistakes they make quoting them, as small pure functions.

Two families cross to make the benchmark (``fixtures/build_benchmark.py``) and the property
tests (``tests/evaluation/test_cross_product.py``):

* **edit kinds** (:data:`EDIT_KINDS`): what a careful human changes in a block of whole lines
  (``rename``, ``literal``, ``flip``, ``insert_line``, ``delete_lines``, ``replace_block``) or
  everywhere in a file (``replace_all``). Each block kind is ``(rng, lines, lang) -> Edit``.
* **mistake classes** (:data:`BLOCK_MISTAKES`): how a model misquotes that edit: each is
  ``(rng, Draft, Quote) -> Draft | None`` and changes the draft request (old and new lines,
  line endings, text wrapped around them) the way one everyday mistake does. Two of them
  compose (``two_mistakes``), in the order a model makes them: the text of a line first,
  then its indentation, then what is written around the lines.

A function returns ``None`` when its mistake cannot be made on this block (a tab mistake
needs indentation, a fence needs a file without fence lines). Everything is deterministic
for a given ``random.Random``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz

EDIT_KINDS: tuple[str, ...] = (
    "rename",
    "literal",
    "flip",
    "insert_line",
    "delete_lines",
    "replace_block",
    "replace_all",
)
BLOCK_KINDS: tuple[str, ...] = EDIT_KINDS[:-1]

# --------------------------------------------------------------------------- text helpers

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRING_LITERAL = re.compile(r"([\"'`])(?:\\.|(?!\1).)*\1")
_KEYWORD_TEXT = """
and as assert async await break case catch class const continue def default del do elif else
enum except export extends false final finally fn for from func function go if impl import in
interface is let match mod mut new nil none not null of or package pass pub raise return self
static struct super switch this throw true try type typeof use var void while with yield int
char unsigned long size_t bool string str len instanceof lambda nonlocal global sizeof typedef
extern loop where trait crate unsafe move defer chan range select undefined delete implements
private protected public readonly declare namespace module require exports local
"""
_KEYWORDS = frozenset(_KEYWORD_TEXT.split())
COMMENT = {
    "python": "#",
    "yaml": "#",
    "make": "#",
    "javascript": "//",
    "typescript": "//",
    "go": "//",
    "rust": "//",
    "c": "//",
}
FENCE_TAGS = {
    "python": "python",
    "javascript": "js",
    "typescript": "ts",
    "go": "go",
    "rust": "rust",
    "c": "c",
    "yaml": "yaml",
    "json": "json",
    "make": "makefile",
    "markdown": "markdown",
}


def indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def squash(text: str) -> str:
    """The text without any whitespace: what re-spacing cannot change."""
    return re.sub(r"\s+", "", text)


def code_mask(line: str, lang: str) -> list[bool]:
    """Per character: whether it is code (not inside a string literal or a line comment)."""
    mask = [True] * len(line)
    for m in STRING_LITERAL.finditer(line):
        for i in range(m.start(), m.end()):
            mask[i] = False
    marker = COMMENT.get(lang)
    if marker:
        at = line.find(marker)
        while at != -1 and not mask[at]:
            at = line.find(marker, at + 1)
        if at != -1:
            for i in range(at, len(line)):
                mask[i] = False
    stripped = line.strip()
    if stripped.startswith(("*", "/*")) or lang in ("markdown",):
        return [False] * len(line)
    return mask


def identifiers(line: str, lang: str) -> list[str]:
    """Names in the code part of a line worth renaming (4+ characters, no keywords)."""
    mask = code_mask(line, lang)
    found = []
    for m in IDENT.finditer(line):
        word = m.group(0)
        if not all(mask[m.start() : m.end()]):
            continue
        if len(word) >= 4 and word.lower() not in _KEYWORDS and not word.isupper():
            found.append(word)
    return found


# --------------------------------------------------------------------------- edit kinds


@dataclass(frozen=True)
class Edit:
    """The change a careful human means: the block's new lines and a sentence saying why."""

    kind: str
    new_lines: list[str]
    instruction: str


def new_name(rng: random.Random, word: str) -> str:
    if "_" in word or word.islower():
        return word + rng.choice(["_value", "_count", "_result", "_list", "_opts", "_info"])
    return word + rng.choice(["Value", "Count", "Result", "List", "Opts", "Info"])


def comment_line(rng: random.Random, lang: str, indent: str) -> str | None:
    text = rng.choice(
        [
            "keep this in sync with the documentation",
            "NOTE: order matters here",
            "TODO: handle the error case explicitly",
            "see the changelog for why this exists",
            "callers rely on this behaviour",
            "guard against empty input",
        ]
    )
    if lang in COMMENT:
        return f"{indent}{COMMENT[lang]} {text}"
    if lang == "markdown":
        return f"{indent}> Note: {text}."
    return None


def _statement_lines(lines: Sequence[str], lang: str) -> list[int]:
    """Inner lines (never the first or last) that hold a whole statement: deleting or
    replacing them leaves brackets balanced."""
    return [
        i
        for i in range(1, len(lines) - 1)
        if len(lines[i].strip()) >= 6
        and lines[i].rstrip()[-1] not in "{([:,"
        and lines[i].strip()[0] not in "})]"
        and "```" not in lines[i]
        and '"""' not in lines[i]
        and "'''" not in lines[i]
        and not lines[i].strip().startswith(("/*", "*"))
    ]


def edit_rename(rng: random.Random, lines: list[str], lang: str) -> Edit | None:
    if lang in ("markdown", "json"):
        return None  # prose and data have no identifiers to rename
    words: list[str] = []
    for line in lines:
        words.extend(w for w in identifiers(line, lang) if w not in words)
    if not words:
        return None
    word = rng.choice(words)
    name = new_name(rng, word)
    pattern = re.compile(rf"\b{re.escape(word)}\b")
    new = [pattern.sub(name, line) for line in lines]
    return Edit("rename", new, f"Rename `{word}` to `{name}` in this block.")


def edit_literal(rng: random.Random, lines: list[str], lang: str) -> Edit | None:
    """A number or a string literal changed."""
    spots = []
    for i, line in enumerate(lines):
        for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", line):
            spots.append((i, m.start(1), m.end(1), str(int(m.group(1)) + rng.choice([1, 2, 5]))))
        for m in re.finditer(r"([\"'])([A-Za-z][A-Za-z .,:-]{2,40})\1", line):
            extra = rng.choice([" (deprecated)", "-v2", " now", "_legacy"])
            spots.append((i, m.start(2), m.end(2), m.group(2) + extra))
    if not spots:
        return None
    i, start, end, value = rng.choice(spots)
    new = list(lines)
    new[i] = lines[i][:start] + value + lines[i][end:]
    return Edit(
        "literal", new, f"Change `{lines[i][start:end]}` to `{value}` in `{lines[i].strip()}`."
    )


_FLIPS = (
    (r"\bTrue\b", "False"),
    (r"\bFalse\b", "True"),
    (r"\btrue\b", "false"),
    (r"\bfalse\b", "true"),
    (r" == ", " != "),
    (r" != ", " == "),
    (r" <= ", " < "),
    (r" >= ", " > "),
    (r" && ", " || "),
    (r" \|\| ", " && "),
    (r" and ", " or "),
    (r" or ", " and "),
)


def edit_flip(rng: random.Random, lines: list[str], lang: str) -> Edit | None:
    """A boolean literal or a comparison/logical operator flipped, in code only."""
    spots = []
    for i, line in enumerate(lines):
        mask = code_mask(line, lang)
        for pattern, repl in _FLIPS:
            for m in re.finditer(pattern, line):
                if all(mask[m.start() : m.end()]):
                    spots.append((i, m.start(), m.end(), repl))
    if not spots:
        return None
    i, start, end, repl = rng.choice(spots)
    new = list(lines)
    new[i] = lines[i][:start] + repl + lines[i][end:]
    what = lines[i][start:end].strip()
    return Edit("flip", new, f"Flip `{what}` to `{repl.strip()}` in `{lines[i].strip()}`.")


def _shielded(lines: Sequence[str], lang: str) -> list[bool]:
    """Per line: inside a block comment, docstring or Markdown fence (as far as the block
    shows), where a new comment line would not be a comment."""
    out, inside = [], False
    for line in lines:
        stripped = line.strip()
        if lang == "markdown":
            fence = stripped.startswith("```")
            out.append(inside or fence)
            inside = inside != fence
            continue
        if lang == "python":
            quotes = line.count('"""') + line.count("'''")
            out.append(inside or quotes > 0)
            inside = inside != (quotes % 2 == 1)
            continue
        opens, closes = line.rfind("/*"), line.rfind("*/")
        out.append(inside or stripped.startswith(("/*", "*")) or opens != -1)
        if opens > closes:
            inside = True
        elif closes != -1:
            inside = False
    return out


def edit_insert_line(rng: random.Random, lines: list[str], lang: str) -> Edit | None:
    """A comment line inserted above an inner line of the block."""
    shielded = _shielded(lines, lang)
    spots = [i for i in range(1, len(lines)) if len(lines[i].strip()) >= 6 and not shielded[i]]
    if lang == "markdown":
        spots = [i for i in spots if not lines[i].startswith(("    ", "\t"))]
    if not spots:
        return None
    i = rng.choice(spots)
    comment = comment_line(rng, lang, indent_of(lines[i]))
    if comment is None:
        return None
    new = [*lines[:i], comment, *lines[i:]]
    return Edit("insert_line", new, f"Add a comment above `{lines[i].strip()}`: {comment.strip()}")


def edit_delete_lines(rng: random.Random, lines: list[str], lang: str) -> Edit | None:
    """One or two whole statements deleted from inside the block (the quote keeps a line of
    context on each side, as agents quote deletions)."""
    if lang == "json":
        return None
    spots = _statement_lines(lines, lang)
    if not spots:
        return None
    i = rng.choice(spots)
    size = 2 if i + 1 in spots and rng.random() < 0.4 else 1
    new = [*lines[:i], *lines[i + size :]]
    gone = "; ".join(x.strip() for x in lines[i : i + size])
    return Edit("delete_lines", new, f"Remove `{gone}`.")


def edit_replace_block(rng: random.Random, lines: list[str], lang: str) -> Edit | None:
    """One or two inner statements rewritten: a comment saying why, then the statements
    with a name renamed or a value changed."""
    spots = _statement_lines(lines, lang)
    if not spots or lang == "json":
        return None
    i = rng.choice(spots)
    size = 2 if i + 1 in spots and rng.random() < 0.5 else 1
    part = lines[i : i + size]
    changed = edit_rename(rng, part, lang) or edit_literal(rng, part, lang)
    if changed is None or changed.new_lines == part:
        return None
    comment = comment_line(rng, lang, indent_of(part[0]))
    if comment is None:
        return None
    new = [*lines[:i], comment, *changed.new_lines, *lines[i + size :]]
    return Edit(
        "replace_block",
        new,
        f"Replace `{part[0].strip()}`{' and the next line' if size == 2 else ''}: "
        f"{changed.instruction} {comment.strip()}",
    )


BLOCK_EDITS: dict[str, Callable[[random.Random, list[str], str], Edit | None]] = {
    "rename": edit_rename,
    "literal": edit_literal,
    "flip": edit_flip,
    "insert_line": edit_insert_line,
    "delete_lines": edit_delete_lines,
    "replace_block": edit_replace_block,
}


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

    @classmethod
    def of(cls, quote: Quote, eol: str = "\n") -> Draft:
        return cls(quote.old, quote.new, eol, eol)

    def noted(self, note: str, **changes) -> Draft:
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


def _one_clear_place(quote: Quote, old: Sequence[str], floor: float) -> bool:
    """Whether ``old`` (compared line-stripped) is at least ``floor`` similar to exactly one
    window of the file and every other window is far behind: a typo stays decidable."""
    size = len(old)
    key = "\n".join(x.strip() for x in old)
    lines = [x.strip() for x in quote.file_lines]
    scores = sorted(
        (
            fuzz.ratio("\n".join(lines[i : i + size]), key) / 100
            for i in range(max(1, len(lines) - size + 1))
        ),
        reverse=True,
    )
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


def _curly(text: str, label: str) -> str:
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
    old = tuple(_curly(text, label).split("\n"))
    if rng.random() < 0.3:
        new = tuple(_curly("\n".join(draft.new), label).split("\n"))
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
    changes: dict = {}
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
        made = BLOCK_MISTAKES[name](rng, draft, quote)
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
    edit = BLOCK_EDITS[kind](rng, block, lang)
    if edit is None or edit.new_lines == block:
        return None
    mistakes = rng.choice(TWO_MISTAKES) if mistake == "two_mistakes" else (mistake,)
    quote = Quote(tuple(block), tuple(edit.new_lines), start + 1, unit, eol, lang, tuple(lines))
    draft = misquote(rng, quote, mistakes)
    if draft is None:
        return None
    old, new = draft.render()
    text = "\n".join(lines) + "\n"  # as the file may end: with a final newline
    only_new = old == "\n".join(block) and new != "\n".join(edit.new_lines)
    if mistake == "crlf" and old in eol.join(lines):
        return None  # the line endings must really break exact matching
    if mistake not in ("exact", "crlf") and not only_new and old.replace("\r\n", "\n") in text:
        return None  # the mistake must really break exact matching (or be in new only)
    return Cut(
        old,
        new,
        (*lines[:start], *edit.new_lines, *lines[end:]),
        edit.instruction,
        "; ".join(draft.notes) or "old_string copied byte for byte",
        tuple(mistakes),
        kind,
        "\n".join(block),
        block=(start, end),
    )


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
}


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
            return _curly(frag, "curly double quotes"), "curly double quotes"
        return "\u2018" + frag[1:-1] + "\u2019", "curly single quotes"
    if mistake == "reformatted_spacing":
        return re.sub(r", (?=\S)", ",", frag), "no space after commas"
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
        if squash(text).count(squash(frag)) != n:
            continue  # a re-spaced copy elsewhere would be a further place
        words = [w for w in IDENT.findall(frag) if len(w) >= 4 and w.lower() not in _KEYWORDS]
        if not words:
            continue
        if mistake in ("over_escaped", "unicode_punctuation"):
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
        if ch.isspace() or (before in ".>:" and is_word_char(ch)):
            continue
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
