r"""Invisible characters a copy leaves in a quote: a decoding of old_string and new_string alike.

A zero-width space, a word joiner, a byte-order mark inside the text or a soft hyphen comes
with text copied out of a web page or a chat window; none of them shows on screen, so a
model quotes them without knowing. Where old_string carries such characters and the file
holds none of them, they are not the file's: they are taken out of old_string, and the same
characters out of new_string, so that they are neither searched for nor written.

Only the characters old_string carries are taken out of new_string: an invisible character
new_string alone adds (a zero-width joiner inside an emoji, say) is its own content.

>>> decode("value = config.get('key')\n", "config\u200b.get", "config\u200b.get(x)")
('config.get', 'config.get(x)')
>>> decode("a\u200bb\n", "a\u200bb", "a\u200bc") is None
True
"""

from __future__ import annotations

INVISIBLES = frozenset("\u200b\u200c\u2060\ufeff\u00ad")


def decode(file_text: str, old: str, new: str) -> tuple[str, str] | None:
    """old_string and new_string without the invisible characters old_string carries and
    the file never holds; ``None`` when there are none."""
    carried = {char for char in INVISIBLES if char in old and char not in file_text}
    if not carried:
        return None
    table = str.maketrans(dict.fromkeys(carried, None))
    return old.translate(table), new.translate(table)
