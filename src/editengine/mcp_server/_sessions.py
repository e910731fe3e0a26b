"""One read tracker per MCP session: what client A read says nothing about client B.

The server's engine is shared by every session; its read tracker is replaced by
:class:`SessionReadTrackers`, which hands each call to the tracker of the session the tool
call came from (set by :func:`enter_session` at the start of each tool, carried into the
engine's worker threads by the context variable). A session's tracker knows every content
the session has seen: the hash it last read and the hashes its own writes produced since,
so two of its own edits running at once never find each other's result "changed since you
last read it", while another session's edit still makes its next edit stale.
"""

from __future__ import annotations

import contextvars
import threading
import uuid
from collections import OrderedDict
from typing import Any

from editengine._errors import StaleFile
from editengine._read_tracker import ReadTracker

# The session a tool call runs for (``None`` outside a tool call: one shared tracker).
_session: contextvars.ContextVar[object | None] = contextvars.ContextVar(
    "editengine_mcp_session", default=None
)
_KNOWN_PER_FILE = 16  # contents of one file a session is known to have seen, newest kept
_SESSIONS_KEPT = 1024  # sessions remembered; the least recently used is dropped


def enter_session(ctx: Any) -> contextvars.Token[object | None]:
    """Mark the current tool call as its MCP session's; reset with the returned token.

    A session is named by its id (the transport's, or the ``Mcp-Session-Id`` header), or by
    its connection when that lives across requests. A request without either (a stateless
    request of the newest protocol) shares the tracker of every such request."""
    return _session.set(_session_id(ctx))


def leave_session(token: contextvars.Token[object | None]) -> None:
    _session.reset(token)


class SessionTracker(ReadTracker):
    """A session's tracker: every content it saw of a file counts as read."""

    def __init__(self, *, require_read: bool = False) -> None:
        super().__init__(require_read=require_read)
        self._known: dict[str, OrderedDict[str, None]] = {}

    def record(self, key: str, sha256: str) -> None:
        with self._lock:
            self._hashes[key] = sha256
            known = self._known.setdefault(key, OrderedDict())
            known[sha256] = None
            known.move_to_end(sha256)
            while len(known) > _KNOWN_PER_FILE:
                known.popitem(last=False)

    def forget(self, key: str) -> None:
        with self._lock:
            self._hashes.pop(key, None)
            self._known.pop(key, None)

    def check(self, key: str, current_sha256: str | None, *, display: str) -> None:
        with self._lock:
            known = self._known.get(key)
            if known is not None and current_sha256 in known:
                return
        super().check(key, current_sha256, display=display)


class SessionReadTrackers(ReadTracker):
    """Dispatches to the current session's :class:`SessionTracker`."""

    def __init__(self, *, require_read: bool = False) -> None:
        super().__init__(require_read=require_read)
        self._guard = threading.Lock()
        self._sessions: OrderedDict[object, SessionTracker] = OrderedDict()
        self._outside = SessionTracker(require_read=require_read)

    def current(self) -> SessionTracker:
        """The tracker of the session of the running tool call."""
        key = _session.get()
        if key is None:
            return self._outside
        with self._guard:
            tracker = self._sessions.get(key)
            if tracker is None:
                tracker = self._sessions[key] = SessionTracker(require_read=self.require_read)
                while len(self._sessions) > _SESSIONS_KEPT:
                    self._sessions.popitem(last=False)  # the least recently used
            else:
                self._sessions.move_to_end(key)
            return tracker

    def record(self, key: str, sha256: str) -> None:
        self.current().record(key, sha256)

    def forget(self, key: str) -> None:
        self.current().forget(key)

    def last_read(self, key: str) -> str | None:
        return self.current().last_read(key)

    def check(self, key: str, current_sha256: str | None, *, display: str) -> None:
        try:
            self.current().check(key, current_sha256, display=display)
        except StaleFile as error:
            if "has not been read in this session" in error.message:
                error.add_note_for_agent(
                    "Reads are remembered per MCP session: a file read by another client "
                    "does not count."
                )
            raise


def _session_id(ctx: Any) -> str | None:
    try:
        session = ctx.session
    except Exception:  # no request in flight (a bare context)
        return None
    connection = getattr(session, "_connection", None)
    for holder in (connection, session):
        found = getattr(holder, "session_id", None)
        if isinstance(found, str) and found:
            return found
    if connection is not None and getattr(connection, "has_standalone_channel", False):
        # A connection that lives across requests (a handshake, a back-channel) without an
        # id of its own: named once, in its own per-connection state.
        state = getattr(connection, "state", None)
        if isinstance(state, dict):
            name = state.setdefault("editengine_session", f"connection:{uuid.uuid4().hex}")
            return str(name)
    try:
        headers = ctx.headers
    except Exception:
        headers = None
    if headers is not None:
        found = headers.get("mcp-session-id")
        if isinstance(found, str) and found:
            return found
    return None
