"""The pure applier: each hunk through the cascade, with the cascade's rules, in order."""

from __future__ import annotations

import pytest

from editengine import apply_patch
from editengine._errors import AmbiguousMatch, FileNotFound, NoMatch, PatchFailed

PY = (
    "class A:\n    def f(self):\n        return 1\n\n\n"
    "class B:\n    def f(self):\n        return 1\n"
)


def patch(path: str, body: str) -> str:
    return f"*** Begin Patch\n*** Update File: {path}\n{body}*** End Patch\n"


def failure(files: dict, text: str, format: str = "auto") -> PatchFailed:
    with pytest.raises(PatchFailed) as caught:
        apply_patch(files, text, format=format)
    return caught.value


def test_ambiguous_hunk_is_refused_naming_both_places() -> None:
    error = failure({"m.py": PY}, patch("m.py", "@@\n-        return 1\n+        return 2\n"))
    assert isinstance(error.cause, AmbiguousMatch)
    assert error.hunk == 1 and error.line == 3 and error.path == "m.py"
    assert "line 3" in str(error) and "line 8" in str(error)


def test_anchor_picks_the_block_and_keeps_the_other() -> None:
    result = apply_patch(
        {"m.py": PY}, patch("m.py", "@@ class B:\n-        return 1\n+        return 2\n")
    )
    assert result.files["m.py"] == PY.replace("return 1\n", "return 2\n").replace(
        "return 2\n\n\nclass B", "return 1\n\n\nclass B"
    )
    assert result.hunks[0].spans[0].start_line == 8


def test_anchor_of_a_unified_diff_heading_narrows_too() -> None:
    diff = (
        "--- a/m.py\n+++ b/m.py\n@@ -7,2 +7,2 @@ class B:\n"
        "     def f(self):\n-        return 1\n+        return 2\n"
    )
    assert apply_patch({"m.py": PY}, diff).files["m.py"].endswith("        return 2\n")
    assert apply_patch({"m.py": PY}, diff).files["m.py"].count("return 1") == 1


def test_ordered_hunks_resolve_a_repeat_after_the_previous_hunk() -> None:
    body = (
        "@@\n class A:\n     def f(self):\n-        return 1\n+        return 10\n"
        "@@\n-        return 1\n+        return 20\n"
    )
    new = apply_patch({"m.py": PY}, patch("m.py", body)).files["m.py"]
    assert "return 10" in new and "return 20" in new and "return 1\n" not in new


def test_search_replace_blocks_do_not_use_order_to_guess() -> None:
    blocks = (
        "m.py\n<<<<<<< SEARCH\nclass A:\n=======\nclass AA:\n>>>>>>> REPLACE\n"
        "m.py\n<<<<<<< SEARCH\n        return 1\n=======\n        return 2\n>>>>>>> REPLACE\n"
    )
    assert isinstance(failure({"m.py": PY}, blocks).cause, AmbiguousMatch)


def test_later_hunk_sees_what_earlier_hunks_wrote() -> None:
    body = "@@\n-a\n+b\n@@\n-b\n+c\n"
    assert apply_patch({"t": "a\nx\n"}, patch("t", body)).files["t"] == "c\nx\n"


def test_reindentation_line_endings_bom_and_final_newline_are_kept() -> None:
    content = "\ufeffdef f():\r\n\tif x:\r\n\t\treturn 1\r\n\treturn 0"
    body = "@@\n if x:\n-    return 1\n+    log()\n+    return 2\n"
    new = apply_patch({"a.py": content}, patch("a.py", body)).files["a.py"]
    assert new == "\ufeffdef f():\r\n\tif x:\r\n\t\tlog()\r\n\t\treturn 2\r\n\treturn 0"


def test_mixed_line_endings_context_lines_keep_their_own() -> None:
    body = "@@\n one\n two\n-three\n+THREE\n four\n"
    new = apply_patch({"m": "one\r\ntwo\nthree\r\nfour\n"}, patch("m", body)).files["m"]
    assert new == "one\r\ntwo\nTHREE\r\nfour\n"


def test_an_applied_patch_applied_again_changes_nothing() -> None:
    text = patch("m.py", "@@ class B:\n     def f(self):\n-        return 1\n+        return 2\n")
    once = apply_patch({"m.py": PY}, text).files["m.py"]
    again = apply_patch({"m.py": once}, text)
    assert again.files["m.py"] == once and again.no_change
    assert again.hunks[0].no_change


def test_end_of_file_anchor_prefers_the_last_match() -> None:
    content = "marker\nmiddle\nmarker\n"
    body = "@@\n-marker\n+END\n*** End of File\n"
    assert apply_patch({"f": content}, patch("f", body)).files["f"] == "marker\nmiddle\nEND\n"


def test_pure_additions_append_or_follow_their_anchor() -> None:
    appended = apply_patch({"f": "a\nb"}, patch("f", "@@\n+c\n")).files["f"]
    assert appended == "a\nb\nc\n"
    inserted = apply_patch({"m.py": PY}, patch("m.py", "@@ class B:\n+    x = 1\n")).files["m.py"]
    assert "class B:\n    x = 1\n    def f" in inserted
    with pytest.raises(PatchFailed) as caught:
        apply_patch({"m.py": PY}, patch("m.py", "@@ class C:\n+    x = 1\n"))
    assert isinstance(caught.value.cause, NoMatch)


def test_trailing_blank_context_line_is_retried_without() -> None:
    body = "@@\n-b\n+B\n\n"
    assert apply_patch({"f": "a\nb"}, patch("f", body)).files["f"] == "a\nB"


def test_partial_line_search_block_is_placed_inside_its_line() -> None:
    content = "def f():\n    x = 1  # one\n    return x\n"
    blocks = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    assert apply_patch({"a.py": content}, blocks).files["a.py"] == content.replace("x = 1", "x = 2")


def test_unindented_one_line_hunk_that_begins_several_lines_is_refused() -> None:
    # As one whole line, "go(x)" is only line 2; as typed, it also begins line 4: the model
    # may have cut line 4 short, so (as edit does) it is refused.
    content = "if a:\n    go(x)\nif b:\n    go(x) or stop()\n"
    blocks = "a.py\n<<<<<<< SEARCH\ngo(x)\n=======\nstop(x)\n>>>>>>> REPLACE\n"
    assert isinstance(failure({"a.py": content}, blocks).cause, AmbiguousMatch)
    # Indented as in the file, it is line 2 exactly.
    exact = blocks.replace("\ngo(x)", "\n    go(x)").replace("\nstop(x)", "\n    stop(x)")
    assert apply_patch({"a.py": content}, exact).files["a.py"].startswith("if a:\n    stop(x)\n")


def test_add_delete_move_and_what_they_refuse() -> None:
    files = {"a.txt": "A\n", "b.txt": "B\n"}
    text = (
        "*** Begin Patch\n*** Add File: c/new.txt\n+N\n*** Delete File: b.txt\n"
        "*** Update File: a.txt\n*** Move to: d/a.txt\n@@\n-A\n+AA\n*** End Patch\n"
    )
    result = apply_patch(files, text)
    assert result.files == {"c/new.txt": "N\n", "b.txt": None, "d/a.txt": "AA\n", "a.txt": None}
    kinds = {change.path: change.kind for change in result.changes}
    assert kinds == {"c/new.txt": "add", "b.txt": "delete", "d/a.txt": "add", "a.txt": "delete"}
    assert files == {"a.txt": "A\n", "b.txt": "B\n"}  # the input is never modified
    assert "already exists" in str(
        failure(files, "*** Begin Patch\n*** Add File: a.txt\n+X\n*** End Patch")
    )
    moved = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-A\n+X\n*** End Patch"
    assert "already exists" in str(failure(files, moved))
    missing = failure(files, "*** Begin Patch\n*** Delete File: zz\n*** End Patch")
    assert isinstance(missing.cause, FileNotFound)
    assert isinstance(failure(files, patch("zz", "@@\n-a\n+b\n")).cause, FileNotFound)


def test_adding_a_file_that_already_holds_the_content_is_a_no_op() -> None:
    text = "*** Begin Patch\n*** Add File: a.txt\n+A\n*** End Patch"
    assert apply_patch({"a.txt": "A\n"}, text).no_change


@pytest.mark.parametrize("path", ["../x", "/etc/passwd", "a/../../x", "C:\\x"])
def test_paths_leaving_the_tree_are_refused(path: str) -> None:
    text = f"*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch"
    error = failure({}, text)
    assert error.cause.code == "path_outside_workspace"


def test_empty_search_creates_or_appends_and_udiff_dev_null_adds() -> None:
    blocks = "new.py\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n"
    assert apply_patch({}, blocks).files == {"new.py": "x = 1\n"}
    assert apply_patch({"new.py": "a = 0"}, blocks).files == {"new.py": "a = 0\nx = 1\n"}
    diff = "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hi\n"
    assert apply_patch({}, diff).files == {"n.txt": "hi\n"}


def test_a_failure_in_a_later_file_reports_that_file_and_its_hunk() -> None:
    files = {"a": "1\n", "b": "2\n", "c": "3\n"}
    text = (
        "*** Begin Patch\n*** Update File: a\n@@\n-1\n+one\n*** Update File: b\n@@\n-2\n+two\n"
        "*** Update File: c\n@@\n-x\n+three\n*** End Patch\n"
    )
    error = failure(files, text)
    assert (error.path, error.hunk, error.line) == ("c", 1, 11)
    assert "Hunk 1 of c (patch line 11)" in str(error)
    assert files == {"a": "1\n", "b": "2\n", "c": "3\n"}


def test_an_anchor_that_disagrees_with_a_verbatim_match_is_refused() -> None:
    content = "def a():\n    total  =  2\n\n\ndef b():\n    total = 2\n"
    # Under the anchor "def a():" the line only matches loosely (spacing); it stands
    # verbatim in b: the anchor and the text disagree.
    text = patch("m.py", "@@ def a():\n-    total = 2\n+    total = 3\n")
    error = failure({"m.py": content}, text)
    assert isinstance(error.cause, AmbiguousMatch) and "anchor" in str(error)


def test_order_decides_only_between_the_places_the_ambiguous_tier_found() -> None:
    content = "x = 1\nx = 1\ny = 0\nz = 1\n"
    body = "@@\n-y = 0\n+y = 5\n@@\n-x = 1\n+x = 2\n"
    # After the first hunk no "x = 1" is left: a looser tier must not take "z = 1" instead.
    error = failure({"f": content}, patch("f", body))
    assert isinstance(error.cause, AmbiguousMatch) and error.hunk == 2


def test_a_block_of_two_lines_whose_last_is_cut_short_is_placed_from_a_line_start() -> None:
    content = "x = f(a,\n      b) + 1\n"
    blocks = "a\n<<<<<<< SEARCH\nx = f(a,\n      b)\n=======\nx = g(a,\n      b)\n>>>>>>> REPLACE\n"
    assert apply_patch({"a": content}, blocks).files["a"] == "x = g(a,\n      b) + 1\n"


def _block(search: str, replace: str) -> str:
    return f"a\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n"


def _codex(body: str) -> str:
    return f"*** Begin Patch\n*** Update File: a\n{body}*** End Patch\n"


@pytest.mark.parametrize(
    ("content", "text"),
    [
        # A block quoting the end of one line and the next: it would be written into the line.
        ("x = f(a,\n      b) + 1\n", _block("f(a,\n      b)\n", "g(a,\n      b)\n")),
        ("total = 10\nx = 1\n", _block("= 10\nx = 1\n", "z = 3\n")),
        ("total = 10\nx = 1\n", "--- a/a\n+++ b/a\n@@ -1,2 +1,1 @@\n-= 10\n-x = 1\n+z = 3\n"),
        ("total = 10\nx = 1\n", _codex("-= 10\n-x = 1\n+z = 3\n")),
        # A list item whose diff prefix was lost: '- one' read as the removal of ' one'.
        ("- one\n- two\n", _codex("@@\n- one\n - two\n+- three\n")),
        ("- one\n- two\n", _codex("@@\n- one\n - two\n")),
        ("- one\n- two\n", "--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n- one\n - two\n+- three\n"),
    ],
)  # fmt: skip
def test_a_hunk_of_several_lines_is_never_placed_from_the_middle_of_a_line(
    content: str, text: str
) -> None:
    with pytest.raises(PatchFailed):
        apply_patch({"a": content}, text)


def test_blank_and_elision_context_at_a_hunks_edges_is_not_written_back() -> None:
    content = "import x\n\n\nclass A(B):\n    pass\n"
    # The elision tier places the marker and the blank lines as a gap; written back, the
    # two blank lines would be added a second time.
    body = "@@\n # ... rest of the code unchanged ...\n \n \n-class A(B):\n+class A(C):\n"
    new = apply_patch({"f": content}, patch("f", body)).files["f"]
    assert new == "import x\n\n\nclass A(C):\n    pass\n"


def test_new_lines_already_standing_elsewhere_make_a_loose_match_a_no_op() -> None:
    content = "if a:\n        x = 1\n        y = 2\nif a:\n    x = 1\n    y = 3\n"
    # The old lines only match loosely at the top (deeper indentation); the lines the hunk
    # rewrites stand verbatim at the bottom: the hunk was applied there before.
    text = patch("f", "@@\n if a:\n     x = 1\n-    y = 2\n+    y = 3\n")
    result = apply_patch({"f": content}, text)
    assert result.files["f"] == content and result.hunks[0].strategy == "already_applied"


def test_a_deletions_kept_context_standing_elsewhere_is_no_proof_it_was_applied() -> None:
    content = (
        "if ready:\n        value = compute(1)\n        other = compute(2)\n"
        "if ready:\n    value = compute(1)\n"
    )
    # A deletion's new lines are its context: they stand whether the line went or not.
    # The line to delete stands only at the top, so it goes there, as edit does it.
    body = "@@\n if ready:\n     value = compute(1)\n-    other = compute(2)\n"
    result = apply_patch({"f": content}, patch("f", body))
    assert result.hunks[0].strategy != "already_applied"
    assert result.files["f"] == content.replace("        other = compute(2)\n", "")


def test_a_loose_match_that_would_rewrite_a_kept_context_line_is_refused() -> None:
    content = "def f():\n\tif x:\n\t\tgo( 1 )\n\tkeep( 2 )\n"
    # Spacing is off in the removed line (whitespace tier); the kept line is verbatim and
    # must come out byte for byte, or not at all.
    text = patch("f", "@@\n-\t\tgo(1)\n+\t\tgo(3)\n \tkeep( 2 )\n")
    new = apply_patch({"f": content}, text).files["f"]
    assert new == "def f():\n\tif x:\n\t\tgo(3)\n\tkeep( 2 )\n"


def test_an_elision_marker_replaced_by_code_the_file_already_has_is_refused() -> None:
    content = "def a():\n    one()\n    two()\n\n\nB = 1\n"
    diff = (
        "--- a/f\n+++ b/f\n@@ -1,4 +1,7 @@\n"
        " \n-# ...\n+def a():\n+    one()\n+    two()\n \n B = 1\n+C = 2\n"
    )
    error = failure({"f": content}, diff)
    assert isinstance(error.cause, NoMatch) and "duplicate" in str(error)


def test_an_elision_marker_spelled_out_as_the_very_lines_it_stands_for_is_applied() -> None:
    content = (
        "def a():\n    one()\n    two()\n    three()\n    return 1\n"
        "\ndef b():\n    one()\n    two()\n"
    )
    # The same two lines also stand in b(), but inside the matched place the marker stands
    # for exactly them: the hunk spells them out and changes a later line.
    diff = (
        "--- a/f\n+++ b/f\n@@ -1,4 +1,5 @@\n def a():\n-    # ...\n+    one()\n+    two()\n"
        "     three()\n-    return 1\n+    return 2\n"
    )
    new = apply_patch({"f": content}, diff).files["f"]
    assert new == content.replace("return 1", "return 2")


def test_added_lines_placed_only_by_a_diff_line_number_are_refused() -> None:
    content = "a\nb\nc\n"
    diff = "--- a/f\n+++ b/f\n@@ -1,0 +2 @@\n+inserted\n"
    assert isinstance(failure({"f": content}, diff).cause, NoMatch)
    # at the end of the file, or without numbers, the lines are appended
    at_end = "--- a/f\n+++ b/f\n@@ -3,0 +4 @@\n+last\n"
    assert apply_patch({"f": content}, at_end).files["f"] == "a\nb\nc\nlast\n"
    no_numbers = "--- a/f\n+++ b/f\n@@ ... @@\n+last\n"
    assert apply_patch({"f": content}, no_numbers).files["f"] == "a\nb\nc\nlast\n"


def test_old_lines_here_and_new_lines_already_there_is_ambiguous() -> None:
    content = "job_a:\n  needs:\n    # check first\n    - tests\njob_b:\n  needs:\n    - tests\n"
    # The insertion may have been applied to job_a already, or be meant for job_b.
    text = patch("ci.yml", "@@\n   needs:\n+    # check first\n     - tests\n")
    assert isinstance(failure({"ci.yml": content}, text).cause, AmbiguousMatch)


def test_patch_paths_are_matched_to_the_files_keys() -> None:
    files = {"src/a.py": "x\n"}
    assert apply_patch(files, "--- a/./src/a.py\n+++ b/./src/a.py\n@@\n-x\n+y\n").files == {
        "src/a.py": "y\n"
    }
    assert "path_outside_workspace" in failure(files, patch("/src/a.py", "-x\n+y\n")).cause.code


def test_a_diff_hunk_found_above_the_previous_hunk_is_refused() -> None:
    content = "}\n\nstart()\nmiddle()\nend()\n}\n"
    diff = (
        "--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@\n start()\n-middle()\n+MIDDLE()\n@@ -6,2 +6 @@\n }\n-\n"
    )
    error = failure({"f": content}, diff)
    assert isinstance(error.cause, AmbiguousMatch) and error.hunk == 2
    # SEARCH/REPLACE blocks carry no order: there the same two edits both apply
    blocks = (
        "f\n<<<<<<< SEARCH\nstart()\nmiddle()\n=======\nstart()\nMIDDLE()\n>>>>>>> REPLACE\n"
        "f\n<<<<<<< SEARCH\n}\n\n=======\n}\n>>>>>>> REPLACE\n"
    )
    assert apply_patch({"f": content}, blocks).files["f"] == "}\nstart()\nMIDDLE()\nend()\n}\n"


def test_a_shortened_path_names_the_one_file_it_ends() -> None:
    files = {"src/pkg/a.py": "x\n", "src/b.py": "x\n"}
    diff = "--- a/pkg/a.py\n+++ b/pkg/a.py\n@@\n-x\n+y\n"
    assert apply_patch(files, diff).files == {"src/pkg/a.py": "y\n"}
    two = {"src/pkg/a.py": "x\n", "lib/a.py": "x\n"}
    assert isinstance(failure(two, diff.replace("pkg/", "")).cause, FileNotFound)
