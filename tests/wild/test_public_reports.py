"""Edits rebuilt from public bug reports against other agents' edit tools.

Each report is retold in our own words and code: the file, the request an agent sent, and
what a careful human makes of it: the intended file, or a typed refusal. A wrong write (a
reported success that leaves any other file) is never right. Reports the engine gets wrong
today are marked ``xfail(strict=True)`` with the reason, so the fix that makes them right
flips them (and the mark must then go).

``python scripts/precision_report.py`` tables the same reports through ``edit`` and the patch
formats.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from editengine import EditError, apply_patch, edit_text


@dataclass(frozen=True)
class Report:
    """One public report as a request and its right outcome."""

    name: str
    url: str
    what: str  # the report in our words
    content: str
    old: str = ""
    new: str = ""
    patch: str | None = None  # a patch (SEARCH/REPLACE, unified diff or apply_patch) instead
    replace_all: bool = False
    expected_replacements: int | None = None
    intended: str | None = None  # the careful human's file; None: only a refusal is right
    refusal_ok: bool = True  # a typed refusal is right too (the file is left alone)
    unchanged_ok: bool = False  # a retry: a no-op success that leaves the file is right too

    def run(self) -> str | None:
        """The file after the request; ``None`` when it was refused with an EditError."""
        try:
            if self.patch is not None:
                return apply_patch({PATH: self.content}, self.patch).files.get(PATH)
            return edit_text(
                self.content,
                self.old,
                self.new,
                replace_all=self.replace_all,
                expected_replacements=self.expected_replacements,
            ).new_content
        except EditError:
            return None

    def right(self, after: str | None) -> bool:
        if after is None:
            return self.intended is None or self.refusal_ok
        if self.unchanged_ok and after == self.content:
            return True
        return self.intended is not None and after == self.intended


PATH = "file.txt"
NBSP = "\u00a0"

GO_BLOCK = "func a() {\n\tx := 1\n\ty := 2\n\tz := 3\n\treturn\n}\n"
DART = "import 'dart:async';\nimport 'dart:io';\nimport 'dart:io';\n\nvoid main() {}\n"
POLLER = (
    "def fetch(directory, local_filename, key):\n"
    "    # Combine directory and filename\n"
    "    file_path = os.path.join(directory, local_filename)\n"
    "    \n"
    "    # URL decode the key for S3 download\n"
    "    decoded_key = urllib.parse.unquote(key)\n"
    "    return file_path, decoded_key\n"
)
CONFIG_GO = (
    "func load() Config {\n"
    "\tconfig := Config{\n"
    '\t\tName: "core",\n'
    "\t\tPort: 8080,\n"
    "\t}\n"
    "\treturn config\n"
    "}\n"
)
CRLF_PY = (
    "def main():\r\n    total = 0\r\n    for item in items:\r\n"
    "        total += item\r\n    return total\r\n"
)
SUM = (
    "def f(a, b):\n    total = a + b\n    if total > 10:\n        return total - 1\n"
    "    return total\n"
)
ABC = "A\nB\nC\nY\nD\nE\nF\nX\n"

REPORTS: tuple[Report, ...] = (
    # ---------------------------------------------------------------- meaning-changing drift
    Report(
        "interior_number_drift",
        "https://github.com/Gitlawb/zero/issues/963",
        "old_string equal to the block but for `y := 99` where the file says `y := 2`",
        GO_BLOCK,
        GO_BLOCK.replace("y := 2", "y := 99"),
        GO_BLOCK.replace("y := 2", "y := 100"),
    ),
    Report(
        "interior_number_drift_edit_elsewhere",
        "https://github.com/Gitlawb/zero/pull/983",
        "the drifted line is kept and another line is changed: still nothing to place",
        GO_BLOCK,
        GO_BLOCK.replace("y := 2", "y := 99"),
        GO_BLOCK.replace("y := 2", "y := 99").replace("z := 3", "z := 4"),
    ),
    Report(
        "one_real_line_one_garbage_line",
        "https://github.com/NousResearch/hermes-agent/pull/76450",
        "a two-line quote of which one line is in the file and the other is not",
        "def total(xs):\n    result = sum(xs)\n    return result\n",
        "    result = sum(xs)\n    log.debug('summing %d values', len(xs))\n",
        "    result = sum(xs) or 0\n",
    ),
    Report(
        "markdown_row_with_another_link",
        "https://github.com/NousResearch/hermes-agent/issues/93698",
        "a task list whose quoted row names a link the file's row does not have",
        "- [ ] read the spec ([link](https://example.org/spec-v1))\n"
        "- [ ] write the parser ([link](https://example.org/parser))\n"
        "- [ ] ship it\n",
        "- [ ] read the spec ([link](https://example.org/spec-v2))\n"
        "- [ ] write the parser ([link](https://example.org/parser))\n",
        "- [x] read the spec ([link](https://example.org/spec-v2))\n"
        "- [ ] write the parser ([link](https://example.org/parser))\n",
    ),
    Report(
        "operator_drift",
        "https://github.com/NousResearch/hermes-agent/pull/76450",
        "the quote's `a - b` stands for the file's `a + b`: an operator is never a typo",
        SUM,
        SUM.replace("a + b", "a - b"),
        SUM.replace("a + b", "a - b").replace("total - 1", "total - 2"),
    ),
    Report(
        "stale_quote_after_formatting",
        "https://github.com/coctostan/pi-hashline-readmap/pull/90",
        "a stale three-line quote of a file a formatter rewrote to two lines",
        'const a = "x";\nconst b = "y";\n',
        "const a = 'x';\nconst b = 'y';\nconst c = 'z';\n",
        "const a = 'x';\n",
    ),
    # ---------------------------------------------------------------- overlapping and repeated
    Report(
        "overlapping_repeated_lines",
        "https://github.com/use-agent-os/agent-os/issues/2290",
        "two lines of `x = 1` quoted in a file of three: two places overlap",
        "x = 1\nx = 1\nx = 1\n",
        "x = 1\nx = 1",
        "y = 2\ny = 2",
    ),
    Report(
        "overlapping_foo_lines",
        "https://github.com/earendil-works/pi/issues/9697",
        "`foo\\nfoo\\n` in `foo\\nfoo\\nfoo\\n` stands at lines 1-2 and 2-3",
        "foo\nfoo\nfoo\n",
        "foo\nfoo\n",
        "replacement",
    ),
    Report(
        "overlapping_aa",
        "https://github.com/Reloaded-Project/ReloadedCode/pull/97",
        "`aa` in `aaa` has two starts",
        "aaa\n",
        "aa",
        "b",
    ),
    Report(
        "overlapping_aba",
        "https://github.com/datalayer/jupyter-mcp-server/pull/432",
        "`aba` occurs twice in `ababa`, sharing a character",
        "x = 'ababa'\n",
        "aba",
        "xyz",
    ),
    Report(
        "overlapping_blank_lines",
        "https://github.com/archestra-ai/archestra/pull/6085",
        "two newlines quoted where the file has three in a row",
        "<p>one</p>\n\n\n<p>two</p>\n",
        "\n\n",
        "\n<hr>\n",
    ),
    Report(
        "overlapping_list_items",
        "https://github.com/PostHog/posthog/pull/55727",
        "two identical list items quoted in a run of three",
        "- item\n- item\n- item\n",
        "- item\n- item",
        "- item\n- other",
    ),
    Report(
        "two_separate_places",
        "https://github.com/zed-industries/zed/pull/32056",
        "old_text that stands at two places of the file",
        "def a():\n    return None\n\ndef b():\n    return None\n",
        "    return None\n",
        "    return 0\n",
    ),
    Report(
        "duplicate_import_one_line",
        "https://github.com/anomalyco/opencode/issues/15515",
        "one of two identical import lines quoted alone",
        DART,
        "import 'dart:io';\n",
        "",
    ),
    Report(
        "duplicate_import_both_lines",
        "https://github.com/anomalyco/opencode/issues/15515",
        "both copies quoted to keep one: the quote stands once",
        DART,
        "import 'dart:io';\nimport 'dart:io';\n",
        "import 'dart:io';\n",
        intended=DART.replace("import 'dart:io';\nimport 'dart:io';\n", "import 'dart:io';\n"),
        refusal_ok=False,
    ),
    # ---------------------------------------------------------------- empty and blank quotes
    Report(
        "whitespace_only_quote",
        "https://github.com/CodebuffAI/freebuff/pull/1291",
        "a single space quoted in a file without one",
        "a\tb\nc\td\n",
        " ",
        "X",
    ),
    Report(
        "empty_quote_replace_all",
        "https://github.com/langchain-ai/deepagents/issues/5589",
        "an empty old_string with replace_all on a non-empty file",
        "abc\n",
        "",
        "X",
        replace_all=True,
    ),
    Report(
        "empty_quote_on_a_file",
        "https://github.com/langchain-ai/deepagents/issues/5588",
        "an empty old_string on a non-empty file, no replace_all",
        "abc\n",
        "",
        "X\n",
    ),
    Report(
        "empty_quote_prepend",
        "https://github.com/bytedance/deer-flow/pull/4256",
        "an empty old_string sent to add a header to an existing file",
        "def main():\n    return 1\n",
        "",
        "# Header\n",
    ),
    Report(
        "empty_quote_append",
        "https://github.com/anomalyco/opencode/pull/24913",
        "an empty oldString sent to append: the existing file must not be wiped",
        "first line\nsecond line\n",
        "",
        "third line\n",
    ),
    Report(
        "empty_quote_in_an_edit_list",
        "https://github.com/MoonshotAI/kimi-cli/pull/2631",
        "an empty old string among edits: refused before anything is written",
        "value = 1\n",
        "",
        "value = 2\n",
    ),
    Report(
        "empty_quote_multiedit",
        "https://github.com/bojieli/ai-agent-book/pull/363",
        "an empty old_string on an existing file in a multi-edit",
        "alpha\nbeta\n",
        "",
        "gamma\n",
    ),
    Report(
        "empty_quote_replace_all_every_boundary",
        "https://github.com/bojieli/ai-agent-book/pull/178",
        "replace_all with an empty old_string would write between every character",
        "abcd",
        "",
        "X",
        replace_all=True,
    ),
    Report(
        "empty_quote_empty_file",
        "https://github.com/langchain-ai/deepagentsjs/pull/170",
        "an empty old_string on an empty file gives the file its first content",
        "",
        "",
        "hello\n",
        intended="hello\n",
        refusal_ok=False,
    ),
    # ---------------------------------------------------------------- whitespace that matters
    Report(
        "hard_break_in_new_string",
        "https://github.com/OpenHands/software-agent-sdk/pull/3882",
        "old padded with a blank line the file lacks; new adds a Markdown hard break",
        "Roses are red\nViolets are blue\n",
        "\nRoses are red\n",
        "\nRoses are red  \n",
        intended="Roses are red  \nViolets are blue\n",
    ),
    Report(
        "trim_trailing_blanks_is_not_applied",
        "https://github.com/anthropics/claude-code/issues/7197",
        "a whitespace-only change (a blank line's indentation trimmed) is not already applied",
        POLLER,
        "    file_path = os.path.join(directory, local_filename)\n    \n    # URL decode",
        "    file_path = os.path.join(directory, local_filename)\n\n    # URL decode",
        intended=POLLER.replace("local_filename)\n    \n", "local_filename)\n\n"),
    ),
    Report(
        "trailing_spaces_kept_in_new",
        "https://github.com/anthropics/claude-code/issues/17074",
        "two trailing spaces added for a Markdown line break are written as given",
        "* WHEN the user saves,\n  THEN the file is stored.\n",
        "* WHEN the user saves,\n",
        "* WHEN the user saves,  \n",
        intended="* WHEN the user saves,  \n  THEN the file is stored.\n",
        refusal_ok=False,
    ),
    Report(
        "straight_to_curly_apostrophe",
        "https://github.com/anthropics/claude-code/issues/1986",
        "a typographic fix (straight to curly apostrophe) is a change, not already applied",
        "It's done.\n",
        "It's done.",
        "It\u2019s done.",
        intended="It\u2019s done.\n",
        refusal_ok=False,
    ),
    Report(
        "curly_quotes_in_file_straight_in_quote",
        "https://github.com/open-octo/octo-agent/pull/317",
        "the file has curly quotes, the model quotes straight ones",
        "msg = \u201cWelcome back\u201d\nprint(msg)\n",
        'msg = "Welcome back"',
        'msg = "Welcome home"',
        intended="msg = \u201cWelcome home\u201d\nprint(msg)\n",
    ),
    Report(
        "smart_dash_in_quote",
        "https://github.com/avala-ai/agent-code/issues/349",
        "an en dash in the quote where the Markdown file has a hyphen",
        "# Notes\n\nSetup - run the installer first.\nThen open the app.\n",
        "Setup \u2013 run the installer first.",
        "Setup \u2013 run the installer once.",
        intended="# Notes\n\nSetup - run the installer once.\nThen open the app.\n",
    ),
    Report(
        "tabs_quoted_as_spaces_go",
        "https://github.com/google-gemini/gemini-cli/issues/4502",
        "a tab-indented Go block quoted with four spaces",
        CONFIG_GO,
        '    config := Config{\n        Name: "core",\n        Port: 8080,\n    }',
        "    var config Config",
        intended="func load() Config {\n\tvar config Config\n\treturn config\n}\n",
    ),
    Report(
        "tabs_expanded_to_eight",
        "https://github.com/OpenHands/openhands-aci/pull/14",
        "a tab of the file quoted as eight spaces",
        "def run():\n\tvalue = compute()\n\treturn value\n",
        "        value = compute()\n        return value",
        "        value = compute() + 1\n        return value",
        intended="def run():\n\tvalue = compute() + 1\n\treturn value\n",
    ),
    Report(
        "indentation_too_shallow",
        "https://github.com/QwenLM/qwen-code/issues/797",
        "a method body quoted four spaces shallower than the file",
        "class Splitter:\n    def split(self, text):\n        chunks = text.split('\\n\\n')\n"
        "        return chunks\n",
        "    chunks = text.split('\\n\\n')\n    return chunks",
        "    chunks = [c for c in text.split('\\n\\n') if c]\n    return chunks",
        intended="class Splitter:\n    def split(self, text):\n"
        "        chunks = [c for c in text.split('\\n\\n') if c]\n        return chunks\n",
    ),
    Report(
        "trailing_newline_boundary_keeps_next_indent",
        "https://github.com/Gitlawb/openclaude/pull/1561",
        "a quote ending in a newline, indented deeper than the file: the next line keeps "
        "its indentation",
        "if ok:\n  foo()\n  bar()\n",
        "    foo()\n",
        "    baz()\n",
        intended="if ok:\n  baz()\n  bar()\n",
    ),
    # ---------------------------------------------------------------- line endings
    Report(
        "crlf_file_lf_quote",
        "https://github.com/google-gemini/gemini-cli/issues/3127",
        "a CRLF file edited with an LF quote from a Windows shell",
        CRLF_PY,
        "    for item in items:\n        total += item\n",
        "    for item in items:\n        total += item * 2\n",
        intended=CRLF_PY.replace("total += item\r\n", "total += item * 2\r\n"),
    ),
    Report(
        "crlf_file_new_lines_keep_crlf",
        "https://github.com/Gitlawb/zero/issues/376",
        "lines added to a CRLF file get CRLF endings",
        CRLF_PY,
        "    total = 0\n",
        "    total = 0\n    count = 0\n",
        intended=CRLF_PY.replace("total = 0\r\n", "total = 0\r\n    count = 0\r\n"),
    ),
    Report(
        "crlf_normalised_for_matching",
        "https://github.com/earendil-works/pi/pull/360",
        "oldText in LF against a CRLF file: matched and written back in CRLF",
        "a\r\nb\r\nc\r\n",
        "a\nb\n",
        "a\nB\n",
        intended="a\r\nB\r\nc\r\n",
    ),
    Report(
        "crlf_python_indentation_kept",
        "https://github.com/earendil-works/pi/issues/2744",
        "a CRLF Python file: the edit keeps both the endings and the indentation",
        CRLF_PY,
        "def main():\n    total = 0\n",
        "def main(items):\n    total = 0\n",
        intended=CRLF_PY.replace("def main():", "def main(items):"),
    ),
    Report(
        "crlf_only_in_new_string",
        "https://github.com/xal-sh/xal/pull/42",
        "an LF file; new_string arrives with CRLF endings",
        "one\ntwo\nthree\n",
        "one\ntwo\n",
        "one\r\n2\r\n",
        intended="one\n2\nthree\n",
    ),
    # ---------------------------------------------------------------- transport encodings
    Report(
        "html_entity_in_new_written_literally",
        "https://github.com/cline/cline/issues/7698",
        "an exact quote; new_string holds `&amp;` the file must contain literally",
        '<a href="/search?q=1">find</a>\n',
        '<a href="/search?q=1">',
        '<a href="/search?q=1&amp;page=2">',
        intended='<a href="/search?q=1&amp;page=2">find</a>\n',
        refusal_ok=False,
    ),
    Report(
        "html_entities_from_the_transport",
        "https://github.com/cline/cline/issues/7698",
        "`<`, `&&` and `>` arrive as entities in old and new; the file has none",
        "if a < b && c > d:\n    go()\n",
        "if a &lt; b &amp;&amp; c &gt; d:",
        "if a &lt;= b &amp;&amp; c &gt; d:",
        intended="if a <= b && c > d:\n    go()\n",
    ),
    Report(
        "escaped_quotes_in_rust_macro",
        "https://github.com/google-gemini/gemini-cli/issues/7706",
        'a Rust `write!` line quoted with `\\"` for its quotes',
        'fn fmt(&self) {\n    write!(f, "[ {} ]", elems.join(", "))\n}\n',
        '    write!(f, \\"[ {} ]\\", elems.join(\\", \\"))',
        '    write!(f, \\"[{}]\\", elems.join(\\", \\"))',
        intended='fn fmt(&self) {\n    write!(f, "[{}]", elems.join(", "))\n}\n',
    ),
    Report(
        "escaped_newlines_in_swift",
        "https://github.com/google-gemini/gemini-cli/issues/18370",
        "imports quoted with `\\n` for their line breaks, in old and new",
        "import XCTest\nimport SwiftData\n\nclass Tests {}\n",
        "import XCTest\\nimport SwiftData",
        "import XCTest\\nimport SwiftData\\nimport Combine",
        intended="import XCTest\nimport SwiftData\nimport Combine\n\nclass Tests {}\n",
    ),
    Report(
        "backslash_n_inside_a_literal_is_kept",
        "https://github.com/openclaw/openclaw/issues/93139",
        "an exact quote; new_string's `\\n` inside a Python literal is two characters",
        "x = 'a'\n",
        "x = 'a'",
        "x = 'first\\n    second'",
        intended="x = 'first\\n    second'\n",
        refusal_ok=False,
    ),
    Report(
        "literal_backslash_n_in_write",
        "https://github.com/openclaw/openclaw/issues/14452",
        "old and new with `\\n` for every line break of a plain text file",
        "Line1\nLine2\nLine3\n",
        "Line1\\nLine2",
        "Line1\\nLine two",
        intended="Line1\nLine two\nLine3\n",
    ),
    # ---------------------------------------------------------------- read tool gutters
    Report(
        "read_prefix_colon",
        "https://github.com/xal-sh/xal/issues/37",
        "old_string copied from a read with `     N: ` prefixes",
        "a = 1\nb = 2\nc = 3\n",
        "     2: b = 2\n     3: c = 3",
        "     2: b = 20\n     3: c = 3",
        intended="a = 1\nb = 20\nc = 3\n",
    ),
    Report(
        "read_prefix_pipe",
        "https://github.com/Zoo-Code-Org/Zoo-Code/pull/1685",
        "a SEARCH-like quote with `137 | ` prefixes",
        "x = 0\ny = 1\nz = 2\n",
        "2 | y = 1\n3 | z = 2",
        "y = 10\nz = 2",
        intended="x = 0\ny = 10\nz = 2\n",
    ),
    Report(
        "read_prefix_arrow",
        "https://github.com/letta-ai/letta-code/pull/3816",
        "lines quoted with a `9\u2192` prefix",
        "line1\nline2\nline3\n",
        "2\u2192line2\n3\u2192line3",
        "2\u2192line two\n3\u2192line3",
        intended="line1\nline two\nline3\n",
    ),
    Report(
        "read_prefix_cat_n",
        "https://github.com/zed-industries/zed/pull/56779",
        "lines quoted with cat -n's six-wide number and a tab",
        "fn main() {\n    run();\n}\n",
        "     2\t    run();\n     3\t}",
        "     2\t    run_all();\n     3\t}",
        intended="fn main() {\n    run_all();\n}\n",
    ),
    Report(
        "read_prefix_four_wide_colon",
        "https://github.com/Nano-Collective/nanocoder/issues/765",
        "an edit tool's echo with `%4d: ` prefixes copied into the next quote",
        "alpha\nbeta\ngamma\n",
        "   1: alpha\n   2: beta",
        "   1: alpha\n   2: BETA",
        intended="alpha\nBETA\ngamma\n",
    ),
    # ---------------------------------------------------------------- patches
    Report(
        "search_block_without_final_newline",
        "https://github.com/Aider-AI/aider/issues/3737",
        "a SEARCH block for the only line of a file with no final newline",
        "hello",
        patch=f"{PATH}\n<<<<<<< SEARCH\nhello\n=======\n>>>>>>> REPLACE\n",
        intended="",
    ),
    Report(
        "pure_addition_keeps_its_anchor",
        "https://github.com/openai/codex/issues/30946",
        "an apply_patch chunk of added lines under an `@@ def a():` anchor",
        "def a():\n    pass\n\ndef b():\n    pass\n",
        patch="*** Begin Patch\n*** Update File: file.txt\n@@ def a():\n+    # first\n"
        "     pass\n*** End Patch\n",
        intended="def a():\n    # first\n    pass\n\ndef b():\n    pass\n",
    ),
    Report(
        "udiff_context_nowhere",
        "https://github.com/BaseIntelligence/bounty-challenge/issues/11065",
        "a unified diff whose context stands nowhere in the file",
        "one\ntwo\nthree\n",
        patch="--- a/file.txt\n+++ b/file.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n",
    ),
    Report(
        "udiff_line_numbers_off_by_one",
        "https://github.com/conan-io/python-patch-ng/issues/19",
        "a hunk whose header is one line off: the change lands at its context, not beside it",
        ABC,
        patch="--- a/file.txt\n+++ b/file.txt\n@@ -2,7 +2,7 @@\n A\n B\n C\n-Y\n+Z\n D\n E\n F\n",
        intended=ABC.replace("Y\n", "Z\n"),
    ),
    Report(
        "udiff_two_similar_blocks",
        "https://github.com/landley/toybox/issues/533",
        "five of six context lines alike at two places; the sixth names the second",
        "#[cfg(a)]\nfn f() {}\n#[inline]\nfn g() {}\n\n"
        "#[cfg(b)]\nfn f() {}\n#[inline]\nfn g() {}\n",
        patch="--- a/file.txt\n+++ b/file.txt\n@@ -6,4 +6,5 @@\n #[cfg(b)]\n fn f() {}\n"
        "+#[cold]\n #[inline]\n fn g() {}\n",
        intended="#[cfg(a)]\nfn f() {}\n#[inline]\nfn g() {}\n\n#[cfg(b)]\nfn f() {}\n#[cold]\n"
        "#[inline]\nfn g() {}\n",
    ),
    Report(
        "replayed_patch_is_not_applied_twice",
        "https://github.com/xyTom/coding-tools-mcp/issues/50",
        "an apply_patch sent again after its answer was lost: the file is left as it is",
        "count = 1\nname = 'x'\n",
        patch="*** Begin Patch\n*** Update File: file.txt\n@@\n-count = 0\n+count = 1\n"
        " name = 'x'\n*** End Patch\n",
        intended=None,
        unchanged_ok=True,
    ),
    Report(
        "two_anchored_hunks",
        "https://github.com/github/copilot-cli/issues/1109",
        "an apply_patch update with two `@@` hunks",
        "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n",
        patch="*** Begin Patch\n*** Update File: file.txt\n@@\n-a = 1\n+a = 10\n b = 2\n"
        "@@\n d = 4\n-e = 5\n+e = 50\n*** End Patch\n",
        intended="a = 10\nb = 2\nc = 3\nd = 4\ne = 50\n",
    ),
    Report(
        "patch_hunk_with_reader_prefixes",
        "https://github.com/anomalyco/opencode/issues/27282",
        "a unified diff whose lines carry the reader's `N: ` prefixes: never written",
        "first\nsecond\nthird\n",
        patch="--- a/file.txt\n+++ b/file.txt\n@@ -1,3 +1,3 @@\n 1: first\n-2: second\n+2: SECOND\n"
        " 3: third\n",
        intended="first\nSECOND\nthird\n",
    ),
    # ---------------------------------------------------------------- invisible characters
    Report(
        "nbsp_indentation_from_a_chat_copy",
        "https://github.com/openxla/stablehlo/pull/1953",
        "old and new indented with non-breaking spaces copied from a chat window",
        "def a():\n    x = 1\n    y = 2\n    return x + y\n",
        f"def a():\n{NBSP * 4}x = 1\n{NBSP * 4}y = 2\n",
        f"def a():\n{NBSP * 4}x = 1\n{NBSP * 4}y = 3\n",
        intended="def a():\n    x = 1\n    y = 3\n    return x + y\n",
    ),
    Report(
        "zero_width_space_in_quote",
        "https://github.com/sebastienros/fluid/pull/110",
        "zero-width spaces before the dots of a quoted line",
        "value = config.get('key')\nprint(value)\n",
        "value = config\u200b.get('key')",
        "value = config\u200b.get('key', None)",
        intended="value = config.get('key', None)\nprint(value)\n",
    ),
)

# Reports the engine gets wrong today (a success that wrote another file), with the reason.
# Each names its cause; the fix that makes one right must remove its entry.
WRONG_TODAY: dict[str, str] = {}


def _param(report: Report):
    marks = []
    if report.name in WRONG_TODAY:
        marks.append(pytest.mark.xfail(strict=True, reason=WRONG_TODAY[report.name]))
    return pytest.param(report, id=report.name, marks=marks)


def test_every_report_cites_a_public_thread_and_has_a_unique_name():
    assert len(REPORTS) >= 40
    assert len({r.name for r in REPORTS}) == len(REPORTS)
    for report in REPORTS:
        assert report.url.startswith("https://github.com/"), report.name
        assert "/issues/" in report.url or "/pull/" in report.url, report.name
        if report.intended is None:
            assert report.refusal_ok, report.name  # a must-refuse report accepts a refusal


@pytest.mark.parametrize("report", [_param(r) for r in REPORTS])
def test_the_outcome_is_the_intended_file_or_a_refusal(report: Report):
    after = report.run()
    assert report.right(after), (
        f"{report.url}: {report.what}\nwrote {after!r}\nintended {report.intended!r}"
    )
