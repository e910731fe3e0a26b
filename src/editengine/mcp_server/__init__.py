"""editengine as a Model Context Protocol server (``editengine mcp``; see ``docs/mcp.md``).

Needs the optional extra: ``pip install "editengine[mcp]"``.
"""

from editengine.mcp_server._server import DEFAULT_READ_LIMIT, build_server

__all__ = ["DEFAULT_READ_LIMIT", "build_server"]
