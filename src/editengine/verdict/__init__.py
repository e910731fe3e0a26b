"""The fixer's verdict: is a correction the edit the agent asked for, at the place it meant?

Pure: text in, verdict out; no file, engine, provider or telemetry is imported here (the
layout test holds it), so every rule can be read and property-tested on strings alone.

- :mod:`._tokens` — tokens and the hunks two token lists differ in;
- :mod:`._alignment` — how old_string became the fixer's search, where each change lands;
- :mod:`._carry` — the requested edit carried onto the search;
- :mod:`._layout` — inserted text re-indented to the file's indentation;
- :mod:`._replacement` — what a correction writes, cross-checked against the fixer's replace;
- :mod:`._compare` — renames, same hunks and the first difference, told to the agent;
- :mod:`._relatedness` — :class:`RelatednessGuard`: the edit requested, where it was meant.
"""

from __future__ import annotations

from editengine._public import publish
from editengine.verdict._carry import carry_edit
from editengine.verdict._compare import describe_difference, same_hunks
from editengine.verdict._relatedness import (
    RelatednessGuard,
    core_similarity,
    occurrences,
    search_similarity,
)
from editengine.verdict._replacement import NotTheRequestedEdit, replacement_to_write
from editengine.verdict._tokens import CannotCarry, NotQuoted, same_tokens, token_list

__all__ = [
    "CannotCarry",
    "NotQuoted",
    "NotTheRequestedEdit",
    "RelatednessGuard",
    "carry_edit",
    "core_similarity",
    "describe_difference",
    "occurrences",
    "replacement_to_write",
    "same_hunks",
    "same_tokens",
    "search_similarity",
    "token_list",
]

publish(globals())  # public names show this package, not their private module
