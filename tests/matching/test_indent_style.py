"""Reading a text's indentation style, and depths measured and written in it."""

from __future__ import annotations

import pytest

from editengine.matching._indent_style import IndentStyle, outside_block_comments

TABS = IndentStyle(True, 1)


def spaces(width: int) -> IndentStyle:
    return IndentStyle(False, width)


# -- which lines indent code ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "kept"),
    [
        (["/*", "   prose", " */", "    code()"], ["/*", "    code()"]),
        (["x /* a */", "    y"], ["x /* a */", "    y"]),  # closed on its own line
        (["/**/", "    y"], ["/**/", "    y"]),
        (["x; /* a */ /* b", "   prose", "*/", "  y"], ["x; /* a */ /* b", "  y"]),
        (["/* a *//* b", "   prose", "*/", "  y"], ["/* a *//* b", "  y"]),
        ([" * aligned", "  code"], ["  code"]),  # one space is alignment, never a level
    ],
)
def test_only_lines_outside_block_comments_indent_code(lines, kept):
    assert outside_block_comments(lines) == kept


# -- the style of a text ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "style"),
    [
        (["a", "  b", "    c"], spaces(2)),
        (["a", "        b"], spaces(8)),
        (["a", "         b"], spaces(4)),  # nine columns is no level: the default
        (["    def f():", "        return 1"], spaces(4)),  # the first line's depth is a step
        (["a", "    b", "        c", "      d"], spaces(4)),  # the commonest step wins
        (["a", "    b", "  c", "    d", "  e"], spaces(2)),  # a step is a difference
        (["a", "", "\tb", "\tc"], TABS),  # blank lines are skipped, not the end
        (["\ta", "  b"], spaces(2)),  # as many tab lines as space lines: spaces
        (["\ta", "\tb", "  c", "  d", "  e"], spaces(2)),
        (["\ta", "\tb", "\tc", "  d", "  e"], TABS),
        (["a", "b"], spaces(4)),
    ],
)
def test_the_style_read_from_lines(lines, style):
    assert IndentStyle.of(lines) == style


def test_a_fallback_stands_where_the_lines_tell_nothing():
    assert IndentStyle.of(["a", "b"], fallback=TABS) == TABS
    assert IndentStyle.of(["a", " " * 18 + "b"], fallback=spaces(3)) == spaces(3)
    # Space-indented lines do not read as tabs, whatever the fallback says.
    assert IndentStyle.of(["a", " " * 18 + "b"], fallback=TABS) == spaces(4)


# -- depths in a style ------------------------------------------------------------------------


def test_tab_levels_count_tabs_and_four_columns_a_level_after_them():
    assert TABS.levels("\t\t") == 2
    assert TABS.levels("\t\t  ") == 2.5
    assert TABS.levels("\t   ") == 1.75


@pytest.mark.parametrize(("levels", "text"), [(1.5, "\t  "), (1.75, "\t   "), (2, "\t\t")])
def test_tabs_are_written_whole_and_the_rest_in_spaces(levels, text):
    assert TABS.render(levels) == text


@pytest.mark.parametrize("style", [TABS, spaces(4)])
def test_no_depth_or_less_is_written_as_nothing(style):
    assert style.render(0) == ""
    assert style.render(-1) == ""
