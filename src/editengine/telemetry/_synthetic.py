"""Synthetic telemetry with a known truth: for the report's tests and the benchmark.

Edits are simulated as the engine fills :class:`~editengine._state.EditState` (cascade pass,
optional fixer call, second pass) and go through the real :class:`Telemetry`, so the
files hold exactly the events the engine emits. :class:`Truth` keeps what was generated.

>>> truth = write_synthetic("t.jsonl", SyntheticConfig(edits=1000, seed=7))  # doctest: +SKIP
"""

from __future__ import annotations

import gzip
import os
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from editengine._results import TierAttempt
from editengine._state import EditState, FixerCall
from editengine.telemetry._events import Event
from editengine.telemetry._recorder import Telemetry
from editengine.telemetry._sinks import dumps_line

DEFAULT_TIERS = (
    "exact",
    "unescape",
    "line_trimmed",
    "whitespace",
    "unicode",
    "boundary",
    "elision",
    "block_anchor",
)


@dataclass(frozen=True)
class SyntheticConfig:
    """The mix to generate. Probabilities are per edit unless said otherwise."""

    edits: int = 1000
    seed: int = 0
    tiers: tuple[str, ...] = DEFAULT_TIERS
    # Relative weights of the tier that wins, for edits placed by the first pass.
    wins: Mapping[str, float] = field(
        default_factory=lambda: {
            "exact": 70.0,
            "unescape": 3.0,
            "line_trimmed": 12.0,
            "whitespace": 4.0,
            "unicode": 2.0,
            "boundary": 0.0,
            "elision": 3.0,
            "block_anchor": 6.0,
        }
    )
    tier_cost_ms: Mapping[str, float] = field(default_factory=dict)  # mean; default 0.05-0.5
    fuzzy_tier: str = "block_anchor"
    fuzzy_threshold: float = 0.90
    # Record the threshold in the fuzzy tier's events, as an engine that says it does.
    record_threshold: bool = False
    p_ambiguous: float = 0.04
    p_no_match: float = 0.08
    p_file_error: float = 0.01
    # Of the refusals by the fuzzy tier, how many score just under the threshold.
    p_refused_near: float = 0.05
    # Of the fuzzy tier's wins, how many score just above the threshold.
    p_accepted_near: float = 0.10
    p_fixer: float = 0.8  # of no-match edits
    fixer_outcomes: Mapping[str, float] = field(
        default_factory=lambda: {
            "corrected": 0.70,
            "no_change": 0.05,
            "failed_validation": 0.12,
            "timeout": 0.08,
            "error": 0.05,
        }
    )
    p_cache_hit: float = 0.20
    # Of the fixer calls that are not cache hits, how many repeat an earlier identical
    # request (a cache that is missing, too small or not shared would miss those).
    p_repeat_miss: float = 0.0
    fixer_deadline_ms: float = 30_000.0
    fixer_latency_ms: float = 2_500.0  # median of successful provider calls
    models: tuple[str, ...] = ("gpt-4o-mini",)
    start: float = 1_790_000_000.0  # epoch seconds of the first edit
    seconds_between_edits: float = 2.0
    include_snippets: bool = False


# What the engine says of a refused correction (a sample of its codes).
REFUSAL_REASONS = ("misplaced", "search_ambiguous", "search_no_match", "splits_a_word")


@dataclass
class Truth:
    """What was generated, counted exactly."""

    edits: int = 0
    events: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    error_codes: Counter[str] = field(default_factory=Counter)
    strategies: Counter[str] = field(default_factory=Counter)
    tier_tries: Counter[tuple[str, str]] = field(default_factory=Counter)
    tier_wins: Counter[tuple[str, str]] = field(default_factory=Counter)
    fixer_outcomes: Counter[str] = field(default_factory=Counter)
    cache_hits: int = 0
    input_tokens: int = 0  # cache misses only
    output_tokens: int = 0
    rescued: int = 0
    durations: list[float] = field(default_factory=list)
    fixer_latencies: list[float] = field(default_factory=list)  # cache misses
    fuzzy_similarities: dict[str, list[float]] = field(default_factory=dict)
    first_start: float = 0.0
    last_start: float = 0.0


class _Simulator:
    def __init__(self, config: SyntheticConfig) -> None:
        self.c = config
        self.rng = random.Random(config.seed)
        tiers = [t for t in config.tiers if config.wins.get(t, 0.0) > 0]
        self.win_tiers = tiers
        self.win_weights = [config.wins[t] for t in tiers]
        self.fixer_names = list(config.fixer_outcomes)
        self.keys: list[str] = []  # request keys of the fixer calls so far
        self.fixer_weights = [config.fixer_outcomes[n] for n in self.fixer_names]

    def cost(self, tier: str) -> float:
        mean = self.c.tier_cost_ms.get(tier)
        if mean is None:
            mean = 0.05 if tier == "exact" else 0.5 if tier == self.c.fuzzy_tier else 0.15
        return round(self.rng.expovariate(1.0 / mean), 3)

    def similarity(self, *, accepted: bool) -> float:
        t, rng = self.c.fuzzy_threshold, self.rng
        if accepted:
            near = rng.random() < self.c.p_accepted_near
            low, high = (t, t + 0.0499) if near else (t + 0.05, 1.0)
        else:
            near = rng.random() < self.c.p_refused_near
            low, high = (t - 0.0499, t - 0.0001) if near else (0.2, t - 0.05)
        return round(rng.uniform(low, high), 4)

    def cascade(self, winner: str | None, *, ambiguous_at: str | None = None) -> list[TierAttempt]:
        attempts = []
        fuzzy = self.c.fuzzy_tier
        for tier in self.c.tiers:
            threshold = (
                self.c.fuzzy_threshold if tier == fuzzy and self.c.record_threshold else None
            )
            if tier == winner:
                sim = self.similarity(accepted=True) if tier == fuzzy else None
                attempts.append(TierAttempt(tier, "matched", 1, sim, self.cost(tier), threshold))
                return attempts
            if tier == ambiguous_at:
                n = self.rng.randint(2, 4)
                attempts.append(TierAttempt(tier, "ambiguous", n, None, self.cost(tier)))
                return attempts
            if tier == fuzzy:
                sim = self.similarity(accepted=False)
                attempts.append(TierAttempt(tier, "refused", 1, sim, self.cost(tier), threshold))
            else:
                attempts.append(TierAttempt(tier, "no_candidates", 0, None, self.cost(tier)))
        return attempts

    def state(self, index: int) -> EditState:
        c, rng = self.c, self.rng
        lines = max(1, int(rng.lognormvariate(5.0, 1.2)))
        state = EditState(
            file_path=f"src/module_{rng.randint(0, 999)}.py",
            edit_id=f"e{c.seed}-{index}",
            started_at=c.start + index * c.seconds_between_edits,
            dry_run=rng.random() < 0.05,
            instruction_given=rng.random() < 0.7,
            old_chars=rng.randint(10, 800),
            new_chars=rng.randint(10, 800),
            old_preview="def compute(",
            new_preview="def compute_total(",
            file_lines=lines,
            file_bytes=lines * rng.randint(20, 60),
            hash_before=f"{rng.getrandbits(64):016x}",
        )
        io_ms = rng.lognormvariate(0.0, 0.5) * (1 + lines / 2000)
        extra = 0.0
        draw = rng.random()
        if draw < c.p_file_error:
            state.outcome, state.error_code = "error", "file_not_found"
            state.file_lines = state.file_bytes = None
        elif draw < c.p_file_error + c.p_ambiguous:
            state.attempts = self.cascade(None, ambiguous_at=c.tiers[0])
            state.outcome, state.error_code = "error", "ambiguous"
        elif draw < c.p_file_error + c.p_ambiguous + c.p_no_match:
            state.attempts = self.cascade(None)
            state.outcome, state.error_code = "error", "no_match"
            if rng.random() < c.p_fixer:
                extra = self.fix(state)
        else:
            winner = rng.choices(self.win_tiers, self.win_weights)[0]
            state.attempts = self.cascade(winner)
            state.outcome, state.strategy, state.replacements = "success", winner, 1
        tier_ms = sum(a.elapsed_ms for a in state.attempts)
        state.duration_ms = round(io_ms + tier_ms + extra, 3)
        return state

    def fix(self, state: EditState) -> float:
        c, rng = self.c, self.rng
        outcome = rng.choices(self.fixer_names, self.fixer_weights)[0]
        cache_hit = outcome in ("corrected", "no_change") and rng.random() < c.p_cache_hit
        if cache_hit:
            latency = round(rng.uniform(0.2, 2.0), 3)
        elif outcome == "timeout":
            latency = round(c.fixer_deadline_ms + rng.uniform(0.0, 15.0), 3)
        else:
            latency = round(
                min(
                    rng.lognormvariate(0.0, 0.45) * c.fixer_latency_ms, c.fixer_deadline_ms * 0.999
                ),
                3,
            )
        # A cache hit repeats an earlier request; so does a miss, with p_repeat_miss.
        repeat = self.keys and (cache_hit or rng.random() < c.p_repeat_miss)
        if repeat:
            key = rng.choice(self.keys)
        else:
            key = f"{rng.getrandbits(64):016x}"
            self.keys.append(key)
        windowed = (state.file_lines or 0) > 400
        prompt_chars = rng.randint(1500, 6000) if windowed else rng.randint(800, 30_000)
        state.fixer = FixerCall(
            provider="openai",
            model=rng.choice(c.models),
            outcome=outcome,  # type: ignore[arg-type]  # drawn from the outcome names, all valid
            latency_ms=latency,
            input_tokens=prompt_chars // 4 + 350,
            output_tokens=rng.randint(40, 400) if outcome != "timeout" else 0,
            cache_hit=cache_hit,
            windowed=windowed,
            prompt_chars=prompt_chars,
            deadline_ms=c.fixer_deadline_ms,
            request_key=key,
            refusal_reason=(
                rng.choice(REFUSAL_REASONS) if outcome == "failed_validation" else None
            ),
        )
        if outcome == "corrected":
            winner = "exact" if rng.random() < 0.85 else "line_trimmed"
            state.attempts += self.cascade(winner)
            state.outcome, state.error_code, state.strategy = "success", None, winner
            state.replacements = 1
        elif outcome == "no_change":
            state.outcome, state.error_code, state.strategy = "no_change", None, "already_applied"
        elif outcome == "timeout":
            state.error_code = "fixer_timeout"
        elif outcome == "error":
            state.error_code = "provider_error"
        return latency


def generate_states(config: SyntheticConfig) -> Iterator[EditState]:
    """The edits of ``config``, one EditState each, filled as the engine fills them."""
    simulator = _Simulator(config)
    for index in range(config.edits):
        yield simulator.state(index)


def _count(truth: Truth, state: EditState) -> None:
    truth.edits += 1
    truth.outcomes[state.outcome or "error"] += 1
    if state.error_code:
        truth.error_codes[state.error_code] += 1
    if state.strategy:
        truth.strategies[state.strategy] += 1
    seen: set[str] = set()
    pass_ = "original"
    for attempt in state.attempts:
        if attempt.tier in seen:
            pass_ = "fixer"
            seen = set()
        seen.add(attempt.tier)
        truth.tier_tries[attempt.tier, pass_] += 1
        if attempt.outcome == "matched":
            truth.tier_wins[attempt.tier, pass_] += 1
        if attempt.best_similarity is not None and pass_ == "original":
            sims = truth.fuzzy_similarities.setdefault(attempt.outcome, [])
            sims.append(attempt.best_similarity)
    fixer = state.fixer
    if fixer:
        truth.fixer_outcomes[fixer.outcome] += 1
        if fixer.cache_hit:
            truth.cache_hits += 1
        else:
            truth.input_tokens += fixer.input_tokens
            truth.output_tokens += fixer.output_tokens
            truth.fixer_latencies.append(fixer.latency_ms)
        if fixer.outcome == "corrected" and state.outcome == "success":
            truth.rescued += 1
    truth.durations.append(state.duration_ms)
    if truth.edits == 1:
        truth.first_start = state.started_at
    truth.last_start = state.started_at
    truth.events += 2 + len(state.attempts) + (1 if fixer else 0)


class _StreamSink:
    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def emit(self, event: Event) -> None:
        self._stream.write(dumps_line(event.to_dict()))

    def close(self) -> None:
        pass


def write_synthetic(
    path: str | os.PathLike[str],
    config: SyntheticConfig,
    *,
    compress: bool = False,
    keep_values: bool = True,
) -> Truth:
    """Write the events of ``config`` as JSON Lines (gzipped if ``compress``); the Truth.

    ``keep_values=False`` leaves ``durations``/``fixer_latencies``/similarities empty (for
    very large runs where only the counts are wanted).
    """
    truth = Truth()
    target = Path(path)
    opener: Any = gzip.open if compress else open
    with opener(target, "wb") as stream:
        now = [0.0]
        telemetry = Telemetry(
            sinks=[_StreamSink(stream)],
            include_snippets=config.include_snippets,
            clock=lambda: now[0],
            delivery="immediate",  # into a stream closed right after: nothing may wait
        )
        for state in generate_states(config):
            now[0] = state.started_at
            telemetry.edit_started(state)
            now[0] = state.started_at + state.duration_ms / 1000.0
            telemetry.edit_finished(state)
            _count(truth, state)
            if not keep_values:
                truth.durations.clear()
                truth.fixer_latencies.clear()
                truth.fuzzy_similarities.clear()
    return truth
