"""The substring search for long needles: the same answers as ``str``'s, at its edges."""

from __future__ import annotations
