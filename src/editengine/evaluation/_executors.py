"""Executors: the engines a run puts cases through, behind one small protocol.

``CaseExecutor.run(case) -> CaseResult``. Three are built in:

* :class:`TextExecutor` (kind ``text``) calls the pure :func:`editengine.edit_text` with a
  cascade, in memory.
* :class:`~editengine.evaluation._engine_executor.EngineExecutor` (kind ``engine``) runs the
  real ``EditEngine`` on a real file per case, with an optional LLM fixer.
* :class:`BatchCommandExecutor` (kind ``batch-command``) spawns any command that speaks the
  batch protocol of DESIGN.md (one JSON request per line in, one answer per line out, in
  order) — our own ``editengine batch`` or another engine, for side-by-side runs.

Runs are described by an :class:`EngineConfig` (picklable, so worker processes can rebuild
the executor) and built by :func:`build_executor`, which looks the config's ``kind`` up in
:data:`EXECUTOR_KINDS`.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import IO, Any, Protocol

from editengine._errors import EditError, EngineCommandFailed, EvaluationError
from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._engine_executor import EngineExecutor
from editengine.evaluation._llm import check_combination, fixer_source, parse_llm
from editengine.evaluation._scoring import CaseResult
from editengine.matching._cascade import DEFAULT_CASCADE, Cascade, edit_text


class CaseExecutor(Protocol):
    """Runs one case and reports what happened to the file; ``close`` frees resources."""

    def run(self, case: EvalCase) -> CaseResult: ...

    def close(self) -> None: ...


class TextExecutor:
    """Each case through :func:`editengine.edit_text` with ``cascade`` (pure, in memory)."""

    def __init__(self, *, cascade: Cascade = DEFAULT_CASCADE, syntax_guard: str = "off") -> None:
        self.cascade = cascade
        self.syntax_guard = syntax_guard

    def run(self, case: EvalCase) -> CaseResult:
        started = time.perf_counter()
        try:
            edit = edit_text(
                case.content,
                case.old_string,
                case.new_string,
                replace_all=case.replace_all,
                expected_replacements=case.expected_replacements,
                match_mode=case.match_mode,
                cascade=self.cascade,
                # The case's file name picks the language of the syntax guard.
                path=case.file_name if self.syntax_guard != "off" else None,
                syntax_guard=self.syntax_guard,
            )
        except EditError as err:
            return CaseResult(
                ok=False, error_code=err.code, error=str(err), elapsed_ms=_since(started)
            )
        except Exception as err:  # a crash is a finding to report, not a reason to stop
            return CaseResult(
                ok=False,
                error_code="internal_error",
                error=f"{type(err).__name__}: {err}",
                elapsed_ms=_since(started),
            )
        return CaseResult(
            ok=True,
            new_content=edit.new_content,
            strategy=edit.strategy,
            elapsed_ms=_since(started),
        )

    def close(self) -> None:
        return None


def _since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


class BatchCommandExecutor:
    """Cases through an external process that speaks the batch protocol.

    The process starts on the first case and serves every following one; a case that gets
    no answer within ``timeout_s`` seconds, an answer for another id, or a process that
    exits raises :class:`EngineCommandFailed` (with the tail of its stderr).
    """

    def __init__(self, name: str, command: Sequence[str], *, timeout_s: float = 60.0) -> None:
        if not command:
            raise EngineCommandFailed(f"engine {name!r}: empty command.")
        self.name = name
        self.command = tuple(command)
        self.timeout_s = timeout_s
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._answers: queue.Queue[bytes] = queue.Queue()

    def run(self, case: EvalCase) -> CaseResult:
        process = self._ensure_started()
        line = json.dumps(case.batch_request(), ensure_ascii=False) + "\n"
        started = time.perf_counter()
        try:
            assert process.stdin is not None
            process.stdin.write(line.encode("utf-8"))
            process.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise self._failure(f"could not send case {case.id!r}: {err}") from err
        try:
            raw = self._answers.get(timeout=self.timeout_s)
        except queue.Empty:
            raise self._failure(
                f"no answer for case {case.id!r} within {self.timeout_s:g} s"
            ) from None
        if not raw:
            raise self._failure(f"exited before answering case {case.id!r}")
        return self._result(case, raw, _since(started))

    def _result(self, case: EvalCase, raw: bytes, measured_ms: float) -> CaseResult:
        try:
            answer = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise self._failure(f"answered case {case.id!r} with invalid JSON: {err}") from err
        if not isinstance(answer, dict):
            raise self._failure(f"answered case {case.id!r} with a non-object")
        if answer.get("id") != case.id:
            raise self._failure(
                f"answered id {answer.get('id')!r} while case {case.id!r} was expected "
                "(answers must come in request order)"
            )
        ok = answer.get("ok") is True
        new_content = answer.get("new_content") if ok else None
        if ok and not isinstance(new_content, str):
            raise self._failure(f"answered case {case.id!r} ok without a new_content string")
        elapsed = answer.get("elapsed_ms")
        return CaseResult(
            ok=ok,
            new_content=new_content,
            strategy=answer.get("strategy"),
            error_code=answer.get("error_code"),
            error=answer.get("error"),
            elapsed_ms=float(elapsed) if isinstance(elapsed, (int, float)) else measured_ms,
            fixer_calls=int(answer.get("fixer_calls") or 0),
            input_tokens=int(answer.get("input_tokens") or 0),
            output_tokens=int(answer.get("output_tokens") or 0),
            cache_hits=int(answer.get("cache_hits") or 0),
            corrected_by_fixer=bool(answer.get("corrected_by_fixer", False)),
        )

    def _ensure_started(self) -> subprocess.Popen[bytes]:
        if self._process is not None:
            if self._process.poll() is not None:
                raise self._failure(f"exited with status {self._process.returncode}")
            return self._process
        # Lives as long as the process (closed in close()), so no with-block here.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
            )
        except OSError as err:
            raise EngineCommandFailed(
                f"engine {self.name!r}: cannot start {' '.join(self.command)!r}: {err}.",
                hint="Check the command after NAME= in --engine-cmd.",
            ) from err
        reader = threading.Thread(
            target=_pump, args=(self._process.stdout, self._answers), daemon=True
        )
        reader.start()
        return self._process

    def _failure(self, what: str) -> EngineCommandFailed:
        tail = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            tail = self._stderr.read()[-2000:].decode("utf-8", "replace").strip()
        self._shutdown(grace_s=0.0)  # a broken engine gets no grace period
        message = f"engine {self.name!r} ({' '.join(self.command)}) {what}."
        if tail:
            message += f"\nIts stderr ends with:\n{tail}"
        return EngineCommandFailed(message)

    def close(self) -> None:
        """End the engine: close its stdin, give it 5 s to exit, then kill it."""
        self._shutdown(grace_s=5.0)

    def _shutdown(self, *, grace_s: float) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            try:
                process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __enter__(self) -> BatchCommandExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pump(stream: IO[bytes] | None, answers: queue.Queue[bytes]) -> None:
    """Move the engine's answer lines into a queue so reads can time out; b"" marks EOF."""
    if stream is None:
        answers.put(b"")
        return
    for line in iter(stream.readline, b""):
        answers.put(line)
    answers.put(b"")


# --------------------------------------------------------------------------- configurations


@dataclass(frozen=True)
class EngineConfig:
    """One engine configuration of a run, as a column of the compare table.

    ``kind`` selects the executor (a key of :data:`EXECUTOR_KINDS`): ``text`` (the pure
    :func:`~editengine.edit_text`, in memory), ``engine`` (:class:`EngineExecutor`: the real
    ``EditEngine`` on real files, optionally with an LLM fixer) or ``batch-command``.
    For ``text`` and ``engine``: ``tiers`` keeps only the named tiers of
    :data:`editengine.DEFAULT_CASCADE` (in its order), ``without`` drops tiers. For
    ``engine``: ``llm`` is an ``--llm`` value (see :mod:`editengine.evaluation._llm`), with
    ``model``, ``record`` (a cassette to record into) and ``fixer_timeout`` (seconds).
    ``syntax_guard`` (``off``, ``refuse``, ``report``; docs/diagnostics.md) is the guard of
    ``text`` and ``engine`` runs, the case's ``file_name`` picking the language.
    For ``batch-command``: ``command`` is the argv to spawn. The config is plain data, so a
    worker process can rebuild the executor from it.
    """

    label: str
    kind: str = "text"
    tiers: tuple[str, ...] | None = None
    without: tuple[str, ...] = ()
    command: tuple[str, ...] = ()
    llm: str = "none"
    model: str | None = None
    record: str | None = None
    fixer_timeout: float | None = None
    telemetry: str | None = None  # engine: also append its telemetry events to this file
    syntax_guard: str = "off"

    def __post_init__(self) -> None:
        choice = parse_llm(self.llm)
        if choice.kind != "none" and self.kind != "engine":
            raise EvaluationError(
                f"configuration {self.label!r}: an LLM fixer (--llm {self.llm}) needs the "
                f"engine executor, not {self.kind!r}.",
                hint="Use --executor engine (the default).",
            )
        check_combination(choice, model=self.model, record=self.record)

    @property
    def waits_on_network(self) -> bool:
        """A real LLM answers in seconds: such a run is bound by waiting, not by the CPU."""
        return not parse_llm(self.llm).offline

    def cascade(self) -> Cascade:
        cascade = DEFAULT_CASCADE
        if self.tiers is not None:
            unknown = [name for name in self.tiers if name not in cascade.tier_names]
            if unknown:
                raise ValueError(f"unknown tier(s) {unknown}; known: {cascade.tier_names}")
            cascade = cascade.without(*(n for n in cascade.tier_names if n not in self.tiers))
        return cascade.without(*self.without) if self.without else cascade


def _text_executor(config: EngineConfig) -> CaseExecutor:
    return TextExecutor(cascade=config.cascade(), syntax_guard=config.syntax_guard)


def _engine_executor(config: EngineConfig) -> CaseExecutor:
    fixers = fixer_source(
        config.llm, model=config.model, record=config.record, timeout=config.fixer_timeout
    )
    return EngineExecutor(
        cascade=config.cascade(),
        fixers=fixers,
        telemetry_path=config.telemetry,
        syntax_guard=config.syntax_guard,
    )


def _batch_command_executor(config: EngineConfig) -> CaseExecutor:
    return BatchCommandExecutor(config.label, config.command)


EXECUTOR_KINDS: Mapping[str, Callable[[EngineConfig], CaseExecutor]] = MappingProxyType(
    {
        "text": _text_executor,
        "engine": _engine_executor,
        "batch-command": _batch_command_executor,
    }
)


def build_executor(config: EngineConfig) -> CaseExecutor:
    try:
        factory = EXECUTOR_KINDS[config.kind]
    except KeyError:
        known = ", ".join(EXECUTOR_KINDS)
        raise ValueError(f"unknown executor kind {config.kind!r}; known: {known}") from None
    return factory(config)


def full_cascade(*, kind: str = "text") -> EngineConfig:
    """The whole :data:`~editengine.DEFAULT_CASCADE`, no LLM: the ``cascade`` column."""
    return EngineConfig(label="cascade", kind=kind)


def with_fixer(
    llm: str = "scripted",
    *,
    model: str | None = None,
    record: str | None = None,
    fixer_timeout: float | None = None,
) -> EngineConfig:
    """The full cascade plus an LLM fixer, through the engine: ``cascade+<llm>``."""
    return EngineConfig(
        label=f"cascade+{parse_llm(llm).label}",
        kind="engine",
        llm=llm,
        model=model,
        record=record,
        fixer_timeout=fixer_timeout,
    )


def exact_only(*, kind: str = "text") -> EngineConfig:
    return EngineConfig(label="exact-only", kind=kind, tiers=("exact",))


def ablations(*, kind: str = "text", fixer: EngineConfig | None = None) -> list[EngineConfig]:
    """Exact-only, the cascade without each tier in turn, the full cascade, and the cascade
    plus a fixer (``fixer``, default :func:`with_fixer` with scripted answers)."""
    configs = [exact_only(kind=kind)]
    names = DEFAULT_CASCADE.tier_names
    if len(names) > 1:
        configs.extend(EngineConfig(label=f"-{name}", kind=kind, without=(name,)) for name in names)
    configs.append(full_cascade(kind=kind))
    configs.append(fixer or with_fixer())
    return configs


def batch_command(label: str, command: Sequence[str]) -> EngineConfig:
    return EngineConfig(label=label, kind="batch-command", command=tuple(command))


def describe(config: EngineConfig) -> dict[str, Any]:
    """A JSON-friendly record of a configuration (for ``--json`` reports)."""
    record: dict[str, Any] = {"label": config.label, "kind": config.kind}
    if config.kind in ("text", "engine"):
        record["tiers"] = list(config.cascade().tier_names)
        if config.syntax_guard != "off":
            record["syntax_guard"] = config.syntax_guard
    if config.kind == "engine":
        record["llm"] = config.llm
        if config.model:
            record["model"] = config.model
    if config.command:
        record["command"] = list(config.command)
    return record
