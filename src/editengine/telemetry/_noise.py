"""How large a change between two reports must be before a page colours it.

Two runs of the same engine on the same kind of traffic never give the same figures: a
success rate moves by chance with the number of edits behind it, a p50 by the spread of
the latencies around it. A change within that spread is shown, but grey, not as better or
worse.

By default the threshold comes from each run's own spread, at 95% confidence: for a rate,
the standard error of the difference of two proportions; for a percentile, the width of
its order-statistic confidence interval, read off the latency histogram; for a mean, the
standard error of the mean (its spread estimated from p50 and p90); for a count or a
cost, Poisson noise. ``relative`` replaces all of that by one rule: a change must exceed
that fraction of A's value (``0`` colours every change).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from editengine.telemetry._shape import Bar, LatencySummary

Z95 = 1.959964  # two-sided 95%
_Z90 = 1.281552  # the 90th percentile of a normal distribution, in standard deviations


@dataclass(frozen=True)
class Noise:
    """The noise threshold of a comparison: ``relative`` None means from the runs' spread."""

    relative: float | None = None
    z: float = Z95

    def _fixed(self, a: float | None) -> float | None:
        assert self.relative is not None
        return None if a is None else self.relative * abs(a)

    def rate(self, a: float | None, b: float | None, n_a: int, n_b: int) -> float | None:
        """Two proportions over ``n_a`` and ``n_b`` trials."""
        if self.relative is not None:
            return self._fixed(a)
        if a is None or b is None or not n_a or not n_b:
            return None
        return self.z * math.sqrt(a * (1 - a) / n_a + b * (1 - b) / n_b)

    def percentile(
        self,
        a: float | None,
        p: float,
        bars_a: Sequence[Bar],
        n_a: int,
        bars_b: Sequence[Bar],
        n_b: int,
    ) -> float | None:
        """The p-th percentile (0-100) of two latency histograms."""
        if self.relative is not None:
            return self._fixed(a)
        widths = [
            _half_width(bars, p / 100, n, self.z) for bars, n in ((bars_a, n_a), (bars_b, n_b))
        ]
        if any(w is None for w in widths):
            return None
        return math.hypot(*(w or 0.0 for w in widths))

    def mean(
        self, a: float | None, summary_a: LatencySummary, summary_b: LatencySummary
    ) -> float | None:
        """Two means of latencies, each with its summary (count, p50, p90)."""
        if self.relative is not None:
            return self._fixed(a)
        errors = [_mean_error(summary) for summary in (summary_a, summary_b)]
        if any(e is None for e in errors):
            return None
        return self.z * math.hypot(*(e or 0.0 for e in errors))

    def count(self, a: float | None, b: float | None) -> float | None:
        """Two counts of events (Poisson: the variance of a count is the count)."""
        if self.relative is not None:
            return self._fixed(a)
        if a is None or b is None:
            return None
        return self.z * math.sqrt(a + b)

    def total(self, a: float | None, b: float | None, n_a: int, n_b: int) -> float | None:
        """Two sums over ``n_a`` and ``n_b`` events (a cost): relative error 1/sqrt(n)."""
        if self.relative is not None:
            return self._fixed(a)
        if a is None or b is None or not n_a or not n_b:
            return None
        return self.z * math.sqrt(a * a / n_a + b * b / n_b)


def _quantile(bars: Sequence[Bar], q: float) -> float | None:
    """The value at quantile ``q`` (0-1) of histogram bars, log-interpolated in its bar."""
    total = sum(n for _, _, n in bars)
    if not total:
        return None
    target = min(max(q, 0.0), 1.0) * total
    seen = 0
    for low, high, n in bars:
        if n and seen + n >= target:
            share = (target - seen) / n
            if low <= 0:
                return high * share
            return float(low * (high / low) ** share)
        seen += n
    return float(bars[-1][1])


def _half_width(bars: Sequence[Bar], q: float, n: int, z: float) -> float | None:
    """Half the width of the confidence interval of the q-quantile: the ranks q ± z·√(q(1-q)/n)."""
    if not n or not bars:
        return None
    step = z * math.sqrt(q * (1 - q) / n)
    low, high = _quantile(bars, q - step), _quantile(bars, q + step)
    if low is None or high is None:
        return None
    return (high - low) / 2


def _mean_error(summary: LatencySummary) -> float | None:
    count, p50, p90 = summary.get("count"), summary.get("p50"), summary.get("p90")
    if not count or not isinstance(p50, (int, float)) or not isinstance(p90, (int, float)):
        return None
    spread = max(float(p90) - float(p50), 0.0) / _Z90
    return spread / math.sqrt(count)


def parse_noise(text: str) -> Noise:
    """``auto`` (from the runs' spread), or a percentage of A's value: ``5``, ``5%``, ``0``."""
    value = text.strip().lower()
    if value == "auto":
        return Noise()
    share = float(value.removesuffix("%")) / 100  # ValueError for anything else
    if not math.isfinite(share) or share < 0:
        raise ValueError(f"the noise threshold must be 0 or more, got {text!r}")
    return Noise(relative=share)
