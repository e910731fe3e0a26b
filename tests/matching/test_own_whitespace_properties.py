"""Each line keeps its own whitespace: a misquoted line's shift is that line's alone, and a
tier that forgives spacing never changes new_string's own spacing."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from editengine import EditError, edit_text

STATEMENTS = st.sampled_from(
    ["total += step", "count = count + 1", "log(value)", "items.push(entry)", "return result"]
)


@st.composite
def tab_blocks(draw: st.DrawFn) -> list[str]:
    """Lines indented with tabs, depths changing by at most one level, each distinct."""
    depth, lines = 1, []
    for index in range(draw(st.integers(5, 8))):
        depth = max(1, depth + draw(st.integers(-1, 1)))
        lines.append("\t" * depth + f"{draw(STATEMENTS)}  // {index}")
    return lines


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip("\t "))]


@settings(max_examples=120, deadline=None)
@given(tab_blocks(), st.data())
def test_an_inserted_line_is_not_moved_by_a_misquoted_neighbour(lines: list[str], data) -> None:
    content = "function f() {\n" + "\n".join(lines) + "\n}\n"
    at = data.draw(st.integers(1, len(lines) - 1))  # inserted before lines[at]
    inserted = _indent(lines[at]) + "// inserted note"
    # One line quoted at a neighbour's depth (the one before the insertion, say).
    candidates = [
        m
        for m in range(len(lines))
        for n in (m - 1, m + 1)
        if 0 <= n < len(lines) and _indent(lines[n]) != _indent(lines[m])
    ]
    assume(candidates)
    m = data.draw(st.sampled_from(candidates))
    neighbour = m - 1 if m > 0 and _indent(lines[m - 1]) != _indent(lines[m]) else m + 1
    quoted = [*lines]
    quoted[m] = _indent(lines[neighbour]) + lines[m].lstrip("\t")
    old = "\n".join(quoted)
    new = "\n".join([*quoted[:at], inserted, *quoted[at:]])
    intended = "function f() {\n" + "\n".join([*lines[:at], inserted, *lines[at:]]) + "\n}\n"
    try:
        result = edit_text(content, old, new)
    except EditError:
        return
    assert result.new_content == intended, result.strategy


def test_the_reported_neighbour_indent_case_keeps_the_inserted_lines_depth() -> None:
    content = (
        "function f(data) {\n\tconst entries = []\n\tdata.forEach((entry) => {\n"
        "\t\tif (!entry) {\n\t\t\treturn\n\t\t}\n\t\tentries.push(entry)\n\t})\n}\n"
    )
    old = (
        "\tconst entries = []\n\t\tdata.forEach((entry) => {\n\t\tif (!entry) {\n"
        "\t\t\treturn\n\t\t}\n\t\tentries.push(entry)"
    )
    new = old.replace("\t\tif (!entry)", "\t\t// skip empty input\n\t\tif (!entry)")
    result = edit_text(content, old, new)
    assert "\n\t\t// skip empty input\n\t\tif (!entry) {" in result.new_content


OPERATORS = ["<=", "<", ">=", ">", "==", "!="]


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(OPERATORS),
    st.sampled_from(OPERATORS),
    st.integers(1, 30),
    st.data(),
)
def test_a_wrapped_quote_never_changes_new_strings_own_spacing(
    op: str, new_op: str, limit: int, data
) -> None:
    assume(op != new_op)
    head = "\t\tif d := last.Add(p.MaxIdleDuration).Sub(time.Now());"
    line = f"{head} d {op} {limit} {{"
    body = '\t\t\tlog.Println("idle")\n\t\t}\n\t\tmu.Unlock()'
    content = f"{line}\n{body}\n"
    old = f"{head}\n\t\t\td {op} {limit} {{\n{body}"
    new = f"{head} d {new_op} {limit} {{\n{body}"
    try:
        result = edit_text(content, old, new)
    except EditError:
        return
    assert result.new_content == f"{head} d {new_op} {limit} {{\n{body}\n", result.strategy


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["    ", "  ", "\t", "        "]),
    st.sampled_from(["", " ", "  ", "\t"]),
    st.integers(0, 50),
    st.integers(51, 99),
)
def test_a_quote_starting_mid_line_keeps_the_files_indentation_of_its_later_lines(
    indent: str, quoted_indent: str, value: int, changed: int
) -> None:
    content = f"def second():\n{indent}return {value}\n"
    old = f"second():\n{quoted_indent}return {value}"
    new = f"second():\n{quoted_indent}return {changed}"
    assume(quoted_indent != indent)
    try:
        result = edit_text(content, old, new)
    except EditError:
        return
    assert result.new_content == f"def second():\n{indent}return {changed}\n", result.strategy


def test_the_reported_mid_line_quote_keeps_the_files_four_spaces() -> None:
    result = edit_text(
        "def second():\n    return 1\n", "second():\n  return 1", "second():\n  return 2"
    )
    assert result.new_content == "def second():\n    return 2\n"


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["\t", "    "])), min_size=3, max_size=7),
    st.data(),
)
def test_a_rewritten_line_keeps_its_own_lines_whitespace_characters(
    shape: list[tuple[int, str]], data
) -> None:
    # A file whose lines are indented, each, with tabs or with spaces; the quote expands
    # every tab to four spaces (as a read tool shows it) and rewrites one line's text.
    lines = [unit * depth + f"v{i} = f({i})" for i, (depth, unit) in enumerate(shape)]
    content = "def g():\n" + "\n".join(lines) + "\n"
    quoted = ["    " * depth + f"v{i} = f({i})" for i, (depth, _) in enumerate(shape)]
    k = data.draw(st.integers(0, len(lines) - 1))
    new = [*quoted]
    new[k] = new[k].replace(f"f({k})", f"h({k})")
    try:
        result = edit_text(content, "\n".join(quoted), "\n".join(new))
    except EditError:
        return
    assert result.new_content == content.replace(f"v{k} = f({k})", f"v{k} = h({k})")


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["\t", "    "])), min_size=3, max_size=7),
    st.data(),
)
def test_an_inserted_line_takes_the_whitespace_characters_of_the_line_it_follows(
    shape: list[tuple[int, str]], data
) -> None:
    lines = [unit * depth + f"v{i} = f({i})" for i, (depth, unit) in enumerate(shape)]
    content = "def g():\n" + "\n".join(lines) + "\n"
    quoted = ["    " * depth + f"v{i} = f({i})" for i, (depth, _) in enumerate(shape)]
    k = data.draw(st.integers(0, len(lines) - 1))
    depth, unit = shape[k]
    new = [*quoted[: k + 1], "    " * depth + "extra()", *quoted[k + 1 :]]
    intended = [*lines[: k + 1], unit * depth + "extra()", *lines[k + 1 :]]
    try:
        result = edit_text(content, "\n".join(quoted), "\n".join(new))
    except EditError:
        return
    assert result.new_content == "def g():\n" + "\n".join(intended) + "\n"
