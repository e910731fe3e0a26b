"""The pure ``apply_patch`` keeps the engine's syntax guard: a loosely placed hunk that breaks
what it touched is refused, an exact one is applied, and ``report``/``off`` apply both."""

from __future__ import annotations

import pytest

from editengine import BadRequest, SyntaxBroken, apply_patch

FILES = {"b.js": "function g() {\n  return 3;\n}\n"}
# Placed by a forgiving tier (the quote lost its indentation), and leaves a "(" open.
LOOSE = "b.js\n<<<<<<< SEARCH\nreturn 3;\n}\n=======\nreturn (3;\n}\n>>>>>>> REPLACE\n"
EXACT = "b.js\n<<<<<<< SEARCH\n  return 3;\n=======\n  return (3;\n>>>>>>> REPLACE\n"
LOOSE_CLEAN = "b.js\n<<<<<<< SEARCH\nreturn 3;\n}\n=======\nreturn 4;\n}\n>>>>>>> REPLACE\n"


def test_a_loose_hunk_that_breaks_the_syntax_is_refused() -> None:
    files = dict(FILES)
    with pytest.raises(SyntaxBroken) as caught:
        apply_patch(files, LOOSE)
    assert caught.value.code == "syntax_broken" and "line 2" in str(caught.value)
    assert files == FILES


@pytest.mark.parametrize("mode", ["report", "off"])
def test_report_and_off_apply_it(mode: str) -> None:
    assert apply_patch(FILES, LOOSE, syntax_guard=mode).files["b.js"].count("(3;") == 1


def test_an_exact_hunk_and_a_loose_clean_one_are_applied() -> None:
    assert "return (3;" in apply_patch(FILES, EXACT).files["b.js"]
    assert "return 4;" in apply_patch(FILES, LOOSE_CLEAN).files["b.js"]


def test_an_unknown_mode_is_a_bad_request() -> None:
    with pytest.raises(BadRequest):
        apply_patch(FILES, EXACT, syntax_guard="strict")
