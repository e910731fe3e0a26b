"""Reading a text's indentation style, and depths measured and written in it."""

from __future__ import annotations
