"""Real language servers over LSP: started lazily per workspace and language, kept alive across
edits, told of every write (``didOpen``, then ``didChange``), and asked for the diagnostics of
that version. The protocol is `pygls`' client and `lsprotocol`'s types (the ``lsp`` extra).

A server that is missing, crashes or never answers never fails an edit, nor slows it beyond
the timeout: the edit's result says the diagnostics were unavailable. The servers run on one
event loop in a background thread; :meth:`LanguageServers.close` stops them.

Why one long module: one client's lifecycle (start, open, change, wait for that version's
diagnostics, notice a crash, stop) shares its state and locks throughout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from editengine._results import Diagnostic
from editengine.diagnostics._check import _change_between
from editengine.diagnostics._languages import LANGUAGES, Language, language_of

logger = logging.getLogger("editengine.diagnostics")

DEFAULT_LSP_TIMEOUT = 3.0
# LSP's DiagnosticSeverity numbers.
SEVERITIES = {1: "error", 2: "warning", 3: "information", 4: "hint"}
# Crashes of one server after which it is not started again in this engine's life.
MAX_STARTS = 3
# How long close() gives a server to shut down before it is killed.
_SHUTDOWN_SECONDS = 1.0


@dataclass(frozen=True)
class ServerReport:
    """What the language servers said of one write: the ``introduced`` problems, and a
    ``note`` when they could not say (``None`` when they did)."""

    introduced: tuple[Diagnostic, ...] = ()
    note: str | None = None


class LanguageServers:
    """The language servers of one workspace: ``commands`` maps a language (``python``,
    ``typescript``, ... see :data:`~editengine.diagnostics.LANGUAGES`) to the command that
    starts its server over stdio."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        commands: Mapping[str, Sequence[str]],
        *,
        timeout: float = DEFAULT_LSP_TIMEOUT,
        severities: Sequence[str] = ("error",),
    ) -> None:
        self.root = Path(root)
        self.commands = _checked_commands(commands)
        self.timeout = float(timeout)
        self.severities = frozenset(severities)
        self._servers: dict[str, _Server] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def language_of(self, path: str | os.PathLike[str]) -> Language | None:
        """The language of ``path`` when a server is configured for it."""
        language = language_of(path)
        if language is None:
            return None
        if language.name in self.commands:
            return language
        # "typescript" serves .tsx files too, as the servers themselves do.
        if language.name == "tsx" and "typescript" in self.commands:
            return language
        return None

    def diagnose(self, path: str, before: str, after: str) -> ServerReport | None:
        """The problems the write of ``after`` over ``before`` introduced in ``path``, as its
        language's server reports them; ``None`` when no server serves the file type."""
        language = self.language_of(path)
        if language is None:
            return None
        command = self.commands.get(language.name) or self.commands["typescript"]
        name = os.path.basename(command[0])
        loop = self._ensure_loop()
        future = asyncio.run_coroutine_threadsafe(
            self._diagnose(language, command, Path(path), before, after), loop
        )
        try:
            # Starting a server and its first answer each get the timeout; nothing more.
            return future.result(timeout=2 * self.timeout + 1.0)
        except TimeoutError:
            future.cancel()
            return _unavailable(name, f"no answer within {self.timeout:g} s")
        except Exception as error:  # a server's failure never fails an edit
            logger.warning("language server %s failed: %r", name, error)
            return _unavailable(name, f"{type(error).__name__}: {error}")

    def close(self) -> None:
        """Shut every server down (killing those that do not stop) and end the loop."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        stopping = asyncio.run_coroutine_threadsafe(self._stop_all(), loop)
        with contextlib.suppress(Exception):
            stopping.result(timeout=_SHUTDOWN_SECONDS * 2 + 1.0)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=_SHUTDOWN_SECONDS + 1.0)

    # ------------------------------------------------------------------ the loop

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=_run_forever, args=(loop,), name="editengine-lsp", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    async def _diagnose(
        self, language: Language, command: Sequence[str], path: Path, before: str, after: str
    ) -> ServerReport:
        name = os.path.basename(command[0])
        server = self._servers.get(language.name)
        if server is not None and server.dead and not server.reported:
            # This edit is the first to find it gone: it says so; the next one restarts it.
            server.reported = True
            return _unavailable(name, "the server exited; it is restarted on the next edit")
        if server is None or server.dead:
            starts = server.starts if server is not None else 0
            if server is not None and starts >= MAX_STARTS:
                return _unavailable(name, f"it stopped {starts} times and is not restarted")
            server = _Server(language, list(command), self.root, starts=starts + 1)
            self._servers[language.name] = server
            why = await server.start(self.timeout)
            if why is not None:
                return _unavailable(name, why)
        return await server.diagnose(path, before, after, self.timeout, self.severities)

    async def _stop_all(self) -> None:
        servers = list(self._servers.values())
        self._servers.clear()
        await asyncio.gather(*(server.stop() for server in servers), return_exceptions=True)


def _run_forever(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        with contextlib.suppress(Exception):
            loop.close()


def _unavailable(name: str, why: str) -> ServerReport:
    return ServerReport(note=f"diagnostics unavailable from {name}: {why}")


def _checked_commands(commands: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    from editengine._errors import BadRequest

    checked: dict[str, tuple[str, ...]] = {}
    for language, command in commands.items():
        if language not in LANGUAGES:
            known = ", ".join(sorted(LANGUAGES))
            raise BadRequest(f"lsp: unknown language {language!r}; use one of: {known}.")
        if isinstance(command, str):
            command = command.split()
        if not command or not all(isinstance(part, str) and part for part in command):
            raise BadRequest(
                f"lsp: the command for {language} must be a non-empty list of strings, "
                f"got {command!r}."
            )
        checked[language] = tuple(command)
    return checked


# --------------------------------------------------------------------------- one server


@dataclass
class _Document:
    version: int
    text: str
    # What the server last said of this document: the version it named (None: it named none)
    # and its diagnostics.
    published: list[tuple[int | None, list[Any]]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class _Server:
    """One running server and the documents it was told of."""

    def __init__(self, language: Language, command: list[str], root: Path, *, starts: int) -> None:
        self.language = language
        self.command = command
        self.root = root
        self.starts = starts
        self.name = os.path.basename(command[0])
        self.dead = False
        self.reported = False  # an edit said that this server is gone
        self.client: Any = None
        self.documents: dict[str, _Document] = {}
        self.exited = asyncio.Event()
        self.drain: asyncio.Future[None] | None = None  # reads stderr; kept from collection

    async def start(self, timeout: float) -> str | None:
        """Start and initialize the server; why it could not, or ``None``."""
        try:
            from lsprotocol import types
            from pygls.lsp.client import LanguageClient
        except ImportError:
            self.dead = True
            return "the lsp extra is not installed (pip install 'editengine[lsp]')"
        executable = shutil.which(self.command[0])
        if executable is None:
            self.dead = True
            return f"{self.command[0]} was not found on PATH"
        from editengine._version import __version__

        client = LanguageClient("editengine", __version__, converter_factory=_converter)
        self.client = client
        server = self

        def published(params: types.PublishDiagnosticsParams) -> None:
            document = server.documents.get(params.uri)
            if document is not None:
                document.published.append((params.version, list(params.diagnostics)))
                document.changed.set()

        client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(published)

        original_exit = client.server_exit

        async def server_exit(process: Any) -> None:
            server.dead = True
            server.exited.set()
            for document in server.documents.values():
                document.changed.set()
            await original_exit(process)

        client.server_exit = server_exit  # type: ignore[method-assign,assignment]  # pygls's client hook, replaced to notice a server that exits
        try:
            await client.start_io(executable, *self.command[1:], cwd=str(self.root))
        except OSError as error:
            self.dead = True
            return f"{self.command[0]} could not be started ({error})"
        if client._server is not None and client._server.stderr is not None:
            self.drain = asyncio.ensure_future(_drain(client._server.stderr))
        params = types.InitializeParams(
            process_id=os.getpid(),
            root_uri=self.root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=self.root.as_uri(), name=self.root.name)],
            capabilities=types.ClientCapabilities(
                text_document=types.TextDocumentClientCapabilities(
                    publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                        version_support=True
                    ),
                    synchronization=types.TextDocumentSyncClientCapabilities(),
                )
            ),
        )
        try:
            await _within(client.initialize_async(params), timeout, self.exited)
            client.initialized(types.InitializedParams())
        except (TimeoutError, asyncio.TimeoutError):
            self.reported = True
            await self.kill()
            return f"it did not answer initialize within {timeout:g} s"
        except _Exited:
            self.reported = True
            return "it exited while starting"
        except Exception as error:
            self.reported = True
            await self.kill()
            return f"it failed to start ({type(error).__name__}: {error})"
        return None

    async def diagnose(
        self, path: Path, before: str, after: str, timeout: float, severities: frozenset[str]
    ) -> ServerReport:
        from lsprotocol import types

        uri = path.absolute().as_uri()
        deadline = time.monotonic() + timeout
        document = self.documents.get(uri)
        try:
            if document is None:
                document = _Document(version=1, text=before)
                self.documents[uri] = document
                self.client.text_document_did_open(
                    types.DidOpenTextDocumentParams(
                        text_document=types.TextDocumentItem(
                            uri=uri,
                            language_id=self.language.language_id,
                            version=1,
                            text=before,
                        )
                    )
                )
                baseline = await self._published(document, deadline)
            elif document.text != before:
                await self._change(document, uri, before)
                baseline = await self._published(document, deadline)
            else:
                baseline = _latest(document)
            await self._change(document, uri, after)
            current = await self._published(document, deadline)
        except (TimeoutError, asyncio.TimeoutError):
            return _unavailable(self.name, f"no diagnostics within {timeout:g} s")
        except _Exited:
            self.reported = True
            return _unavailable(self.name, "the server exited")
        except Exception as error:
            self.dead = self.reported = True
            await self.kill()
            return _unavailable(self.name, f"{type(error).__name__}: {error}")
        if baseline is None or current is None:
            return _unavailable(self.name, f"no diagnostics within {timeout:g} s")
        return ServerReport(
            introduced=_introduced(baseline, current, before, after, severities, self.name)
        )

    async def _change(self, document: _Document, uri: str, text: str) -> None:
        from lsprotocol import types

        if self.dead:
            raise _Exited
        document.version += 1
        document.text = text
        document.published.clear()
        document.changed.clear()
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=document.version
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def _published(self, document: _Document, deadline: float) -> list[Any] | None:
        """The diagnostics the server publishes for the document's current version (a server
        that names no version: the first it publishes after the change)."""
        while True:
            for version, diagnostics in reversed(document.published):
                if version is None or version == document.version:
                    found: list[Any] = diagnostics
                    return found
            if self.dead:
                raise _Exited
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            document.changed.clear()
            await asyncio.wait_for(document.changed.wait(), remaining)

    async def kill(self) -> None:
        """End an unresponsive server at once (no polite shutdown: it would not answer)."""
        self.dead = True
        client = self.client
        process = None if client is None else client._server
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), _SHUTDOWN_SECONDS)
        if client is not None:
            client._stop_event.set()

    async def stop(self) -> None:
        client, self.dead = self.client, True
        if client is None:
            return
        process = client._server
        if process is not None and process.returncode is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.shutdown_async(None), _SHUTDOWN_SECONDS)
                client.exit(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), _SHUTDOWN_SECONDS)
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(process.wait(), _SHUTDOWN_SECONDS)
        client._stop_event.set()


def _converter() -> Any:
    """pygls' converter, reading a server's capabilities as none: the engine needs none of
    them (it sends whole documents, which every server accepts), and servers' capabilities are
    where their answers stray from the schema most (notebook selectors, ...)."""
    from lsprotocol import types
    from pygls.protocol import default_converter

    converter = default_converter()  # type: ignore[no-untyped-call]  # lsprotocol's converter factory has no annotations
    converter.register_structure_hook(
        types.ServerCapabilities, lambda _value, _type: types.ServerCapabilities()
    )
    return converter


class _Exited(Exception):
    """The server process ended while an answer was awaited."""


def _latest(document: _Document) -> list[Any] | None:
    if not document.published:
        return []
    diagnostics: list[Any] = document.published[-1][1]
    return diagnostics


async def _within(awaitable: Any, timeout: float, exited: asyncio.Event) -> Any:
    """``awaitable``'s value, or TimeoutError after ``timeout``, or _Exited when the server ends."""
    task = asyncio.ensure_future(awaitable)
    ended = asyncio.ensure_future(exited.wait())
    done, _ = await asyncio.wait({task, ended}, timeout=timeout, return_when="FIRST_COMPLETED")
    ended.cancel()
    if task in done:
        return task.result()
    task.cancel()
    if ended in done:
        raise _Exited
    raise TimeoutError


async def _drain(stream: asyncio.StreamReader) -> None:
    """Read a server's stderr so a talkative server never blocks on a full pipe."""
    with contextlib.suppress(Exception):
        while await stream.read(65536):
            pass


def _introduced(
    baseline: list[Any],
    current: list[Any],
    before: str,
    after: str,
    severities: frozenset[str],
    name: str,
) -> tuple[Diagnostic, ...]:
    """``current``'s diagnostics of the wanted severities that ``baseline`` did not hold at
    the same place (lines after the change moved by the lines it added)."""
    change = _change_between(before, after)
    shift = 0 if change is None else change.new_last_row - change.old_last_row
    old = {(item.range.start.line, item.message) for item in baseline}
    found: list[Diagnostic] = []
    for item in current:
        severity = SEVERITIES.get(int(item.severity or 1), "error")
        if severity not in severities:
            continue
        row = item.range.start.line
        if change is not None and row > change.new_last_row:
            row -= shift
        if (row, item.message) in old:
            continue
        found.append(
            Diagnostic(
                line=item.range.start.line + 1,
                column=item.range.start.character + 1,
                end_line=item.range.end.line + 1,
                end_column=item.range.end.character + 1,
                severity=severity,
                message=item.message,
                source=str(item.source or name),
            )
        )
    return tuple(found)
