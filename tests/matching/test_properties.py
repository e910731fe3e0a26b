"""Properties that hold for any input: hypothesis searches for counterexamples."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from editengine import EditError, edit_text
from editengine.matching._elision import is_marker
from editengine.matching._search import occurrences

line_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"),
    max_size=20,
)
lines = st.lists(line_text, min_size=1, max_size=12)
settings.register_profile("editengine", deadline=None, max_examples=150)
settings.load_profile("editengine")


@given(
    prefix=st.text(max_size=60),
    old=st.text(min_size=1, max_size=30),
    suffix=st.text(max_size=60),
    new=st.text(max_size=30),
)
def test_a_single_verbatim_occurrence_is_a_plain_replace(prefix, old, suffix, new):
    content = prefix + old + suffix
    # One place, overlapping ones counted ("aa" stands twice in "aaa": ambiguous).
    assume(len(occurrences(content, old)) == 1 and old != new)
    assume("\r" not in content + new and not content.startswith("\ufeff"))
    # An elision marker that old_string lacks is refused by rule: it would delete code.
    assume(not any(is_marker(line) for line in new.split("\n")))
    # new_string already around the only old_string is a retried edit, a no-op by rule.
    assume(not (old in new and new in content))
    result = edit_text(content, old, new)
    assert result.new_content == content.replace(old, new)
    assert result.strategy == "exact"


@given(
    prefix=st.text(max_size=30), old=st.text(min_size=1, max_size=20), suffix=st.text(max_size=30)
)
def test_a_retried_edit_is_never_applied_twice(prefix, old, suffix):
    new = old + suffix  # the edit appended suffix to old, and the file already has it
    content = prefix + new
    assume(content.count(old) == 1 and old != new)
    assume("\r" not in content and not content.startswith("\ufeff"))
    result = edit_text(content, old, new)
    assert result.new_content == content and result.no_change


@given(
    body=lines,
    start=st.integers(0, 11),
    size=st.integers(1, 4),
    indent=st.sampled_from(["", "  ", "    ", "\t"]),
    new_lines=lines,
)
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_text_outside_the_matched_span_never_changes(body, start, size, indent, new_lines):
    file_lines = [indent + line for line in body]
    content = "\n".join(file_lines) + "\n"
    start = min(start, len(body) - 1)
    old = "\n".join(line.strip() for line in body[start : start + size])
    assume(old.strip())
    try:
        result = edit_text(content, old, "\n".join(new_lines))
    except EditError:
        return
    if result.no_change or not result.spans:
        return
    span = result.spans[0]
    before = "".join(line + "\n" for line in file_lines[: span.start_line - 1])
    after = "".join(line + "\n" for line in file_lines[span.end_line :])
    assert result.new_content.startswith(before)
    assert result.new_content.endswith(after)
    assert len(result.new_content) >= len(before) + len(after)


@given(body=lines, pick=st.integers(0, 11), replacement=lines)
def test_an_lf_edit_on_a_crlf_file_yields_crlf_only(body, pick, replacement):
    assume(all(line.strip() for line in body))
    content = "\r\n".join(body) + "\r\n"
    target = body[min(pick, len(body) - 1)]
    try:
        result = edit_text(content, target, "\n".join(replacement))
    except EditError:
        return
    assert "\n" not in result.new_content.replace("\r\n", "")


@given(
    content=st.text(max_size=200),
    old=st.text(max_size=30),
    new=st.text(max_size=30),
    replace_all=st.booleans(),
)
def test_an_error_never_returns_altered_content(content, old, new, replace_all):
    original = str(content)
    try:
        result = edit_text(content, old, new, replace_all=replace_all)
    except EditError as error:
        assert content == original
        assert error.code and str(error)
        return
    assert isinstance(result.new_content, str)
    if result.no_change:
        assert result.new_content == original
