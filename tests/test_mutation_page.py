"""docs/mutation.md is written by ``scripts/mutation.py --write-docs``, never by hand."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location(
        "mutation_script", ROOT / "scripts" / "mutation.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


def test_the_page_is_what_the_script_writes() -> None:
    script = _script()
    page = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    assert page == script.render_page(), "run: python scripts/mutation.py --write-docs"


def test_the_subtotals_are_summed_from_the_rows() -> None:
    script = _script()
    script.RECORDED[:] = [
        script.Measured("a.py", 10, "50%", 8, 1, 1, 0),
        script.Measured("b.py", 5, "80%", 4, 0, 0, 1),
        script.Subtotal("both", before="60%"),
        script.Measured("c.py", 3, "0%", 3, 0, 0, 0),
        script.Subtotal("all three", before="—", whole=True),
    ]
    assert script.scores_table().splitlines()[2:] == [
        "| `a.py` | 10 | 50% | 8 | 1 | 1 | 0 | 90.0% |",
        "| `b.py` | 5 | 80% | 4 | 0 | 0 | 1 | 100% |",
        "| **both** | 15 | 60% | 12 | 1 | 1 | 1 | 92.9% |",
        "| `c.py` | 3 | 0% | 3 | 0 | 0 | 0 | 100% |",
        "| **all three** | 18 | — | 15 | 1 | 1 | 1 | 94.1% |",
    ]
