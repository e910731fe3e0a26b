"""One "already applied" rule for every path (matching._already_applied).

An edit is applied only if the text it changes stands at that place, compared no more
leniently than old_string and new_string differ: a whitespace-only change is never
"applied" under a whitespace-blind comparison, a deletion's kept context proves nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine import EditError, apply_patch, edit_text
from editengine._results import Region
from editengine.matching._already_applied import (
    reads_as,
    shows_the_change,
    stands_verbatim,
)
from editengine.matching._whitespace_only import changes_only_whitespace
from editengine.verdict import RelatednessGuard

NAMES = st.sampled_from(["total", "count", "value", "name", "items", "limit", "offset"])


@st.composite
def code(draw: st.DrawFn) -> list[str]:
    """Distinct lines of code, indented with four spaces per level."""
    depths = draw(st.lists(st.integers(0, 2), min_size=3, max_size=7))
    return [
        " " * (4 * depth) + f"{draw(NAMES)}_{index} = compute({index}, {index + 1})"
        for index, depth in enumerate(depths)
    ]


def _trim_trailing(line: str) -> str:
    return line.rstrip(" \t")


# A whitespace-only change of one line: (the file's line before, the line after).
CHANGES = {
    "trailing blanks trimmed": lambda line: (line + "   ", line),
    "hard break added": lambda line: (line, line + "  "),
    "tab for spaces": lambda line: (line, "\t" + line.lstrip(" ")),
    "re-indented": lambda line: (line, "  " + line),
    "spaces around a comma": lambda line: (line, line.replace(", ", ",")),
}

# A whitespace mistake in the quote of that line (what a whitespace-blind tier forgives).
MISTAKES = {
    "extra trailing blanks": lambda line: line + " \t",
    "trailing blanks dropped": _trim_trailing,
    "tabs for the indentation": lambda line: (
        "\t" * ((len(line) - len(line.lstrip())) // 4) + line.lstrip()
    ),
    "spacing squeezed": lambda line: line.replace(" = ", "="),
}


@st.composite
def whitespace_changes(draw: st.DrawFn) -> tuple[str, str, str, str]:
    """(file, old_string, new_string, intended file) for a whitespace-only change whose quote
    carries a whitespace mistake on some line."""
    lines = draw(code())
    first = draw(st.integers(0, len(lines) - 2))
    last = draw(st.integers(first + 1, len(lines) - 1))
    at = draw(st.integers(first, last))
    before, after = CHANGES[draw(st.sampled_from(sorted(CHANGES)))](lines[at])
    file_lines = [*lines]
    file_lines[at] = before
    intended_lines = [*lines]
    intended_lines[at] = after
    quoted = file_lines[first : last + 1]
    wrong = draw(st.integers(first, last))
    mistake = MISTAKES[draw(st.sampled_from(sorted(MISTAKES)))]
    old_lines = [*quoted]
    old_lines[wrong - first] = mistake(quoted[wrong - first])
    new_lines = [*old_lines]
    new_lines[at - first] = after
    file = "\n".join(file_lines) + "\n"
    intended = "\n".join(intended_lines) + "\n"
    return file, "\n".join(old_lines), "\n".join(new_lines), intended


@settings(max_examples=150, deadline=None)
@given(whitespace_changes())
def test_a_whitespace_only_change_is_written_or_refused_never_called_applied(
    case: tuple[str, str, str, str],
) -> None:
    file, old, new, intended = case
    if not changes_only_whitespace(old, new) or intended == file:
        return  # the mistake undid the change: nothing to judge
    try:
        result = edit_text(file, old, new)
    except EditError:
        return
    assert not result.no_change, result.strategy
    assert result.new_content == intended, result.strategy


@settings(max_examples=100, deadline=None)
@given(whitespace_changes())
def test_a_whitespace_only_change_the_file_already_has_is_never_rewritten(
    case: tuple[str, str, str, str],
) -> None:
    _, old, new, intended = case
    if not changes_only_whitespace(old, new):
        return
    try:
        result = edit_text(intended, old, new)
    except EditError:
        return
    # Applied (found verbatim), or a write the quote called for: never another file.
    assert result.no_change or result.new_content != intended


@settings(max_examples=100, deadline=None)
@given(code(), st.data())
def test_a_deletions_new_string_never_shows_the_change(lines: list[str], data) -> None:
    first = data.draw(st.integers(0, len(lines) - 2))
    last = data.draw(st.integers(first + 1, len(lines) - 1))
    gone = data.draw(st.integers(first, last))
    old_lines = lines[first : last + 1]
    new_lines = [line for index, line in enumerate(old_lines) if index != gone - first]
    old, new = "\n".join(old_lines), "\n".join(new_lines)
    assert not shows_the_change(old, new)
    # The file still holding the line: its kept context stands, and proves nothing.
    assert not stands_verbatim("\n".join(lines) + "\n", old, new)


# -- what the rule must still let through -------------------------------------------------


@pytest.mark.parametrize(
    ("content", "old", "new"),
    [
        # An insertion sent again, its quote indented differently.
        (
            "def f():\n    first = 1\n    second = 2\n    third = 3\n",
            "first = 1\nthird = 3",
            "first = 1\nsecond = 2\nthird = 3",
        ),
        # A rename sent again.
        ("total = compute(1)\nprint(total)\n", "count = compute(1)", "total = compute(1)"),
        # A hard break sent again, quoted as the file had it before.
        ("Roses are red  \nViolets are blue\n", "Roses are red\n", "Roses are red  \n"),
        # Trailing blanks trimmed, sent again.
        ("x = compute(1)\ny = compute(2)\n", "x = compute(1)   \ny", "x = compute(1)\ny"),
    ],
    ids=["insertion", "rename", "hard-break", "trimmed"],
)
def test_an_edit_made_before_is_still_answered_applied(content: str, old: str, new: str) -> None:
    result = edit_text(content, old, new)
    assert result.no_change and result.new_content == content
    assert result.strategy == "already_applied"


@pytest.mark.parametrize(
    ("content", "old", "new", "intended"),
    [
        (
            "Roses are red\nViolets are blue\n",
            "\nRoses are red\n",
            "\nRoses are red  \n",
            "Roses are red  \nViolets are blue\n",
        ),
        ("x = 1   \ny = 2\n", "x = 1 \ny = 2", "x = 1\ny = 2", "x = 1\ny = 2\n"),
        (
            "if a:\n\tx = 1\n\ty = 2\n",
            "if a:\n  x = 1\n  y = 2",
            "if a:\n    x = 1\n    y = 2",
            "if a:\n    x = 1\n    y = 2\n",
        ),
        ("a = b+c\n", "a=b+c", "a = b + c", "a = b + c\n"),
        ("def f():\n  return 1\n", "def f():\nreturn 1", "def f():\n    return 1", None),
        ("x = 1\ny = 2\nz = 3\n", "x=1\ny = 2\nz = 3", "x = 1\n\ny = 2\nz = 3", None),
        ("Line one\nLine two\n", "Line one\t\nLine two", "Line one  \nLine two", None),
        (
            "Intro text.\n\n* one item, unless\n  more text\n* two\n",
            "\nIntro text.\n\n* one item, unless\n  more text",
            "Intro text.\n\n* one item, unless  \n  more text",
            "Intro text.\n\n* one item, unless  \n  more text\n* two\n",
        ),
    ],
)
def test_the_reported_whitespace_only_changes_are_written(
    content: str, old: str, new: str, intended: str | None
) -> None:
    result = edit_text(content, old, new)
    assert not result.no_change
    if intended is not None:
        assert result.new_content == intended


def test_a_whitespace_only_change_over_a_shifted_quote_is_refused() -> None:
    # Every line quoted two columns short: the new depth of the re-indented line is unknown.
    content = "  {\n    a: 1,\n    b: 2\n  }\n"
    with pytest.raises(EditError) as refused:
        edit_text(content, "{\n  a: 1,\n  b: 2\n}", "{\n  a: 1,\n\tb: 2\n}")
    assert "whitespace" in str(refused.value)
    assert refused.value.code == "no_match"


# -- the patch path and the fixer go by the same rule -------------------------------------


def test_a_deletion_hunk_quoted_with_a_small_mistake_is_not_applied() -> None:
    content = "def f():\n    x = compute(1)\n    y = other(2)\n    log(x, y)\n    return x\n"
    body = (
        "--- a/f\n+++ b/f\n@@ -1,4 +1,3 @@\n def f():\n     x = compute(1)\n"
        "     y = other(2)\n-    log(x,y)\n"
    )
    result = apply_patch({"f": content}, body, format="udiff")
    assert result.hunks[0].strategy != "already_applied"
    assert result.files["f"] == content.replace("    log(x, y)\n", "")


def test_the_fixers_no_change_is_not_believed_token_for_token_on_a_whitespace_change() -> None:
    guard = RelatednessGuard()
    text = "Roses are red\nViolets are blue\n"
    meant = (Region(1, 1, similarity=0.95),)
    # The place has new_string's tokens but not its two trailing spaces: not applied.
    assert not guard.already_applied_where_meant(
        text=text, old_string="Roses are red \n", new_string="Roses are red  \n", closest=meant
    )


@pytest.mark.parametrize(
    ("old", "new", "written", "place", "expected"),
    [
        ("a \n", "a  \n", "a  \n", "a\n", False),  # whitespace only: byte for byte
        ("a \n", "a  \n", "a  \n", "a  \n", True),
        ("a = 1", "a = 2", "a = 2", "a  =  2", True),  # otherwise the given comparison
    ],
)
def test_reads_as_is_no_more_lenient_than_the_change(
    old: str, new: str, written: str, place: str, expected: bool
) -> None:
    def tokens(a: str, b: str) -> bool:
        return a.split() == b.split()

    assert reads_as(old, new, written, place, tokens) is expected


def test_new_string_standing_with_its_whitespace_forgiven_beside_a_look_alike_is_refused() -> None:
    # Sent again after it was applied, one line of both strings at a neighbour's depth: the
    # quote fits a look-alike (at another depth) line for line, new_string stands below.
    content = (
        "\tif (a) {\n\t\tcall({\n\t\t\t\theaders: response.headers,\n\t\t\t},\n\t\t);\n\t}\n"
        "\treturn make({\n\t\t\theaders_opts: response.headers_opts,\n\t\t},\n\t);\n"
    )
    old = "\t\t\theaders: response.headers,\n\t\t},\n);"
    new = "\t\t\theaders_opts: response.headers_opts,\n\t\t},\n);"
    with pytest.raises(EditError) as refused:
        edit_text(content, old, new)
    assert refused.value.code == "ambiguous"
