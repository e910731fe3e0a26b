"""Carrying the requested edit onto a corrected search: its properties on generated texts,
then the cases each step of the carry and of the cross-check exists for."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine.verdict import (
    CannotCarry,
    NotQuoted,
    NotTheRequestedEdit,
    carry_edit,
    describe_difference,
    replacement_to_write,
    same_hunks,
    same_tokens,
    token_list,
)

from ..adversarial.base_cases import BASE_CASES

WORDS = ["a", "b", "x", "item", "line", "total", "0", "1", "True", "(", ")", "=", "+", "-", ":"]
SPACES = [" ", "\n", "\n    ", "  ", "\n\n"]


@st.composite
def code(draw, min_size=1, max_size=14):
    words = draw(st.lists(st.sampled_from(WORDS), min_size=min_size, max_size=max_size))
    gaps = draw(st.lists(st.sampled_from(SPACES), min_size=len(words), max_size=len(words)))
    return "".join(word + gap for word, gap in zip(words, gaps))


@settings(max_examples=200, deadline=None)
@given(code(), code(min_size=0))
def test_with_a_true_quote_the_carried_edit_is_new_string(old, new):
    # No misquote: the search is old_string itself, so the edit to write is new_string (its
    # tokens; spacing outside the changed stretches stays the search's own).
    if same_tokens(old, new):
        return
    assert same_tokens(carry_edit(old, new, old), new)


@settings(max_examples=200, deadline=None)
@given(code(), code(min_size=0), code(), code(min_size=0))
def test_only_the_two_documented_outcomes(old, new, search, replace):
    try:
        written = replacement_to_write(old, new, search, replace)
    except NotTheRequestedEdit as refused:
        assert str(refused)
        return
    # Whatever is written has the model's tokens: the cross-check held.
    assert same_tokens(written, replace)


@settings(max_examples=300, deadline=None)
@given(code(), code(min_size=0), st.sampled_from(["pre\n", "head = 1\n", ""]))
def test_extra_context_in_the_search_is_kept_as_it_is(old, new, context):
    # The search quotes more before old_string: the context survives, the edit is made.
    if same_tokens(old, new) or not old.endswith("\n"):
        return
    try:
        carried = carry_edit(old, new, context + old)
    except CannotCarry:
        return
    assert token_list(carried) == token_list(context) + token_list(new)


# ------------------------------------------------------------------ over the corpus's bases

_TOKEN = re.compile(r"\w+|[^\w\s]")
EXTRA = ["0", "1", "-", "+", "!", "not", "None", "False", "(", ")", ",", "x"]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([base for base in BASE_CASES if not base.replace_all]),
    st.integers(min_value=0),
    st.sampled_from(["drop", "insert", "swap_in"]),
    st.sampled_from(EXTRA),
)
def test_one_token_more_less_or_other_is_refused(base, where, how, extra):
    # The sound correction, with one token dropped, added or replaced anywhere: the edit
    # written would not be the one requested.
    found = list(_TOKEN.finditer(base.replace))
    at = found[where % len(found)]
    if how == "drop":
        mutated = base.replace[: at.start()] + base.replace[at.end() :]
    elif how == "insert":
        mutated = base.replace[: at.start()] + extra + " " + base.replace[at.start() :]
    else:
        if at.group() == extra:
            return
        mutated = base.replace[: at.start()] + extra + base.replace[at.end() :]
    if token_list(mutated) == token_list(base.replace):
        return
    with pytest.raises(NotTheRequestedEdit):
        replacement_to_write(base.old, base.new, base.search, mutated, file_text=base.content)


# ------------------------------------------------ the fixer's edit, hunk by hunk (same_hunks)


def test_the_same_change_next_to_the_same_tokens_is_the_same_hunks():
    assert same_hunks("a = f(x)\n", "a = g(x)\n", "b = f(x)\n", "b = g(x)\n")


def test_a_name_the_misquote_renames_counts_as_the_same_neighbour():
    # old_string says line, the search item: the token after (or before) the change is
    # the same once renamed.
    assert same_hunks("x line\n", "line\n", "x item\n", "item\n")
    assert same_hunks("return line\n", "return line + 1\n", "return item\n", "return item + 1\n")


def test_text_inserted_with_the_misquoted_name_is_not_the_same_hunks():
    # The file calls it item: a replace that inserts "line" writes a name the file lacks.
    assert same_hunks(
        "return line\n", "return line + line\n", "return item\n", "return item + item\n"
    )
    assert not same_hunks(
        "return line\n", "return line + line\n", "return item\n", "return item + line\n"
    )


def test_another_change_than_the_requested_one_is_not_the_same_hunks():
    assert not same_hunks("f(x)", "g(x)", "f(x)", "h(x)")


def test_one_change_more_is_not_the_same_hunks():
    assert not same_hunks("f(x)", "g(x)", "f(x)", "g(y)")


def test_the_change_next_to_other_tokens_is_not_the_same_hunks():
    assert not same_hunks("a = f(x)", "a = g(x)", "a = f(x); b : f(x)", "a = f(x); b : g(x)")


def test_a_request_that_cannot_be_carried_takes_the_fixer_s_edit_when_it_is_the_same():
    # new_string is indented less than old_string: no mechanical carry, but the fixer's
    # edit is the requested one, hunk by hunk.
    old, new = "    if a:\n        go()\n", "go()\n"
    assert replacement_to_write(old, new, "  if a:\n    go()\n", "  go()\n") == "  go()\n"
    with pytest.raises(NotTheRequestedEdit, match="indented less than old_string"):
        replacement_to_write(old, new, "  if a:\n    go(1)\n", "  go(2)\n")


# ---------------------------------------------------- names the fixer renames (renames_by_fixer)

RENAMED_OLD = "count = line.addr\nfor line in lines:\n    result += line.cost\n"
RENAMED_NEW = RENAMED_OLD.replace("    result", "    if line.addr:\n        continue\n    result")
RENAMED_SEARCH = "for item in items:\n    total += item.price\n"


@pytest.mark.parametrize(
    ("name", "taken"),
    [
        ("address_book", True),  # half the letters in common: alike enough
        ("address_line1", False),  # under half
    ],
)
def test_a_rename_by_the_fixer_needs_half_the_letters_in_common(name, taken):
    replace = (
        f"for item in items:\n    if item.{name}:\n        continue\n    total += item.price\n"
    )
    file_text = f"count = item.{name}\n" + RENAMED_SEARCH

    def written():
        return replacement_to_write(
            RENAMED_OLD, RENAMED_NEW, RENAMED_SEARCH, replace, file_text=file_text
        )

    if taken:
        assert written() == replace
    else:
        with pytest.raises(NotTheRequestedEdit, match=f"turns 'addr' into '{name}'"):
            written()


# ------------------------------------------- a request escaped where the file is not (\" for ")

ESCAPED_OLD = 'print(\\"hi\\")\n'
ESCAPED_NEW = 'print(\\"hi\\", \\"there\\")\n'


def test_text_the_request_inserts_escaped_is_written_as_the_file_writes_it():
    # The agent escaped its quotes; the file (and the fixer's search) has none.
    written = replacement_to_write(
        ESCAPED_OLD, ESCAPED_NEW, 'print("hi")\n', 'print("hi", "there")\n'
    )
    assert written == 'print("hi", "there")\n'


def test_a_search_with_backslashes_of_its_own_is_not_taken_as_unescaped():
    # The file writes backslashes itself (a line continuation): nothing says the agent's
    # backslashes were escaping, so the fixer's unescaped text is another edit.
    with pytest.raises(NotTheRequestedEdit, match="another edit"):
        replacement_to_write(
            ESCAPED_OLD, ESCAPED_NEW, 'print("hi") \\\n', 'print("hi", "there") \\\n'
        )


def test_the_fixer_s_line_endings_are_kept_when_its_text_is_the_carried_one():
    assert replacement_to_write("a = 1\n", "a = 2\n", "b = 1\r\n", "b = 2\r\n") == "b = 2\r\n"


# ------------------------------------------------ how a refused correction differs (the message)


@pytest.mark.parametrize(
    ("expected", "actual", "said"),
    [
        ("a = f(x)\n", "a  =  f( x )\n", "it differs only in spacing"),
        ("a = f(x)\n", "a = g(x)\n", "it also turns 'f' into 'g'"),
        ("a = f(x, y)\n", "a = f(x)\n", "it also drops ', y'"),
        ("a = f(x)\n", "a = f(x, y)\n", "it also adds ', y'"),
        ("a = f(x) + g(y)\n", "a = h(x) + g(y)\n", "it also turns 'f' into 'h'"),
        (
            "a = f(x) + g(y)\n",
            "a = h(x) + k(y)\n",
            "it also turns 'f' into 'h' (and 1 more change)",
        ),
        (
            "a = f(x) + g(y) + m(z)\n",
            "a = h(x) + k(y) + n(z)\n",
            "it also turns 'f' into 'h' (and 2 more changes)",
        ),
        # Twelve tokens are shown, the rest elided.
        ("pass\n", "pass\nx = f(1 + 2 + 3 + 4)\n", "it also adds 'x = f ( 1 + 2 + 3 + 4 )'"),
        (
            "pass\n",
            "pass\nx = f(1 + 2 + 3 + 4);\n",
            "it also adds 'x = f ( 1 + 2 + 3 + 4 ) ...'",
        ),
    ],
)
def test_the_refusal_names_the_first_difference_and_counts_the_rest(expected, actual, said):
    assert describe_difference(expected, actual) == said


# ----------------------------------------- inserted lines in the file's indentation (tabs, spaces)

WRAP_OLD = "def f():\n{i}x = 1\n{i}return x\n"
WRAP_NEW = "def f():\n{i}x = 1\n{i}if x:\n{i}{i}log(x)\n{i}return x\n"


@pytest.mark.parametrize(
    ("agent", "file"),
    [
        ("    ", "\t"),  # four spaces a level, in a tab-indented file
        ("  ", "\t"),  # two spaces a level: the agent's step is two
        ("\t", "    "),  # tabs, in a file indented by four spaces
    ],
)
def test_lines_the_request_inserts_are_indented_as_the_file_indents(agent, file):
    carried = carry_edit(
        WRAP_OLD.format(i=agent), WRAP_NEW.format(i=agent), WRAP_OLD.format(i=file)
    )
    assert carried == WRAP_NEW.format(i=file)


# ---------------------------------------------------------- what cannot be carried, and why


@pytest.mark.parametrize(
    ("old", "new", "search", "why"),
    [
        ("a = 1\n", "a  =  1\n", "b = 1\n", "the request changes only whitespace"),
        # The search has ", w" where the request adds ", y": the request would drop it.
        ("a = f(x)\n", "a = f(x, y)\n", "a = f(x, w)\n", "the search has text old_string lacks"),
    ],
)
def test_a_request_that_cannot_be_carried_says_why(old, new, search, why):
    with pytest.raises(CannotCarry, match=why):
        carry_edit(old, new, search)


@pytest.mark.parametrize(
    ("new", "search"),
    [
        ("z = 0\na = 1\nb = 2\nc = 3\n", "b = 2\nc = 3\n"),  # before all the search quotes
        ("a = 1\nb = 2\nc = 3\nz = 0\n", "a = 1\nb = 2\n"),  # after all of it
        ("a = 9\nb = 2\nc = 3\n", "b = 2\nc = 3\n"),  # on a line the search leaves out
    ],
)
def test_a_change_on_text_the_search_leaves_out_is_not_quoted(new, search):
    with pytest.raises(NotQuoted, match="falls on old_string text the search leaves out"):
        carry_edit("a = 1\nb = 2\nc = 3\n", new, search)


# ------------------------------------------------------- a request that only changes spacing

SPACING_ONLY = "the request only changes spacing, and its replacement does not do just that"


def test_a_spacing_only_request_refuses_an_answer_that_also_indents_its_line():
    with pytest.raises(NotTheRequestedEdit) as refused:
        replacement_to_write(
            "if  (ready) {\n", "if (ready) {\n", "if  (isReady) {\n", " if (isReady) {\n"
        )
    assert str(refused.value) == SPACING_ONLY


def test_a_request_that_indents_its_line_takes_an_answer_that_indents_the_search():
    written = replacement_to_write("  x = 1\n", "    x = 1\n", "  y = 1\n", "    y = 1\n")
    assert written == "    y = 1\n"


# ------------------------------------------------ names the misquote renames (learned_renames)


def test_inserted_text_names_what_the_misquote_renamed_as_the_file_names_it():
    old = "for line in lines:\n    total += line.cost\n"
    search = "for item in items:\n    total += item.cost\n"
    assert carry_edit(old, old + "    log(line)\n", search) == search + "    log(item)\n"


@pytest.mark.parametrize(
    ("old", "search", "inserted", "written"),
    [
        ("f(x1)\n", "f(x2)\n", "g(x1)\n", "g(x2)\n"),
        # A value, not a name: True stays True where the request writes it.
        ("f(True)\n", "f(False)\n", "g(True)\n", "g(True)\n"),
        # The same word respelled (accents, case) is a slip, not another name.
        ('f("Bonjour a tous")\n', 'f("Bonjour à tous")\n', 'g("a")\n', 'g("a")\n'),
        ("f(Line)\n", "f(line)\n", "g(Line)\n", "g(Line)\n"),
        # Renamed two ways, or also kept as it is: the misquote does not say what it is.
        ("f(line, line)\n", "f(item, row)\n", "g(line)\n", "g(line)\n"),
        ("f(line) + k(line)\n", "f(item) + k(line)\n", "g(line)\n", "g(line)\n"),
        # A number is no name.
        ("f(line)\n", "f(2)\n", "g(line)\n", "g(line)\n"),
    ],
)
def test_inserted_text_takes_only_the_names_the_misquote_clearly_renames(
    old, search, inserted, written
):
    assert carry_edit(old, old + inserted, search) == search + written


# ------------------------------- a search widened by context lines around a heavily misquoted quote

GUARD_OLD = "    strat(conf)\n    stpo(conf)\n"
GUARD_NEW = "    if conf.Enabled {\n        strat(conf)\n        stpo(conf)\n    }\n"
GUARDED = "\tif cfg.Enabled {\n\t\tstart(cfg)\n\t\tstop(cfg)\n\t}\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("func Run(cfg Config) error {\n", ""),
        ("package worker\n\nfunc Run(cfg Config) error {\n", "\treturn nil\n}\n"),
        ("", "\tlog(cfg)\n}\n"),
    ],
)
def test_context_lines_the_search_adds_stay_outside_the_carried_edit(before, after):
    # Heavily misquoted, old_string's ( and ) would pair with a context line's.
    search = before + "\tstart(cfg)\n\tstop(cfg)\n" + after
    assert carry_edit(GUARD_OLD, GUARD_NEW, search) == before + GUARDED + after


def test_a_spacing_only_request_refuses_an_answer_that_drops_the_final_line_break():
    # Joining the call's lines is requested; the answer also joins the next line to it.
    assert replacement_to_write("a(\n  x)\n", "a(x)\n", "b(\n  x)\n", "b(x)\n") == "b(x)\n"
    for answer in ("b(x)", "b(\nx)"):  # the second touches no more lines than the request
        with pytest.raises(NotTheRequestedEdit) as refused:
            replacement_to_write("a(\n  x)\n", "a(x)\n", "b(\n  x)\n", answer)
        assert str(refused.value) == SPACING_ONLY


def test_a_search_more_like_old_string_as_a_whole_than_any_run_of_its_lines_is_aligned_whole():
    # Its second line is misquoted (", z"), not context: the request is made on it.
    carried = carry_edit("a = f(x)\nb = g(y)\n", "a = f(x)\nb = h(y)\n", "a = f(x)\nb = g(y, z)\n")
    assert carried == "a = f(x)\nb = h(y, z)\n"


# ------------------------------------- whole lines deleted or inserted next to lines like them


@pytest.mark.parametrize(
    ("old", "new", "search", "carried"),
    [
        # x = 2 is inserted as a line of its own, before the (misquoted) x = 1.
        (
            "f(x)\n\nx = 1\n",
            "f(x)\nx = 2\n\nx = 1\n",
            "f(x)\n\nxx = 11\n",
            "f(x)\nx = 2\n\nxx = 11\n",
        ),
        ("f(x)\nx = 1\n", "f(x)\nx = 2\nx = 1\n", "f(x)\nxx = 11\n", "f(x)\nx = 2\nxx = 11\n"),
        # The misquoted line x = 1 is deleted whole; x = 2 stays as the file has it.
        ("f(x)\nx = 1\nx = 2\n", "f(x)\nx = 2\n", "f(x)\nxx = 11\nx = 2\n", "f(x)\nx = 2\n"),
        ("f(x)\nx = 2\nx = 1\n", "f(x)\nx = 1\n", "f(x)\nxx = 2\nx = 1\n", "f(x)\nx = 1\n"),
    ],
)
def test_a_whole_line_deleted_or_inserted_is_placed_at_a_line_start(old, new, search, carried):
    assert carry_edit(old, new, search) == carried


def test_a_quote_of_thousands_of_distinct_names_is_carried():
    # Past 6,400 distinct tokens the alignment's one-character codes come from another
    # range of private-use characters.
    old = "".join(f"n{i} = {i}\n" for i in range(3300))
    search = old.replace("n0 = 0\n", "").replace("n7 = 7\n", "n7 = 77\n")
    carried = carry_edit(old, old.replace("n5 = 5\n", "n5 = 6\n"), search)
    assert carried == search.replace("n5 = 5\n", "n5 = 6\n")


@pytest.mark.parametrize(
    ("old", "new", "search", "carried"),
    [
        # True is misquoted (the file says False) right after, or before, the change.
        ("x = not True\n", "x = True\n", "x = not False\n", "x = False\n"),
        ("x = y or True\n", "x = y and True\n", "x = y or False\n", "x = y and False\n"),
        ("x = True or y\n", "x = True and y\n", "x = False or y\n", "x = False and y\n"),
        # ... misquoted as two tokens: the change after it moves by one token.
        ("x = True or y\n", "x = True and y\n", "x = not False or y\n", "x = not False and y\n"),
        # Text inserted right before, or right after, the misquote.
        ("x = True\n", "x = not True\n", "x = False\n", "x = not False\n"),
        (
            "x = True\ny = 1\n",
            "x = True or z\ny = 1\n",
            "x = False\ny = 1\n",
            "x = False or z\ny = 1\n",
        ),
    ],
)
def test_a_misquote_next_to_the_requested_change_stays_as_the_file_has_it(
    old, new, search, carried
):
    assert carry_edit(old, new, search) == carried


@pytest.mark.parametrize(
    ("new", "search", "carried"),
    [
        ("a = 1\nb = 2\n", "a = 1\nc = 3\n", "a = 1\nb = 2\nc = 3\n"),
        ("z = 1\na = 1\n", "y = 0\na = 1\n", "y = 0\nz = 1\na = 1\n"),
    ],
)
def test_a_line_added_at_an_edge_goes_inside_the_context_the_search_quotes_there(
    new, search, carried
):
    assert carry_edit("a = 1\n", new, search) == carried


@pytest.mark.parametrize(
    ("old", "new", "search"),
    [
        ("f(a, c)\n", "f(a, b, c)\n", "f(a, x, c)\n"),
        ("[c]\n", "[b, c]\n", "[x, c]\n"),  # right after old_string's first token
    ],
)
def test_text_the_search_inserts_where_the_request_inserts_is_not_dropped(old, new, search):
    with pytest.raises(CannotCarry, match="the search has text old_string lacks"):
        carry_edit(old, new, search)


def test_lines_new_string_moves_into_a_block_move_in_the_file_too():
    # Every kept line, not just the first, takes the depth new_string gives it.
    old = "x = 1\ny = 2\nz = 3\n"
    new = "with lock:\n    x = 1\n    y = 2\n    z = 3\n"
    carried = carry_edit(old, new, "    x = 1\n    y = 2\n    z = 3\n")
    assert carried == "    with lock:\n        x = 1\n        y = 2\n        z = 3\n"


def test_a_block_opened_under_a_line_at_column_0_is_indented_as_the_file_indents():
    # The quote starts at "if a:" (column 0 in both): the level new_string adds there in
    # spaces is a tab in this tab-indented file, as the lines it wraps are.
    old = "if a:\n    x = 1\n    y = 2\n"
    new = "if a:\n    with lock:\n        x = 1\n        y = 2\n"
    search = "if a:\n\tx = 1\n\ty = 2\n"
    wrapped = "if a:\n\twith lock:\n\t\tx = 1\n\t\ty = 2\n"
    assert carry_edit(old, new, search) == wrapped
    assert replacement_to_write(old, new, search, wrapped) == wrapped


def test_blocks_nested_in_tabs_are_written_in_the_file_s_spaces_at_every_depth():
    old = "def f():\n\tgo()\n"
    new = "def f():\n\tif a:\n\t\tif b:\n\t\t\tif c:\n\t\t\t\tif d:\n\t\t\t\t\tgo()\n"
    carried = carry_edit(old, new, "def f():\n    go()\n")
    assert carried == new.replace("\t", "    ")


def test_a_search_quoting_one_misquoted_line_of_old_string_takes_the_change_on_that_line():
    # The search is far shorter than old_string: the stretch of old_string most like it,
    # aligned on its own, places the change.
    old = "if x:\ny = g(b)\nx = f(a)\nz = 0\n    log(x)\n"
    new = old.replace("x = f(a)", "x += f(a)")
    assert carry_edit(old, new, "xs = f(aa)\n") == "xs += f(aa)\n"


def test_the_search_s_first_line_moves_in_as_new_string_moves_it():
    # A nested list item, and a change on the next line.
    assert carry_edit("- a\n- b\n", "  - a\n- c\n", "- a\n- b\n") == "  - a\n- c\n"
    # A line that begins with a capital X is moved the same way.
    assert carry_edit("X = 1\ny = 2\n", "  X = 1\ny = 3\n", "X = 1\ny = 2\n") == (
        "  X = 1\ny = 3\n"
    )


def test_lines_new_string_moves_out_of_a_block_move_out_by_the_file_s_tab():
    old = "def f():\n    if a:\n        x = 1\n        y = 2\n"
    new = "def f():\n    x = 1\n    y = 2\n"
    carried = carry_edit(old, new, "def f():\n\tif a:\n\t\tx = 1\n\t\ty = 2\n")
    assert carried == "def f():\n\tx = 1\n\ty = 2\n"


@pytest.mark.parametrize(
    ("old", "new", "search", "carried"),
    [
        # Only new_string shows the agent's two-space step (old_string is one flat line).
        (
            "    x = 1\n    y = 2\n",
            "    if b:\n      x = 1\n      y = 2\n",
            "\tx = 1\n\ty = 2\n",
            "\tif b:\n\t\tx = 1\n\t\ty = 2\n",
        ),
        # Only old_string shows it (new_string is one flat block).
        (
            "  if a:\n    x = 1\n    y = 2\n",
            "  x = 1\n  y = 2\n",
            "\tif a:\n\t\tx = 1\n\t\ty = 2\n",
            "\tx = 1\n\ty = 2\n",
        ),
    ],
)
def test_the_agent_s_indentation_step_is_read_from_both_of_its_texts(old, new, search, carried):
    assert carry_edit(old, new, search) == carried


@pytest.mark.parametrize(
    ("old", "new", "search", "carried"),
    [
        # The search quotes more after old_string whose last tokens are like old_string's
        # own ending: the change stays on old_string's tokens, not on the extra ones.
        ("c y", "c q", "( c y c ) y", "( c q c ) y"),
        (", a", ", z", "c , a ) a", "c , z ) a"),
        ("y f ) a ,", "y f ) a q", "a c y f ) a , ,", "a c y f ) a q ,"),
        ("f c ( y y )", "f c ( y y q", ") x g c ( y y ) , g )", ") x g c ( y y q , g )"),
        # ...and before old_string, whose first tokens are like old_string's own start.
        ("= b", "q b", "= f y = b c", "= f y q b c"),
        ("x f ( , a =", "w f ( , a =", "x 1 b x f ( , a = = y", "x 1 b w f ( , a = = y"),
    ],
)
def test_context_like_old_string_s_edges_is_left_at_those_edges(
    old: str, new: str, search: str, carried: str
) -> None:
    assert carry_edit(old, new, search) == carried


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A whole line inserted or deleted next to lines like it: the line breaks around it
        # are new_string's, not one blank line more or less.
        ("\n\nimpl A {}\ny = 2\n", "\nimpl C {\n\nimpl A {}\ny = 2\n"),
        ("\nimpl A {}\n\nimpl A {}\n", "\nimpl A {}\nimpl C {\n\nimpl A {}\n"),
        ("\n\nimpl A {}\n    z()\n", "\nimpl B {}\n\nimpl A {}\n    z()\n"),
        ("impl B {}\na b\nimpl B {}\n\nimpl A {}\n", "impl B {}\na b\n\nimpl A {}\n"),
    ],
)
def test_whole_lines_inserted_or_deleted_keep_new_string_s_line_breaks(old: str, new: str) -> None:
    assert carry_edit(old, new, old) == new


# Cases found by comparing the carry with small changes of its code on generated inputs:
# each pins what the carry writes (or why it refuses) where such a change would differ.
@pytest.mark.parametrize(
    ("old", "new", "search", "carried"),
    [
        (
            "x = 1\na b\n    return y\n",
            "w(1)\na b\n    return y\n",
            "x = 1\nx = 1\na b\n    return y\ny = 2\n",
            "x = 1\nw(1)\na b\n    return y\ny = 2\n",
        ),
        ("x = 1\nx = 1\n", "x = 1\n", "impl A {}\nx = 1\nx = 1\n", "impl A {}\nx = 1\n"),
        (
            "impl A {}\nimpl B {}\n",
            "impl A {}\n",
            "\treturn y\nimpl B {}\nimpl A {}\nimpl B {}\n}\nimpl B {}\n",
            "\treturn y\nimpl B {}\nimpl A {}\n}\nimpl B {}\n",
        ),
        (
            "}\nimpl B {}\na b\n",
            "w(1)\nimpl B {}\na b\n",
            "}\n}\nimpl B {}\na b\n\tq(x)\n\tq(x)\n",
            "}\nw(1)\nimpl B {}\na b\n\tq(x)\n\tq(x)\n",
        ),
        ("{ g c y y", "{ g c y q w", "{ f { g c y X = =", "{ f { g c y q w = ="),
        ("= ) = b", "= ) = b {", "= ) b b b", "= ) b b { b"),
        ("f b , ) x c", "f f b , ) x c", "f f b yy ) x c", "f f f b yy ) x c"),
        ("a f {", "q w f {", "g = b f X", "g = q w f X"),
        (") x 1", ") 1", "( f X x 1 ,", "( f X 1 ,"),
        (
            "\n    return y\nimpl A {}\nimpl B {}\n",
            "\n    return y\nw(1)\nimpl B {}\n",
            "    return y\n\n    return y\nimpl A {}\nimpl B {}\ny = 2\ny = 2\n",
            "    return y\n\n    return y\nw(1)\nimpl B {}\ny = 2\ny = 2\n",
        ),
    ],
)
def test_the_carry_on_small_generated_cases(old: str, new: str, search: str, carried: str) -> None:
    assert carry_edit(old, new, search) == carried


@pytest.mark.parametrize(
    ("old", "new", "search", "refusal", "reason"),
    [
        (
            "    z()\nif a {\n    z()\n",
            "    z()\n\nif a {\n    z()\n",
            "\tz()\nif a {\n\tz()\na b\n",
            CannotCarry,
            "the request changes only whitespace",
        ),
        (
            "g 1 a",
            "g w(1) a",
            "g 1 b a x",
            CannotCarry,
            "the search has text old_string lacks where the change goes",
        ),
        (
            "} 1",
            "} z",
            "1 c b 1 }",
            NotQuoted,
            "the requested change falls on old_string text the search leaves out",
        ),
        (
            "    return y\n\tq(x)\n}\ny = 2\n",
            "q w\n\tq(x)\n}\ny = 2\n",
            "}\n\treturn y\n\tq(x)\n}\ny = 2\n\tq(x)\n",
            CannotCarry,
            "new_string is indented less than old_string's first line",
        ),
        (
            "    return y\nif a {\nx = 1\na b\na b\n",
            "z\nif a {\nx = 1\na b\na b\n",
            "\treturn y\nif a {\nx = 1\na b\na b\n",
            CannotCarry,
            "new_string is indented less than old_string's first line",
        ),
    ],
)
def test_each_reason_the_carry_refuses_is_worded(
    old: str, new: str, search: str, refusal: type[CannotCarry], reason: str
) -> None:
    with pytest.raises(refusal) as caught:
        carry_edit(old, new, search)
    assert type(caught.value) is refusal and str(caught.value) == reason
