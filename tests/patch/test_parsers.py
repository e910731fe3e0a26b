"""Each format's parser: every construct, and every malformed variant with its patch line."""

from __future__ import annotations

import pytest

from editengine._errors import BadRequest, PatchError
from editengine.patch import Hunk, detect_format, parse_patch


def ops(text: str, format: str = "auto") -> list[tuple]:
    """(kind, path, move_to, content, [(before, after, anchors, at_end)]) per operation."""
    return [
        (
            op.kind,
            op.path,
            op.move_to,
            op.content,
            [(h.before, h.after, h.anchors, h.at_end) for h in op.hunks],
        )
        for op in parse_patch(text, format).operations
    ]


def error_line(text: str, format: str = "auto") -> int | None:
    with pytest.raises(PatchError) as caught:
        parse_patch(text, format)
    assert caught.value.code == "bad_patch"
    assert str(caught.value).startswith(f"Patch line {caught.value.line}:")
    return caught.value.line


# ---------------------------------------------------------------------- apply_patch


def test_apply_patch_add_delete_update_move_and_anchors() -> None:
    text = (
        "*** Begin Patch\n"
        "*** Add File: docs/new.md\n"
        "+# Title\n"
        "+\n"
        "*** Delete File: old.txt\n"
        "*** Update File: src/app.py\n"
        "*** Move to: src/main.py\n"
        "@@ class App:\n"
        "@@     def run(self):\n"
        "-        return 1\n"
        "+        return 2\n"
        "@@\n"
        " x = 1\n"
        "\n"
        "-y = 2\n"
        "*** End of File\n"
        "*** End Patch\n"
    )
    assert ops(text) == [
        ("add", "docs/new.md", None, "# Title\n\n", []),
        ("delete", "old.txt", None, None, []),
        (
            "update",
            "src/app.py",
            "src/main.py",
            None,
            [
                (
                    "        return 1\n",
                    "        return 2\n",
                    ("class App:", "def run(self):"),
                    False,
                ),
                ("x = 1\n\ny = 2\n", "x = 1\n\n", (), True),
            ],
        ),
    ]


def test_apply_patch_first_chunk_may_omit_the_at_at_line() -> None:
    text = "*** Begin Patch\n*** Update File: a\n-a\n+b\n*** End Patch"
    assert ops(text) == [("update", "a", None, None, [("a\n", "b\n", (), False)])]


def test_apply_patch_padded_markers_heredoc_and_fence_are_unwrapped() -> None:
    body = "  *** Begin Patch \n   *** Update File: a.txt\n@@\n-a\n+b\n *** End Patch  \n"
    for text in (body, f"cat <<'EOF'\n{body}EOF\n", f"<<EOF\n{body}EOF", f"```\n{body}```\n"):
        assert ops(text, "apply_patch") == [
            ("update", "a.txt", None, None, [("a\n", "b\n", (), False)])
        ]


def test_apply_patch_crlf_patch_text_is_read_as_lines() -> None:
    text = "*** Begin Patch\r\n*** Update File: a\r\n@@\r\n-a\r\n+b\r\n*** End Patch\r\n"
    assert ops(text)[0][4] == [("a\n", "b\n", (), False)]


def test_apply_patch_marker_quoted_in_content_does_not_end_the_patch() -> None:
    text = "*** Begin Patch\n*** Update File: a\n@@\n- *** End Patch\n+done\n*** End Patch\n"
    assert ops(text)[0][4] == [(" *** End Patch\n", "done\n", (), False)]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("*** Update File: a\n-a\n+b\n*** End Patch", 1, "Begin Patch"),
        ("I will now patch it:\n*** Begin Patch\n*** Delete File: a\n*** End Patch", 1, "before"),
        ("*** Begin Patch\n*** Delete File: a\n", 3, "End Patch"),
        ("*** Begin Patch\n*** End Patch", 2, "no file operation"),
        ("*** Begin Patch\n*** Frobnicate File: a\n*** End Patch", 2, "not a valid file operation"),
        ("*** Begin Patch\n*** Update File: a\n*** End Patch", 2, "no change"),
        ("*** Begin Patch\n*** Update File: a\n@@\n a\n*** End Patch", 3, "only context"),
        ("*** Begin Patch\n*** Update File: a\n@@\n-a\nb\n*** End Patch", 5, "unexpected line"),
        ("*** Begin Patch\n*** Update File: a\nhello\n*** End Patch", 3, "unexpected line"),
        ("*** Begin Patch\n*** Add File:\n+x\n*** End Patch", 2, "needs a path"),
        ("*** Begin Patch\n*** Update File: a\n@@\n*** End Patch", 3, "no lines"),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n*** End of File\n-c\n*** End Patch",
            7,
            "'@@'",
        ),
    ],
)
def test_apply_patch_malformed_names_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(PatchError) as caught:
        parse_patch(text, "apply_patch")
    assert caught.value.line == line
    assert words in str(caught.value)


# ---------------------------------------------------------------------- unified diff


def test_udiff_files_hunks_prefixes_dev_null_and_moves() -> None:
    text = (
        "Here is the diff:\n"
        "```diff\n"
        "diff --git a/src/x.py b/src/x.py\n"
        "index 83db48f..bf269f4 100644\n"
        "--- a/src/x.py\n"
        "+++ b/src/x.py\n"
        "@@ -10,7 +10,7 @@ def f():\n"
        "     a = 1\n"
        "-    b = 2\n"
        "+    b = 3\n"
        "@@ -40 +40 @@\n"
        "-z\n"
        "+Z\n"
        "--- /dev/null\n"
        "+++ b/new.txt\n"
        "@@ -0,0 +1,2 @@\n"
        "+one\n"
        "+two\n"
        "--- a/gone.txt\n"
        "+++ /dev/null\n"
        "@@ -1 +0,0 @@\n"
        "-bye\n"
        "--- old name.txt\n"
        "+++ new name.txt\n"
        "@@ ... @@\n"
        "-a\n"
        "+b\n"
        "```\n"
        "That's all.\n"
    )
    assert ops(text) == [
        (
            "update",
            "src/x.py",
            None,
            None,
            [
                ("    a = 1\n    b = 2\n", "    a = 1\n    b = 3\n", ("def f():",), False),
                ("z\n", "Z\n", (), False),
            ],
        ),
        ("add", "new.txt", None, "one\ntwo\n", []),
        ("delete", "gone.txt", None, "bye\n", []),  # its - lines, checked against the file
        ("update", "old name.txt", "new name.txt", None, [("a\n", "b\n", (), False)]),
    ]
    hunk: Hunk = parse_patch(text).operations[0].hunks[0]
    assert hunk.hint_line == 10 and hunk.line == 7


def test_udiff_tolerates_missing_numbers_blank_context_and_no_at_at_line() -> None:
    text = "--- a.py\n+++ a.py\n def f():\n\n-    pass\n+    return 1\n\n\nThanks!\n"
    assert ops(text, "udiff") == [
        (
            "update",
            "a.py",
            None,
            None,
            [("def f():\n\n    pass\n", "def f():\n\n    return 1\n", (), False)],
        )
    ]


def test_udiff_bare_at_at_and_no_newline_marker() -> None:
    text = (
        "--- a/a\n+++ b/a\n@@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n"
    )
    assert ops(text)[0][4] == [("x\n", "y\n", (), False)]


def test_udiff_a_removed_line_that_starts_with_dashes_is_not_a_header() -> None:
    text = "--- a/q.sql\n+++ b/q.sql\n@@ -1 +1 @@\n--- old comment\n+-- new comment\n"
    assert ops(text)[0][4] == [("-- old comment\n", "-- new comment\n", (), False)]


def test_udiff_context_only_hunks_are_dropped_and_creation_by_pure_additions() -> None:
    text = "--- a/a\n+++ b/a\n@@ -1 +1 @@\n same\n@@ -5 +5 @@\n+added\n"
    op = parse_patch(text).operations[0]
    assert [(h.before, h.after) for h in op.hunks] == [("", "added\n")]
    assert op.creates_if_missing


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("just prose, no diff here\n@@ -1 +1 @@\n", 1),
        ("--- a/x\n+++ b/x\n@@ -1 +1 @@\n same\n", 1),
        ("--- /dev/null\n+++ /dev/null\n@@\n+x\n", 1),
    ],
)
def test_udiff_malformed_names_the_line(text: str, line: int) -> None:
    assert error_line(text, "udiff") == line


# ---------------------------------------------------------------------- SEARCH/REPLACE


def test_blocks_paths_fences_inheritance_and_empty_search() -> None:
    text = (
        "Here's the change:\n\n"
        "src/a.py\n"
        "```python\n"
        "<<<<<<< SEARCH\n"
        "x = 1\n"
        "=======\n"
        "x = 2\n"
        ">>>>>>> REPLACE\n"
        "```\n\n"
        "```python\n"
        "<<<<<<< SEARCH\n"
        "y = 1\n"
        "=======\n"
        "y = 2\n"
        ">>>>>>> REPLACE\n"
        "```\n\n"
        "```new.txt\n"
        "<<<<<<< SEARCH\n"
        "=======\n"
        "hello\n"
        ">>>>>>> REPLACE\n"
        "```\n"
    )
    assert ops(text) == [
        (
            "update",
            "src/a.py",
            None,
            None,
            [("x = 1\n", "x = 2\n", (), False), ("y = 1\n", "y = 2\n", (), False)],
        ),
        ("update", "new.txt", None, None, [("", "hello\n", (), False)]),
    ]
    assert parse_patch(text).operations[1].creates_if_missing


def test_blocks_path_decorations_marker_lengths_and_second_divider_closes() -> None:
    text = "**`src/b.py`**:\n<<<<<<<< SEARCH\nold\n=====\nnew\n=======\n"
    assert ops(text, "search_replace") == [
        ("update", "src/b.py", None, None, [("old\n", "new\n", (), False)])
    ]


def test_blocks_copied_path_line_inside_the_block_is_dropped() -> None:
    text = "a.py\n<<<<<<< SEARCH\na.py\nold\n=======\na.py\nnew\n>>>>>>> REPLACE"
    assert ops(text)[0][4] == [("old\n", "new\n", (), False)]


def test_blocks_bare_name_finds_the_known_file() -> None:
    text = "app.py\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
    patch = parse_patch(text, known_paths=["src/app.py", "README.md"])
    assert patch.operations[0].path == "src/app.py"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n", 1, "missing filename"),
        ("a.py\n<<<<<<< SEARCH\nold\n", 3, "`=======`"),
        ("a.py\n<<<<<<< SEARCH\nold\n=======\nnew\n", 5, ">>>>>>> REPLACE"),
        ("a.py\n<<<<<<< SEARCH\nold\n>>>>>>> REPLACE\n", 4, "`=======`"),
        ("a.py\n<<<<<<< SEARCH\nx\n=======\ny\n<<<<<<< SEARCH\n", 6, ">>>>>>> REPLACE"),
    ],
)
def test_blocks_malformed_names_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(PatchError) as caught:
        parse_patch(text, "search_replace")
    assert caught.value.line == line
    assert words in str(caught.value)


# ---------------------------------------------------------------------- detection


@pytest.mark.parametrize(
    ("text", "format"),
    [
        ("*** Begin Patch\n*** Delete File: a\n*** End Patch\n", "apply_patch"),
        ("a\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", "search_replace"),
        ("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "udiff"),
        # the first marker decides: a block whose text quotes a diff is a block
        ("a.md\n<<<<<<< SEARCH\n--- a/x\n+++ b/x\n=======\nz\n>>>>>>> REPLACE\n", "search_replace"),
    ],
)
def test_auto_detection(text: str, format: str) -> None:
    assert detect_format(text) == format


def test_unknown_format_and_non_text_are_bad_requests() -> None:
    with pytest.raises(PatchError, match="unknown patch format"):
        parse_patch("x", "git")
    with pytest.raises(BadRequest):
        parse_patch(b"x", "auto")  # type: ignore[arg-type]  # a wrong type on purpose
    assert error_line("nothing to see here") == 1


def test_blocks_path_after_a_label() -> None:
    text = "File: `src/c.py`\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
    assert parse_patch(text).operations[0].path == "src/c.py"
