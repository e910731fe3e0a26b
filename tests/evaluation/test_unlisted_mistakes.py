"""Properties of the unlisted mistake classes (``mistakes.UNLISTED_MISTAKES``), searched by
hypothesis on requests cut from the bundled sources with ``cross_product.cut``.

Of the generator (these must hold for the benchmark to be right):

* every case really breaks exact matching (or carries its mistake in new_string only);
* a case a careful human can place round-trips: undoing the class's damage on old and new
  and applying the edit exactly gives the intended file;
* a meaning-changing case's quote stands nowhere, not even re-spaced, before or after the
  edit: only a refusal is right.

Of the engine (``edit_text``): a meaning-changing quote is never written, and a transport
mistake never writes its damage into the file. Where the engine does not hold them yet, the
cell is marked ``xfail`` with the reason (docs/evaluation.md); a refusal is always allowed.
"""

from __future__ import annotations

import html
import random
import re

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from editengine import EditError, edit_text
from editengine.evaluation import _cross_product as cp
from editengine.evaluation import _edit_kinds as ek
from editengine.evaluation import _mistakes as mk
from editengine.evaluation._mistakes._unlisted import _TYPOGRAPHY as TYPOGRAPHY

from .cross_sources import source_file, unit_of

PROPERTY = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)

# The engine's cells fail where ENGINE_WRONG_TODAY says: no shrinking of a known failure.
ENGINE = settings(PROPERTY, phases=(Phase.explicit, Phase.generate))

_GUTTER = re.compile(r"^(?: *\d+ \u2502 |L\d+: |\d+\| | *\d+  |\d+:\t)", re.MULTILINE)
_TYPESET = {fancy: plain for plain, fancy in TYPOGRAPHY}


def _unescape(text: str) -> str:
    out, i = [], 0
    table = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in table:
            out.append(table[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _untypeset(text: str) -> str:
    for fancy, plain in _TYPESET.items():
        text = text.replace(fancy, plain)
    return text


def _nbsp_back(text: str) -> str:
    return "\n".join(
        re.sub(r"^[ \u00a0\t]+", lambda m: m.group(0).replace("\u00a0", " "), line)
        for line in text.split("\n")
    )


# How each placeable class's damage is undone (a careful human's reading of the quote).
DECODINGS = {
    "html_entities": html.unescape,
    "double_escaped": lambda text: _unescape(_unescape(text)),
    "read_tool_gutter": lambda text: _GUTTER.sub("", text),
    "invisible_chars": lambda text: "".join(c for c in text if c not in mk.INVISIBLES),
    "typographic_operators": _untypeset,
    "crlf_in_new": lambda text: text.replace("\r\n", "\n"),
    "nbsp_indentation": _nbsp_back,
}
PLACEABLE = tuple(m for m, o in mk.UNLISTED_OUTCOMES.items() if o == "intended")

# Cells the engine writes wrong today (docs/evaluation.md lists the causes).
ENGINE_WRONG_TODAY: dict[str, str] = {}


@st.composite
def cuts(draw: st.DrawFn, mistake: str, kind: str) -> tuple[str, cp.Cut]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(60):
        lines, lang = source_file(rng, mistake)
        made = cp.cut(rng, lines, lang, kind, mistake, unit=unit_of(lines))
        if made is not None:
            return "\n".join(lines) + "\n", made
    assume(False)
    raise AssertionError("unreachable")


def _cells(mistakes) -> list:
    return [pytest.param(m, k, id=f"{m}-{k}") for m, k in mk.unlisted_pairings() if m in mistakes]


def test_every_class_is_paired_with_every_block_edit_and_says_its_outcome():
    pairs = mk.unlisted_pairings()
    assert len(mk.UNLISTED_MISTAKES) >= 10
    for mistake in mk.UNLISTED_MISTAKES:
        assert {k for m, k in pairs if m == mistake} >= set(ek.BLOCK_KINDS), mistake
    assert set(mk.UNLISTED_OUTCOMES) == set(mk.UNLISTED_MISTAKES)
    assert set(mk.UNLISTED_OUTCOMES.values()) <= {"intended", "either", "refuse"}
    assert not set(mk.UNLISTED_MISTAKES) & set(mk.BLOCK_MISTAKES)  # earlier cells unchanged
    assert set(DECODINGS) == set(PLACEABLE)


@pytest.mark.parametrize(("mistake", "kind"), _cells(mk.UNLISTED_MISTAKES))
@PROPERTY
@given(data=st.data())
def test_every_case_really_breaks_exact_matching(mistake, kind, data):
    content, made = data.draw(cuts(mistake, kind))
    assert made.mistakes == (mistake,)
    assert "\n".join(made.lines_after) + "\n" != content
    if mistake == "crlf_in_new":
        assert made.old_string in content and "\r\n" in made.new_string
    else:
        assert made.old_string.replace("\r\n", "\n") not in content


@pytest.mark.parametrize(("mistake", "kind"), _cells(PLACEABLE))
@PROPERTY
@given(data=st.data())
def test_a_placeable_case_round_trips_through_its_decoding(mistake, kind, data):
    content, made = data.draw(cuts(mistake, kind))
    decode = DECODINGS[mistake]
    result = edit_text(
        content,
        decode(made.old_string),
        decode(made.new_string),
        replace_all=made.replace_all,
        expected_replacements=made.expected_replacements,
        cascade=None,
    )
    assert result.strategy == "exact", made.notes
    assert result.new_content == "\n".join(made.lines_after) + "\n", made.notes


@pytest.mark.parametrize(("mistake", "kind"), _cells(mk.MEANING_CHANGING))
@PROPERTY
@given(data=st.data())
def test_a_meaning_changing_quote_stands_nowhere_before_or_after(mistake, kind, data):
    content, made = data.draw(cuts(mistake, kind))
    old = made.old_string
    before, after = content.rstrip("\n").split("\n"), list(made.lines_after)
    for lines in (before, after):
        assert ek.squash(old) not in ek.squash("\n".join(lines)), made.notes
        assert not cp.trimmed_windows(lines, old.split("\n")), made.notes
    assert old != made.quoted


def _engine_cells(mistakes) -> list:
    params = []
    for mistake, kind in mk.unlisted_pairings():
        if mistake not in mistakes:
            continue
        marks = []
        if mistake in ENGINE_WRONG_TODAY:
            marks.append(pytest.mark.xfail(strict=False, reason=ENGINE_WRONG_TODAY[mistake]))
        params.append(pytest.param(mistake, kind, id=f"{mistake}-{kind}", marks=marks))
    return params


@pytest.mark.parametrize(("mistake", "kind"), _engine_cells(mk.MEANING_CHANGING))
@ENGINE
@given(data=st.data())
def test_the_engine_never_writes_a_meaning_changing_quote(mistake, kind, data):
    content, made = data.draw(cuts(mistake, kind))
    for sent_to in (content, "\n".join(made.lines_after) + "\n"):  # fresh, then again
        try:
            after = edit_text(sent_to, made.old_string, made.new_string).new_content
        except EditError:
            continue
        assert after == sent_to, f"written: {made.notes}\nold_string={made.old_string!r}"


@pytest.mark.parametrize(("mistake", "kind"), _engine_cells(PLACEABLE))
@ENGINE
@given(data=st.data())
def test_the_engine_gives_the_intended_file_or_refuses(mistake, kind, data):
    content, made = data.draw(cuts(mistake, kind))
    try:
        result = edit_text(
            content,
            made.old_string,
            made.new_string,
            replace_all=made.replace_all,
            expected_replacements=made.expected_replacements,
        )
    except EditError:
        return
    assert result.new_content == "\n".join(made.lines_after) + "\n", (
        f"wrong ({result.strategy}): {made.notes}\nold_string={made.old_string!r}"
    )


def _whitespace_cells() -> list:
    return [pytest.param(m, id=m) for m in mk.WHITESPACE_CHANGE_MISTAKES]


@pytest.mark.parametrize("mistake", _whitespace_cells())
@ENGINE
@given(data=st.data())
def test_a_whitespace_only_change_is_never_called_already_applied(mistake, data):
    content, made = data.draw(cuts(mistake, "whitespace_only"))
    intended = "\n".join(made.lines_after) + "\n"
    assert intended != content and ek.squash(intended) == ek.squash(content)
    try:
        result = edit_text(content, made.old_string, made.new_string)
    except EditError:
        return
    assert not result.no_change, f"called applied ({result.strategy}): {made.notes}"
    assert result.new_content == intended, f"wrong ({result.strategy}): {made.notes}"
