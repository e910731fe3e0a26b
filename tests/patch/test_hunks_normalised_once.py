"""A hunk's texts are normalised once, when the hunk is made, whatever path places it.

Placing a hunk runs many rules (the cascade, context kept, elisions, new lines elsewhere,
already applied, line endings); each used to turn the hunk's text to LF again. The texts
are now made once with the hunk (``Hunk.before_lf``/``after_lf``) and every rule reads them.
"""

from __future__ import annotations

import importlib
from collections import Counter

import pytest

from editengine._text import to_lf
from editengine.patch import apply_patch
from editengine.patch._model import Hunk

PATCH_MODULES = [
    "editengine.patch._model",
    "editengine.patch._apply",
    "editengine.patch._place",
    "editengine.patch._hunk_rules",
    "editengine.patch._file_lines",
]

FILE = (
    "def first():\r\n"
    "    a = 1\r\n"
    "    return a\r\n"
    "\r\n"
    "def second():\r\n"
    "    b = 2\r\n"
    "    return b\r\n"
    "\r\n"
    "def third():\r\n"
    "    c = 3\r\n"
    "    return c\r\n"
)

# Three hunks, the second quoted with the wrong indentation (a loose placement, so every
# rule of a loose place runs), the third already applied.
UDIFF = """--- a/app.py
+++ b/app.py
@@ -1,3 +1,3 @@
 def first():
-    a = 1
+    a = 10
     return a
@@ -5,3 +5,3 @@
 def second():
-  b = 2
+  b = 20
   return b
@@ -9,3 +9,3 @@
 def third():
     c = 3
     return c
"""


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    calls: Counter[str] = Counter()

    def counting_to_lf(text: str) -> str:
        calls[text] += 1
        return to_lf(text)

    for name in PATCH_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "to_lf"):
            monkeypatch.setattr(module, "to_lf", counting_to_lf)
    return calls


def _hunk_texts(result_patch: str) -> list[str]:
    from editengine.patch import parse_patch

    texts = []
    for operation in parse_patch(result_patch).operations:
        for hunk in operation.hunks:
            texts += [hunk.before, hunk.after]
    return texts


def test_each_hunk_text_is_normalised_once_on_a_loose_multi_hunk_path(counted):
    result = apply_patch({"app.py": FILE}, UDIFF)
    assert result.files["app.py"] == FILE.replace("a = 1\r", "a = 10\r").replace(
        "b = 2\r", "b = 20\r"
    )
    assert [h.strategy for h in result.hunks][1] != "exact"  # the loose path ran
    texts = set(_hunk_texts(UDIFF))
    counted_twice = {text: counted[text] for text in texts if counted[text] > 2}
    # once when the patch was parsed above for this check, once when apply_patch parsed it
    assert counted_twice == {}


def test_the_normalised_texts_are_made_with_the_hunk_and_follow_a_copy():
    from dataclasses import replace

    hunk = Hunk("a\r\nb\r\n", "a\r\nc\r\n", 1)
    assert (hunk.before_lf, hunk.after_lf) == ("a\nb\n", "a\nc\n")
    moved = replace(hunk, before="x\r\n")
    assert moved.before_lf == "x\n" and moved.after_lf == "a\nc\n"
    assert hunk == Hunk("a\r\nb\r\n", "a\r\nc\r\n", 1)  # the derived texts do not compare
