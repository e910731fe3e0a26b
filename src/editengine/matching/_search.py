"""Substring search that stays fast for long needles.

CPython's ``str.find`` switches to the two-way algorithm for needles of 100 characters or
more: linear, but on a 100,000-line file of code about ten times slower than its search
for a shorter needle (10 ms against 1 ms). A quote of several lines is such a needle, and
a cascade run looks for it several times. Here a long needle is found by its first
``_PIECE`` characters and each place is checked with ``startswith``; when the piece turns
out to be common (many places that are not the needle), the search hands the rest of the
text to ``str.find`` so it can never become quadratic.
"""

from __future__ import annotations

_PIECE = 64
_CHECKS = 256  # false places tolerated before the plain search takes over


def find(text: str, needle: str, start: int = 0) -> int:
    """``text.find(needle, start)``, the same answer, faster for long needles."""
    if len(needle) < 100:
        return text.find(needle, start)
    piece = needle[:_PIECE]
    checks = 0
    position = text.find(piece, start)
    while position != -1:
        if text.startswith(needle, position):
            return position
        checks += 1
        if checks > _CHECKS:
            return text.find(needle, position + 1)
        position = text.find(piece, position + 1)
    return -1


def contains(text: str, needle: str) -> bool:
    """``needle in text``."""
    return find(text, needle) != -1


def count(text: str, needle: str) -> int:
    """``text.count(needle)``: non-overlapping occurrences (``needle`` non-empty)."""
    if len(needle) < 100:  # the empty needle too: str.count's own answer
        return text.count(needle)
    total = 0
    position = find(text, needle)
    while position != -1:
        total += 1
        position = find(text, needle, position + len(needle))
    return total


def occurrences(text: str, needle: str, start: int = 0) -> list[int]:
    """Where ``needle`` (non-empty) starts in ``text`` from ``start``, overlapping places
    included (``"0, 0"`` twice in ``"0, 0, 0"``), in linear time.

    Each place's overlap window (the next ``len(needle) - 1`` starts) is searched once; only
    when a needle overlaps itself is its period worked out. Two overlapping places lie a
    period apart: after a place, the one a period on is checked by its last ``period``
    characters; when there is none, no place starts before ``max(period, len(needle) -
    period + 1)`` further on (Fine and Wilf), where the plain search resumes.
    """
    size = len(needle)
    period = 0
    places: list[int] = []
    position = find(text, needle, start)
    while position != -1:
        places.append(position)
        if not period:
            if text.find(needle, position + 1, position + 2 * size - 1) == -1:
                position = find(text, needle, position + size)
                continue
            period = _shortest_period(needle)
        tail = needle[size - period :]
        while text.startswith(tail, position + size):
            position += period
            places.append(position)
        position = find(text, needle, position + max(period, size - period + 1))
    return places


def _shortest_period(needle: str) -> int:
    """The smallest ``p > 0`` with ``needle[i] == needle[i + p]`` for every ``i`` (the
    needle's length when it has no shorter one): the prefix function's complement."""
    border = [0] * len(needle)
    length = 0
    for index in range(1, len(needle)):
        while length and needle[index] != needle[length]:
            length = border[length - 1]
        if needle[index] == needle[length]:
            length += 1
        border[index] = length
    return len(needle) - (border[-1] if needle else 0)
