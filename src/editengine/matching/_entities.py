r"""HTML entities a tool layer wrote into a quote: a decoding of old_string and new_string alike.

A tool layer that carries calls in XML or HTML may hand the arguments over with ``<``,
``>``, ``&`` and quotes written as entities (``&lt;``, ``&amp;``, ``&quot;``, ``&#39;``).
Where old_string carries such entities and the file holds no entity at all, they cannot be
the file's text: they are read back as the characters they stand for, in old_string and in
new_string alike (the layer escaped both), so neither the search nor the write sees them.

A file with any entity of its own (HTML, XML, a test of an escaper) keeps the quote as sent:
there ``&amp;`` may be the text meant.

>>> decode("if a < b and c:\n", "if a &lt; b", "if a &lt;= b")
('if a < b', 'if a <= b')
>>> decode("<p>&amp;</p>\n", "&amp;", "&lt;") is None
True
"""

from __future__ import annotations

import re

# The entities an escaper writes for the five characters it escapes, one pass, no nesting.
_ENTITIES = {
    "&lt;": "<",
    "&gt;": ">",
    "&amp;": "&",
    "&quot;": '"',
    "&#34;": '"',
    "&#39;": "'",
    "&#x27;": "'",
    "&apos;": "'",
}
_ENTITY = re.compile("|".join(re.escape(entity) for entity in _ENTITIES))
_ANY_ENTITY = re.compile(r"&#?\w+;")


def decode(file_text: str, old: str, new: str) -> tuple[str, str] | None:
    """old_string and new_string with their escaper's entities read back, when old_string
    has some and the file holds no entity; ``None`` otherwise."""
    if "&" not in old or not _ENTITY.search(old) or _ANY_ENTITY.search(file_text):
        return None
    return _unescaped(old), _unescaped(new)


def _unescaped(text: str) -> str:
    return _ENTITY.sub(lambda entity: _ENTITIES[entity.group(0)], text)
