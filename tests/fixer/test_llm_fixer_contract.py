"""LLMFixer's promises one by one: its defaults and refusals word for word, who an answer is
attributed to, what a cached or shared answer costs, what an invalid answer still reports,
and how the provider is released."""

from __future__ import annotations

import dataclasses

import pytest

from editengine._errors import BadRequest, FixerError, InvalidCorrection, ProviderError
from editengine.fixer import LLMFixer, PromptBudget, WindowPolicy
from editengine.providers import CallbackProvider, ProviderReply, ScriptedProvider

from .conftest import ANSWER, make_request


def _fixer(provider, clock, **options) -> LLMFixer:
    return LLMFixer(
        provider, clock=clock, sleep=clock.sleep, async_sleep=clock.async_sleep, **options
    )


# ---------------------------------------------------------------------- configuration


def test_the_defaults_are_fifty_cached_answers_and_windows_of_forty_lines_past_400():
    fixer = LLMFixer(ScriptedProvider(), timeout=12.5)

    assert fixer.timeout == 12.5
    assert fixer.cache.maxsize == 50
    assert fixer.prompts.window == WindowPolicy(400, 40, 3)


def test_the_window_settings_reach_the_prompt():
    fixer = LLMFixer(
        ScriptedProvider(), window_threshold_lines=0, window_context_lines=0, window_max_regions=1
    )

    assert fixer.prompts.window == WindowPolicy(0, 0, 1)


def test_a_call_is_tried_four_times_by_default_and_the_refusal_names_the_provider(clock):
    provider = ScriptedProvider([ProviderError("503", transient=True)] * 5)

    with pytest.raises(ProviderError) as caught:
        _fixer(provider, clock).correct(make_request())

    assert len(provider.requests) == 4
    assert caught.value.message.startswith("The LLM fixer (scripted) gave up after 4 attempts")


def test_one_attempt_is_allowed(clock):
    provider = ScriptedProvider([ProviderError("503", transient=True), ANSWER])

    with pytest.raises(ProviderError, match="gave up after 1 attempt: 503"):
        _fixer(provider, clock, max_attempts=1).correct(make_request())


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("timeout", 0, "LLMFixer: timeout must be a positive number of seconds (got 0)."),
        ("cache_size", -1, "LLMFixer: cache_size must be 0 (off) or more (got -1)."),
        ("max_attempts", 0, "LLMFixer: max_attempts must be at least 1 (got 0)."),
        ("window_threshold_lines", -1, "LLMFixer: window_threshold_lines must be >= 0 (got -1)."),
        ("window_context_lines", -2, "LLMFixer: window_context_lines must be >= 0 (got -2)."),
        ("window_max_regions", 0, "LLMFixer: window_max_regions must be >= 1 (got 0)."),
    ],
)
def test_each_bad_setting_is_refused_word_for_word(option, value, message):
    with pytest.raises(BadRequest) as caught:
        LLMFixer(ScriptedProvider(), **{option: value})

    assert caught.value.message == message


class _Sized:
    """A provider whose answers may be as long as ``max_output_tokens`` says."""

    name = "sized"
    model = "unknown-model"

    def __init__(self, max_output_tokens: object) -> None:
        self.max_output_tokens = max_output_tokens


@pytest.mark.parametrize(
    ("max_output_tokens", "kept_for_the_answer"),
    [(1_000, 1_000), (True, 0), ("lots", 0), (None, 0)],
)
def test_only_a_whole_number_of_output_tokens_is_kept_back_from_the_prompt(
    max_output_tokens, kept_for_the_answer
):
    budget = PromptBudget(max_bytes=10_000_000)
    fixer = LLMFixer(_Sized(max_output_tokens), prompt_budget=budget)  # type: ignore[arg-type]  # a stand-in, not the real type

    assert fixer.prompt_limit_bytes == budget.limit_bytes("unknown-model", kept_for_the_answer)


# ---------------------------------------------------------------------- who answered


def test_a_correction_names_the_provider_and_model_that_answered(clock):
    reply = ProviderReply(data=ANSWER, model="m-reply", provider="p-reply")

    correction = _fixer(ScriptedProvider([reply]), clock).correct(make_request())

    assert (correction.provider, correction.model) == ("p-reply", "m-reply")
    assert correction.explanation == "Indentation differed."


def test_a_reply_that_names_no_one_is_the_fixers_provider_and_model(clock):
    reply = ProviderReply(data=ANSWER)
    provider = ScriptedProvider([reply], model="m-own")

    correction = _fixer(provider, clock).correct(make_request())

    assert (correction.provider, correction.model) == ("scripted", "m-own")


class Nameless:
    """A provider with no name and no model: known by its class."""

    name = None

    def complete_json(self, system, user, schema, *, timeout):
        return ProviderReply(data={**ANSWER, "search": ""})


def test_a_provider_without_a_name_is_known_by_its_class(clock):
    with pytest.raises(InvalidCorrection) as caught:
        _fixer(Nameless(), clock).correct(make_request())

    assert caught.value.message.startswith("The nameless model could not locate the edit")
    assert (caught.value.provider, caught.value.model) == ("Nameless", None)


class Bare:
    """A provider with neither a name nor a model attribute."""

    def complete_json(self, system, user, schema, *, timeout):
        return ProviderReply(data=ANSWER)


def test_a_provider_with_neither_name_nor_model_answers_as_its_class(clock):
    correction = _fixer(Bare(), clock).correct(make_request())

    assert (correction.provider, correction.model) == ("Bare", None)


def test_an_answer_off_the_schema_names_the_model_and_what_it_cost(clock):
    reply = ProviderReply(data=["not", "an", "object"], input_tokens=70, output_tokens=7)
    provider = ScriptedProvider([reply], model="m-own")

    with pytest.raises(InvalidCorrection) as caught:
        _fixer(provider, clock).correct(make_request())

    error = caught.value
    assert error.message == "The answer from the scripted model is not a JSON object."
    assert (error.provider, error.model) == ("scripted", "m-own")
    assert (error.input_tokens, error.output_tokens) == (70, 7)


def test_an_answer_off_the_schema_keeps_the_names_its_reply_gave(clock):
    reply = ProviderReply(data={"search": 1}, model="m-reply", provider="p-reply")

    with pytest.raises(InvalidCorrection) as caught:
        _fixer(ScriptedProvider([reply]), clock).correct(make_request())

    assert (caught.value.provider, caught.value.model) == ("p-reply", "m-reply")


@pytest.mark.parametrize("field", ["search", "replace"])
def test_a_lone_surrogate_the_agent_did_not_send_makes_the_answer_invalid(clock, field):
    answer = {**ANSWER, field: "abc\udc80"}

    with pytest.raises(InvalidCorrection) as caught:
        _fixer(ScriptedProvider([answer]), clock).correct(make_request())

    assert caught.value.message == (
        f"The answer from the scripted model is unusable: its {field} text holds a lone "
        "surrogate (U+DC80 at character 3), which cannot be written as UTF-8. The edit you "
        "sent is not at fault."
    )
    assert caught.value.hint == "Fix old_string by hand, or send the edit again."


def test_a_lone_surrogate_the_agent_sent_may_come_back(clock):
    answer = {**ANSWER, "search": "a\udc80", "replace": "b\udc80"}
    request = make_request(old="a\udc80", new="b\udc80")

    correction = _fixer(ScriptedProvider([answer]), clock).correct(request)

    assert (correction.search, correction.replace) == ("a\udc80", "b\udc80")


# ---------------------------------------------------------------------- what an answer costs


def test_a_cached_answer_costs_no_tokens_and_only_its_own_time(clock):
    def answer_slowly(request):
        clock.now += 1.5
        return ProviderReply(data=ANSWER, input_tokens=900, output_tokens=40)

    fixer = _fixer(CallbackProvider(answer_slowly), clock)
    first = fixer.correct(make_request())

    cached = fixer.correct(make_request())

    assert first.latency_ms == pytest.approx(1_500.0)
    assert (cached.cache_hit, cached.latency_ms) == (True, 0.0)
    assert (cached.input_tokens, cached.output_tokens) == (0, 0)
    assert dataclasses.replace(cached, cache_hit=False, latency_ms=first.latency_ms) == (
        dataclasses.replace(first, input_tokens=0, output_tokens=0)
    )


def test_a_leader_answers_from_a_flight_that_landed_while_it_was_looking(clock):
    # The caller's own look found nothing; by the time it leads a call, the answer is there.
    provider = ScriptedProvider([ANSWER])
    fixer = _fixer(provider, clock)
    fixer.correct(make_request())
    real_get = fixer.cache.get
    looks = []

    def get(key):
        looks.append(key)
        return None if len(looks) == 1 else real_get(key)

    fixer.cache.get = get  # type: ignore[method-assign]  # a test double put in place
    answer = fixer.correct(make_request())

    assert answer.cache_hit is True and answer.input_tokens == 0
    assert len(provider.requests) == 1 and looks[0] == looks[1]


async def test_an_async_leader_answers_from_a_flight_that_landed_too(clock):
    provider = ScriptedProvider([ANSWER])
    fixer = _fixer(provider, clock)
    await fixer.acorrect(make_request())
    real_get = fixer.cache.get
    looks = []

    def get(key):
        looks.append(key)
        return None if len(looks) == 1 else real_get(key)

    fixer.cache.get = get  # type: ignore[method-assign]  # a test double put in place
    answer = await fixer.acorrect(make_request())

    assert answer.cache_hit is True
    assert len(provider.requests) == 1 and looks[0] == looks[1]


async def test_an_async_answer_is_cached_under_the_requests_key(clock):
    fixer = _fixer(ScriptedProvider([ANSWER]), clock)

    await fixer.acorrect(make_request())

    assert fixer.forget(make_request()) is True


async def test_an_async_call_sends_the_prompt_within_its_budget(clock):
    content = "".join(f"row_{n} = {n} * factor  # padding to make it long\n" for n in range(3_000))
    provider = ScriptedProvider([ANSWER])
    fixer = _fixer(provider, clock, prompt_budget=PromptBudget(max_bytes=20_000))

    correction = await fixer.acorrect(make_request(content=content))

    sent = provider.requests[0]
    assert len((sent.system + sent.user).encode()) <= 20_000
    assert correction.prompt_budget_bytes == 20_000
    assert correction.prompt_chars == len(sent.system) + len(sent.user)
    assert sent.system.startswith("You correct failed search/replace edits")
    assert "<<<BEGIN file_content" in sent.user
    assert sent.schema["required"] == ["search", "replace", "noChangesRequired", "explanation"]
    assert sent.timeout == 40.0


async def test_async_retries_sleep_with_the_async_sleep_given(clock):
    provider = ScriptedProvider([ProviderError("503", transient=True), ANSWER])

    await _fixer(provider, clock).acorrect(make_request())

    assert len(clock.sleeps) == 1 and len(provider.requests) == 2


@pytest.mark.parametrize("run", ["sync", "async"])
async def test_a_cut_off_answer_still_reports_the_prompt_it_paid_for(clock, run):
    def cut_off(request):
        clock.now += 0.25
        raise InvalidCorrection("The answer was cut off.", output_tokens=512)

    fixer = _fixer(CallbackProvider(cut_off, model="m-own"), clock)

    with pytest.raises(InvalidCorrection) as caught:
        if run == "sync":
            fixer.correct(make_request())
        else:
            await fixer.acorrect(make_request())

    error = caught.value
    prompt = fixer.prompts.build(make_request(), max_bytes=fixer.prompt_limit_bytes)
    assert (error.provider, error.model, error.output_tokens) == ("callback", "m-own", 512)
    assert (error.prompt_chars, error.prompt_bytes) == (prompt.chars, prompt.size_bytes)
    assert error.windowed is False
    assert error.latency_ms == pytest.approx(250.0)


def test_an_invalid_answer_keeps_the_provider_and_model_it_names(clock):
    def cut_off(request):
        raise InvalidCorrection("Cut off.", provider="p-error", model="m-error")

    with pytest.raises(InvalidCorrection) as caught:
        _fixer(CallbackProvider(cut_off), clock).correct(make_request())

    assert (caught.value.provider, caught.value.model) == ("p-error", "m-error")


@pytest.mark.parametrize("run", ["sync", "async"])
async def test_an_unexpected_failure_is_a_fixer_error_that_says_so(clock, run):
    class Broken:
        def build(self, request, **options):
            raise RuntimeError("template bug")

    fixer = _fixer(ScriptedProvider([ANSWER]), clock, prompts=Broken())

    with pytest.raises(FixerError) as caught:
        if run == "sync":
            fixer.correct(make_request())
        else:
            await fixer.acorrect(make_request())

    assert caught.value.message == ("The LLM fixer failed unexpectedly: RuntimeError: template bug")
    assert caught.value.hint == (
        "The original edit error stands. Please report this as a bug in editengine."
    )


# ---------------------------------------------------------------------- releasing the provider


class _Closable:
    name = "closable"

    def __init__(self) -> None:
        self.closed: list[str] = []

    def close(self) -> None:
        self.closed.append("close")


class _AsyncClosable(_Closable):
    async def aclose(self) -> None:
        self.closed.append("aclose")


def test_closing_the_fixer_closes_its_provider():
    provider = _Closable()

    with LLMFixer(provider) as fixer:  # type: ignore[arg-type]  # a stand-in, not the real type
        assert provider.closed == []
    fixer.close()

    assert provider.closed == ["close", "close"]


def test_a_provider_without_close_is_left_alone():
    LLMFixer(ScriptedProvider()).close()


async def test_closing_asynchronously_prefers_the_providers_aclose():
    async_provider, provider = _AsyncClosable(), _Closable()

    async with LLMFixer(async_provider) as fixer:  # type: ignore[arg-type]  # a stand-in, not the real type
        assert async_provider.closed == []
    await LLMFixer(provider).aclose()  # type: ignore[arg-type]  # a stand-in, not the real type
    await LLMFixer(ScriptedProvider()).aclose()

    assert fixer.provider is async_provider
    assert async_provider.closed == ["aclose"]
    assert provider.closed == ["close"]
