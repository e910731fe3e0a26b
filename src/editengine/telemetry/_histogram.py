"""Bounded-memory distributions for the report: latencies and similarity scores."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from editengine.telemetry._shape import LatencySummary

# Buckets [g^i, g^(i+1)) with g = 1.02; answering with 2·g^(i+1)/(1+g) keeps every
# percentile within (g-1)/(g+1) < 1% of a value actually seen in that bucket.
_GROWTH = 1.02
_LOG_GROWTH = math.log(_GROWTH)
_REPRESENTATIVE = 2.0 * _GROWTH / (1.0 + _GROWTH)
RELATIVE_ERROR = (_GROWTH - 1.0) / (_GROWTH + 1.0)
_EXACT_LIMIT = 512  # below this many values percentiles are exact
_ZERO = 1e-6  # values under this (ms) count as zero

PERCENTILES = (50, 90, 95, 99)


class LogHistogram:
    """Log-bucketed histogram of non-negative values; percentiles within 1% relative error.

    Percentiles use the nearest-rank definition (the value at rank ceil(p/100·n)); they are
    exact while at most 512 values were added, and within :data:`RELATIVE_ERROR` after.
    Memory grows with the spread of values (about 116 buckets per factor of 10), never
    with their number.
    """

    __slots__ = ("_buckets", "_exact", "count", "max", "min", "total", "zeros")

    def __init__(self) -> None:
        self._buckets: dict[int, int] = {}
        self._exact: list[float] | None = []
        self.count = 0
        self.zeros = 0
        self.total = 0.0
        self.min = math.inf
        self.max = -math.inf

    def add(self, value: float) -> None:
        if value != value or value < 0:  # NaN or negative: not a duration
            return
        self.count += 1
        self.total += value
        if value < self.min:
            self.min = value
        if value > self.max:
            self.max = value
        exact = self._exact
        if exact is not None:
            if len(exact) < _EXACT_LIMIT:
                exact.append(value)
            else:
                self._exact = None
        if value < _ZERO:
            self.zeros += 1
            return
        index = math.floor(math.log(value) / _LOG_GROWTH)
        buckets = self._buckets
        buckets[index] = buckets.get(index, 0) + 1

    def merge(self, other: LogHistogram) -> None:
        for index, n in other._buckets.items():
            self._buckets[index] = self._buckets.get(index, 0) + n
        if self._exact is not None and other._exact is not None:
            combined = self._exact + other._exact
            self._exact = combined if len(combined) <= _EXACT_LIMIT else None
        else:
            self._exact = None
        self.count += other.count
        self.zeros += other.zeros
        self.total += other.total
        self.min = min(self.min, other.min)
        self.max = max(self.max, other.max)

    @property
    def exact(self) -> bool:
        return self._exact is not None

    def percentile(self, p: float) -> float | None:
        if self.count == 0:
            return None
        rank = max(1, math.ceil(p / 100.0 * self.count))
        if self._exact is not None:
            return sorted(self._exact)[rank - 1]
        if rank <= self.zeros:
            return 0.0
        seen = self.zeros
        for index in sorted(self._buckets):
            seen += self._buckets[index]
            if seen >= rank:
                value = _GROWTH**index * _REPRESENTATIVE
                return min(max(value, self.min), self.max)
        return self.max  # pragma: no cover - ranks never exceed count

    def _coarse(self, per_decade: int) -> dict[int, int]:
        coarse: dict[int, int] = {}
        for index, n in self._buckets.items():
            bar = math.floor(math.log10(_GROWTH**index) * per_decade + 1e-9)
            coarse[bar] = coarse.get(bar, 0) + n
        return coarse

    def bars(
        self, *, per_decade: int = 10, span: LogHistogram | None = None
    ) -> list[tuple[float, float, int]]:
        """Coarser ``(low, high, count)`` bars for charts: ``per_decade`` bars per factor 10.

        Every bar from the lowest to the highest value is given, empty ones included, so
        a chart shows the gaps (a few timeouts far right of the rest). ``span`` stretches
        the bars over another histogram's range (a part of it drawn on the whole's grid).
        """
        reach = span if span is not None else self
        if reach.count == 0:
            return []
        coarse = self._coarse(per_decade)
        whole = reach._coarse(per_decade) if reach is not self else coarse
        out = [(0.0, _ZERO, self.zeros)] if reach.zeros else []
        if whole:
            for bar in range(min(whole), max(whole) + 1):
                low, high = 10 ** (bar / per_decade), 10 ** ((bar + 1) / per_decade)
                out.append((low, high, coarse.get(bar, 0)))
        return out

    def summary(self) -> LatencySummary:
        """Count, mean, min, max and p50/p90/p95/p99; ``exact`` says whether they are exact."""
        if self.count == 0:
            return {"count": 0}
        out: LatencySummary = {
            "count": self.count,
            "mean": self.total / self.count,
            "min": self.min,
            "max": self.max,
        }
        for p in PERCENTILES:
            out[f"p{p}"] = self.percentile(p)  # type: ignore[literal-required]  # PERCENTILES are the p-keys of LatencySummary
        out["exact"] = self.exact
        return out


SIMILARITY_BINS = 101  # 0.00, 0.01, ..., 1.00


def similarity_bin(score: float) -> int:
    """The 0.01-wide bin of a similarity score in [0, 1] (1.0 has its own bin)."""
    index = int(score * 100 + 1e-9)
    return 0 if index < 0 else SIMILARITY_BINS - 1 if index >= SIMILARITY_BINS else index
