"""The peers' own patch-format tests (``../shared/peer-cases/formats/``) as a conformance
suite: each case runs through :meth:`EditEngine.apply_patch` on a real temporary tree (a
``parse`` case through :func:`~editengine.patch.parse_patch`), and a case that does not
do what the peer expects must be listed with its reason in ``docs/peer-deviations.md``,
between the ``format-deviations`` markers.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from editengine._errors import EditError
from editengine.evaluation._peers import peer_cases_dir

START = "<!-- format-deviations:start -->"
END = "<!-- format-deviations:end -->"


@dataclass(frozen=True)
class FormatCaseRun:
    id: str
    file: str
    expect: str
    passed: bool
    outcome: str


def format_cases_dir(root: Path | None = None) -> Path | None:
    base = peer_cases_dir(root)
    if base is None or not (base / "formats").is_dir():
        return None
    return base / "formats"


def load(directory: Path) -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                cases.append((path.name, json.loads(line)))
    return cases


def run_case(file: str, case: dict[str, Any]) -> FormatCaseRun:
    """Run one peer case; ``outcome`` says what we did (``success``, ``refused (code)``,
    ``parsed``, ``wrong``)."""
    if case["expect"] == "parse":
        passed, outcome = _parse_case(case)
    else:
        passed, outcome = _apply_case(case)
    return FormatCaseRun(case["id"], file, case["expect"], passed, outcome)


def _parse_case(case: dict[str, Any]) -> tuple[bool, str]:
    from editengine.patch import parse_patch

    try:
        patch = parse_patch(case["patch"], case["format"])
    except EditError as error:
        return False, f"refused ({error.code})"
    blocks = sorted(
        (
            (hunk.line, {"path": op.path, "search": hunk.before, "replace": hunk.after})
            for op in patch.operations
            for hunk in op.hunks
        ),
        key=lambda item: item[0],
    )
    got = [block for _, block in blocks]
    got += [
        {"path": op.path, "search": "", "replace": op.content or ""}
        for op in patch.operations
        if op.kind == "add"
    ]
    return got == case["expected_blocks"], "parsed" if got == case["expected_blocks"] else "wrong"


def _apply_case(case: dict[str, Any]) -> tuple[bool, str]:
    from editengine.engine import EditEngine

    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "ws"
        root.mkdir()
        for folder in case.get("dirs", []):
            (root / folder).mkdir(parents=True, exist_ok=True)
        for path, content in case["files"].items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content.encode("utf-8"))
        engine = EditEngine(root, lock_dir=Path(temp) / "locks")
        try:
            engine.apply_patch(case["patch"], format=case["format"])
            outcome = "success"
        except EditError as error:
            cause = getattr(error, "cause", None)
            outcome = f"refused ({error.code}{'/' + cause.code if cause else ''})"
        tree = _tree(root)
    expected = case["expected_files"]
    matches = all(tree.get(path) == content for path, content in expected.items())
    if case["expect"] == "refuse":
        untouched = {k: v for k, v in case["files"].items()}
        matches = matches and all(tree.get(k) == v for k, v in untouched.items())
        passed = outcome != "success" and matches
    else:
        passed = outcome == "success" and matches
    if not passed and outcome == "success":
        outcome = "wrong" if not matches else outcome
    return passed, outcome


def _tree(root: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            found[path.relative_to(root).as_posix()] = path.read_bytes().decode("utf-8")
    return found


def read_deviations(path: Path) -> dict[str, str]:
    """Case id -> reason, from the table between the format-deviations markers."""
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return {}
    found: dict[str, str] = {}
    for line in text[text.index(START) + len(START) : text.index(END)].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[0] in ("case", "---") or not cells[0].startswith("`"):
            continue
        found[cells[0].strip("`")] = cells[-1]
    return found
