"""Each language the syntax check reads: an exact edit that breaks the syntax reports the line,
a clean edit reports nothing, a forgiving edit that breaks it is refused (``syntax_broken``)
with the file untouched, and an error elsewhere in the file blocks nothing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from editengine import EditEngine, edit_text
from editengine._errors import SyntaxBroken


@dataclass(frozen=True)
class Case:
    """A file of one language with a block of two lines the edits touch.

    ``first``/``second`` are the block's lines as the file has them; ``clean`` a second line that
    parses, ``broken`` one that does not; ``elsewhere`` an error far from the block, put at the
    top of the file; ``indent`` the indentation the forgiving quote adds to each line."""

    path: str
    head: str
    first: str
    second: str
    tail: str
    clean: str
    broken: str
    elsewhere: str

    @property
    def content(self) -> str:
        return f"{self.head}{self.first}\n{self.second}\n{self.tail}"

    @property
    def broken_line(self) -> int:
        return self.head.count("\n") + 2


CASES = [
    Case(
        "m.py",
        "import os\n\n\ndef f(a):\n",
        "    total = a + 1",
        "    return total",
        "\n\ndef g():\n    return os.sep\n",
        "    return total * 2",
        "    return (total",
        "def broken(:\n    pass\n\n\n",
    ),
    Case(
        "m.js",
        "function f(a) {\n",
        "  const total = a + 1;",
        "  return total;",
        "}\n\nfunction g() {\n  return 2;\n}\n",
        "  return total * 2;",
        "  return (total;",
        "function broken( {\n}\n\n",
    ),
    Case(
        "m.ts",
        "function f(a: number): number {\n",
        "  const total: number = a + 1;",
        "  return total;",
        "}\n\nexport const g = (): number => 2;\n",
        "  return total * 2;",
        "  return (total;",
        "let broken: = 1;\n\n",
    ),
    Case(
        "m.tsx",
        "export function F(props: { a: number }) {\n",
        "  const total = props.a + 1;",
        '  return <div className="x">{total}</div>;',
        "}\n",
        "  return <span>{total}</span>;",
        '  return <div className="x">{total</div>;',
        "const broken = <div>;\n\n",
    ),
    Case(
        "m.go",
        "package main\n\nfunc f(a int) int {\n",
        "\ttotal := a + 1",
        "\treturn total",
        "}\n\nfunc g() int {\n\treturn 2\n}\n",
        "\treturn total * 2",
        "\treturn (total",
        "",  # Go's package clause must come first: the error goes in the tail instead
    ),
    Case(
        "m.rs",
        "fn f(a: i32) -> i32 {\n",
        "    let total = a + 1;",
        "    total",
        "}\n\nfn g() -> i32 {\n    2\n}\n",
        "    total * 2",
        "    (total",
        "fn broken( {\n}\n\n",
    ),
    Case(
        "m.c",
        "int f(int a) {\n",
        "    int total = a + 1;",
        "    return total;",
        "}\n\nint g(void) {\n    return 2;\n}\n",
        "    return total * 2;",
        "    return (total;",
        "int broken( {\n}\n\n",
    ),
    Case(
        "m.cpp",
        "namespace n {\nint f(int a) {\n",
        "    auto total = a + 1;",
        "    return total;",
        "}\n}  // namespace n\n",
        "    return total * 2;",
        "    return (total;",
        "class broken { int x; \n\n",
    ),
    Case(
        "M.java",
        "class M {\n    int f(int a) {\n",
        "        int total = a + 1;",
        "        return total;",
        "    }\n\n    int g() {\n        return 2;\n    }\n}\n",
        "        return total * 2;",
        "        return (total;",
        "",  # one class a file: the error goes in the tail instead
    ),
    Case(
        "m.json",
        '{\n  "a": {\n',
        '    "b": 1,',
        '    "c": 2',
        '  },\n  "d": [1, 2]\n}\n',
        '    "c": 3',
        '    "c": 2,',
        "",  # one document a file: the error goes in the tail instead
    ),
    Case(
        "m.yaml",
        "a:\n",
        "  b: 1",
        "  c: 2",
        "d:\n  - 3\n  - 4\n",
        "  c: 3",
        "  c: [2",
        "x: [1\n\n",
    ),
    Case(
        "m.toml",
        "[a]\n",
        "b = 1",
        "c = 2",
        "\n[d]\ne = 3\n",
        "c = 3",
        'c = "2',
        "x = = 1\n\n",
    ),
    Case(
        "m.sh",
        "f() {\n",
        "  local total=1",
        '  echo "$total"',
        "}\n\ng() {\n  echo two\n}\n",
        '  echo "$total" done',
        '  if [ -n "$total" ]; then',
        "broken() {\n  echo (\n}\n\n",
    ),
]
# Where a language allows nothing before its first declaration, the error goes at the end.
TAIL_ERRORS = {
    "m.go": "\nfunc broken( {\n}\n",
    "M.java": "\nclass Broken { int x \n",
    "m.json": "",
}


def _ids(case: Case) -> str:
    return case.path


def _requoted(case: Case) -> tuple[str, str]:
    """A quote of the block with two more spaces on each line: only a forgiving tier places it."""
    return f"  {case.first}\n  {case.second}", f"  {case.first}\n  {case.broken}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_an_exact_edit_that_breaks_the_syntax_reports_the_line(case: Case) -> None:
    result = edit_text(case.content, case.second, case.broken, path=case.path)
    assert result.strategy == "exact"
    assert result.diagnostics, case.path
    lines = {item.line for item in result.diagnostics}
    # The line edited, or (JSON's decoder) the next one, where the document went wrong.
    assert lines & {case.broken_line, case.broken_line + 1}, lines
    assert all(item.source == "syntax" and item.severity == "error" for item in result.diagnostics)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_clean_edit_reports_nothing(case: Case) -> None:
    result = edit_text(case.content, case.second, case.clean, path=case.path)
    assert result.diagnostics == ()
    assert result.diagnostics_note is None


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_forgiving_edit_that_breaks_the_syntax_is_refused(case: Case, tmp_path: Path) -> None:
    old, new = _requoted(case)
    with pytest.raises(SyntaxBroken) as caught:
        edit_text(case.content, old, new, path=case.path)
    error = caught.value
    assert error.code == "syntax_broken"
    assert error.tier != "exact"
    assert f"line {error.line}, column {error.column}" in str(error)
    assert error.tier in str(error)
    assert "Quote old_string exactly" in str(error)
    assert 'syntax_guard="report"' in str(error)
    # Through the engine: refused, and the file byte for byte as it was.
    file = tmp_path / case.path
    file.write_text(case.content)
    with EditEngine(tmp_path, journal=False) as engine, pytest.raises(SyntaxBroken):
        engine.edit(case.path, old, new)
    assert file.read_text() == case.content
    # The same edit placed exactly is written, its errors reported.
    with EditEngine(tmp_path, journal=False) as engine:
        result = engine.edit(case.path, case.second, case.broken)
    assert result.strategy == "exact" and result.diagnostics


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_the_guard_in_report_mode_writes_and_reports(case: Case) -> None:
    old, new = _requoted(case)
    result = edit_text(case.content, old, new, path=case.path, syntax_guard="report")
    assert result.strategy != "exact"
    assert result.diagnostics
    assert edit_text(case.content, old, new, path=case.path, syntax_guard="off").diagnostics == ()


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_an_error_elsewhere_in_the_file_does_not_block(case: Case) -> None:
    content = case.elsewhere + case.content + TAIL_ERRORS.get(case.path, "")
    if content == case.content:
        pytest.skip("no second error a document of this kind can hold")
    old = f"  {case.first}\n  {case.second}"
    new = f"  {case.first}\n  {case.clean}"
    result = edit_text(content, old, new, path=case.path)
    assert result.strategy != "exact"
    assert case.clean in result.new_content
    assert result.diagnostics == ()
