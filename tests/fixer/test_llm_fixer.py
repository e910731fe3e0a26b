"""LLMFixer with offline providers: the contract the engine relies on."""

from __future__ import annotations

import asyncio
import threading

import pytest

from editengine._errors import (
    BadRequest,
    FixerError,
    FixerTimeout,
    InvalidCorrection,
    ProviderError,
    Region,
)
from editengine.fixer import CORRECTION_SCHEMA, Fixer, LLMFixer
from editengine.providers import CallbackProvider, ProviderReply, ScriptedProvider

from .conftest import ANSWER, make_request


def _fixer(provider, clock, **options) -> LLMFixer:
    return LLMFixer(
        provider, clock=clock, sleep=clock.sleep, async_sleep=clock.async_sleep, **options
    )


def test_it_implements_the_fixer_protocol(clock):
    assert isinstance(_fixer(ScriptedProvider(), clock), Fixer)


def test_a_correction_reports_its_cost(clock):
    reply = ProviderReply(
        data=ANSWER, input_tokens=900, output_tokens=40, model="m-1", provider="scripted"
    )
    provider = ScriptedProvider([reply])
    fixer = _fixer(provider, clock)

    correction = fixer.correct(make_request())

    assert (correction.search, correction.replace) == (ANSWER["search"], ANSWER["replace"])
    assert (correction.provider, correction.model) == ("scripted", "m-1")
    assert (correction.input_tokens, correction.output_tokens) == (900, 40)
    request = provider.requests[0]
    assert correction.prompt_chars == len(request.system) + len(request.user)
    assert request.schema == CORRECTION_SCHEMA
    assert request.timeout == 40.0  # the whole default deadline is left for one call


def test_latency_is_measured_with_the_injected_clock(clock):
    def answer_slowly(request):
        clock.now += 1.5
        return ANSWER

    correction = _fixer(CallbackProvider(answer_slowly), clock).correct(make_request())

    assert correction.latency_ms == pytest.approx(1500.0)


def test_a_no_change_verdict_is_returned_and_cached(clock):
    verdict = {**ANSWER, "noChangesRequired": True, "explanation": "Already returns 2."}
    provider = ScriptedProvider([verdict])
    fixer = _fixer(provider, clock)

    first = fixer.correct(make_request())
    second = fixer.correct(make_request())

    assert first.no_changes_required is True and second.cache_hit is True
    assert len(provider.requests) == 1


def test_invalid_answers_are_not_cached(clock):
    provider = ScriptedProvider([{"search": "only"}, ANSWER])
    fixer = _fixer(provider, clock)

    with pytest.raises(InvalidCorrection):
        fixer.correct(make_request())
    assert fixer.correct(make_request()).cache_hit is False
    assert len(provider.requests) == 2


def test_forget_drops_a_cached_correction(clock):
    provider = ScriptedProvider([ANSWER, ANSWER])
    fixer = _fixer(provider, clock)
    fixer.correct(make_request())

    assert fixer.forget(make_request()) is True
    assert fixer.correct(make_request()).cache_hit is False
    assert len(provider.requests) == 2


def test_cache_size_zero_always_asks(clock):
    provider = ScriptedProvider([ANSWER, ANSWER])
    fixer = _fixer(provider, clock, cache_size=0)

    fixer.correct(make_request())
    fixer.correct(make_request())

    assert len(provider.requests) == 2


def test_the_cache_is_bounded(clock):
    provider = ScriptedProvider([ANSWER] * 4)
    fixer = _fixer(provider, clock, cache_size=2)

    for instruction in ("one", "two", "three"):
        fixer.correct(make_request(instruction=instruction))
    fixer.correct(make_request(instruction="one"))  # evicted by "three"

    assert len(provider.requests) == 4 and len(fixer.cache) == 2


def test_a_missing_instruction_is_synthesised_from_the_edit(clock):
    provider = ScriptedProvider([ANSWER])

    _fixer(provider, clock).correct(make_request(instruction=None))

    assert "No instruction was given" in provider.requests[0].user


def test_windowing_is_configurable_and_reported(clock):
    content = "".join(f"line {n}\n" for n in range(1, 101))
    provider = ScriptedProvider([ANSWER])
    fixer = _fixer(provider, clock, window_threshold_lines=50, window_context_lines=2)

    correction = fixer.correct(make_request(content=content, closest=(Region(60, 60, 0.8),)))

    assert correction.windowed is True
    user = provider.requests[0].user
    assert "60\tline 60" in user and "58\tline 58" in user
    assert "57\tline 57" not in user and "63\tline 63" not in user


def test_provider_exceptions_surface_as_fixer_errors(clock):
    provider = ScriptedProvider([ValueError("unexpected SDK failure")])

    with pytest.raises(ProviderError, match="ValueError: unexpected SDK failure"):
        _fixer(provider, clock).correct(make_request())


def test_a_broken_prompt_builder_is_still_a_fixer_error(clock):
    class Broken:
        def build(self, request, **options):
            raise RuntimeError("template bug")

    fixer = _fixer(ScriptedProvider([ANSWER]), clock, prompts=Broken())

    with pytest.raises(FixerError, match="template bug") as caught:
        fixer.correct(make_request())
    assert caught.value.code == "fixer_error"


def test_retries_happen_inside_one_correct_call(clock):
    provider = ScriptedProvider(
        [ProviderError("503", transient=True), ProviderError("429", transient=True), ANSWER]
    )

    correction = _fixer(provider, clock, backoff=None).correct(make_request())

    assert correction.search == ANSWER["search"]
    assert len(provider.requests) == 3
    assert provider.requests[1].timeout < provider.requests[0].timeout  # time left shrinks


def test_a_provider_that_hangs_past_the_deadline_times_out(clock):
    release = threading.Event()

    def hangs(request):
        release.wait(10)
        return ANSWER

    fixer = LLMFixer(CallbackProvider(hangs), timeout=0.2)
    try:
        with pytest.raises(FixerTimeout):
            fixer.correct(make_request())
    finally:
        release.set()
    assert len(fixer.cache) == 0


@pytest.mark.parametrize(
    "option, value",
    [
        ("timeout", 0),
        ("timeout", -1.0),
        ("cache_size", -1),
        ("max_attempts", 0),
        ("window_threshold_lines", -5),
        ("window_context_lines", -1),
        ("window_max_regions", 0),
    ],
)
def test_bad_configuration_is_refused(clock, option, value):
    with pytest.raises(BadRequest, match=option):
        _fixer(ScriptedProvider(), clock, **{option: value})


# ---------------------------------------------------------------------- async


async def test_acorrect_returns_the_same_correction(clock):
    provider = ScriptedProvider([ANSWER])
    fixer = _fixer(provider, clock)

    correction = await fixer.acorrect(make_request())

    assert correction.replace == ANSWER["replace"] and correction.cache_hit is False
    assert (await fixer.acorrect(make_request())).cache_hit is True
    assert len(provider.requests) == 1


async def test_acorrect_with_an_async_callback(clock):
    async def answer(request):
        await asyncio.sleep(0)
        return ANSWER

    correction = await _fixer(CallbackProvider(answer), clock).acorrect(make_request())

    assert correction.provider == "callback"


async def test_acorrect_times_out_on_a_hanging_async_provider():
    async def hangs(request):
        await asyncio.sleep(10)
        return ANSWER

    with pytest.raises(FixerTimeout):
        await LLMFixer(CallbackProvider(hangs), timeout=0.2).acorrect(make_request())


async def test_acorrect_maps_unexpected_errors(clock):
    async def broken(request):
        raise LookupError("bad state")

    with pytest.raises(ProviderError, match="LookupError"):
        await _fixer(CallbackProvider(broken), clock).acorrect(make_request())
