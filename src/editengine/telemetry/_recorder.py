"""``Telemetry``: the observer the engine calls around every edit; EditState in, events out."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Literal

from editengine._results import TierAttempt
from editengine._state import EditState
from editengine._version import __version__
from editengine.telemetry._delivery import DEFAULT_QUEUE_SIZE, BackgroundDelivery
from editengine.telemetry._events import (
    EditFinished,
    EditStarted,
    Event,
    FixerCalled,
    Pass,
    TierTried,
    format_ts,
    path_hash,
)
from editengine.telemetry._sinks import CallbackSink, Sink

_log = logging.getLogger("editengine.telemetry")


class Telemetry:
    """Emits ``edit.started`` / ``tier.tried`` / ``fixer.called`` / ``edit.finished``.

    >>> from editengine.telemetry import MemorySink, Telemetry
    >>> memory = MemorySink()
    >>> telemetry = Telemetry(sinks=[memory])          # EditEngine(telemetry=telemetry)

    ``include_snippets=True`` adds the file path and the short old/new previews; without it
    no event holds file content, edit text or the path (only its SHA-256 pseudonym).
    A plain callable is accepted as a sink (wrapped in :class:`CallbackSink`).
    A sink that raises is logged once (warning, ``editengine.telemetry``) and skipped for
    that event; the edit and the other sinks go on.

    Delivery: the events of an edit are built on the caller's thread (cheap) and handed to
    the sinks by a worker thread through a bounded queue (``max_queued`` events), so a slow
    sink never slows an edit nor blocks an event loop; when the queue is full an event is
    dropped and counted in :attr:`dropped`. :meth:`flush` waits for the queue, :meth:`close`
    flushes then closes the sinks (and the queue is flushed at interpreter exit).
    A sink whose ``immediate`` attribute is true (:class:`MemorySink`, an
    :class:`OTelSink` adding span events to the caller's span) gets each event at once on
    the caller's thread, so its events can be read right after the edit.
    ``delivery="immediate"`` delivers to every sink that way (tools replaying events).

    ``clock`` (epoch seconds) stamps every event of an edit: ``edit.started`` when the edit
    starts, the others when it finishes. A clock that reads a replayed or back-dated time
    writes telemetry of that time (days of it in a test, or a demo).
    """

    def __init__(
        self,
        *,
        sinks: Iterable[Sink | Callable[[Event], object]] = (),
        include_snippets: bool = False,
        clock: Callable[[], float] = time.time,
        delivery: Literal["background", "immediate"] = "background",
        max_queued: int = DEFAULT_QUEUE_SIZE,
    ) -> None:
        if delivery not in ("background", "immediate"):
            raise ValueError("delivery must be 'background' or 'immediate'")
        self._sinks = tuple(_as_sink(sink) for sink in sinks)
        everything_now = delivery == "immediate"
        self._now_sinks = tuple(s for s in self._sinks if everything_now or _immediate(s))
        self._queued_sinks = tuple(s for s in self._sinks if s not in self._now_sinks)
        self._delivery = BackgroundDelivery(max_queued=max_queued) if self._queued_sinks else None
        self._include_snippets = include_snippets
        self._clock = clock
        self._version = __version__
        self._warned: set[int] = set()

    @property
    def sinks(self) -> tuple[Sink, ...]:
        return self._sinks

    def edit_started(self, state: EditState) -> None:
        self._publish(lambda: iter((self._started(state),)))

    def edit_finished(self, state: EditState) -> None:
        self._publish(lambda: self._finished(state))

    @property
    def dropped(self) -> int:
        """Events not delivered to the background sinks because the queue was full."""
        return self._delivery.dropped if self._delivery is not None else 0

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued event reached its sinks; ``False`` on ``timeout`` (s)."""
        return self._delivery.flush(timeout) if self._delivery is not None else True

    def close(self, timeout: float | None = None) -> None:
        """Deliver what is queued (waiting at most ``timeout`` s), then close every sink."""
        if self._delivery is not None:
            self._delivery.close(timeout)
        for sink in self._sinks:
            try:
                sink.close()
            except Exception:
                _log.warning("telemetry sink %r failed to close", sink, exc_info=True)

    def __enter__(self) -> Telemetry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- events ---------------------------------------------------------------------------

    def _started(self, state: EditState) -> EditStarted:
        snippets = self._include_snippets
        return EditStarted(
            edit_id=state.edit_id,
            ts=format_ts(self._clock()),
            engine_version=self._version,
            operation=state.operation,
            dry_run=state.dry_run,
            match_mode=state.match_mode,
            replace_all=state.replace_all,
            instruction_given=state.instruction_given,
            old_chars=state.old_chars,
            new_chars=state.new_chars,
            path_sha256=path_hash(state.file_path),
            path=state.file_path if snippets else None,
            old_preview=state.old_preview if snippets else None,
            new_preview=state.new_preview if snippets else None,
        )

    def _finished(self, state: EditState) -> Iterator[Event]:
        ts = format_ts(self._clock())
        common = {"edit_id": state.edit_id, "ts": ts, "engine_version": self._version}
        passes = _passes(
            state.attempts,
            fixer_ran=state.fixer is not None,
            fixer_pass_start=state.fixer_pass_start,
        )
        for attempt, pass_, position in passes:
            yield TierTried(
                **common,
                tier=attempt.tier,
                outcome=attempt.outcome,
                candidates=attempt.candidates,
                best_similarity=attempt.best_similarity,
                elapsed_ms=round(attempt.elapsed_ms, 3),
                pass_=pass_,
                position=position,
                threshold=attempt.threshold,
            )
        fixer = state.fixer
        if fixer is not None:
            yield FixerCalled(
                **common,
                provider=fixer.provider,
                model=fixer.model,
                outcome=fixer.outcome,
                latency_ms=round(fixer.latency_ms, 3),
                input_tokens=fixer.input_tokens,
                output_tokens=fixer.output_tokens,
                cache_hit=fixer.cache_hit,
                windowed=fixer.windowed,
                prompt_chars=fixer.prompt_chars,
                deadline_ms=fixer.deadline_ms,
                prompt_bytes=fixer.prompt_bytes,
                prompt_tokens=fixer.prompt_tokens,
                prompt_budget_bytes=fixer.prompt_budget_bytes,
                refusal_reason=fixer.refusal_reason,
                request_key=fixer.request_key,
            )
        yield EditFinished(
            **common,
            outcome=state.outcome or "error",
            error_code=state.error_code,
            strategy=state.strategy,
            replacements=state.replacements,
            duration_ms=round(state.duration_ms, 3),
            file_lines=state.file_lines,
            file_bytes=state.file_bytes,
            dry_run=state.dry_run,
            operation=state.operation,
            match_mode=state.match_mode,
            instruction_given=state.instruction_given,
            tiers_tried=len(state.attempts),
            tier_ms=round(sum(a.elapsed_ms for a in state.attempts), 3),
            fixer_outcome=fixer.outcome if fixer else None,
            corrected_by_fixer=_corrected_by_fixer(state),
            path_sha256=path_hash(state.file_path),
            path=state.file_path if self._include_snippets else None,
            syntax_guard_tier=state.syntax_guard_tier,
        )

    def _publish(self, build: Callable[[], Iterator[Event]]) -> None:
        try:
            events = list(build())
        except Exception:
            # A malformed state must not fail the edit either.
            _log.warning("telemetry could not describe an edit", exc_info=True)
            return
        for event in events:
            self._deliver(event, self._now_sinks)
            if self._delivery is not None:
                self._delivery.submit(partial(self._deliver, event, self._queued_sinks))

    def _deliver(self, event: Event, sinks: tuple[Sink, ...]) -> None:
        for sink in sinks:
            try:
                sink.emit(event)
            except Exception:
                if id(sink) not in self._warned:
                    self._warned.add(id(sink))
                    _log.warning(
                        "telemetry sink %r failed; its later failures are not logged",
                        sink,
                        exc_info=True,
                    )


def _passes(
    attempts: list[TierAttempt], *, fixer_ran: bool, fixer_pass_start: int | None = None
) -> Iterator[tuple[TierAttempt, Pass, int]]:
    """Label each attempt with its cascade pass and its position in that pass's cascade run.

    The engine says where the fixer's pass starts (``EditState.fixer_pass_start``). A state
    that does not say (built by older code) falls back to inference: the fixer's pass re-runs
    the cascade from its first tier, so after a fixer call the first tier name seen twice
    starts it. Either way a cascade run never tries a tier twice, so a repeated name starts
    a new run (position 0): the original edit re-checked on a file that changed meanwhile.
    """
    seen: set[str] = set()
    pass_: Pass = "original"
    position = 0
    for index, attempt in enumerate(attempts):
        if fixer_pass_start is not None:
            starts_fixer = index == fixer_pass_start
        else:
            starts_fixer = fixer_ran and pass_ == "original" and attempt.tier in seen
        if starts_fixer:
            pass_ = "fixer"
        if starts_fixer or attempt.tier in seen:
            position = 0
            seen = set()
        seen.add(attempt.tier)
        yield attempt, pass_, position
        position += 1


def _corrected_by_fixer(state: EditState) -> bool:
    """What the engine said; inferred for states filled by code that does not say."""
    said = state.corrected_by_fixer
    if said is not None:
        return bool(said and state.outcome == "success")
    fixer = state.fixer
    return bool(fixer and fixer.outcome == "corrected" and state.outcome == "success")


def _immediate(sink: Sink) -> bool:
    return getattr(sink, "immediate", False) is True


def _as_sink(sink: Sink | Callable[[Event], object]) -> Sink:
    if hasattr(sink, "emit"):
        return sink  # type: ignore[return-value]  # hasattr does not narrow to the Sink protocol
    if callable(sink):
        return CallbackSink(sink)
    raise TypeError(f"a telemetry sink needs an emit(event) method, got {sink!r}")
