"""Recommendations: what the report's figures suggest changing, each with its evidence.

A rule speaks only when its data clears the thresholds in :class:`Thresholds`; otherwise
it stays quiet, so a small or healthy dataset gives no advice.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from editengine.telemetry._histogram import SIMILARITY_BINS
from editengine.telemetry._options import ReportOptions, Thresholds
from editengine.telemetry._shape import (
    EditsSection,
    FixerSection,
    RecommendationDict,
    Report,
    TierRow,
)


@dataclass(frozen=True)
class Recommendation:
    """One data-backed suggestion: a stable ``kind``, a sentence, and the figures behind it."""

    kind: str
    message: str
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> RecommendationDict:
        return {"kind": self.kind, "message": self.message, "evidence": dict(self.evidence)}


def recommend(report: Report, options: ReportOptions | None = None) -> list[Recommendation]:
    """Every recommendation whose evidence clears its threshold; quiet otherwise."""
    options = options or ReportOptions()
    t = options.thresholds
    original = [tier for tier in report["tiers"] if tier["pass"] == "original"]
    out: list[Recommendation] = []
    out.extend(_never_wins(original, t))
    out.extend(_move_earlier(original, t))
    out.extend(_threshold_edges(original, t))
    out.extend(_fixer_deadline(report["fixer"], t, options.fixer_deadline_ms))
    out.extend(_fixer_quality(report["fixer"], t))
    out.extend(_ambiguity(report["edits"], t))
    return out


def _never_wins(tiers: list[TierRow], t: Thresholds) -> Iterator[Recommendation]:
    for tier in tiers:
        if tier["tries"] >= t.tier_min_tries and tier["wins"] == 0:
            cost = tier["elapsed_ms_total"]
            yield Recommendation(
                "tier_never_wins",
                f"Tier {tier['tier']!r} never won in {tier['tries']} tries and cost "
                f"{cost:.1f} ms in all ({cost / tier['tries']:.3f} ms a try): drop it from "
                "the cascade or move it last.",
                {"tier": tier["tier"], "tries": tier["tries"], "elapsed_ms_total": cost},
            )


def _move_earlier(tiers: list[TierRow], t: Thresholds) -> Iterator[Recommendation]:
    for tier in tiers:
        win_rate = tier["win_rate"] or 0.0
        if tier["wins"] < t.reorder_min_wins or win_rate < t.reorder_min_win_rate:
            continue
        earlier = [
            other
            for other in tiers
            if _position(other) < _position(tier)
            and other["tries"] >= t.tier_min_tries
            and (other["win_rate"] or 0.0) < t.reorder_max_earlier_win_rate
            and other["elapsed_ms_total"] > 0
        ]
        if not earlier:
            continue
        per_win = sum(o["elapsed_ms_total"] / o["tries"] for o in earlier)
        names = ", ".join(repr(o["tier"]) for o in earlier)
        yield Recommendation(
            "tier_move_earlier",
            f"Tier {tier['tier']!r} wins {win_rate:.0%} of the edits that reach it "
            f"({tier['wins']} wins), while tried before it {names} each win under "
            f"{t.reorder_max_earlier_win_rate:.0%}: trying it earlier would save about "
            f"{per_win:.3f} ms an edit it wins ({per_win * tier['wins']:.0f} ms in this data). "
            "Only do so if it is not looser than the tiers it would overtake.",
            {
                "tier": tier["tier"],
                "wins": tier["wins"],
                "win_rate": win_rate,
                "overtakes": [o["tier"] for o in earlier],
                "saving_ms_per_win": per_win,
            },
        )


def _position(tier: TierRow) -> float:
    """Mean position in the cascade; a tier never tried sorts last."""
    position = tier["mean_position"]
    return float("inf") if position is None else position


def _threshold_edges(tiers: list[TierRow], t: Thresholds) -> Iterator[Recommendation]:
    band_bins = round(t.near_band * 100)
    for tier in tiers:
        sim = tier.get("similarity")
        if not sim or sim["attempts"] < t.fuzzy_min_attempts or sim["threshold"] is None:
            continue
        edge = round(sim["threshold"] * 100)
        refused = sim["bins"].get("refused", [0] * SIMILARITY_BINS)
        matched = sim["bins"].get("matched", [0] * SIMILARITY_BINS)
        under = sum(refused[max(0, edge - band_bins) : edge])
        above = sum(matched[edge : edge + band_bins])
        refused_total, matched_total = sum(refused), sum(matched)
        low = sim["threshold"] - t.near_band
        high = sim["threshold"] + t.near_band
        basis = f"threshold {sim['threshold']:.2f} ({sim['threshold_source']})"
        if under >= t.near_min_count and under >= t.near_refused_share * refused_total:
            yield Recommendation(
                "threshold_refusals_near",
                f"Tier {tier['tier']!r}: {under} of {refused_total} refusals scored "
                f"{low:.2f}-{sim['threshold']:.2f}, just under the {basis}. Review the "
                "similarity histogram: lowering the threshold would accept them, with the "
                "risk of editing a near-duplicate.",
                {
                    "tier": tier["tier"],
                    "refused_near": under,
                    "refused": refused_total,
                    "threshold": sim["threshold"],
                },
            )
        # An inferred threshold *is* the lowest accept, so accepts always crowd just above
        # it: only a threshold given or recorded can say that accepts sit close to the edge.
        known = sim["threshold_source"] in ("given", "recorded")
        if known and above >= t.near_min_count and above >= t.near_accepted_share * matched_total:
            yield Recommendation(
                "threshold_accepts_near",
                f"Tier {tier['tier']!r}: {above} of {matched_total} accepted matches scored "
                f"{sim['threshold']:.2f}-{high:.2f}, just above the {basis}. Raising the "
                "threshold would refuse them; check a sample before moving it.",
                {
                    "tier": tier["tier"],
                    "accepted_near": above,
                    "accepted": matched_total,
                    "threshold": sim["threshold"],
                },
            )


def _fixer_deadline(
    fixer: FixerSection, t: Thresholds, deadline_ms: float | None
) -> Iterator[Recommendation]:
    timeouts, calls = fixer["timeouts"], fixer["calls"]
    if timeouts < t.fixer_min_timeouts or (fixer["timeout_rate"] or 0.0) < t.fixer_timeout_rate:
        return
    success = fixer["latency_ms_success"]
    # Given, else recorded by the engine; else inferred: a timed-out call reports about the
    # deadline as its latency, so their median estimates it.
    deadline = deadline_ms or fixer.get("deadline_ms") or fixer["latency_ms_timeout"].get("p50")
    p95 = success.get("p95")
    if not deadline or p95 is None or success["count"] < t.deadline_min_successes:
        return
    evidence = {
        "timeouts": timeouts,
        "calls": calls,
        "deadline_ms": deadline,
        "success_p95_ms": p95,
        "success_p99_ms": success.get("p99"),
    }
    share = f"{timeouts} of {calls} fixer calls ({timeouts / calls:.0%}) timed out"
    if p95 >= t.deadline_close * deadline:
        suggested = 1.5 * deadline
        yield Recommendation(
            "fixer_deadline_raise",
            f"{share}, and successful calls run close to the {deadline:.0f} ms deadline "
            f"(p95 {p95:.0f} ms): slow answers are being cut off. Raise the deadline to about "
            f"{suggested:.0f} ms.",
            {**evidence, "suggested_ms": suggested},
        )
    elif p95 <= t.deadline_far * deadline:
        suggested = 2.0 * p95
        yield Recommendation(
            "fixer_deadline_lower",
            f"{share}, yet successful calls finish well inside the {deadline:.0f} ms deadline "
            f"(p95 {p95:.0f} ms): calls that run long rarely succeed. Lower the deadline to "
            f"about {suggested:.0f} ms to fail faster.",
            {**evidence, "suggested_ms": suggested},
        )


def _fixer_quality(fixer: FixerSection, t: Thresholds) -> Iterator[Recommendation]:
    calls = fixer["calls"]
    # Only a request seen before can hit a cache: edits that each fail differently never
    # do, so the rule counts repeats of identical requests (request_key), not all calls.
    repeats, misses = fixer.get("repeated_requests", 0), fixer.get("repeated_misses", 0)
    if repeats >= t.cache_min_repeats and repeats - misses < t.cache_repeat_hit_rate * repeats:
        yield Recommendation(
            "fixer_cache_low",
            f"{misses} of {repeats} fixer calls that repeated an earlier identical request "
            f"({misses / repeats:.0%}) were not answered from the cache: check that the cache "
            "is configured, large enough and shared between the processes that edit.",
            {"repeated_requests": repeats, "repeated_misses": misses, "calls": calls},
        )
    corrected = fixer["outcomes"].get("corrected", 0)
    if calls >= t.fixer_min_calls and corrected < t.fixer_low_success * calls:
        yield Recommendation(
            "fixer_low_success",
            f"The fixer corrected only {corrected} of {calls} calls ({corrected / calls:.0%}): "
            "review its model, prompt and window size before paying for more calls.",
            {"calls": calls, "corrected": corrected, "outcomes": dict(fixer["outcomes"])},
        )


def _ambiguity(edits: EditsSection, t: Thresholds) -> Iterator[Recommendation]:
    rate = edits["ambiguity_rate"] or 0.0
    if edits["finished"] >= t.min_edits and rate >= t.ambiguity_rate:
        yield Recommendation(
            "ambiguity_high",
            f"{edits['ambiguous']} of {edits['finished']} edits ({rate:.1%}) failed as "
            "ambiguous: agents should quote more surrounding lines, or pass replace_all "
            "when every occurrence is meant.",
            {"ambiguous": edits["ambiguous"], "edits": edits["finished"]},
        )
