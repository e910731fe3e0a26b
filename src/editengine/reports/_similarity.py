"""Which tiers score their candidates, and their similarity scores grouped for display."""

from __future__ import annotations

from editengine.telemetry._histogram import SIMILARITY_BINS
from editengine.telemetry._shape import SimilaritySection, TierRow

_SIM_WINDOW = 10  # 0.01-wide bins shown either side of a fuzzy tier's threshold
_PERFECT = SIMILARITY_BINS - 1  # the bin of a score of 1.00


def fuzzy_similarity(tier: TierRow) -> SimilaritySection | None:
    """The similarity section of a first-pass tier that works with a threshold, else None.

    Exact-like tiers report a score of 1.00 for every candidate they find: a histogram of
    them is a single bar that says nothing. A tier is fuzzy when a threshold was given or
    recorded for it, or when any of its candidates scored under 1.00.
    """
    sim = tier.get("similarity")
    if sim is None or tier["pass"] != "original":
        return None
    if sim["threshold_source"] in ("given", "recorded"):
        return sim
    below_perfect = any(any(counts[:_PERFECT]) for counts in sim["bins"].values())
    return sim if below_perfect else None


def similarity_rows(sim: SimilaritySection) -> list[tuple[str, dict[str, int]]]:
    """(label, counts by outcome) rows: 0.01 bins near the threshold, lumped further away."""
    bins = sim["bins"]
    threshold = sim["threshold"]
    edge = round(threshold * 100) if threshold is not None else None
    ranges: list[tuple[str, int, int]] = []
    if edge is None:
        ranges = [(f"{i / 100:.2f}-{(i + 9) / 100:.2f}", i, i + 10) for i in range(0, 100, 10)]
        ranges.append(("1.00", 100, 101))
    else:
        low, high = max(0, edge - _SIM_WINDOW), min(101, edge + _SIM_WINDOW)
        if low > 0:
            ranges.append((f"< {low / 100:.2f}", 0, low))
        ranges.extend((f"{i / 100:.2f}", i, i + 1) for i in range(low, high))
        if high < 101:
            ranges.append((f">= {high / 100:.2f}", high, 101))
    return [(label, {k: sum(v[a:b]) for k, v in bins.items()}) for label, a, b in ranges]
