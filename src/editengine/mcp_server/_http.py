"""Who may talk to the MCP server over HTTP: Host and Origin checked on every request,
whatever address it is bound to, and a bearer token when one is set.

DNS rebinding: a web page on ``evil.example`` whose name is made to resolve to 127.0.0.1
can send requests to a server on loopback; the browser sends ``Host: evil.example`` and
``Origin: http://evil.example``. Every request whose Host is not an allowed name (the
loopback names, the address bound to, and ``--allow-host``), or whose Origin is not a
loopback page or an ``--allow-origin``, is refused before it reaches a tool. A bind to a
non-loopback address (``0.0.0.0``, ``0``, a LAN address) serves anyone who can reach the
port: :func:`bind_refusal` refuses it unless a token or an explicit insecure bind is given.
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The names a loopback server is reached by, always allowed in Host and Origin.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    """Whether binding to ``host`` serves this machine only (every address it resolves to
    is a loopback address). ``0``, ``0.0.0.0`` and ``::`` bind every interface."""
    name = host.strip("[]")
    if name.lower() == "localhost":
        return True
    try:
        infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    addresses = {str(info[4][0]) for info in infos}
    return bool(addresses) and all(_loopback_address(address) for address in addresses)


def _loopback_address(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _wildcard(host: str) -> bool:
    name = host.strip("[]")
    try:
        return ipaddress.ip_address(socket.gethostbyname(name) if name == "0" else name) in (
            ipaddress.ip_address("0.0.0.0"),
            ipaddress.ip_address("::"),
        )
    except (ValueError, OSError):
        return False


def bind_refusal(host: str, *, token: str | None, insecure: bool) -> str | None:
    """Why binding to ``host`` is refused, or ``None`` when it may go ahead."""
    if is_loopback(host) or token or insecure:
        return None
    return (
        f"--http {host}: that address is reachable from other machines, and anyone who "
        "reaches the port could edit the files under --root. Bind to 127.0.0.1 (the "
        "default), give --token SECRET (clients send 'Authorization: Bearer SECRET'), or "
        "pass --insecure-bind to serve it without one."
    )


@dataclass(frozen=True)
class HttpPolicy:
    """The Host names, page origins and bearer token an HTTP request must match."""

    hosts: tuple[str, ...]
    origins: tuple[str, ...] = ()
    token: str | None = None

    @classmethod
    def for_bind(
        cls,
        host: str,
        *,
        allow_hosts: Sequence[str] = (),
        allow_origins: Sequence[str] = (),
        token: str | None = None,
    ) -> HttpPolicy:
        """The loopback names, the address bound to (unless it is a wildcard), and the
        extra names and origins given."""
        names = [*LOOPBACK_NAMES]
        if not _wildcard(host):
            names.append(host)
        names.extend(allow_hosts)
        hosts = tuple(dict.fromkeys(name.strip("[]").lower() for name in names if name))
        origins = tuple(dict.fromkeys(origin.rstrip("/").lower() for origin in allow_origins))
        return cls(hosts=hosts, origins=origins, token=token or None)

    def describe(self) -> str:
        """One line for the start message: what is checked."""
        parts = [f"Host must be one of {', '.join(self.hosts)}"]
        parts.append(
            "Origin must be a page on those hosts"
            + (f" or one of {', '.join(self.origins)}" if self.origins else "")
        )
        parts.append("a bearer token is required" if self.token else "no token is required")
        return "; ".join(parts)

    def refusal(self, headers: dict[str, str]) -> tuple[int, str] | None:
        """``(status, reason)`` when a request with ``headers`` is refused."""
        host = _host_name(headers.get("host", ""))
        if host is None or host not in self.hosts:
            return 421, "Invalid Host header"
        origin = headers.get("origin")
        if origin is not None and not self._origin_allowed(origin):
            return 403, "Invalid Origin header"
        if self.token is not None:
            given = headers.get("authorization", "")
            expected = f"Bearer {self.token}"
            if not hmac.compare_digest(given.encode(), expected.encode()):
                return 401, "Missing or wrong bearer token"
        return None

    def _origin_allowed(self, origin: str) -> bool:
        text = origin.strip().rstrip("/").lower()
        if text in self.origins:
            return True
        try:
            parts = urlsplit(text)
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and parts.hostname in self.hosts


def _host_name(value: str) -> str | None:
    """The name of a Host header (``name``, ``name:port``, ``[v6]:port``), lower case."""
    value = value.strip().lower()
    if not value:
        return None
    if value.startswith("["):
        end = value.find("]")
        if end == -1 or (value[end + 1 :] and not value[end + 1 :].startswith(":")):
            return None
        return value[1:end]
    name, _, port = value.partition(":")
    if port and not port.isdigit():
        return None
    return name


def http_app(server: Any, policy: HttpPolicy) -> App:
    """``server``'s streamable HTTP app behind ``policy``. The SDK's own header check (on
    only for some spellings of loopback) is replaced by this one, on for every bind."""
    from mcp.server.transport_security import TransportSecuritySettings

    app: App = server.streamable_http_app(
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False)
    )
    return guarded(app, policy)


def guarded(app: App, policy: HttpPolicy) -> App:
    """``app`` behind ``policy``: a refused HTTP request is answered here, never passed on."""

    async def guard(scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return
        headers = {
            key.decode("latin-1").lower(): value.decode("latin-1")
            for key, value in scope.get("headers", [])
        }
        refused = policy.refusal(headers)
        if refused is None:
            await app(scope, receive, send)
            return
        status, reason = refused
        body = reason.encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return guard
