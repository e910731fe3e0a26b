"""The prompt budget: bytes and estimated tokens, per model, and how a file is cut to fit."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editengine._errors import BadRequest, NoMatch, Region
from editengine.fixer import LLMFixer, PromptBuilder, WindowPolicy
from editengine.fixer._budget import PromptBudget, context_tokens
from editengine.fixer._prompt import PromptTooLarge
from editengine.fixer._window import excerpt
from editengine.providers import ScriptedProvider

from .conftest import ANSWER, make_request


def test_known_models_have_their_context_window():
    assert context_tokens("gpt-4.1-mini") == 1_047_576
    assert context_tokens("gpt-4o-mini-2024-07-18") == 128_000
    assert context_tokens("gpt-4") == 8_192
    assert context_tokens("claude-haiku-4-5") == 200_000
    assert context_tokens("some-local-model") == 128_000


def test_the_byte_limit_is_the_tighter_of_bytes_and_tokens():
    budget = PromptBudget(max_bytes=80_000)

    assert budget.limit_bytes("claude-haiku-4-5", 4096) == 80_000  # bytes bind
    # an 8k-token model: half its window, less the answer's tokens, at 3 bytes a token
    assert budget.limit_bytes("gpt-4", 1_000) == (4_096 - 1_000) * 3
    assert PromptBudget(max_bytes=500_000, max_tokens=10_000).limit_bytes("gpt-4.1") == 30_000
    assert PromptBudget(max_tokens=500).limit_bytes("gpt-4.1") == 8_000  # the floor
    assert budget.estimate_tokens(3_001) == 1_001


@pytest.mark.parametrize(
    "options",
    [{"max_bytes": 5_000}, {"max_tokens": 3}, {"bytes_per_token": 0}, {"context_share": 1.5}],
)
def test_a_nonsense_budget_is_a_bad_request(options):
    with pytest.raises(BadRequest):
        PromptBudget(**options)


def test_the_token_limit_keeps_nothing_back_for_an_answer_unless_told():
    budget = PromptBudget()
    assert budget.token_limit("gpt-4") == budget.token_limit("gpt-4", 0) == 4_096
    assert budget.limit_bytes("gpt-4") == 4_096 * 3
    assert budget.token_limit("gpt-4", -50) == 4_096  # a negative answer size frees nothing


def test_the_token_limit_never_falls_under_500_tokens():
    assert PromptBudget().token_limit("gpt-4", 3_596) == 500
    assert PromptBudget().token_limit("gpt-4", 4_000) == 500


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"max_bytes": 7_999},
            "PromptBudget: max_bytes must be at least 8,000 (got 7,999): the fixer's "
            "instructions alone take about 3.5 KB.",
        ),
        ({"max_tokens": 499}, "PromptBudget: max_tokens must be at least 500 (got 499)."),
        ({"bytes_per_token": -1.0}, "PromptBudget: bytes_per_token must be positive (got -1.0)."),
        ({"context_share": 0}, "PromptBudget: context_share must be in (0, 1] (got 0)."),
    ],
)
def test_a_nonsense_budget_says_which_setting_and_its_bounds(options, message):
    with pytest.raises(BadRequest) as refused:
        PromptBudget(**options)
    assert str(refused.value) == message


def test_the_edges_of_each_setting_are_allowed():
    budget = PromptBudget(max_bytes=8_000, max_tokens=500, bytes_per_token=0.5, context_share=1)
    assert budget.limit_bytes("gpt-4") == 8_000
    assert PromptBudget(context_share=1).token_limit("gpt-4") == 8_192


def test_a_small_file_goes_whole_within_the_budget():
    request = make_request()

    prompt = PromptBuilder().build(request, max_bytes=80_000)

    assert not prompt.windowed and prompt.clipped_lines == 0
    assert prompt.size_bytes <= 80_000 and prompt.budget_bytes == 80_000


def _wide_file(lines: int, width: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(f"k{rng.randint(0, 99999)}=v;" for _ in range(width // 9))[:width]
        for _ in range(lines)
    ]


def test_a_file_under_the_line_threshold_but_over_the_bytes_is_windowed():
    lines = _wide_file(300, 2_000)
    lines[150] = "limit = compute_limit(user, tier='gold')"
    content = "\n".join(lines) + "\n"
    error = NoMatch("old_string was not found.", closest=(Region(151, 151, 0.8),))
    request = make_request(content, old="limit = computeLimit(user)", new="limit = 0")
    request = type(request)(**{**request.__dict__, "error": error})

    prompt = PromptBuilder().build(request, max_bytes=40_000)

    assert prompt.windowed and prompt.size_bytes <= 40_000
    assert "151\tlimit = compute_limit(user, tier='gold')" in prompt.user
    assert prompt.shown_lines < 300


def test_long_lines_are_shortened_around_the_quote():
    lines = _wide_file(5, 300_000)
    target = "total = apply_discount(basket, rate=0.15)"
    lines[2] = lines[2][:150_000] + target + lines[2][150_000:]
    policy = WindowPolicy()

    shown = excerpt(policy, lines, [Region(3, 3, 0.7)], needle=target, max_bytes=20_000)

    assert shown is not None and shown.clipped_lines >= 1
    assert len(shown.text.encode()) <= 20_000
    assert target in shown.text
    assert "characters not shown" in shown.text


def test_without_a_closest_region_the_likeliest_line_is_shown():
    lines = _wide_file(300, 4_000)
    target = "var total=applyDiscount(basket,{rate:0.15});"
    lines[199] = lines[199][:2_000] + target + lines[199][2_000:]

    shown = excerpt(
        WindowPolicy(),
        lines,
        [],
        needle="var total = apply_discount(basket, rate=0.15)",
        max_bytes=60_000,
    )

    assert shown is not None and shown.windowed
    assert target in shown.text and "200\t" in shown.text


def test_an_edit_larger_than_the_budget_is_not_sent():
    provider = ScriptedProvider([ANSWER])
    fixer = LLMFixer(provider, prompt_budget=PromptBudget(max_bytes=8_000))
    huge = "x = 1\n" * 2_000  # 12 KB of old_string

    with pytest.raises(PromptTooLarge) as caught:
        fixer.correct(make_request(old=huge))

    assert provider.requests == []  # nothing paid for
    assert "prompt budget of 8,000 bytes" in str(caught.value)
    assert "Quote a smaller old_string" in str(caught.value)


def test_the_fixer_reports_the_budget_it_used():
    provider = ScriptedProvider([ANSWER])
    fixer = LLMFixer(provider, prompt_budget=PromptBudget(max_bytes=50_000))

    correction = fixer.correct(make_request())

    assert correction.prompt_budget_bytes == 50_000
    assert correction.prompt_bytes == len(provider.requests[0].system.encode()) + len(
        provider.requests[0].user.encode()
    )
    assert correction.prompt_tokens == -(-correction.prompt_bytes // 3)


def test_every_prompt_of_a_random_file_fits_its_budget():
    rng = random.Random(11)
    for _ in range(15):
        count = rng.randint(1, 900)
        lines = _wide_file(count, rng.choice([10, 80, 400, 5_000]), seed=rng.randint(0, 999))
        content = "\n".join(lines) + "\n"
        line = rng.randint(1, count)
        error = NoMatch("not found", closest=(Region(line, line, 0.7),))
        request = make_request(content, old=lines[line - 1][:60] + "X", new="y = 1")
        request = type(request)(**{**request.__dict__, "error": error})
        budget = rng.choice([8_000, 30_000, 80_000])

        prompt = PromptBuilder().build(request, max_bytes=budget)

        assert prompt.size_bytes <= budget
        # the closest line is always among those shown
        assert re.search(rf"^ *{line}\t", prompt.user, re.MULTILINE)


_LINE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
    max_size=3_000,
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    lines=st.lists(_LINE, max_size=40),
    budget=st.integers(8_000, 30_000),
    old=st.text(max_size=300),
    regions=st.lists(
        st.tuples(st.integers(-2, 50), st.integers(0, 5), st.floats(0, 1)), max_size=4
    ),
    threshold=st.integers(0, 50),
)
def test_any_prompt_fits_its_budget_or_is_refused(lines, budget, old, regions, threshold):
    content = "\n".join(lines) + ("\n" if lines else "")
    closest = tuple(Region(start, start + extra, sim) for start, extra, sim in regions)
    request = make_request(content, old=old, new="new")
    request = type(request)(**{**request.__dict__, "error": NoMatch("nf", closest=closest)})
    builder = PromptBuilder(window=WindowPolicy(threshold_lines=threshold))

    try:
        prompt = builder.build(request, max_bytes=budget)
    except PromptTooLarge:
        return
    assert prompt.size_bytes <= budget
