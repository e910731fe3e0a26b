"""The syntax guard's rules, as a corpus of what it must refuse and what it must let through,
and the check's own rules: introduced problems only, windows on large files, files the parser
cannot judge."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from editengine import edit_text
from editengine._errors import SyntaxBroken
from editengine.diagnostics import check_syntax, forgiving, language_of
from editengine.diagnostics._guard import deletes_lines_only

PY = "def f(a):\n    if a:\n        return 1\n    return 2\n\n\ndef g():\n    return 3\n"
BIG_PY = "".join(
    f"def f{i}(a):\n    if a:\n        return {i}\n    return a\n\n\n" for i in range(3000)
)

# (name, content, path, old_string, new_string): forgiving placements that break what parsed.
MUST_REFUSE = [
    ("python re-indented quote", PY, "a.py", "if a:\n  return 1", "if a:\n  return (1"),
    (
        "python indentation deepened",
        PY,
        "a.py",
        "if a:\n  return 1",
        "if a:\n  return 1\n      x = 1",
    ),
    (
        "yaml indentation deepened",
        "a:\n  b: 1\n  c: 2\nd: 3\n",
        "a.yaml",
        "a:\n b: 1",
        "a:\n b: 1\n   e: 5",
    ),
    (
        "json re-indented quote, comma lost",
        '{\n  "a": 1,\n  "b": 2\n}\n',
        "a.json",
        '"a": 1,\n    "b": 2',
        '"a": 1\n    "b": 2',
    ),
    (
        "a read tool's line numbers written",
        PY,
        "a.py",
        "    if a:\n        return  1",
        "3\t    if a:\n4\t        return 1",
    ),
    ("in a large file", BIG_PY, "big.py", "if a:\n  return 1500", "if a:\n  return (1500"),
    (
        "the quote off only in line-end whitespace",
        PY,
        "a.py",
        "    if a:   \n        return 1  ",
        "    if a:   \n        return (1",
    ),
]
# Forgiving placements that must be written: the code parses, or what breaks is the agent's own.
MUST_WRITE = [
    ("python re-indented, clean", PY, "a.py", "if a:\n  return 1", "if a:\n  return 10"),
    (
        "only lines taken out",
        PY,
        "a.py",
        "  if a:\n    return 1\n  return 2",
        "  if a:\n  return 2",
    ),
    (
        "a C macro's body",
        "#define SWAP(a, b) do { \\\n        int t = a; \\\n    } while (0)\n",
        "a.c",
        "int t = a; \\\n  } while (0)",
        "int t = a; \\\n  // why\n  } while (0)",
    ),
    ("a file type with no grammar", "one (two\nthree\n", "a.txt", "one  (two", "one (two))"),
    ("no path: no language", PY, None, "if a:\n  return 1", "if a:\n  return (1"),
    ("in a large file, clean", BIG_PY, "big.py", "if a:\n  return 1500", "if a:\n  return 15"),
]


@pytest.mark.parametrize(("name", "content", "path", "old", "new"), MUST_REFUSE)
def test_the_guard_refuses(name: str, content: str, path: str, old: str, new: str) -> None:
    with pytest.raises(SyntaxBroken) as caught:
        edit_text(content, old, new, path=path)
    assert caught.value.tier != "exact", name
    assert caught.value.diagnostics


@pytest.mark.parametrize(("name", "content", "path", "old", "new"), MUST_WRITE)
def test_the_guard_lets_through(name: str, content: str, path: str, old: str, new: str) -> None:
    result = edit_text(content, old, new, path=path)
    assert result.strategy != "exact", name
    assert result.new_content != content


def test_an_exact_edit_is_never_refused_even_when_it_breaks_everything() -> None:
    result = edit_text(PY, "def g():\n    return 3\n", "def g(:\n  return [\n", path="a.py")
    assert result.strategy == "exact" and result.diagnostics


def test_problems_the_file_had_are_not_introduced() -> None:
    broken = "def broken(:\n    pass\n\n\n" + PY
    assert check_syntax(broken, broken.replace("return 2", "return 3"), "a.py").introduced == ()
    again = check_syntax(broken, broken.replace("return 2", "return (3"), "a.py")
    assert [item.line for item in again.introduced] == [8]


def test_lines_after_the_change_move_with_it() -> None:
    broken = PY + "\n\ndef h(:\n    pass\n"
    grown = broken.replace("return 1", "x = 1\n        y = 2\n        return 1")
    assert check_syntax(broken, grown, "a.py").introduced == ()


def test_a_byte_order_mark_is_not_a_syntax_error() -> None:
    content = "\ufeff" + PY
    assert check_syntax(content, content.replace("return 2", "return 3"), "a.py").introduced == ()
    assert check_syntax(content, content.replace("return 2", "return (3"), "a.py").broke


def test_the_window_of_a_large_file_places_the_problem_on_the_file_line() -> None:
    after = BIG_PY.replace("        return 2999\n", "        return (2999\n")
    check = check_syntax(BIG_PY, after, "big.py")
    assert check.broke
    line = BIG_PY[: BIG_PY.index("return 2999")].count("\n") + 1
    assert {item.line for item in check.introduced} == {line}


def test_a_window_that_starts_inside_a_docstring_does_not_invent_problems() -> None:
    doc = '"""\n' + "".join(f"def not_code_{i}(:\n" for i in range(200)) + '"""\n'
    content = doc + BIG_PY
    after = content.replace('"""\n', '"""\n# note\n', 1)
    assert check_syntax(content, after, "big.py").introduced == ()


def test_languages_are_chosen_by_file_name() -> None:
    names = {
        "a.py": "python", "b.tsx": "tsx", "c.ts": "typescript", "d.mjs": "javascript",
        "e.go": "go", "f.rs": "rust", "g.h": "c", "h.hpp": "cpp", "I.java": "java",
        "j.json": "json", "k.yml": "yaml", "Cargo.toml": "toml", "l.sh": "bash",
        "Makefile": "make", "README.md": "markdown", "src/dir.py/notes.txt": None,
    }  # fmt: skip
    for name, expected in names.items():
        language = language_of(name)
        assert (language.name if language else None) == expected, name


def test_what_counts_as_forgiving() -> None:
    for strict in ("exact", "whole_file", "no_op", "already_applied", "exact+exact"):
        assert not forgiving(strict)
    for loose in ("line_trimmed", "exact+whitespace", "markdown_fence+exact", "block_anchor"):
        assert forgiving(loose)
    assert forgiving("exact", corrected_by_fixer=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=8, unique=True))
# What is left ("    if a:" and the last line) shares its end with the file's end, so the
# differing span ended inside a line: compared cut, the kept line was not found.
@example(dropped=[0, 2, 3, 4, 5, 6])
def test_taking_lines_out_writes_nothing_of_its_own(dropped: list[int]) -> None:
    lines = PY.split("\n")
    kept = [line for index, line in enumerate(lines) if index not in dropped]
    after = "\n".join(kept)
    assert deletes_lines_only(PY, after) == (after != PY)
    grown = after.replace("return", "return (", 1)
    if grown != after and "return" in "".join(kept):
        assert not deletes_lines_only(PY, grown)


def test_a_type_as_a_go_call_argument_is_not_an_error() -> None:
    # Go's own parser reads it (generic helpers, conversions); tree-sitter-go only in make().
    before = "package m\n\nfunc f() {\n\tdata := make([]byte, 100)\n}\n"
    for argument in ("[]byte", "map[string]int", "chan int", "*Node"):
        after = before.replace("make([]byte", f"alloc({argument}")
        assert check_syntax(before, after, "m.go").introduced == (), argument
    assert check_syntax(before, before.replace("100)", "100"), "m.go").broke


FUNCTIONS = [f"def f{i}(a):\n    if a:\n        return {i}\n    return a\n" for i in range(40)]


@settings(max_examples=40, deadline=None)
@given(
    broken_at=st.integers(0, 39),
    edited_at=st.integers(0, 39),
    value=st.integers(0, 10**6),
    padding=st.integers(0, 400),
)
def test_only_problems_the_edit_made_are_reported(
    broken_at: int, edited_at: int, value: int, padding: int
) -> None:
    """A file broken in one function: a clean edit anywhere reports nothing, and a breaking one
    reports a problem on the line it changed, whatever the file's size."""
    functions = list(FUNCTIONS)
    functions[broken_at] = functions[broken_at].replace("(a):", "(a:")
    before = "# pad\n" * padding + "\n\n".join(functions)
    target = f"        return {edited_at}\n"
    start = before.index(target)
    line = before[:start].count("\n") + 1
    clean = before[:start] + f"        return {value}\n" + before[start + len(target) :]
    broken = before[:start] + f"        return ({value}\n" + before[start + len(target) :]
    assert check_syntax(before, clean, "a.py").introduced == ()
    if edited_at != broken_at:
        lines = {item.line for item in check_syntax(before, broken, "a.py").introduced}
        assert line in lines
