"""Which differences between a quote and the file text a tier may forgive as a typo.

A slip of the keys leaves a word that is no word: ``procesing`` for ``processing``. A
difference that changes what the code does is no slip, however small: a number (``3`` for
``2``), an operator, a bracket or a quote mark (``-`` for ``+``, ``<`` for ``<=``), a
keyword, a word replaced rather than misspelt (``ecivres`` for ``service``, inside a
string literal as anywhere), or a word that is itself a name the file uses (``min`` for
``max`` when ``min`` is there too: the quote may mean that other place). The comparison is
token by token, whitespace aside, so it holds for any language and any tier: a fuzzy tier
asks :func:`meaning_difference` before it forgives a line, and the refusal names what
differs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from rapidfuzz.distance import OSA, Levenshtein

from editengine._text import ascii_punctuation
from editengine.matching._lines import line_view

_TOKEN = re.compile(
    r"""
    (?P<number>\d[\w.]*)
  | (?P<word>[^\W\d]\w*)
  | (?P<operator>[-+*/%<>=!&|^~?:@]+)
  | (?P<mark>\S)
    """,
    re.VERBOSE,
)

# Words of common languages whose swap for one another changes meaning; a typo of one
# (``retrun``) is no keyword and is judged as any other word. Case counts: ``Return`` in
# prose is no keyword, ``True`` in Python is.
_KEYWORD_LIST = """
    True False None and or not is in if else elif elsif unless then fi do done while for
    foreach loop until return yield break continue pass goto switch case default match when
    try except catch finally throw throws raise assert def fn func function lambda class
    struct enum union interface trait impl type typedef let var val const static final
    public private protected internal pub mut ref out new delete this self super import
    from export as with async await true false none null nil undefined void int long short
    char float double bool boolean string unsigned signed auto extern volatile register
    sizeof typeof instanceof go defer chan select package module use require end begin
    local global nonlocal del print echo min max
"""
KEYWORDS = frozenset(_KEYWORD_LIST.split())


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str


# Quote marks are one mark: ``'empty'`` for ``"empty"`` is a habit of style, not a meaning.
_QUOTE_MARKS = {"'": '"', "`": '"'}


# Typographic spellings of code operators (a chat or a word processor renders ``!=`` as
# ``≠``): a rendering of the same operator, decoded before tokens are compared, as the
# unicode tier decodes them before it places a quote. ``≠`` for ``==`` still differs.
_TYPOGRAPHIC_OPERATORS = str.maketrans(
    {
        "\u2260": "!=",
        "\u2264": "<=",
        "\u2265": ">=",
        "\u2192": "->",
        "\u21d2": "=>",
        "\u2190": "<-",
        "\u2212": "-",
        "\u00d7": "*",
        "\u00f7": "/",
        "\u2026": "...",
        "\u2014": "--",
    }
)


def _tokens(text: str) -> list[_Token]:
    """The tokens of ``text``; a word or number between quote marks is a ``literal``: the
    inside of a string is what the program says or compares, never a typo to forgive."""
    decoded = ascii_punctuation(text.translate(_TYPOGRAPHIC_OPERATORS))
    tokens = []
    in_string = False
    for m in _TOKEN.finditer(decoded):
        kind, token = str(m.lastgroup), _QUOTE_MARKS.get(m.group(), m.group())
        if token == '"' and not _an_apostrophe(decoded, m.start()):
            in_string = not in_string
        elif in_string and kind in ("word", "number"):
            kind = "literal"
        tokens.append(_Token(kind, token))
    return tokens


def _an_apostrophe(text: str, at: int) -> bool:
    """``'`` between two letters (``don't``) is prose, not a string's edge."""
    return (
        text[at] == "'"
        and 0 < at < len(text) - 1
        and text[at - 1].isalnum()
        and text[at + 1].isalnum()
    )


def meaning_difference(quote: str, found: str, content: str = "") -> str | None:
    """How ``quote`` differs from ``found`` (the file's text it was matched to) in meaning,
    worded for an agent; ``None`` when every difference is spacing or a slip in a word.

    ``content`` is the whole file: a quoted word that the file uses elsewhere is a name,
    not a slip.
    """
    if quote == found:
        return None
    ours, theirs = _tokens(quote), _tokens(found)
    matcher = SequenceMatcher(a=ours, b=theirs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        quoted, standing = ours[i1:i2], theirs[j1:j2]
        if _a_slip(quoted, standing, content):
            continue
        if i2 == len(ours) and j2 == len(theirs) and _a_dropped_terminator(quoted, standing):
            continue
        return _worded(quoted, standing)
    return None


def _a_slip(quoted: list[_Token], standing: list[_Token], content: str) -> bool:
    """Words for words, each quoted word that differs no keyword and no name of the file,
    within a slip or two of the file's: what slips of the keys leave. The same number of
    words are compared one for one; a space slipped into or out of a word (``x r`` for
    ``xr``) joins them."""
    if not quoted or not standing:
        return False
    if any(token.kind == "literal" for token in (*quoted, *standing)):
        return _a_slip_in_a_literal(quoted, standing, content)
    if any(token.kind != "word" for token in (*quoted, *standing)):
        return False
    if "".join(t.text for t in quoted) == "".join(t.text for t in standing):
        return True  # only a space slipped into or out of a word (``x r`` for ``xr``)
    theirs_words = {token.text for token in standing}
    for token in quoted:
        if token.text in theirs_words:
            continue
        if token.text in KEYWORDS or (content and _names_a_word(content, token.text)):
            return False
    if len(quoted) == len(standing):
        return all(_slipped(a.text, b.text) for a, b in zip(quoted, standing))
    return _slipped("".join(t.text for t in quoted), "".join(t.text for t in standing))


def _a_dropped_terminator(quoted: list[_Token], standing: list[_Token]) -> bool:
    """A line's last ``,`` or ``;`` left out or added (``retries: 3`` for ``retries: 3,``):
    the separator the quote forgot, not another operator in its place."""
    one = quoted or standing
    return (not quoted or not standing) and len(one) == 1 and one[0].text in (",", ";")


def _a_slip_in_a_literal(quoted: list[_Token], standing: list[_Token], content: str) -> bool:
    """Inside a string literal only one key struck wrong, dropped or doubled in a word of
    two letters or more, word for word, is a slip: the text a program prints or compares
    is otherwise its meaning (``eht`` for ``The``), and a quoted word the file holds
    elsewhere may mean that other string."""
    if len(quoted) != len(standing):
        return False
    for ours, theirs in zip(quoted, standing):
        if ours.kind != theirs.kind or ours.kind not in ("literal", "word"):
            return False
        if ours.text == theirs.text:
            continue
        if min(len(ours.text), len(theirs.text)) < 2 or ours.text.isdigit():
            return False
        # No swap: a word spelt backwards (``tset`` for ``test``) is one swap away.
        if Levenshtein.distance(ours.text, theirs.text) > 1:
            return False
        if _names_a_word(content, ours.text):
            return False
    return True


def _slipped(ours: str, theirs: str) -> bool:
    """``ours`` is ``theirs`` with a character or two struck wrong, dropped, doubled or
    swapped (more in a long word, never most of it), and something of it kept."""
    distance = OSA.distance(ours, theirs)
    shortest, longest = sorted((len(ours), len(theirs)))
    return distance <= max(2, shortest // 2) and distance < longest


def _names_a_word(content: str, word: str) -> bool:
    """Whether ``word`` stands in ``content`` as a word of its own. Asked of one file for the
    same few words at every candidate place: the answer is kept in the file's line view."""
    if not content:
        return False
    memo = line_view(content).memo
    key = ("names_a_word", word)
    if key not in memo:
        memo[key] = _stands_alone(content, word)
    return memo[key] is True


def _stands_alone(content: str, word: str) -> bool:
    # str.find scans in C; a regex with a look-behind at its start tries every offset.
    position = content.find(word)
    while position != -1:
        end = position + len(word)
        before = content[position - 1] if position else " "
        after = content[end] if end < len(content) else " "
        if not (before.isalnum() or before == "_" or after.isalnum() or after == "_"):
            return True
        position = content.find(word, position + 1)
    return False


def _worded(quoted: list[_Token], standing: list[_Token]) -> str:
    kinds = {token.kind for token in (*quoted, *standing)}
    if "number" in kinds:
        what = "a number"
    elif "literal" in kinds:
        what = "the inside of a string literal"
    elif kinds & {"operator", "mark"}:
        what = "an operator or punctuation"
    elif any(token.text in KEYWORDS for token in (*quoted, *standing)):
        what = "a keyword"
    else:
        what = "a name"
    ours = " ".join(token.text for token in quoted) or "nothing"
    theirs = " ".join(token.text for token in standing) or "nothing"
    return f"{what}: old_string has {ours!r} where the file has {theirs!r}"
