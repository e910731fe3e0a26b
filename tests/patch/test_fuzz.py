"""Any text, in any format: a typed error or a result, never a crash, and the input files
are never modified."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from editengine import EditError, apply_patch

FRAGMENTS = [
    "*** Begin Patch", "*** End Patch", "*** Update File: a.py", "*** Add File: b.py",
    "*** Delete File: a.py", "*** Move to: c.py", "*** End of File", "@@", "@@ def f():",
    "@@ -1,2 +1,3 @@", "--- a/a.py", "+++ b/a.py", "--- /dev/null", "+++ /dev/null",
    "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "a.py", "```", "```python", " x = 1",
    "-x = 1", "+x = 2", "", " ", "-", "+", "def f():", "    return 1", "# ...",
    "\\ No newline at end of file", "cat <<'EOF'", "EOF", "-    return 1", "+    return 2",
]  # fmt: skip
FILES = {"a.py": "def f():\n    return 1\nx = 1\n", "d/e.txt": "e\r\n"}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), min_size=1, max_size=14),
    st.sampled_from(["", "\n", "\r\n"]),
    st.sampled_from(["auto", "udiff", "apply_patch", "search_replace"]),
)
def test_never_a_crash_and_never_a_changed_input(lines: list[str], end: str, fmt: str) -> None:
    files = dict(FILES)
    try:
        result = apply_patch(files, "\n".join(lines) + end, format=fmt)
    except EditError as error:
        assert error.code and str(error)
    else:
        assert all(content is None or isinstance(content, str) for content in result.files.values())
    assert files == FILES


# ---------------------------------------------------------------------- mutated patches

MUTATED_FILES = {
    "a.py": (
        "def f(x):\n    if x:\n        return 1\n    y = 2\n    return y\n\n\n"
        "class C:\n    def g(self):\n        total = 10\n        return total\n"
    ),
    "b.md": "# Title\n\n- one\n- two\n- three\n\nText here.\n",
}
# Well-formed patches of every format, each adding or changing lines next to its context.
SEED_PATCHES = [
    ("udiff", "--- a/a.py\n+++ b/a.py\n@@ -2,3 +2,5 @@\n     if x:\n         return 1\n"
              "+    z = 3\n+    w = 4\n     y = 2\n"),
    ("udiff", "--- a/a.py\n+++ b/a.py\n@@ -9,2 +9,3 @@\n     def g(self):\n"
              "         total = 10\n+        total += 1\n"),
    ("apply_patch", "*** Begin Patch\n*** Update File: a.py\n@@ class C:\n     def g(self):\n"
                    "-        total = 10\n+        total = 11\n         return total\n"
                    "*** End Patch\n"),
    ("apply_patch", "*** Begin Patch\n*** Update File: b.md\n - two\n+- two and a half\n"
                    " - three\n*** End Patch\n"),
    ("apply_patch", "*** Begin Patch\n*** Update File: a.py\n@@ def f(x):\n     if x:\n"
                    "         return 1\n+    # added\n*** End Patch\n"),
    ("search_replace", "a.py\n<<<<<<< SEARCH\n    y = 2\n    return y\n=======\n    y = 3\n"
                       "    return y\n>>>>>>> REPLACE\n"),
    ("search_replace", "b.md\n<<<<<<< SEARCH\n- three\n=======\n- three\n- four\n"
                       ">>>>>>> REPLACE\n"),
]  # fmt: skip


def _mutated(rng: random.Random, patch: str) -> str:
    """The copy mistakes a model makes: tabs for spaces, indentation one off, trailing
    spaces lost or added, a line dropped or doubled, a digit changed, line endings."""
    lines = patch.split("\n")
    for _ in range(rng.randint(1, 3)):
        index = rng.randrange(len(lines))
        line = lines[index]
        kind = rng.randrange(9)
        if kind == 0:
            lines[index] = line.replace("    ", "\t")
        elif kind == 1:
            lines[index] = line[:1] + " " + line[1:]
        elif kind == 2:
            lines[index] = line[:1] + line[2:] if line[1:2] == " " else line
        elif kind == 3:
            lines[index] = line.rstrip()
        elif kind == 4:
            lines[index] = line + "  "
        elif kind == 5:
            del lines[index]
        elif kind == 6:
            lines.insert(index, line)
        elif kind == 7:
            lines[index] = line.replace("1", "2")
        else:
            lines[index] = line[:1] + line[1:].lstrip()
    text = "\n".join(lines)
    if rng.random() < 0.2:
        text = text.rstrip("\n")
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    elif rng.random() < 0.05:
        text = text.replace("\n", "\r")
    return text


def test_five_thousand_mutated_patches_raise_nothing_but_edit_errors() -> None:
    """Loosely matching hunks (no final newline, tabs for spaces, mis-indented context) once
    raised IndexError; every outcome is now a result or a typed refusal."""
    rng = random.Random(26)
    outcomes = {"applied": 0, "refused": 0}
    for _ in range(5000):
        form, patch = rng.choice(SEED_PATCHES)
        files = dict(MUTATED_FILES)
        if rng.random() < 0.2:
            files = {path: text.rstrip("\n") for path, text in files.items()}
        if rng.random() < 0.1:
            files = {path: text.replace("    ", "\t") for path, text in files.items()}
        given = dict(files)
        try:
            apply_patch(files, _mutated(rng, patch), format=rng.choice([form, "auto"]))
        except EditError as error:
            assert error.code
            outcomes["refused"] += 1
        else:
            outcomes["applied"] += 1
        assert files == given
    # Both kinds of answer are exercised, so the mutations are neither all fatal nor all noise.
    assert outcomes["applied"] > 1000 and outcomes["refused"] > 500


def test_lines_added_after_loosely_matched_context_land_after_it() -> None:
    files = {"a.py": "class C:\n    def g(self):\n        total = 10\n        return total"}
    patch = (
        "--- a/a.py\n+++ b/a.py\n@@ -2,2 +2,3 @@\n     def g(self):  \n"
        "         total = 10  \n+        total += 1\n"
    )
    result = apply_patch(files, patch, format="udiff")
    assert result.files["a.py"] == (
        "class C:\n    def g(self):\n        total = 10\n        total += 1\n        return total"
    )
