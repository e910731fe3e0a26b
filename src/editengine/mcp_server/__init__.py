"""editengine as a Model Context Protocol server (``editengine mcp``; see ``docs/mcp.md``).

Needs the optional extra: ``pip install "editengine[mcp]"``.
"""

from editengine._public import publish
from editengine.mcp_server._server import DEFAULT_READ_LIMIT, build_server

__all__ = ["DEFAULT_READ_LIMIT", "build_server"]


publish(globals())  # public names show this package, not their private module
