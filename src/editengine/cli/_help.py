"""``--help`` pages that fit the terminal and end with examples.

argparse either wraps every text (examples run together) or none (long descriptions run
past the edge). :class:`HelpFormatter` wraps prose and keeps indented lines (commands) as
written.
"""

from __future__ import annotations

import argparse
import textwrap


class HelpFormatter(argparse.HelpFormatter):
    """Paragraphs wrapped to the terminal's width; lines indented by two spaces kept."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        for line in text.splitlines():
            if line.startswith("  ") or not line.strip():
                out.append(indent + line)
            else:
                out.extend(
                    textwrap.wrap(line, width, initial_indent=indent, subsequent_indent=indent)
                )
        return "\n".join(out)


def examples(*commands: str) -> str:
    """An ``examples:`` section: each command on its own line, a ``#`` line a comment."""
    return "examples:\n" + "\n".join(f"  {command}" for command in commands)
