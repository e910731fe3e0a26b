"""The one already-applied rule through the engine's paths: edit, multi-edit, a patch."""

from __future__ import annotations

POEM = "Roses are red\nViolets are blue\n"
BROKEN = "Roses are red  \nViolets are blue\n"


def test_a_hard_break_quoted_with_padding_is_written_by_edit(engine, write) -> None:
    path = write("poem.md", POEM)
    result = engine.edit("poem.md", "\nRoses are red\n", "\nRoses are red  \n")
    assert path.read_text() == BROKEN and not result.no_change


def test_a_hard_break_quoted_with_a_whitespace_mistake_is_written_by_multi_edit(
    engine, write
) -> None:
    path = write("poem.md", POEM)
    result = engine.multi_edit(
        "poem.md",
        [
            {"old_string": "Roses are red\t\nViolets", "new_string": "Roses are red  \nViolets"},
            {"old_string": "Violets are blue", "new_string": "Violets are blue!"},
        ],
    )
    assert path.read_text() == "Roses are red  \nViolets are blue!\n"
    assert not result.no_change


def test_a_hard_break_sent_again_is_answered_applied(engine, write) -> None:
    path = write("poem.md", BROKEN)
    result = engine.edit("poem.md", "Roses are red\n", "Roses are red  \n")
    assert result.no_change and path.read_text() == BROKEN


def test_a_deletion_hunk_with_a_small_mistake_is_made_not_called_applied(engine, write) -> None:
    content = "def f():\n    x = compute(1)\n    y = other(2)\n    log(x, y)\n    return x\n"
    path = write("f.py", content)
    patch = (
        "--- a/f.py\n+++ b/f.py\n@@ -1,4 +1,3 @@\n def f():\n     x = compute(1)\n"
        "     y = other(2)\n-    log(x,y)\n"
    )
    result = engine.apply_patch(patch)
    assert not result.no_change
    assert path.read_text() == content.replace("    log(x, y)\n", "")
