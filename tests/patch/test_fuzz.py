"""Any text, in any format: a typed error or a result, never a crash, and the input files
are never modified."""

from __future__ import annotations

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
