"""Properties over the benchmark's cross product (every edit kind x every mistake class),
searched by hypothesis on requests cut from the bundled sources with ``cross_product.cut``.

* A fresh request through ``edit_text`` yields exactly the intended file.
* The same request sent again to that file leaves it unchanged (a no-op or a refusal),
  never a second application.
* A deletion with any single mistake deletes exactly the quoted lines.
* A quote with line-number prefixes or a wrapping fence never writes a prefix or a fence
  into a file that had none.

A refusal of a mistake class the cascade does not handle yet raises :class:`NotYetHandled`,
which the cells of :data:`NOT_YET_HANDLED` expect (``xfail(raises=NotYetHandled)``). A wrong
edit is an ``AssertionError`` and fails every cell: it is never expected.
"""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from editengine import edit_text
from editengine._errors import EditError
from editengine.evaluation import _cross_product as cp
from editengine.evaluation import _mistakes as mk
from editengine.matching._meaning import meaning_difference

from .cross_sources import source_file, unit_of

# Mistake classes (or single cells, as ``(mistake, edit kind)``) the cascade does not place
# yet: a refusal of them is expected until the engine handles them; a wrong edit never is.
# Remove an entry once the engine places it.
NOT_YET_HANDLED: frozenset[str | tuple[str, str]] = frozenset(
    {
        # A fragment of a minified line cut right after an opening bracket (``,"b": {``) and
        # quoted with other spacing: the whitespace tier takes no place that ends inside an
        # expression (``y=f(`` of ``y = f("x")``), so the cut is refused, never written wrong.
        ("long_line", "literal"),
    }
)


def not_yet_handled(mistakes: tuple[str, ...], kind: str) -> bool:
    return any(m in NOT_YET_HANDLED or (m, kind) in NOT_YET_HANDLED for m in mistakes)


PROPERTY = settings(
    max_examples=5,
    deadline=None,
    derandomize=True,  # the same examples every run: a failure is reproducible
    database=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


class NotYetHandled(Exception):
    """A recoverable mistake of a class in NOT_YET_HANDLED was refused."""


@dataclass(frozen=True)
class Request:
    content: str
    expected: str
    cut: cp.Cut

    def send(self, content: str) -> str:
        """The file after the request (``content`` itself when refused)."""
        result = edit_text(
            content,
            self.cut.old_string,
            self.cut.new_string,
            replace_all=self.cut.replace_all,
            expected_replacements=self.cut.expected_replacements,
        )
        return result.new_content

    def __repr__(self) -> str:  # what hypothesis prints for a falsifying example
        return f"Request({self.describe()!r})"

    def _repr_pretty_(self, printer, cycle) -> None:  # hypothesis' pretty printer
        printer.text(repr(self))

    def describe(self) -> str:
        return (
            f"{self.cut.kind} x {'+'.join(self.cut.mistakes)} ({self.cut.notes})\n"
            f"old_string={self.cut.old_string!r}\nnew_string={self.cut.new_string!r}"
        )


@st.composite
def requests(draw: st.DrawFn, mistake: str, kind: str) -> Request:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(40):
        lines, lang = source_file(rng, mistake)
        made = cp.cut(rng, lines, lang, kind, mistake, unit=unit_of(lines))
        if made is not None:
            return Request("\n".join(lines) + "\n", "\n".join(made.lines_after) + "\n", made)
    assume(False)
    raise AssertionError("unreachable")


def _cells(*, refusals_expected: bool, only: tuple[str, ...] | None = None) -> list:
    """The cross product's cells as parameters. Where a test fails on refusals, the cells
    that may refuse today expect :class:`NotYetHandled` (and nothing else)."""
    params = []
    for mistake, kind in mk.cross_pairings():
        if only is not None and mistake not in only:
            continue
        marks = []
        pairs = mk.TWO_MISTAKES if mistake == "two_mistakes" else ((mistake,),)
        may_refuse = any(not_yet_handled(pair, kind) for pair in pairs)
        if refusals_expected and may_refuse:
            marks.append(
                pytest.mark.xfail(
                    raises=NotYetHandled,
                    strict=False,
                    reason=f"{mistake} x {kind}: refused until the cascade handles it",
                )
            )
        params.append(pytest.param(mistake, kind, marks=marks, id=f"{mistake}-{kind}"))
    return params


def _refused(request: Request, error: EditError) -> NotYetHandled | AssertionError | None:
    """What a refusal means here: ``None`` when it is right (the mistake changed the
    quote's meaning: a typo that struck a number, a keyword, an operator or the inside of a
    string literal is never forgiven), else a failure."""
    if error.code == "no_match" and _changes_meaning(request):
        return None
    message = f"refused ({error.code}): {request.describe()}"
    if not_yet_handled(request.cut.mistakes, request.cut.kind):
        return NotYetHandled(message)
    return AssertionError(message)


def _changes_meaning(request: Request) -> bool:
    quote, meant = request.cut.old_string.split("\n"), request.cut.quoted.split("\n")
    return len(quote) == len(meant) and any(
        meaning_difference(ours.strip(), theirs.strip(), request.content) is not None
        for ours, theirs in zip(quote, meant)
        if ours.strip() != theirs.strip()
    )


def _diff(expected: str, actual: str) -> str:
    lines = difflib.unified_diff(expected.splitlines(), actual.splitlines(), lineterm="", n=1)
    return "\n".join(list(lines)[:40])


@pytest.mark.parametrize(("mistake", "kind"), _cells(refusals_expected=True))
@PROPERTY
@given(data=st.data())
def test_a_fresh_request_yields_exactly_the_intended_file(mistake, kind, data):
    request = data.draw(requests(mistake, kind))
    try:
        after = request.send(request.content)
    except EditError as error:
        failure = _refused(request, error)
        if failure is None:
            return
        raise failure from None
    assert after == request.expected, (
        f"WRONG: {request.describe()}\n{_diff(request.expected, after)}"
    )


@pytest.mark.parametrize(("mistake", "kind"), _cells(refusals_expected=False))
@PROPERTY
@given(data=st.data())
def test_the_same_request_sent_again_leaves_the_file_unchanged(mistake, kind, data):
    request = data.draw(requests(mistake, kind))
    assume(cp.retry_is_unchanged(request.cut))
    try:
        after = request.send(request.expected)
    except EditError:
        return  # a refusal leaves the file as it is: right for a retry
    assert after == request.expected, (
        f"applied twice: {request.describe()}\n{_diff(request.expected, after)}"
    )


@pytest.mark.parametrize(
    ("mistake", "kind"),
    [
        p
        for p in _cells(refusals_expected=True, only=tuple(mk.BLOCK_MISTAKES))
        if p.values[1] == "delete_lines"
    ],
)
@PROPERTY
@given(data=st.data())
def test_a_deletion_with_any_single_mistake_deletes_exactly_the_quoted_lines(mistake, kind, data):
    request = data.draw(requests(mistake, kind))
    before = request.content.split("\n")
    try:
        result = edit_text(request.content, request.cut.old_string, request.cut.new_string)
    except EditError as error:
        failure = _refused(request, error)
        if failure is None:
            return
        raise failure from None
    assert not result.no_change, f"reported as already applied: {request.describe()}"
    after = result.new_content.split("\n")
    wanted = request.expected.split("\n")
    gone = [
        line
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, wanted).get_opcodes()
        if tag == "delete"
        for line in before[i1:i2]
    ]
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    assert all(tag in ("equal", "delete") for tag, *_ in ops), (
        f"a deletion changed other lines: {request.describe()}\n"
        + _diff(request.content, result.new_content)
    )
    deleted = [line for tag, i1, i2, _, _ in ops if tag == "delete" for line in before[i1:i2]]
    assert deleted == gone, f"deleted {deleted!r}, not {gone!r}: {request.describe()}"


_PREFIX = re.compile(r"^ *\d+(?:\t|\u2192|: | \| )")
_FENCE = re.compile(r"^\s*```")


def _written(before: str, after: str) -> list[str]:
    ops = difflib.SequenceMatcher(None, before.split("\n"), after.split("\n"), autojunk=False)
    lines = after.split("\n")
    return [
        line for tag, _, _, j1, j2 in ops.get_opcodes() if tag != "equal" for line in lines[j1:j2]
    ]


@pytest.mark.parametrize(
    ("mistake", "kind"),
    _cells(refusals_expected=False, only=("line_number_prefix", "markdown_fence", "two_mistakes")),
)
@PROPERTY
@given(data=st.data())
def test_prefixes_and_fences_are_never_written_into_a_file(mistake, kind, data):
    request = data.draw(requests(mistake, kind))
    assume({"line_number_prefix", "markdown_fence"} & set(request.cut.mistakes))
    intended = set(request.expected.split("\n"))
    for content in (request.content, request.expected):  # fresh, then sent again
        try:
            after = request.send(content)
        except EditError:
            continue
        for line in _written(content, after):
            if line in intended:
                continue  # the file's own text, or the edit's
            assert not _FENCE.match(line), f"fence written: {line!r}\n{request.describe()}"
            assert not _PREFIX.match(line), f"prefix written: {line!r}\n{request.describe()}"


@st.composite
def refusals(draw: st.DrawFn, safety: str, mistake: str) -> tuple[str, cp.Cut]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(40):
        lines, lang = source_file(rng, mistake)
        if safety == "absent":
            sibling, sibling_lang = source_file(rng, mistake)
            if sibling_lang != lang or sibling == lines:
                continue
            made = cp.cut_absent(rng, lines, sibling, lang, mistake, unit=unit_of(lines))
        else:
            made = cp.cut_ambiguous(rng, lines, lang, mistake, unit=unit_of(lines))
        if made is not None:
            return "\n".join(made.lines_after) + "\n", made
    assume(False)
    raise AssertionError("unreachable")


@pytest.mark.parametrize(
    ("safety", "mistake"), [pytest.param(*c, id="-".join(c)) for c in mk.safety_cells()]
)
@PROPERTY
@given(data=st.data())
def test_an_absent_or_ambiguous_quote_is_refused_whatever_its_mistake(safety, mistake, data):
    content, made = data.draw(refusals(safety, mistake))
    try:
        after = edit_text(content, made.old_string, made.new_string).new_content
    except EditError:
        return
    assert after == content, (
        f"{safety} quote placed: {made.kind} x {mistake} ({made.notes})\n"
        f"old_string={made.old_string!r}\n{_diff(content, after)}"
    )
