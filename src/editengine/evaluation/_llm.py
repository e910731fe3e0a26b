"""Which LLM fixer an evaluation run gives the engine: ``--llm`` and ``--record``.

=====================  ==========================================================================
``none``               no fixer: the cascade alone decides.
``scripted``           per case, an :class:`~editengine.fixer.LLMFixer` over a
                       :class:`~editengine.providers.ScriptedProvider` holding the case's
                       ``fixer_answers`` (none scripted: the call fails cleanly as a fixer error);
                       tokens are estimated from the prompt and answer sizes.
``replay:CASSETTE``    one fixer over a :class:`~editengine.providers.ReplayProvider`; a request
                       the cassette lacks is a clean fixer failure. No network.
``openai``             the real provider (needs its API key); ``record`` appends every answer to
``anthropic``          a cassette that ``replay:`` then serves offline.
=====================  ==========================================================================

A fixer failure never crashes a case: the engine returns the original ``NoMatch``, so the
case is REFUSED. Offline providers answer at once, so their fixer gets a short timeout.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from editengine._errors import EvaluationError
from editengine.evaluation._dataset import EvalCase
from editengine.fixer import LLMFixer, make_provider
from editengine.fixer._protocol import Fixer
from editengine.providers import Provider, ProviderReply, ReplayProvider, ScriptedProvider

LLMKind = Literal["none", "scripted", "replay", "openai", "anthropic"]
LLM_CHOICES = ("none", "scripted", "replay:CASSETTE", "openai", "anthropic")
REAL_PROVIDERS = ("openai", "anthropic")

OFFLINE_FIXER_TIMEOUT = 5.0  # seconds; a scripted or replayed answer takes microseconds
REAL_FIXER_TIMEOUT = 40.0  # the fixer's own default, for real providers


@dataclass(frozen=True)
class LLMChoice:
    """A parsed ``--llm`` value."""

    kind: LLMKind
    cassette: str | None = None

    @property
    def label(self) -> str:
        """The name a configuration's label carries (``scripted``, ``replay``, ``openai``...)."""
        return self.kind

    @property
    def offline(self) -> bool:
        return self.kind not in REAL_PROVIDERS


def parse_llm(spec: str) -> LLMChoice:
    """``none``, ``scripted``, ``replay:PATH``, ``openai`` or ``anthropic``."""
    text = spec.strip()
    if text.lower() in ("none", "scripted", *REAL_PROVIDERS):
        return LLMChoice(text.lower())  # type: ignore[arg-type]  # one of the kinds, checked just above
    head, sep, path = text.partition(":")
    if sep and head.lower() == "replay":
        if not path.strip():
            raise EvaluationError(
                "--llm replay: needs a cassette path, as in replay:fixtures/run.cassette.jsonl."
            )
        return LLMChoice("replay", cassette=path.strip())
    raise EvaluationError(
        f"--llm {spec!r} is not one of: {', '.join(LLM_CHOICES)}.",
        hint="Use 'scripted' for the dataset's own answers, 'replay:PATH' for a recorded "
        "cassette, or a real provider name (needs its API key).",
    )


class FixerSource(Protocol):
    """The fixer to give the engine for one case (``None``: run without a fixer)."""

    def for_case(self, case: EvalCase) -> Fixer | None: ...


class NoFixer:
    """The cascade alone."""

    def for_case(self, case: EvalCase) -> Fixer | None:
        return None


class ScriptedFixers:
    """A fresh fixer per case, answering with that case's ``fixer_answers`` in order.

    A fresh one, so one case's answers (or cached corrections) never leak into another's.
    A scripted answer costs nothing, so its tokens are estimated (see
    :class:`EstimatedCost`): the token columns then show what the prompts would cost.
    """

    def __init__(self, *, timeout: float = OFFLINE_FIXER_TIMEOUT) -> None:
        self.timeout = timeout

    def for_case(self, case: EvalCase) -> Fixer | None:
        provider = ScriptedProvider([answer.to_dict() for answer in case.fixer_answers])
        return LLMFixer(EstimatedCost(provider), timeout=self.timeout)


CHARS_PER_TOKEN = 4  # the usual rule of thumb for English text and code


def estimate_tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


class EstimatedCost:
    """A provider wrapper that fills in token counts its provider left at zero, estimated
    at :data:`CHARS_PER_TOKEN` characters per token of the prompt and of the JSON answer."""

    def __init__(self, provider: Provider) -> None:
        self.provider = provider
        self.name = provider.name
        self.model = provider.model

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        reply = self.provider.complete_json(system, user, schema, timeout=timeout)
        return _estimated(reply, system, user)

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        reply = await self.provider.acomplete_json(system, user, schema, timeout=timeout)
        return _estimated(reply, system, user)


def _estimated(reply: ProviderReply, system: str, user: str) -> ProviderReply:
    if reply.input_tokens or reply.output_tokens:
        return reply
    answer = json.dumps(reply.data, ensure_ascii=False)
    return replace(
        reply,
        input_tokens=estimate_tokens(system) + estimate_tokens(user),
        output_tokens=estimate_tokens(answer),
    )


class SharedFixer:
    """One fixer for every case (its cache spans the run, as in an agent's session)."""

    def __init__(self, fixer: Fixer) -> None:
        self.fixer = fixer

    def for_case(self, case: EvalCase) -> Fixer | None:
        return self.fixer


def fixer_source(
    llm: str,
    *,
    model: str | None = None,
    record: str | None = None,
    timeout: float | None = None,
) -> FixerSource:
    """The :class:`FixerSource` for an ``--llm`` value.

    ``record`` (a cassette path) needs a real provider: each answer is appended to it.
    ``timeout`` defaults to :data:`OFFLINE_FIXER_TIMEOUT` offline and
    :data:`REAL_FIXER_TIMEOUT` for real providers. Raises :class:`EvaluationError` for a
    bad combination; a real provider without its key raises ``ProviderConfigError``.
    """
    choice = parse_llm(llm)
    check_combination(choice, model=model, record=record)
    if timeout is None:
        timeout = OFFLINE_FIXER_TIMEOUT if choice.offline else REAL_FIXER_TIMEOUT
    if timeout <= 0:
        raise EvaluationError(f"the fixer timeout must be positive, got {timeout}.")
    if choice.kind == "none":
        return NoFixer()
    if choice.kind == "scripted":
        return ScriptedFixers(timeout=timeout)
    if choice.kind == "replay":
        assert choice.cassette is not None
        cassette = Path(choice.cassette)
        if not cassette.is_file():
            raise EvaluationError(
                f"--llm replay: the cassette {cassette} does not exist.",
                hint="Record one first: --llm openai|anthropic --record CASSETTE (needs a key).",
            )
        return SharedFixer(LLMFixer(ReplayProvider(cassette), timeout=timeout))
    provider = make_provider(choice.kind, model=model)
    if record is not None:
        provider = ReplayProvider(record, record_with=provider)
    return SharedFixer(LLMFixer(provider, timeout=timeout))


def check_combination(choice: LLMChoice, *, model: str | None, record: str | None) -> None:
    if record is not None and choice.kind not in REAL_PROVIDERS:
        raise EvaluationError(
            f"--record needs a real provider (--llm openai or anthropic), not {choice.kind!r}.",
            hint="Recording asks the real model and stores its answers for later replay.",
        )
    if model is not None and choice.kind not in REAL_PROVIDERS:
        raise EvaluationError(
            f"--model applies to a real provider (--llm openai or anthropic), not {choice.kind!r}."
        )
