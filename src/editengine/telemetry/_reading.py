"""Reading telemetry: files and directories (plain or gzipped JSON Lines), lines, times.

Everything here streams: a file is opened and read one line at a time, so the report's
memory never grows with the amount of telemetry.
"""

from __future__ import annotations

import gzip
import io
import json
import json.scanner
import os
import re
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType
from typing import IO, Any, cast

from editengine._errors import BadRequest, FileNotFound

try:  # optional accelerator
    import orjson

    _orjson: ModuleType | None = orjson

    JSON_BACKEND = "orjson"
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None
    JSON_BACKEND = "json"


def line_parser() -> Any:
    """``parse(line: bytes) -> object``, raising ValueError on anything but one JSON value.

    Without orjson, the json module's C scanner is called directly: ``json.loads`` spends
    more time detecting the encoding and matching whitespace than decoding short lines.
    """
    if _orjson is not None:
        return _orjson.loads
    # (typeshed types make_scanner's argument as the scanner class itself, not a decoder)
    scan_once = json.scanner.make_scanner(cast(Any, json.JSONDecoder()))
    slow = json.loads

    def parse(line: bytes) -> Any:
        try:
            text = line.decode()
            value, end = scan_once(text, 0)
        except (StopIteration, UnicodeDecodeError):
            return slow(line)  # leading whitespace or a real error: let json say which
        if end < len(text) and text[end:].strip():
            raise ValueError("extra data after the JSON value")
        return value

    return parse


# -- time bounds ------------------------------------------------------------------------------


def parse_time(text: str) -> tuple[str, float]:
    """An ISO 8601 date/time or epoch seconds -> (fixed-width UTC string, epoch seconds).

    A time without an offset is taken as UTC. A bare year (``2030``) or year and month
    (``2030-05``) is the start of it, not epoch seconds. Raises BadRequest with an example
    otherwise.
    """
    text = text.strip()
    if re.fullmatch(r"\d{4}(-\d{2})?", text):
        text += "-01" * (3 - text.count("-") - 1)
    try:
        epoch = float(text)
    except ValueError:
        try:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise BadRequest(
                f"Cannot read the time {text!r}.",
                hint="Give ISO 8601 (2026-11-22, 2026-11-22T05:00:00Z) or epoch seconds.",
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        epoch = moment.timestamp()
    try:
        moment = datetime.fromtimestamp(epoch, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):  # 1e400, nan, year 300000
        raise BadRequest(
            f"The time {text!r} is out of range.",
            hint="Give ISO 8601 (2026-11-22, 2026-11-22T05:00:00Z) or epoch seconds.",
        ) from None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), epoch


# -- reading ----------------------------------------------------------------------------------


def expand_paths(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files named directly, plus every ``*.jsonl*`` / ``*.ndjson*`` file under directories.

    Rotated backups (``x.jsonl.1``) and gzipped files (``x.jsonl.gz``) are included;
    ``.lock`` files are not. A file reached twice (named twice, named and inside a named
    directory, or through a link) is read once. A missing path raises FileNotFound.
    """
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                name = child.name
                telemetry_like = ".jsonl" in name or ".ndjson" in name
                if child.is_file() and telemetry_like and not name.endswith(".lock"):
                    files.append(child)
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFound(
                f"Telemetry input {str(path)!r} does not exist.",
                path=str(path),
                hint="Pass JSON Lines files (plain or gzipped) or directories holding them.",
            )
    return _once_each(files)


def _once_each(files: list[Path]) -> list[Path]:
    seen: set[tuple[int, int]] = set()
    unique = []
    for path in files:
        try:
            stat = path.stat()
            identity = (stat.st_dev, stat.st_ino)
        except OSError:  # gone since it was listed: let the reader report it
            unique.append(path)
            continue
        if identity not in seen:
            seen.add(identity)
            unique.append(path)
    return unique


def open_lines(path: Path) -> IO[bytes]:
    with path.open("rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    if gzipped:
        # BufferedReader iterates lines in C (GzipFile's readline is slower per line); a
        # modest buffer loses little of a truncated file's last lines.
        return io.BufferedReader(gzip.GzipFile(path, "rb"), buffer_size=1 << 16)
    return path.open("rb", buffering=1 << 20)
