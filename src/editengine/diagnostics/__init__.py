"""Diagnostics after every edit: the syntax problems an edit introduced (tree-sitter grammars
installed with editengine, and the standard library's own parsers), the syntax guard that
refuses a forgiving placement breaking code that parsed, and real language servers over LSP.
See ``docs/diagnostics.md``.
"""

from __future__ import annotations

from editengine._public import publish
from editengine._results import Diagnostic
from editengine.diagnostics._check import SyntaxCheck, check_syntax
from editengine.diagnostics._guard import (
    GUARD_MODES,
    SyntaxGuard,
    forgiving,
    guard_edit,
    guard_mode,
)
from editengine.diagnostics._languages import LANGUAGES, Language, language_of
from editengine.diagnostics._text import errors_block

__all__ = [
    "GUARD_MODES",
    "LANGUAGES",
    "Diagnostic",
    "Language",
    "SyntaxCheck",
    "SyntaxGuard",
    "check_syntax",
    "errors_block",
    "forgiving",
    "guard_edit",
    "guard_mode",
    "language_of",
]

publish(globals())  # public names show this package, not their private module
