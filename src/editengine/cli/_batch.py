"""``editengine batch``: the JSON Lines protocol, one answer per request, in order."""

from __future__ import annotations

import argparse
import sys
import time
from typing import IO, Any

from editengine._errors import BadRequest, EditError, StaleFile, SyntaxBroken
from editengine.cli._help import HelpFormatter, examples
from editengine.cli._io import json_line, parse_json
from editengine.files import sha256_hex
from editengine.matching._cascade import edit_text
from editengine.tools import _request as rq


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "batch",
        help="apply JSON Lines edit requests from stdin, one JSON answer per line on stdout",
        description=(
            "Reads {id, content, old_string, new_string, replace_all, expected_replacements, "
            "match_mode, path, overwrite, expected_hash, syntax_guard} per line; writes {id, "
            "ok, new_content, strategy, error, error_code, elapsed_ms} per line, in order, "
            "flushed. A line {id, files, patch, format} "
            "applies a patch to the files and answers with files instead of new_content. "
            "A request may carry path (a file name: it picks the language of the syntax check, "
            "nothing is read) and syntax_guard (refuse, report or off); the answer carries "
            "diagnostics, the syntax errors the edit introduced."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            'echo \'{"content":"x=1","old_string":"1","new_string":"2"}\' | editengine batch',
            "editengine batch < requests.jsonl > answers.jsonl",
        ),
    )
    parser.set_defaults(func=lambda args: run(sys.stdin, sys.stdout))


def handle_line(line: str | bytes) -> dict[str, Any]:
    """The answer for one request line; never raises for bad input."""
    started = time.perf_counter()
    request_id: Any = None
    try:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise BadRequest(
                    f"The line is not valid UTF-8 (byte 0x{line[exc.start]:02x} at offset "
                    f"{exc.start}); send UTF-8 JSON."
                ) from exc
        if not line.strip():
            raise BadRequest("Empty line: expected one JSON object per line.")
        request = parse_json(line, what="The line")
        if not isinstance(request, dict):
            raise BadRequest("Each line must be a JSON object.")
        request_id = request.get("id")
        if not isinstance(request_id, (str, int, float, bool, type(None))):
            request_id = None  # echo only scalar ids back
            raise BadRequest("Field 'id' must be a string, a number or null.")
        if isinstance(request_id, str):
            rq.text(request_id, "id")
        if "patch" in request:
            return _patch_answer(request, started)
        values = rq.parse(rq.BATCH_EDIT, request)
        result = edit_text(
            values["content"],
            values["old_string"],
            values["new_string"],
            replace_all=values["replace_all"],
            expected_replacements=values["expected_replacements"],
            match_mode=values["match_mode"] or "auto",
            path=values["path"],
            overwrite=_overwrite(values),
            syntax_guard=values["syntax_guard"],
        )
        answer: dict[str, Any] = {
            "id": request_id,
            "ok": True,
            "new_content": result.new_content,
            "strategy": result.strategy,
            "error": None,
            "error_code": None,
            "diagnostics": [item.to_dict() for item in result.diagnostics],
        }
        if result.diagnostics_note:
            answer["diagnostics_note"] = result.diagnostics_note
    except EditError as exc:
        answer = _error_answer(request_id, exc.code, str(exc))
        if isinstance(exc, SyntaxBroken):
            answer["diagnostics"] = [item.to_dict() for item in exc.diagnostics]
    except RecursionError:
        answer = _error_answer(request_id, "bad_request", "The request is nested too deeply.")
    except Exception as exc:  # one bad request must not end the run for the others
        answer = _error_answer(
            request_id, "internal_error", f"The request failed unexpectedly ({type(exc).__name__})."
        )
    answer["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 3)
    return answer


def _overwrite(values: dict[str, Any]) -> bool:
    """``"overwrite": true``, or an ``"expected_hash"`` naming the content (a mismatch is
    refused as a stale file): what lets an empty old_string replace content whole."""
    expected = values["expected_hash"]
    if expected is None:
        return bool(values["overwrite"])
    actual = sha256_hex(values["content"].encode("utf-8", "surrogatepass"))
    if expected.lower() != actual:
        raise StaleFile(
            f"The content has hash {actual}, not the expected {expected}; nothing was changed.",
            hint="The content changed since it was read: read it again and redo the edit.",
        )
    return True


def _patch_answer(request: dict[str, Any], started: float) -> dict[str, Any]:
    """``{"id", "files", "patch", "format"?}`` -> ``{"id", "ok", "files", "strategy", ...}``;
    ``files`` maps every touched path to its new content (``null``: deleted)."""
    from editengine.engine._patch_reporting import syntax_checks
    from editengine.patch import apply_patch

    answer: dict[str, Any] = {"id": request.get("id")}
    try:
        values = rq.parse(rq.BATCH_PATCH, request)
        form = values["format"] or "auto"
        # The guard runs once, below, where its problems become the answer's diagnostics.
        result = apply_patch(values["files"], values["patch"], format=form, syntax_guard="off")
        changed = [change for change in result.changes if not change.no_change]
        checks = syntax_checks(values["syntax_guard"], changed, result)
        answer.update(ok=True, files=result.files, strategy=result.strategy, error=None,
                      error_code=None)  # fmt: skip
        answer["diagnostics"] = [
            {"path": path, **item.to_dict()}
            for path, check in checks.items()
            for item in check.introduced
        ]
    except EditError as exc:
        answer.update(ok=False, files=None, strategy=None, error=str(exc), error_code=exc.code)
        answer["diagnostics"] = [
            item.to_dict()
            for item in getattr(exc, "diagnostics", ())
            if isinstance(exc, SyntaxBroken)
        ]
    answer["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 3)
    return answer


def _error_answer(request_id: Any, code: str, message: str) -> dict[str, Any]:
    return {
        "id": request_id,
        "ok": False,
        "new_content": None,
        "strategy": None,
        "error": message,
        "error_code": code,
        "diagnostics": [],
    }


def run(stdin: IO[Any], stdout: IO[Any]) -> int:
    """Answer every line of ``stdin`` on ``stdout``, in order, flushed after each.

    Byte streams are used when the text streams have them, so the protocol is UTF-8
    whatever the locale, and a line that is not UTF-8 gets its own error answer.
    """
    source = getattr(stdin, "buffer", stdin)
    sink = getattr(stdout, "buffer", None)
    # A blank line still gets its (bad_request) answer: harnesses pair lines by position.
    for line in source:
        encoded = json_line(handle_line(line))
        if sink is not None:
            sink.write(encoded)
            sink.flush()
        else:
            stdout.write(encoded.decode("utf-8"))
            stdout.flush()
    return 0
