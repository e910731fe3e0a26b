"""The edits a careful human means, as small pure functions over a block of lines.

Each block kind is ``(rng, lines, lang) -> Edit | None`` (``None`` when the block offers
nothing of the kind: no name to rename, no operator to flip). ``replace_all`` is cut on a whole
file (``cross_product.cut_replace_all``). Used by the benchmark builder
(``fixtures/build_benchmark.py``) and the property tests alike.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

EDIT_KINDS: tuple[str, ...] = (
    "rename",
    "literal",
    "flip",
    "insert_line",
    "delete_lines",
    "replace_block",
    "replace_all",
    "whitespace_only",
)
BLOCK_KINDS: tuple[str, ...] = EDIT_KINDS[:6]  # cut on a block of lines, crossed with mistakes

# --------------------------------------------------------------------------- text helpers

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRING_LITERAL = re.compile(r"([\"'`])(?:\\.|(?!\1).)*\1")
KEYWORD_TEXT = """
and as assert async await break case catch class const continue def default del do elif else
enum except export extends false final finally fn for from func function go if impl import in
interface is let match mod mut new nil none not null of or package pass pub raise return self
static struct super switch this throw true try type typeof use var void while with yield int
char unsigned long size_t bool string str len instanceof lambda nonlocal global sizeof typedef
extern loop where trait crate unsafe move defer chan range select undefined delete implements
private protected public readonly declare namespace module require exports local
"""
KEYWORDS = frozenset(KEYWORD_TEXT.split())
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
        if len(word) >= 4 and word.lower() not in KEYWORDS and not word.isupper():
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


# --------------------------------------------------------------------------- whitespace only

_BRACES = ("c", "go", "rust", "javascript", "typescript", "json")


def edit_whitespace_only(rng: random.Random, lines: list[str], lang: str) -> Edit | None:
    """A change of whitespace only, as a careful human makes one: a blank line added or
    removed, a line indented one level deeper or written with the block's other indentation
    character, a Markdown hard break (two trailing spaces), trailing blanks trimmed. Not a
    block edit of the cross product (its cells are the ``u-`` ones): the change that a
    whitespace-blind comparison calls "already applied"."""
    variants: list[Callable[[], Edit | None]] = []
    inner = range(1, len(lines) - 1)
    added = [i for i in inner if lines[i - 1].strip() and lines[i].strip()]
    if added:
        i = rng.choice(added)
        variants.append(
            lambda: Edit(
                "whitespace_only",
                [*lines[:i], "", *lines[i:]],
                f"Add a blank line before `{lines[i].strip()}`.",
            )
        )
    removed = [i for i in inner if not lines[i].strip() and lines[i - 1].strip()]
    removed = [i for i in removed if lines[i + 1].strip()]
    if removed:
        j = rng.choice(removed)
        variants.append(
            lambda: Edit(
                "whitespace_only",
                [*lines[:j], *lines[j + 1 :]],
                f"Remove the blank line before `{lines[j + 1].strip()}`.",
            )
        )
    trailing = [i for i, x in enumerate(lines) if x != x.rstrip() and x.strip()]
    if trailing:
        variants.append(
            lambda: Edit(
                "whitespace_only",
                [x.rstrip() if x.strip() else x for x in lines],
                "Trim the trailing blanks of these lines.",
            )
        )
    if lang == "markdown":
        prose = [
            i
            for i in range(len(lines) - 1)
            if len(lines[i].split()) >= 3
            and lines[i] == lines[i].rstrip()
            and lines[i + 1].strip()
            and not lines[i].lstrip().startswith(("#", "```", "|", "    ", "\t"))
        ]
        if prose:
            k = rng.choice(prose)
            variants.append(
                lambda: Edit(
                    "whitespace_only",
                    [*lines[:k], lines[k] + "  ", *lines[k + 1 :]],
                    f"End `{lines[k].strip()}` with a hard line break (two spaces).",
                )
            )
    if lang in _BRACES:
        statements = [i for i in _statement_lines(lines, lang) if indent_of(lines[i])]
        if statements:
            m = rng.choice(statements)
            ind = indent_of(lines[m])
            deeper = ind + ("\t" if ind.startswith("\t") else "    ")
            other = ind.replace("\t", "    ") if "\t" in ind else "\t" * max(1, len(ind) // 4)
            pick = rng.choice([deeper, other])
            if pick != ind:
                variants.append(
                    lambda: Edit(
                        "whitespace_only",
                        [*lines[:m], pick + lines[m].lstrip(" \t"), *lines[m + 1 :]],
                        f"Re-indent `{lines[m].strip()}`"
                        + (" one level deeper." if pick == deeper else " with the other "
                           "indentation character."),
                    )
                )  # fmt: skip
    if not variants:
        return None
    made = rng.choice(variants)()
    return None if made is None or made.new_lines == lines else made


# Every edit kind cut on a block of lines, by name (the cross product's and the ``u-`` cells').
EDITS: dict[str, Callable[[random.Random, list[str], str], Edit | None]] = {
    **BLOCK_EDITS,
    "whitespace_only": edit_whitespace_only,
}
