"""Asking the user before a write, the two ways MCP allows.

With elicitation, the server asks through the client while the edit waits (:func:`elicit_approval`,
the engine's ``confirm``); a client that can only answer ``input_required`` gets an approval
round: the edit is previewed, and made on the retry only against the file the user saw. A
client that cannot be asked at all approves by default (``--confirm`` is a request, not a
lock).
"""

from __future__ import annotations

import contextvars
import logging

from mcp.server.mcpserver import Context
from pydantic import BaseModel, Field

from editengine._edits import ConfirmRequest, Decision

logger = logging.getLogger("editengine")


current_context: contextvars.ContextVar[Context | None] = contextvars.ContextVar(
    "editengine_mcp_context", default=None
)


# Set while an edit the user already approved (in an earlier round) is being made.
approved_earlier: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "editengine_mcp_approved", default=False
)


APPROVAL_KEY = "approve"


NEW_FILE = "new-file"


class Approval(BaseModel):
    approve: bool = Field(description="Write this change to the file?")


async def elicit_approval(request: ConfirmRequest) -> Decision:
    """Ask the user through the client (MCP elicitation); approve when it cannot ask."""
    ctx = current_context.get()
    if approved_earlier.get() or ctx is None or not _can_elicit(ctx):
        return Decision.approve()
    message = f"{request.summary}\n\n{request.diff}"
    try:
        answer = await ctx.elicit(message=message, schema=Approval)
    except Exception as error:  # a client that claims elicitation but fails it
        logger.warning("elicitation failed, approving the edit: %s", error)
        return Decision.approve()
    if answer.action == "accept" and getattr(answer, "data", None) is not None:
        if answer.data.approve:
            return Decision.approve()
        return Decision.reject("the user declined it")
    return Decision.reject(f"the user answered {answer.action}")


def _can_elicit(ctx: Context) -> bool:
    try:
        capabilities = ctx.request_context.session.client_capabilities
    except Exception:
        return False
    return capabilities is not None and getattr(capabilities, "elicitation", None) is not None


def asks_in_rounds(ctx: Context) -> bool:
    """The client can be asked, but only by answering input_required (no back-channel)."""
    if not _can_elicit(ctx):
        return False
    try:
        return not ctx.request_context.session.can_send_request
    except Exception:
        return False
