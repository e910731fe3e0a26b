"""The last line of defence of every command: a one-line error, never a traceback.

Commands handle their own input errors; this catches what escapes them (an output stream
closed by the reader, input nested too deeply, a bug) and says so on one line of stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Callable

from editengine._errors import EditError

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C

logger = logging.getLogger("editengine")


def run_guarded(func: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    if _closed(sys.stdout):
        _say("error[bad_request]: standard output is closed; nothing was done.")
        return EXIT_USAGE
    _tolerate_unencodable(sys.stdout)
    if sys.stdin is None:  # started with stdin closed: read it as empty
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as stdin
    try:
        return int(func(args))
    except BrokenPipeError:
        _silence_stdout()
        _say("error[output_closed]: standard output was closed by its reader.")
        return EXIT_FAILED
    except RecursionError:
        _say("error[bad_request]: the input is nested too deeply to be read.")
        return EXIT_USAGE
    except EditError as error:
        _say(f"error[{error.code}]: {_one_line(str(error))}")
        return EXIT_USAGE
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as error:
        logger.debug("unexpected error in the command", exc_info=True)
        _say(f"error[internal_error]: {type(error).__name__}: {_one_line(str(error))}")
        return EXIT_FAILED


def say_interrupted() -> None:
    """The one line a command stopped by Ctrl-C (SIGINT) leaves on stderr."""
    _say("error[interrupted]: stopped by Ctrl-C (SIGINT) before the command finished.")


def say_error(code: str, message: str) -> None:
    """The one error format of every command on stderr: ``error[code]: message`` (a
    message may go on over more lines, e.g. the numbered lines of a no_match)."""
    _say(f"error[{code}]: {message.rstrip()}")


def say_warning(message: str) -> None:
    """A warning on stderr, in the same shape as an error: ``warning: message``."""
    _say(f"warning: {_one_line(message)}")


def _closed(stream: object) -> bool:
    if stream is None:
        return True
    try:
        return bool(getattr(stream, "closed", False))
    except Exception:
        return True


def _tolerate_unencodable(stream: object) -> None:
    """Text that the stream's encoding cannot hold (a lone surrogate, a narrow locale) is
    written as a backslash escape instead of failing after the work is done."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(Exception):
            reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    # Python flushes stdout at exit; pointing it at devnull stops a second BrokenPipeError.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _say(line: str) -> None:
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass
