"""Where telemetry events go. A sink has one method, ``emit(event)``, and ``close()``.

Several sinks run side by side (``Telemetry(sinks=[...])``); a sink that raises is logged
and skipped by :class:`~editengine.telemetry._recorder.Telemetry`, never failing an edit.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from editengine._version import __version__
from editengine.telemetry._events import Event

try:  # orjson is an optional accelerator; the json module gives the same lines.
    import orjson

    _orjson: ModuleType | None = orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None


def dumps_line(data: dict[str, Any]) -> bytes:
    """One compact JSON Lines record, newline included."""
    if _orjson is not None:
        encoded: bytes = _orjson.dumps(data)
        return encoded + b"\n"
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


@runtime_checkable
class Sink(Protocol):
    """Receives every event of every edit."""

    def emit(self, event: Event) -> None: ...

    def close(self) -> None: ...


class MemorySink:
    """Keeps the events in a list: for tests and for callers that inspect them in process.

    Delivered to at once, on the edit's thread (appending to a list is never slow), so
    ``events`` holds an edit's events as soon as the edit returns.
    """

    immediate = True

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def close(self) -> None:
        pass

    def named(self, name: str) -> list[Event]:
        """The events whose ``event`` field is ``name`` (``"tier.tried"``, ...), in order."""
        return [e for e in self.events if e.event == name]


class CallbackSink:
    """Calls ``fn(event)`` for every event."""

    def __init__(self, fn: Callable[[Event], object]) -> None:
        self._fn = fn

    def emit(self, event: Event) -> None:
        self._fn(event)

    def close(self) -> None:
        pass


class LoggingSink:
    """Logs each event as one line of JSON; the dict is also on the record as ``telemetry``."""

    def __init__(self, *, logger: logging.Logger | None = None, level: int = logging.INFO) -> None:
        self._logger = logger or logging.getLogger("editengine.telemetry.events")
        self._level = level

    def emit(self, event: Event) -> None:
        if not self._logger.isEnabledFor(self._level):
            return
        data = event.to_dict()
        line = dumps_line(data)[:-1].decode()
        self._logger.log(self._level, "%s", line, extra={"telemetry": data})

    def close(self) -> None:
        pass


class JsonlSink:
    """Appends one JSON object per line to ``path``, rotating when it outgrows ``max_bytes``.

    Safe for several processes (and threads) appending to the same file: the file is opened
    with ``O_APPEND`` and each line goes out in a single ``os.write``, so lines never
    interleave; rotation (``path`` -> ``path.1`` -> ... -> ``path.<backups>``) happens under
    a ``filelock`` lock on ``path.lock``, and a process that finds the file rotated under it
    reopens the new one. A line written just before a rotation by another process lands in
    ``path.1``: whole, and kept while the backups last.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_bytes: int = 50 * 1024 * 1024,
        backups: int = 5,
    ) -> None:
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        if backups < 0:
            raise ValueError("backups must be zero or more")
        from filelock import FileLock

        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._max_bytes = max_bytes
        self._backups = backups
        self._lock = FileLock(str(self.path) + ".lock")
        self._thread_lock = threading.Lock()
        self._fd: int | None = self._open()

    def _open(self) -> int:
        return os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def emit(self, event: Event) -> None:
        line = dumps_line(event.to_dict())
        with self._thread_lock:
            if self._fd is None:
                raise ValueError("JsonlSink is closed")
            mine = os.fstat(self._fd)
            try:
                named = os.stat(self.path)
            except FileNotFoundError:
                named = None
            rotated_away = named is None or named.st_ino != mine.st_ino
            if rotated_away or mine.st_size + len(line) > self._max_bytes:
                self._rotate_if_needed(len(line))
            written = os.write(self._fd, line)
            if written != len(line):  # disk full: say so rather than pretend
                raise OSError(f"short write to {self.path}: {written} of {len(line)} bytes")

    def _rotate_if_needed(self, incoming: int) -> None:
        assert self._fd is not None
        with self._lock:
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                current = None
            mine = os.fstat(self._fd)
            if current is None or (current.st_ino, current.st_dev) != (mine.st_ino, mine.st_dev):
                # Another process rotated already: follow it to the new file.
                self._reopen()
                current = os.fstat(self._fd)
            if current.st_size == 0 or current.st_size + incoming <= self._max_bytes:
                return
            self._shift_backups()
            self._reopen()

    def _shift_backups(self) -> None:
        if self._backups == 0:
            self.path.unlink(missing_ok=True)
            return
        for index in range(self._backups - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{index}")
            if older.exists():
                os.replace(older, self.path.with_name(f"{self.path.name}.{index + 1}"))
        os.replace(self.path, self.path.with_name(f"{self.path.name}.1"))

    def _reopen(self) -> None:
        assert self._fd is not None
        os.close(self._fd)
        self._fd = self._open()

    def close(self) -> None:
        with self._thread_lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


class OTelSink:
    """Ships events to OpenTelemetry: log records (or span events) plus metrics.

    ``mode="log"`` emits each event as a log record (body = event name, attributes = the
    event's fields); ``mode="span_event"`` adds it as an event on the current span.
    Metrics: counters ``editengine._edits`` (outcome, strategy, error_code),
    ``editengine.tier.attempts`` (tier, outcome), ``editengine.fixer.calls`` (outcome,
    model, cache_hit), ``editengine.fixer.tokens`` (direction, model); histograms
    ``editengine.edit.duration`` and ``editengine.fixer.latency`` (ms).
    Providers default to the global ones, so an app that configured an OTLP exporter ships
    editengine's telemetry to its collector without more setup. Needs the ``otel`` extra.
    """

    def __init__(
        self,
        *,
        mode: str = "log",
        logger_provider: Any = None,
        meter_provider: Any = None,
    ) -> None:
        if mode not in ("log", "span_event"):
            raise ValueError("mode must be 'log' or 'span_event'")
        try:
            from opentelemetry import _logs, metrics, trace
        except ImportError as exc:
            raise ImportError(
                "OTelSink needs OpenTelemetry: pip install 'editengine[otel]'"
            ) from exc
        self._mode = mode
        # A span event belongs to the caller's current span: delivered on the caller's thread.
        self.immediate = mode == "span_event"
        self._trace = trace
        self._log_record_cls = _logs.LogRecord
        self._severity = _logs.SeverityNumber.INFO
        logger_provider = logger_provider or _logs.get_logger_provider()
        meter_provider = meter_provider or metrics.get_meter_provider()
        self._logger = logger_provider.get_logger("editengine", __version__)
        meter = meter_provider.get_meter("editengine", __version__)
        self._edits = meter.create_counter("editengine.edits", unit="1", description="Edits")
        self._tiers = meter.create_counter(
            "editengine.tier.attempts", unit="1", description="Tier attempts"
        )
        self._fixer_calls = meter.create_counter(
            "editengine.fixer.calls", unit="1", description="Fixer calls"
        )
        self._tokens = meter.create_counter(
            "editengine.fixer.tokens", unit="1", description="Fixer tokens"
        )
        self._duration = meter.create_histogram(
            "editengine.edit.duration", unit="ms", description="Edit duration"
        )
        self._latency = meter.create_histogram(
            "editengine.fixer.latency", unit="ms", description="Fixer latency"
        )

    def emit(self, event: Event) -> None:
        data = event.to_dict()
        attributes = {
            f"editengine.{key}": value
            for key, value in data.items()
            if value is not None and key != "event"
        }
        if self._mode == "log":
            self._logger.emit(
                self._log_record_cls(
                    body=event.event,
                    attributes={"event.name": event.event, **attributes},
                    severity_number=self._severity,
                    severity_text="INFO",
                )
            )
        else:
            self._trace.get_current_span().add_event(event.event, attributes=attributes)
        self._record_metrics(data)

    def _record_metrics(self, data: dict[str, Any]) -> None:
        name = data["event"]
        if name == "edit.finished":
            labels = {
                "outcome": data["outcome"],
                "strategy": data["strategy"] or "none",
                "error_code": data["error_code"] or "none",
            }
            self._edits.add(1, labels)
            self._duration.record(data["duration_ms"], {"outcome": data["outcome"]})
        elif name == "tier.tried":
            self._tiers.add(1, {"tier": data["tier"], "outcome": data["outcome"]})
        elif name == "fixer.called":
            model = data["model"] or "unknown"
            self._fixer_calls.add(
                1, {"outcome": data["outcome"], "model": model, "cache_hit": data["cache_hit"]}
            )
            if not data["cache_hit"]:
                self._latency.record(data["latency_ms"], {"outcome": data["outcome"]})
            self._tokens.add(data["input_tokens"], {"direction": "input", "model": model})
            self._tokens.add(data["output_tokens"], {"direction": "output", "model": model})

    def close(self) -> None:
        pass
