"""Peer conformance: the converted edit tests of OpenCode, gemini-cli and aider.

The cases live outside the repository, in ``shared/peer-cases/`` next to it. Every case must
either pass or be listed, with the reason, in ``docs/peer-deviations.md``: a Markdown table
between two marker comments whose first column is the case id. :func:`refresh_deviations`
rewrites that table for the cases that fail now, keeping the reasons already written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from editengine.evaluation._runner import CaseRecord, RunResult
from editengine.evaluation._scoring import Outcome

START = "<!-- deviations:start -->"
END = "<!-- deviations:end -->"
HEADER = "| case | peer expects | our outcome | reason |\n|---|---|---|---|\n"
PENDING = "Pending: no reason written yet; explain why we differ, or make the case pass."

_REPO_ROOT = Path(__file__).resolve().parents[3]


def repo_root() -> Path:
    return _REPO_ROOT


def peer_cases_dir(root: Path | None = None) -> Path | None:
    """``shared/peer-cases`` beside the repository root, or ``None`` when it is absent."""
    candidate = (root or _REPO_ROOT).parent / "shared" / "peer-cases"
    return candidate if candidate.is_dir() else None


def peer_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.jsonl"))


def deviations_path(root: Path | None = None) -> Path:
    return (root or _REPO_ROOT) / "docs" / "peer-deviations.md"


_ROW = re.compile(r"^\|\s*`?([^`|]+?)`?\s*\|(.*)\|\s*$")


def read_deviations(path: Path) -> dict[str, str]:
    """Case id -> reason, from the table between the markers (empty when the file is absent)."""
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return {}
    table = text[text.index(START) + len(START) : text.index(END)]
    found: dict[str, str] = {}
    for line in table.splitlines():
        match = _ROW.match(line.strip())
        if not match or match.group(1).strip() in ("case", "---") or set(line) <= set("|-: "):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", match.group(2))]
        found[match.group(1).strip()] = cells[-1] if cells else ""
    return found


def failing(run: RunResult) -> list[CaseRecord]:
    return [r for r in run.records if r.outcome is not Outcome.SUCCESS]


def unlisted_failures(run: RunResult, deviations: Mapping[str, str]) -> list[CaseRecord]:
    """Failing cases that ``docs/peer-deviations.md`` does not explain."""
    return [r for r in failing(run) if r.case.id not in deviations]


def _outcome_text(record: CaseRecord) -> str:
    result = record.result
    text = record.outcome.value
    if result.error_code:
        text += f" ({result.error_code})"
    elif result.strategy:
        text += f" ({result.strategy})"
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_rows(records: Iterable[CaseRecord], reasons: Mapping[str, str]) -> str:
    rows = []
    for record in records:
        reason = reasons.get(record.case.id) or PENDING
        rows.append(
            f"| `{record.case.id}` | {record.case.expect} | {_cell(_outcome_text(record))} "
            f"| {_cell(reason)} |"
        )
    return HEADER + "\n".join(rows) + ("\n" if rows else "")


def refresh_deviations(path: Path, runs: Iterable[RunResult]) -> str:
    """Rewrite the table for the cases failing now (keeping reasons); returns the table."""
    reasons = read_deviations(path)
    records = [r for run in runs for r in failing(run)]
    table = render_rows(records, reasons)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if START in text and END in text:
        text = text[: text.index(START) + len(START)] + "\n" + table + text[text.index(END) :]
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + f"{START}\n{table}{END}\n"
    path.write_text(text, encoding="utf-8")
    return table
