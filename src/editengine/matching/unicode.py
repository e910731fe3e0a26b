"""Unicode punctuation tier: curly quotes, dashes and non-breaking spaces."""

from __future__ import annotations

from typing import ClassVar

from editengine.matching.base import Match
from editengine.matching.trimmed import line_block_matches
from editengine.text import ascii_punctuation, has_typographic_punctuation


def _punctuation_key(line: str) -> str:
    return ascii_punctuation(line).strip()


class UnicodePunctuationTier:
    """Forgives typographic punctuation on either side: ``“x”`` for ``"x"``, ``–`` for ``-``.

    Both texts are compared with ASCII punctuation (offsets are unchanged: every mapping is
    one character to one). Typographic characters the model typed but the file never uses
    are turned back into ASCII in new_string too.
    """

    name: ClassVar[str] = "unicode_punctuation"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        if not (has_typographic_punctuation(old) or has_typographic_punctuation(content)):
            return []
        foreign = {
            char: ascii_punctuation(char)
            for char in set(old)
            if has_typographic_punctuation(char) and char not in content
        }
        table = str.maketrans(foreign)

        def transform(new: str) -> str:
            return new.translate(table) if foreign else new

        plain_content = ascii_punctuation(content)
        plain_old = ascii_punctuation(old)
        matches: list[Match] = []
        position = plain_content.find(plain_old)
        while position != -1:
            end = position + len(plain_old)
            matches.append(Match(position, end, 1.0, transform))
            position = plain_content.find(plain_old, end)
        if matches:
            return matches
        return line_block_matches(content, old, key=_punctuation_key, transform_new=transform)
