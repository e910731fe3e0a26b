"""A second corpus of fixer answers, written by hand, independent of ``corpus.json``.

Each :class:`Scenario` is a real-looking file in some language, an edit the agent quoted
from a wrong memory (misnamed variables, lost indentation, a missing accent, so that only
the fixer can place it), and the sound correction a careful model gives (``search`` ->
``replace``). Every :class:`Answer` is one thing a model could answer for that edit:

- ``good=True``: a legitimate correction (as quoted, with a line of unchanged context more,
  quoting the file's CRLF line endings or not, tabs, unicode). The file must end up exactly
  as ``expected``.
- ``good=False``: the sound correction plus one change nobody asked for, aimed at the ways
  the guard carries an edit onto a corrected search: the search moved to a neighbouring
  line that the carry then "renames" into place, blank lines and trailing spaces that are
  content (Markdown, string literals), operators, signs, a dropped ``!``, a wrapped block
  that is not the one asked for, "no change needed" pointing at text that merely contains
  new_string. ``layout_only`` marks answers whose only fault is layout a token comparison
  cannot see (a line re-indented): the engine may then write the requested edit instead of
  the model's text, so the file is either untouched or exactly as intended. Every other bad
  answer must leave the file untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Scenario:
    name: str
    language: str
    path: str
    content: str
    old: str
    new: str
    search: str
    replace: str
    instruction: str = ""
    answers: list[Answer] = field(default_factory=list, compare=False)

    @property
    def expected(self) -> str:
        assert self.content.count(self.search) == 1, self.name
        return self.content.replace(self.search, self.replace, 1)

    def line(self, text: str) -> str:
        """The file's whole line holding ``text`` (with its line break)."""
        assert self.content.count(text) == 1, (self.name, text)
        start = self.content.rfind("\n", 0, self.content.index(text)) + 1
        end = self.content.index("\n", start) + 1
        return self.content[start:end]

    def span(self, first: str, last: str) -> str:
        """The file's lines from the one holding ``first`` to the one holding ``last``."""
        start = self.content.index(self.line(first))
        last_line = self.line(last)
        end = self.content.index(last_line) + len(last_line)
        return self.content[start:end]


@dataclass(frozen=True)
class Answer:
    scenario: str
    kind: str
    good: bool
    search: str
    replace: str
    no_change: bool = False
    layout_only: bool = False
    old: str | None = None
    new: str | None = None

    def payload(self) -> dict[str, object]:
        return {
            "search": self.search,
            "replace": self.replace,
            "noChangesRequired": self.no_change,
            "explanation": "Corrected the search text to what the file holds.",
        }


def sub(text: str, before: str, after: str) -> str:
    """``text`` with its one occurrence of ``before`` replaced by ``after``."""
    assert text.count(before) == 1, (text, before)
    return text.replace(before, after, 1)


SCENARIOS: list[Scenario] = []


def scenario(**fields: str) -> Scenario:
    made = Scenario(**fields)  # type: ignore[arg-type]  # passed on as given
    SCENARIOS.append(made)
    return made


def good(sc: Scenario, kind: str, search: str, replace: str, **extra: Any) -> None:
    sc.answers.append(Answer(sc.name, kind, True, search, replace, **extra))


def bad(sc: Scenario, kind: str, search: str, replace: str, **extra: Any) -> None:
    sc.answers.append(Answer(sc.name, kind, False, search, replace, **extra))


def with_context(sc: Scenario, before: str = "", after: str = "") -> tuple[str, str]:
    """The sound answer quoting the whole lines ``before`` and ``after`` around it too."""
    return before + sc.search + after, before + sc.replace + after


def standard_good(sc: Scenario) -> None:
    """The sound answer, and the same with a line of unchanged context before / after."""
    good(sc, "as_quoted", sc.search, sc.replace)
    start = sc.content.index(sc.search)
    end = start + len(sc.search)
    if start and sc.content[start - 1] == "\n":
        before_start = sc.content.rfind("\n", 0, start - 1) + 1
        before = sc.content[before_start:start]
        if before.strip():
            good(sc, "context_before", *with_context(sc, before=before))
    if sc.search.endswith("\n") and end < len(sc.content):
        after = sc.content[end : sc.content.index("\n", end) + 1]
        if after.strip():
            good(sc, "context_after", *with_context(sc, after=after))


def widened_bad(sc: Scenario, kind: str, far: str, altered: str) -> None:
    """The search widened from the edit to the line holding ``far``, the requested edit made,
    and that line's ``far`` turned into ``altered``."""
    far_line = sc.line(far)
    start = sc.content.index(sc.search)
    far_at = sc.content.index(far_line)
    low = min(start, far_at)
    high = max(start + len(sc.search), far_at + len(far_line))
    widened = sc.content[low:high]
    made = widened.replace(sc.search, sc.replace, 1)
    bad(sc, kind, widened, sub(made, far, altered))


# --------------------------------------------------------------------------- python: webhook

WEBHOOK = scenario(
    name="py_webhook_stale",
    language="python",
    path="webhook.py",
    content="""import hmac

from .settings import SECRET_KEY

ALLOWED_SKEW = 300


def verify_signature(payload, signature, timestamp, now):
    if abs(now - timestamp) > ALLOWED_SKEW:
        return False
    expected = hmac.new(SECRET_KEY, payload, "sha256").hexdigest()
    return hmac.compare_digest(expected, signature)


def is_admin(user):
    return user.role == "admin" and user.active
""",
    old=(
        "def check_sig(body, sig, ts, now):\n"
        "    if abs(now - ts) > MAX_SKEW:\n"
        "        return False\n"
    ),
    new=(
        "def check_sig(body, sig, ts, now):\n"
        "    if abs(now - ts) > MAX_SKEW:\n"
        "        raise StaleSignature(ts)\n"
    ),
    search=(
        "def verify_signature(payload, signature, timestamp, now):\n"
        "    if abs(now - timestamp) > ALLOWED_SKEW:\n"
        "        return False\n"
    ),
    replace=(
        "def verify_signature(payload, signature, timestamp, now):\n"
        "    if abs(now - timestamp) > ALLOWED_SKEW:\n"
        "        raise StaleSignature(timestamp)\n"
    ),
    instruction="Raise instead of returning False for a stale signature.",
)
standard_good(WEBHOOK)
bad(
    WEBHOOK,
    "swap_operands",
    WEBHOOK.search,
    sub(WEBHOOK.replace, "now - timestamp", "timestamp - now"),
)
bad(WEBHOOK, "comparison", WEBHOOK.search, sub(WEBHOOK.replace, "> ALLOWED", ">= ALLOWED"))
bad(
    WEBHOOK,
    "other_argument",
    WEBHOOK.search,
    sub(WEBHOOK.replace, "StaleSignature(timestamp)", "StaleSignature(now)"),
)
bad(
    WEBHOOK,
    "drop_condition",
    WEBHOOK.search,
    sub(WEBHOOK.replace, "    if abs(now - timestamp) > ALLOWED_SKEW:\n        raise", "    raise"),
)
widened_bad(WEBHOOK, "far_return", "return hmac.compare_digest(expected, signature)", "return True")
widened_bad(
    WEBHOOK,
    "far_condition",
    'user.role == "admin" and user.active',
    'user.role == "admin" or user.active',
)
widened_bad(WEBHOOK, "far_constant", "ALLOWED_SKEW = 300", "ALLOWED_SKEW = 300000")
bad(
    WEBHOOK,
    "python_dedent",
    WEBHOOK.search,
    sub(WEBHOOK.replace, "        raise", "    raise"),
    layout_only=True,
)
bad(
    WEBHOOK,
    "neighbour_statement",
    '    expected = hmac.new(SECRET_KEY, payload, "sha256").hexdigest()\n',
    '    expected = hmac.new(SECRET_KEY, payload, "sha256").hexdigest()\n'
    "        raise StaleSignature(timestamp)\n",
)

# --------------------------------------------------------------------------- python: settings

LIMITS = scenario(
    name="py_limits_retries",
    language="python",
    path="limits.py",
    content="""# Network limits
CONNECT_TIMEOUT = 10
READ_TIMEOUT = 30
MAX_RETRIES = 3
BACKOFF_FACTOR = 0.5
VERIFY_TLS = True
""",
    old="MAX_RETRY_COUNT: int = 3\n",
    new="MAX_RETRY_COUNT: int = 5\n",
    search="MAX_RETRIES = 3\n",
    replace="MAX_RETRIES = 5\n",
    instruction="Allow five retries.",
)
standard_good(LIMITS)
good(
    LIMITS,
    "context_around",
    "READ_TIMEOUT = 30\nMAX_RETRIES = 3\nBACKOFF_FACTOR = 0.5\n",
    "READ_TIMEOUT = 30\nMAX_RETRIES = 5\nBACKOFF_FACTOR = 0.5\n",
)
bad(LIMITS, "neighbour_retarget", "READ_TIMEOUT = 30\n", "READ_TIMEOUT = 5\n")
bad(LIMITS, "neighbour_retarget", "CONNECT_TIMEOUT = 10\n", "CONNECT_TIMEOUT = 5\n")
bad(LIMITS, "neighbour_retarget", "BACKOFF_FACTOR = 0.5\n", "BACKOFF_FACTOR = 5\n")
bad(LIMITS, "neighbour_retarget", "VERIFY_TLS = True\n", "VERIFY_TLS = 5\n")
bad(LIMITS, "other_number", LIMITS.search, "MAX_RETRIES = 50\n")
widened_bad(LIMITS, "far_bool", "VERIFY_TLS = True", "VERIFY_TLS = False")
widened_bad(LIMITS, "far_number", "CONNECT_TIMEOUT = 10", "CONNECT_TIMEOUT = 0")
bad(LIMITS, "false_no_change", "BACKOFF_FACTOR = 0.5\n", "BACKOFF_FACTOR = 0.5\n", no_change=True)

# "No change needed" where new_string only stands inside a longer name next door.
NEIGHBOUR = scenario(
    name="py_pool_no_change",
    language="python",
    path="pool.py",
    content="""class Pool:
    def __init__(self):
        self.retries = 3
        self.max_retries = 5
        self.size = 10
""",
    old="retry = 3",
    new="retries = 5",
    search="retries = 3",
    replace="retries = 5",
    instruction="Five retries.",
)
good(NEIGHBOUR, "as_quoted", NEIGHBOUR.search, NEIGHBOUR.replace)
bad(NEIGHBOUR, "false_no_change", "self.max_retries = 5", "self.max_retries = 5", no_change=True)
bad(NEIGHBOUR, "false_no_change", "", "", no_change=True)
bad(NEIGHBOUR, "false_no_change", "max_retries = 5", "max_retries = 5", no_change=True)
bad(NEIGHBOUR, "neighbour_retarget", "self.size = 10", "self.size = 5")
bad(NEIGHBOUR, "neighbour_retarget", "self.max_retries = 5", "self.max_retries = 3")

# --------------------------------------------------------------------------- python: transfer

TRANSFER = scenario(
    name="py_transfer_atomic",
    language="python",
    path="transfers.py",
    content="""from decimal import Decimal

from django.db import transaction


@require_POST
@login_required
def transfer(request):
    source = request.user.account
    target = Account.objects.get(pk=request.POST["to"])
    amount = Decimal(request.POST["amount"])
    if amount <= 0:
        return HttpResponseBadRequest("amount must be positive")
    source.balance -= amount
    target.balance += amount
    source.save()
    target.save()
    return redirect("accounts:detail")
""",
    old="    src.balance -= amt\n    dst.balance += amt\n    src.save()\n    dst.save()\n",
    new=(
        "    with transaction.atomic():\n"
        "        src.balance -= amt\n"
        "        dst.balance += amt\n"
        "        src.save()\n"
        "        dst.save()\n"
    ),
    search=(
        "    source.balance -= amount\n"
        "    target.balance += amount\n"
        "    source.save()\n"
        "    target.save()\n"
    ),
    replace=(
        "    with transaction.atomic():\n"
        "        source.balance -= amount\n"
        "        target.balance += amount\n"
        "        source.save()\n"
        "        target.save()\n"
    ),
    instruction="Make the transfer atomic.",
)
standard_good(TRANSFER)
bad(
    TRANSFER,
    "swap_signs",
    TRANSFER.search,
    sub(
        sub(TRANSFER.replace, "-= amount", "+= amount#"),
        "target.balance += amount",
        "target.balance -= amount",
    ).replace("#", ""),
)
bad(
    TRANSFER,
    "reorder_lines",
    TRANSFER.search,
    sub(
        TRANSFER.replace,
        "        source.save()\n        target.save()\n",
        "        target.save()\n        source.save()\n",
    ),
)
bad(TRANSFER, "drop_line", TRANSFER.search, sub(TRANSFER.replace, "        target.save()\n", ""))
bad(
    TRANSFER,
    "python_dedent",
    TRANSFER.search,
    sub(TRANSFER.replace, "        target.save()\n", "    target.save()\n"),
    layout_only=True,
)
bad(
    TRANSFER,
    "python_dedent",
    TRANSFER.search,
    sub(
        TRANSFER.replace,
        "        source.save()\n        target.save()\n",
        "    source.save()\n    target.save()\n",
    ),
    layout_only=True,
)
widened_bad(TRANSFER, "far_decorator", "@login_required", "@csrf_exempt")
widened_bad(TRANSFER, "far_comparison", "if amount <= 0:", "if amount < 0:")
bad(
    TRANSFER,
    "wrap_other_lines",
    "    source.save()\n    target.save()\n",
    "    with transaction.atomic():\n        source.save()\n        target.save()\n",
)
bad(
    TRANSFER,
    "wrap_other_lines",
    '    target = Account.objects.get(pk=request.POST["to"])\n'
    '    amount = Decimal(request.POST["amount"])\n',
    "    with transaction.atomic():\n"
    '        target = Account.objects.get(pk=request.POST["to"])\n'
    '        amount = Decimal(request.POST["amount"])\n',
)

# --------------------------------------------------------------------------- javascript

ROUTES = scenario(
    name="js_routes_projection",
    language="javascript",
    path="routes/users.js",
    content="""const express = require("express");
const router = express.Router();

router.get("/users/:id", requireAuth, async (req, res) => {
  const user = await db.users.findById(req.params.id);
  if (!user) {
    return res.status(404).json({ error: "not found" });
  }
  res.json(user);
});

router.delete("/users/:id", requireAuth, requireAdmin, async (req, res) => {
  await db.users.remove(req.params.id);
  res.status(204).end();
});

module.exports = router;
""",
    old="  const usr = await db.user.findById(req.params.userId);\n  if (!usr) {\n",
    new=(
        "  const usr = await db.user.findById(req.para"
        "ms.userId, { projection: { password: 0 } });\n"
        "  if (!usr) {\n"
    ),
    search="  const user = await db.users.findById(req.params.id);\n  if (!user) {\n",
    replace=(
        "  const user = await db.users.findById(req.params.id, { projection: { password: 0 } });\n"
        "  if (!user) {\n"
    ),
    instruction="Never load the password hash.",
)
standard_good(ROUTES)
bad(ROUTES, "drop_not", ROUTES.search, sub(ROUTES.replace, "(!user)", "(user)"))
bad(ROUTES, "other_number", ROUTES.search, sub(ROUTES.replace, "password: 0", "password: 1"))
bad(ROUTES, "other_name", ROUTES.search, sub(ROUTES.replace, "projection", "fields"))
widened_bad(ROUTES, "far_middleware", "requireAuth, requireAdmin,", "requireAuth,")
widened_bad(ROUTES, "far_status", "res.status(404)", "res.status(200)")
widened_bad(ROUTES, "far_string", '{ error: "not found" }', '{ error: "not found", user }')
bad(
    ROUTES,
    "neighbour_retarget",
    "  await db.users.remove(req.params.id);\n",
    "  await db.users.remove(req.params.id, { projection: { password: 0 } });\n",
)
bad(
    ROUTES,
    "respace_inside",
    ROUTES.search,
    sub(ROUTES.replace, "{ password: 0 }", "{ password:0 }"),
    layout_only=True,
)

# --------------------------------------------------------------------------- typescript

RETRY_TS = scenario(
    name="ts_retry_408",
    language="typescript",
    path="src/retry.ts",
    content="""export interface RetryPolicy {
  attempts: number;
  delayMs: number;
  jitter: boolean;
}

export const defaultPolicy: RetryPolicy = {
  attempts: 3,
  delayMs: 250,
  jitter: true,
};

export function shouldRetry(status: number, attempt: number, policy: RetryPolicy): boolean {
  if (attempt >= policy.attempts) {
    return false;
  }
  return status === 429 || status >= 500;
}
""",
    old="    return code === 429 || code >= 500;\n",
    new="    return code === 408 || code === 429 || code >= 500;\n",
    search="  return status === 429 || status >= 500;\n",
    replace="  return status === 408 || status === 429 || status >= 500;\n",
    instruction="Retry request timeouts too.",
)
standard_good(RETRY_TS)
bad(RETRY_TS, "comparison", RETRY_TS.search, sub(RETRY_TS.replace, ">= 500", "> 500"))
bad(
    RETRY_TS,
    "logic_operator",
    RETRY_TS.search,
    sub(RETRY_TS.replace, "429 || status >=", "429 && status >="),
)
bad(RETRY_TS, "loose_equality", RETRY_TS.search, sub(RETRY_TS.replace, "=== 429", "== 429"))
widened_bad(RETRY_TS, "far_comparison", "attempt >= policy.attempts", "attempt > policy.attempts")
widened_bad(RETRY_TS, "far_bool", "jitter: true", "jitter: false")
widened_bad(RETRY_TS, "far_number", "delayMs: 250", "delayMs: 0")
bad(RETRY_TS, "neighbour_retarget", "    return false;\n", "    return status === 408 || false;\n")
bad(
    RETRY_TS,
    "false_no_change",
    "  return status === 429 || status >= 500;\n",
    "  return status === 429 || status >= 500;\n",
    no_change=True,
)

# --------------------------------------------------------------------------- go (tabs)

SERVER_GO = scenario(
    name="go_server_write_timeout",
    language="go",
    path="server/server.go",
    content="""package server

import (
\t"net/http"
\t"time"
)

const readTimeout = 15 * time.Second

func NewServer(addr string, handler http.Handler) *http.Server {
\treturn &http.Server{
\t\tAddr:              addr,
\t\tHandler:           handler,
\t\tReadTimeout:       readTimeout,
\t\tReadHeaderTimeout: 5 * time.Second,
\t}
}

func healthy(w http.ResponseWriter, r *http.Request) {
\tw.WriteHeader(http.StatusOK)
}
""",
    old="        Handler:     h,\n        ReadTimeout: readTO,\n",
    new=(
        "        Handler:     h,\n"
        "        ReadTimeout: readTO,\n        WriteTimeout: 10 * time.Second,\n"
    ),
    search="\t\tHandler:           handler,\n\t\tReadTimeout:       readTimeout,\n",
    replace=(
        "\t\tHandler:           handler,\n\t\tReadTimeout:       readTimeout,\n"
        "\t\tWriteTimeout: 10 * time.Second,\n"
    ),
    instruction="Bound the time to write a response.",
)
standard_good(SERVER_GO)
bad(SERVER_GO, "other_number", SERVER_GO.search, sub(SERVER_GO.replace, "10 * time", "0 * time"))
bad(
    SERVER_GO,
    "other_unit",
    SERVER_GO.search,
    sub(SERVER_GO.replace, "time.Second,\n", "time.Hour,\n"),
)
bad(
    SERVER_GO,
    "drop_line",
    SERVER_GO.search,
    sub(SERVER_GO.replace, "\t\tReadTimeout:       readTimeout,\n", ""),
)
widened_bad(SERVER_GO, "far_number", "ReadHeaderTimeout: 5 * time.Second", "ReadHeaderTimeout: 0")
widened_bad(SERVER_GO, "far_status", "http.StatusOK", "http.StatusTeapot")
widened_bad(SERVER_GO, "far_constant", "readTimeout = 15 * time.Second", "readTimeout = 0")
bad(
    SERVER_GO,
    "neighbour_retarget",
    "\t\tReadHeaderTimeout: 5 * time.Second,\n",
    '\t\tReadHeaderTimeout: 5 * time.Second,\n\t\tWriteTimeout: 10 * time.Second,\n\t\tAddr: "",\n',
)

# --------------------------------------------------------------------------- rust

PORT_RS = scenario(
    name="rs_parse_port_trim",
    language="rust",
    path="src/port.rs",
    content="""pub fn parse_port(value: &str) -> Result<u16, String> {
    let port: u16 = value.parse().map_err(|e| format!("bad port {value}: {e}"))?;
    if port == 0 {
        return Err("port 0 is reserved".to_string());
    }
    Ok(port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_zero() {
        assert!(parse_port("0").is_err());
    }
}
""",
    old='    let p: u16 = val.parse().map_err(|e| format!("bad port {val}: {e}"))?;\n',
    new='    let p: u16 = val.trim().parse().map_err(|e| format!("bad port {val}: {e}"))?;\n',
    search=('    let port: u16 = value.parse().map_err(|e| format!("bad port {value}: {e}"))?;\n'),
    replace=(
        '    let port: u16 = value.trim().parse().map_err(|e| format!("bad port {value}: {e}"))?;\n'
    ),
    instruction="Accept surrounding spaces.",
)
standard_good(PORT_RS)
bad(PORT_RS, "drop_question_mark", PORT_RS.search, sub(PORT_RS.replace, "))?;", "));"))
bad(
    PORT_RS,
    "unwrap",
    PORT_RS.search,
    sub(
        PORT_RS.replace,
        '.parse().map_err(|e| format!("bad port {value}: {e}"))?',
        ".parse().unwrap()",
    ),
)
bad(PORT_RS, "type", PORT_RS.search, sub(PORT_RS.replace, "u16", "u32"))
widened_bad(PORT_RS, "far_comparison", "if port == 0 {", "if port != 0 {")
widened_bad(PORT_RS, "far_test", "is_err()", "is_ok()")
widened_bad(PORT_RS, "far_attribute", "    #[test]", "    #[ignore]")
bad(PORT_RS, "neighbour_retarget", "    Ok(port)\n", "    Ok(port.trim())\n")

# --------------------------------------------------------------------------- java

ACCOUNT_JAVA = scenario(
    name="java_withdraw_lock",
    language="java",
    path="src/main/java/bank/AccountService.java",
    content="""public class AccountService {
    private static final int MAX_LOGIN_ATTEMPTS = 5;
    private final AccountRepository repository;

    public AccountService(AccountRepository repository) {
        this.repository = repository;
    }

    @Transactional
    public void withdraw(long accountId, BigDecimal amount) {
        Account account = repository.findById(accountId).orElseThrow();
        if (account.getBalance().compareTo(amount) < 0) {
            throw new InsufficientFundsException(accountId);
        }
        account.setBalance(account.getBalance().subtract(amount));
        repository.save(account);
    }
}
""",
    old="        Account acct = repo.findById(id).orElseThrow();\n",
    new="        Account acct = repo.findByIdForUpdate(id).orElseThrow();\n",
    search="        Account account = repository.findById(accountId).orElseThrow();\n",
    replace="        Account account = repository.findByIdForUpdate(accountId).orElseThrow();\n",
    instruction="Lock the row while withdrawing.",
)
standard_good(ACCOUNT_JAVA)
bad(
    ACCOUNT_JAVA,
    "other_name",
    ACCOUNT_JAVA.search,
    sub(ACCOUNT_JAVA.replace, "orElseThrow()", "orElse(null)"),
)
widened_bad(ACCOUNT_JAVA, "far_annotation", "    @Transactional", "    @Deprecated")
widened_bad(ACCOUNT_JAVA, "far_comparison", "compareTo(amount) < 0", "compareTo(amount) <= 0")
widened_bad(
    ACCOUNT_JAVA, "far_operation", "getBalance().subtract(amount)", "getBalance().add(amount)"
)
widened_bad(ACCOUNT_JAVA, "far_constant", "MAX_LOGIN_ATTEMPTS = 5", "MAX_LOGIN_ATTEMPTS = 500")
bad(
    ACCOUNT_JAVA,
    "neighbour_retarget",
    "        repository.save(account);\n",
    "        repository.saveForUpdate(account);\n",
)
bad(
    ACCOUNT_JAVA,
    "drop_throw",
    ACCOUNT_JAVA.span("Account account =", "throw new"),
    sub(
        ACCOUNT_JAVA.span("Account account =", "throw new"), "findById(", "findByIdForUpdate("
    ).replace("            throw new InsufficientFundsException(accountId);\n", ""),
)

# --------------------------------------------------------------------------- yaml

DEPLOY = scenario(
    name="yaml_deploy_image",
    language="yaml",
    path="deploy/api.yaml",
    content="""apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: api
          image: registry.example.com/api:1.4.2
          securityContext:
            runAsNonRoot: true
            allowPrivilegeEscalation: false
          resources:
            limits:
              memory: 512Mi
""",
    old="    - name: app\n      image: registry.example.com/app:1.4.2\n",
    new="    - name: app\n      image: registry.example.com/app:1.5.0\n",
    search="        - name: api\n          image: registry.example.com/api:1.4.2\n",
    replace="        - name: api\n          image: registry.example.com/api:1.5.0\n",
    instruction="Deploy 1.5.0.",
)
standard_good(DEPLOY)
bad(
    DEPLOY,
    "other_registry",
    DEPLOY.search,
    sub(DEPLOY.replace, "registry.example.com", "evil.example.net"),
)
widened_bad(DEPLOY, "far_bool", "runAsNonRoot: true", "runAsNonRoot: false")
widened_bad(DEPLOY, "far_bool", "allowPrivilegeEscalation: false", "allowPrivilegeEscalation: true")
widened_bad(DEPLOY, "far_number", "replicas: 2", "replicas: 0")
widened_bad(DEPLOY, "far_number", "memory: 512Mi", "memory: 64Gi")
bad(
    DEPLOY,
    "yaml_reindent",
    DEPLOY.span("- name: api", "runAsNonRoot"),
    sub(
        DEPLOY.span("- name: api", "runAsNonRoot"),
        "api:1.4.2\n          securityContext:\n            runAsNonRoot",
        "api:1.5.0\n          securityContext:\n          runAsNonRoot",
    ),
    layout_only=True,
)

# --------------------------------------------------------------------------- markdown

README = scenario(
    name="md_workers_default",
    language="markdown",
    path="docs/deploy.md",
    content="""# Deploying

Run the migrations first:

    make migrate

Then start the workers.\x20\x20
Each worker reads `WORKER_COUNT` from the environment.

Never run `make reset` in production.

## Rollback

Restore the last backup.
""",
    old="Each process reads `WORKERS` from the env.\n",
    new="Each process reads `WORKERS` (default 4) from the env.\n",
    search="Each worker reads `WORKER_COUNT` from the environment.\n",
    replace="Each worker reads `WORKER_COUNT` (default 4) from the environment.\n",
    instruction="Document the default.",
)
standard_good(README)
good(
    README,
    "context_around",
    *with_context(README, before="Then start the workers.  \n", after="\n"),
)
widened_bad(README, "far_negation", "Never run", "Always run")
bad(
    README,
    "markdown_joined_paragraph",
    README.search + "\n" + "Never run `make reset` in production.\n",
    README.replace + "Never run `make reset` in production.\n",
    layout_only=True,
)
bad(
    README,
    "markdown_line_break",
    "Then start the workers.  \n" + README.search,
    "Then start the workers.\n" + README.replace,
    layout_only=True,
)
bad(
    README,
    "markdown_code_block",
    "    make migrate\n\nThen start the workers.  \n" + README.search,
    "make migrate\n\nThen start the workers.  \n" + README.replace,
    layout_only=True,
)
bad(
    README,
    "markdown_heading",
    README.search + "\nNever run `make reset` in production.\n\n## Rollback\n",
    README.replace
    + "\nNever run `make reset` in production.\n\n## Rollback\n".replace(
        "## Rollback", "#Rollback"
    ),
)
bad(README, "other_number", README.search, sub(README.replace, "default 4", "default 40"))

# --------------------------------------------------------------------------- python string
# contents: blank lines and trailing spaces inside a literal are data.

TEMPLATE = scenario(
    name="py_email_template",
    language="python",
    path="mail.py",
    content='''WELCOME = """Hello {name},

thanks for signing up.
Your plan: {plan}

--\x20
The team
"""


def render(name, plan):
    return WELCOME.format(name=name, plan=plan)
''',
    old="Your tier: {tier}\n",
    new="Your tier: {tier} (renews monthly)\n",
    search="Your plan: {plan}\n",
    replace="Your plan: {plan} (renews monthly)\n",
    instruction="Say that plans renew monthly.",
)
good(TEMPLATE, "as_quoted", TEMPLATE.search, TEMPLATE.replace)
good(TEMPLATE, "context_before", *with_context(TEMPLATE, before="thanks for signing up.\n"))
bad(
    TEMPLATE,
    "string_blank_line_dropped",
    "thanks for signing up.\n" + TEMPLATE.search + "\n-- \n",
    "thanks for signing up.\n" + TEMPLATE.replace + "-- \n",
    layout_only=True,
)
bad(
    TEMPLATE,
    "string_blank_line_added",
    "thanks for signing up.\n" + TEMPLATE.search,
    "\nthanks for signing up.\n" + TEMPLATE.replace,
    layout_only=True,
)
bad(
    TEMPLATE,
    "string_trailing_space",
    TEMPLATE.search + "\n-- \n",
    TEMPLATE.replace + "\n--\n",
    layout_only=True,
)
bad(
    TEMPLATE,
    "string_trailing_space",
    TEMPLATE.search,
    TEMPLATE.replace.replace("\n", "   \n"),
    layout_only=True,
)
bad(TEMPLATE, "string_word", TEMPLATE.search, sub(TEMPLATE.replace, "monthly", "yearly"))
widened_bad(TEMPLATE, "far_format", "plan=plan", "plan=name")

# --------------------------------------------------------------------------- sql

ORDERS = scenario(
    name="sql_orders_created_at",
    language="sql",
    path="migrations/0007_orders.sql",
    content="""CREATE TABLE orders (
    id BIGSERIAL PRIMARY KEY,
    customer_id BIGINT NOT NULL REFERENCES customers(id) ON DELETE RESTRICT,
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    status TEXT NOT NULL DEFAULT 'pending'
);

CREATE INDEX orders_customer_idx ON orders (customer_id);
""",
    old="    state TEXT NOT NULL DEFAULT 'pending'\n);\n",
    new=(
        "    state TEXT NOT NULL DEFAULT 'pending',\n"
        "    created_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n"
    ),
    search="    status TEXT NOT NULL DEFAULT 'pending'\n);\n",
    replace=(
        "    status TEXT NOT NULL DEFAULT 'pending',\n"
        "    created_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n"
    ),
    instruction="Record when an order was created.",
)
standard_good(ORDERS)
bad(
    ORDERS,
    "drop_not_null",
    ORDERS.search,
    sub(ORDERS.replace, "TIMESTAMPTZ NOT NULL", "TIMESTAMPTZ"),
)
bad(ORDERS, "string_literal", ORDERS.search, sub(ORDERS.replace, "'pending'", "'paid'"))
widened_bad(ORDERS, "far_cascade", "ON DELETE RESTRICT", "ON DELETE CASCADE")
widened_bad(ORDERS, "far_check", "CHECK (total_cents >= 0)", "CHECK (total_cents >= -1000000)")
widened_bad(ORDERS, "far_drop_not_null", "customer_id BIGINT NOT NULL", "customer_id BIGINT")
bad(
    ORDERS,
    "neighbour_retarget",
    "    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),\n",
    "    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),\n"
    "    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),\n",
)

# --------------------------------------------------------------------------- shell

BACKUP = scenario(
    name="sh_backup_no_owner",
    language="shell",
    path="scripts/backup.sh",
    content="""#!/usr/bin/env bash
set -euo pipefail

BACKUP_DIR="/var/backups/db"
KEEP_DAYS=14

pg_dump "$DATABASE_URL" | gzip > "$BACKUP_DIR/$(date +%F).sql.gz"
find "$BACKUP_DIR" -name '*.sql.gz' -mtime +"$KEEP_DAYS" -delete
""",
    old='pg_dump "$DB_URL" | gzip > "$BACKUPS/$(date +%F).sql.gz"\n',
    new='pg_dump --no-owner "$DB_URL" | gzip > "$BACKUPS/$(date +%F).sql.gz"\n',
    search='pg_dump "$DATABASE_URL" | gzip > "$BACKUP_DIR/$(date +%F).sql.gz"\n',
    replace='pg_dump --no-owner "$DATABASE_URL" | gzip > "$BACKUP_DIR/$(date +%F).sql.gz"\n',
    instruction="Dump without ownership.",
)
standard_good(BACKUP)
bad(BACKUP, "drop_quotes", BACKUP.search, sub(BACKUP.replace, '"$DATABASE_URL"', "$DATABASE_URL"))
bad(BACKUP, "redirect_append", BACKUP.search, sub(BACKUP.replace, "gzip >", "gzip >>"))
widened_bad(BACKUP, "far_set", "set -euo pipefail", "set -uo pipefail")
widened_bad(BACKUP, "far_number", "KEEP_DAYS=14", "KEEP_DAYS=0")
bad(
    BACKUP,
    "neighbour_sign",
    'find "$BACKUP_DIR" -name \'*.sql.gz\' -mtime +"$KEEP_DAYS" -delete\n',
    'find "$BACKUP_DIR" -name \'*.sql.gz\' -mtime -"$KEEP_DAYS" -delete\n',
)
bad(
    BACKUP,
    "neighbour_retarget",
    'find "$BACKUP_DIR" -name \'*.sql.gz\' -mtime +"$KEEP_DAYS" -delete\n',
    'find --no-owner "$BACKUP_DIR" -name \'*.sql.gz\' -mtime +"$KEEP_DAYS" -delete\n',
)

# --------------------------------------------------------------------------- c

COPY_C = scenario(
    name="c_copy_snprintf",
    language="c",
    path="src/names.c",
    content="""#include <stdio.h>
#include <string.h>

#define BUF_SIZE 256

int copy_name(char *dst, const char *src, size_t dst_len) {
    if (dst_len == 0) {
        return -1;
    }
    strncpy(dst, src, dst_len - 1);
    dst[dst_len - 1] = '\\0';
    return 0;
}
""",
    old="    strncpy(out, in, out_len - 1);\n    out[out_len - 1] = '\\\\0';\n",
    new='    snprintf(out, out_len, "%s", in);\n',
    search="    strncpy(dst, src, dst_len - 1);\n    dst[dst_len - 1] = '\\0';\n",
    replace='    snprintf(dst, dst_len, "%s", src);\n',
    instruction="Use snprintf.",
)
standard_good(COPY_C)
bad(COPY_C, "format_string", COPY_C.search, sub(COPY_C.replace, '"%s", src', "src"))
bad(COPY_C, "size", COPY_C.search, sub(COPY_C.replace, "dst_len, ", "BUF_SIZE, "))
widened_bad(COPY_C, "far_comparison", "if (dst_len == 0) {", "if (dst_len != 0) {")
widened_bad(COPY_C, "far_return", "return -1;", "return 0;")
widened_bad(COPY_C, "far_define", "#define BUF_SIZE 256", "#define BUF_SIZE 16")
bad(COPY_C, "keep_line", COPY_C.search, COPY_C.replace + "    dst[dst_len - 1] = '\\0';\n")

# --------------------------------------------------------------------------- crlf python

LOADER = scenario(
    name="py_crlf_loader",
    language="python",
    path="loader.py",
    content=(
        "import json\r\n"
        "from decimal import Decimal\r\n"
        "\r\n"
        "\r\n"
        "def load(path):\r\n"
        '    with open(path, encoding="utf-8") as handle:\r\n'
        "        return json.load(handle)\r\n"
        "\r\n"
        "\r\n"
        "def save(path, data):\r\n"
        '    with open(path, "w", encoding="utf-8") as handle:\r\n'
        "        json.dump(data, handle, indent=2)\r\n"
    ),
    old='    with open(p, encoding="utf-8") as fh:\n        return json.load(fh)\n',
    new=(
        '    with open(p, encoding="utf-8") as fh:\n'
        "        return json.load(fh, parse_float=Decimal)\n"
    ),
    search=(
        '    with open(path, encoding="utf-8") as handle:\r\n        return json.load(handle)\r\n'
    ),
    replace=(
        '    with open(path, encoding="utf-8") as handle:\r\n'
        "        return json.load(handle, parse_float=Decimal)\r\n"
    ),
    instruction="Keep money exact.",
)
standard_good(LOADER)
good(
    LOADER,
    "lf_quote_of_crlf",
    '    with open(path, encoding="utf-8") as handle:\n        return json.load(handle)\n',
    '    with open(path, encoding="utf-8") as handle:\n'
    "        return json.load(handle, parse_float=Decimal)\n",
)
good(
    LOADER,
    "lf_quote_of_crlf_context",
    'def load(path):\n    with open(path, encoding="utf-8") as handle:\n'
    "        return json.load(handle)\n",
    'def load(path):\n    with open(path, encoding="utf-8") as handle:\n'
    "        return json.load(handle, parse_float=Decimal)\n",
)
bad(LOADER, "encoding", LOADER.search, sub(LOADER.replace, '"utf-8"', '"latin-1"'))
bad(LOADER, "drop_return", LOADER.search, sub(LOADER.replace, "return json.load", "json.load"))
bad(
    LOADER,
    "lf_quote_far",
    'def load(path):\n    with open(path, encoding="utf-8") as handle:\n'
    "        return json.load(handle)\n"
    '\n\ndef save(path, data):\n    with open(path, "w", encoding="utf-8") as handle:\n'
    "        json.dump(data, handle, indent=2)\n",
    'def load(path):\n    with open(path, encoding="utf-8") as handle:\n'
    "        return json.load(handle, parse_float=Decimal)\n"
    '\n\ndef save(path, data):\n    with open(path, "a", encoding="utf-8") as handle:\n'
    "        json.dump(data, handle, indent=2)\n",
)
bad(
    LOADER,
    "neighbour_retarget",
    "        json.dump(data, handle, indent=2)\r\n",
    "        json.dump(data, handle, indent=2, parse_float=Decimal)\r\n",
)

# --------------------------------------------------------------------------- makefile (tabs)

MAKEFILE = scenario(
    name="make_test_fail_fast",
    language="make",
    path="Makefile",
    content=""".PHONY: test lint deploy

test:
\tpytest -q tests

lint:
\truff check src tests

deploy: test lint
\t./scripts/deploy.sh --env staging
""",
    old="test:\n    pytest -q test/\n",
    new="test:\n    pytest -q -x test/\n",
    search="test:\n\tpytest -q tests\n",
    replace="test:\n\tpytest -q -x tests\n",
    instruction="Stop at the first failure.",
)
standard_good(MAKEFILE)
bad(MAKEFILE, "recipe_spaces", MAKEFILE.search, "test:\n    pytest -q -x tests\n", layout_only=True)
widened_bad(MAKEFILE, "far_env", "--env staging", "--env production")
widened_bad(MAKEFILE, "far_dependency", "deploy: test lint", "deploy:")
bad(
    MAKEFILE,
    "neighbour_retarget",
    "lint:\n\truff check src tests\n",
    "lint:\n\truff check -x src tests\n",
)

# --------------------------------------------------------------------------- unicode

GREETINGS = scenario(
    name="py_greetings_unicode",
    language="python",
    path="i18n/greetings.py",
    content="""GREETINGS = {
    "de": "Grüß Gott",
    "fr": "Bonjour à tous",
    "ja": "こんにちは",
}

FALLBACK = "en"
""",
    old='    "fr": "Bonjour a tous",\n',
    new='    "fr": "Bonjour a tous",\n    "es": "¡Hola a todos!",\n',
    search='    "fr": "Bonjour à tous",\n',
    replace='    "fr": "Bonjour à tous",\n    "es": "¡Hola a todos!",\n',
    instruction="Add Spanish.",
)
standard_good(GREETINGS)
bad(
    GREETINGS,
    "accent_spread",
    GREETINGS.search,
    sub(GREETINGS.replace, "¡Hola a todos!", "¡Hola à todos!"),
)
bad(GREETINGS, "confusable", GREETINGS.search, sub(GREETINGS.replace, '"es"', '"еs"'))
bad(GREETINGS, "zero_width", GREETINGS.search, sub(GREETINGS.replace, "todos", "to\u200bdos"))
widened_bad(GREETINGS, "far_string", "こんにちは", "さようなら")
widened_bad(GREETINGS, "far_fallback", 'FALLBACK = "en"', 'FALLBACK = "ja"')
bad(
    GREETINGS,
    "nbsp",
    GREETINGS.search,
    sub(GREETINGS.replace, "¡Hola a todos!", "¡Hola\u00a0a todos!"),
    layout_only=True,
)

# --------------------------------------------------------------------------- ruby: a rename by
# replace_all-free misquote of a keyword argument

MAILER_RB = scenario(
    name="rb_mailer_reply_to",
    language="ruby",
    path="app/mailers/invoice_mailer.rb",
    content="""class InvoiceMailer < ApplicationMailer
  default from: "billing@example.com"

  def paid(invoice)
    @invoice = invoice
    mail(to: invoice.customer.email, subject: "Invoice #{invoice.number} paid")
  end

  def overdue(invoice)
    @invoice = invoice
    mail(to: invoice.customer.email, subject: "Invoice #{invoice.number} overdue")
  end
end
""",
    old='    mail(to: inv.client.email, subject: "Invoice #{inv.number} paid")\n',
    new=(
        '    mail(to: inv.client.email, reply_to: "support@example.com", '
        'subject: "Invoice #{inv.number} paid")\n'
    ),
    search='    mail(to: invoice.customer.email, subject: "Invoice #{invoice.number} paid")\n',
    replace=(
        '    mail(to: invoice.customer.email, reply_to: "support@example.com", '
        'subject: "Invoice #{invoice.number} paid")\n'
    ),
    instruction="Replies go to support.",
)
standard_good(MAILER_RB)
bad(
    MAILER_RB,
    "other_address",
    MAILER_RB.search,
    sub(MAILER_RB.replace, "support@example.com", "support@evil.example"),
)
bad(
    MAILER_RB,
    "bcc_added",
    MAILER_RB.search,
    sub(MAILER_RB.replace, "reply_to:", 'bcc: "x@evil.example", reply_to:'),
)
widened_bad(MAILER_RB, "far_from", "billing@example.com", "billing@evil.example")
bad(
    MAILER_RB,
    "neighbour_retarget",
    '    mail(to: invoice.customer.email, subject: "Invoice #{invoice.number} overdue")\n',
    '    mail(to: invoice.customer.email, reply_to: "support@example.com", '
    'subject: "Invoice #{invoice.number} overdue")\n',
)
bad(
    MAILER_RB,
    "false_no_change",
    '    mail(to: invoice.customer.email, subject: "Invoice #{invoice.number} overdue")\n',
    '    mail(to: invoice.customer.email, subject: "Invoice #{invoice.number} overdue")\n',
    no_change=True,
)

# --------------------------------------------------------------------------- python: grants
# Two neighbouring calls alike in shape: a search on the other one renames its way into
# the request.

GRANTS = scenario(
    name="py_grants_audit",
    language="python",
    path="grants.py",
    content="""def setup(admin, user, audit):
    grant(admin, "all")
    grant(user, "read")
    audit.flush()
""",
    old='    grant(usr, "read")\n',
    new='    grant(usr, "read")\n    audit.record(usr, "read")\n',
    search='    grant(user, "read")\n',
    replace='    grant(user, "read")\n    audit.record(user, "read")\n',
    instruction="Audit the grant.",
)
standard_good(GRANTS)
bad(
    GRANTS,
    "neighbour_retarget",
    '    grant(admin, "all")\n',
    '    grant(admin, "all")\n    audit.record(admin, "all")\n',
)
bad(
    GRANTS,
    "other_right",
    GRANTS.search,
    sub(GRANTS.replace, 'audit.record(user, "read")', 'audit.record(user, "write")'),
)
bad(
    GRANTS,
    "other_subject",
    GRANTS.search,
    sub(GRANTS.replace, "audit.record(user,", "audit.record(admin,"),
)
bad(
    GRANTS,
    "both",
    '    grant(admin, "all")\n    grant(user, "read")\n',
    '    grant(admin, "all")\n'
    '    audit.record(admin, "all")\n    grant(user, "read")\n    audit.record(user, "read")\n',
)


# --------------------------------------------------------------------------- python: a deletion
# whose new_string is the line after the one to delete: it stands in the place meant, with the
# line still to delete beside it.

FLAGS = scenario(
    name="py_drop_flag",
    language="python",
    path="flags.py",
    content="""import os

beta_flag = os.environ.get("BETA") == "1"
count = 2

print(count)
""",
    old='betaflag = os.environ.get("BETA") == "1"\ncount = 2\n',
    new="count = 2\n",
    search='beta_flag = os.environ.get("BETA") == "1"\ncount = 2\n',
    replace="count = 2\n",
    instruction="Drop the beta flag.",
)
standard_good(FLAGS)
bad(FLAGS, "false_no_change", "", "", no_change=True)
bad(FLAGS, "false_no_change", "count = 2\n", "count = 2\n", no_change=True)
bad(FLAGS, "false_no_change", FLAGS.search, FLAGS.search, no_change=True)
bad(FLAGS, "keep_instead", FLAGS.search, 'beta_flag = os.environ.get("BETA") == "0"\ncount = 2\n')


# --------------------------------------------------------------------------- go: a tab-indented
# file, the agent quoting with spaces, new_string wrapping two lines in a block.

WORKER_GO = scenario(
    name="go_worker_guard",
    language="go",
    path="worker/run.go",
    content="""package worker

func Run(cfg Config) error {
\tstart(cfg)
\tstop(cfg)
\treturn nil
}
""",
    old="    strat(conf)\n    stpo(conf)\n",
    new="    if conf.Enabled {\n        strat(conf)\n        stpo(conf)\n    }\n",
    search="\tstart(cfg)\n\tstop(cfg)\n",
    replace="\tif cfg.Enabled {\n\t\tstart(cfg)\n\t\tstop(cfg)\n\t}\n",
    instruction="Only run when enabled.",
)
standard_good(WORKER_GO)
bad(
    WORKER_GO,
    "negation",
    WORKER_GO.search,
    sub(WORKER_GO.replace, "if cfg.Enabled", "if !cfg.Enabled"),
)
bad(WORKER_GO, "drop_line", WORKER_GO.search, sub(WORKER_GO.replace, "\t\tstop(cfg)\n", ""))
bad(
    WORKER_GO,
    "left_outside",
    WORKER_GO.search,
    "\tif cfg.Enabled {\n\t\tstart(cfg)\n\t}\n\tstop(cfg)\n",
)
bad(
    WORKER_GO,
    "spaces_in_tab_file",
    WORKER_GO.search,
    "\tif cfg.Enabled {\n        start(cfg)\n        stop(cfg)\n\t}\n",
    layout_only=True,
)
widened_bad(WORKER_GO, "far_return", "return nil", "return cfg.Err")


# --------------------------------------------------------------------------- extra good answers:
# the agent's quote lost its indentation, or escaped what the file does not

good(
    WEBHOOK,
    "unindented_quote",
    WEBHOOK.search,
    WEBHOOK.replace,
    old="def check_sig(body, sig, ts, now):\nif abs(now - ts) > MAX_SKEW:\n    return False\n",
    new=(
        "def check_sig(body, sig, ts, now):\n"
        "if abs(now - ts) > MAX_SKEW:\n    raise StaleSignature(ts)\n"
    ),
)
good(
    ROUTES,
    "unindented_quote",
    ROUTES.search,
    ROUTES.replace,
    old="const usr = await db.user.findById(req.params.userId);\nif (!usr) {\n",
    new=(
        "const usr = await db.user.findById(req.params.userId, { projection: { password: 0 } });\n"
        "if (!usr) {\n"
    ),
)
good(
    RETRY_TS,
    "unindented_quote",
    RETRY_TS.search,
    RETRY_TS.replace,
    old="return code === 429 || code >= 500;\n",
    new="return code === 408 || code === 429 || code >= 500;\n",
)
good(
    TRANSFER,
    "unindented_quote",
    TRANSFER.search,
    TRANSFER.replace,
    old="src.balance -= amt\ndst.balance += amt\nsrc.save()\ndst.save()\n",
    new=(
        "with transaction.atomic():\n    src.balance -= amt\n    dst.balance += amt\n"
        "    src.save()\n    dst.save()\n"
    ),
)
good(
    SERVER_GO,
    "tab_quote",
    SERVER_GO.search,
    SERVER_GO.replace,
    old="\t\tHandler:           h,\n\t\tReadTimeout:       readTO,\n",
    new=(
        "\t\tHandler:           h,\n"
        "\t\tReadTimeout:       readTO,\n\t\tWriteTimeout: 10 * time.Second,\n"
    ),
)
good(
    MAILER_RB,
    "escaped_quote",
    MAILER_RB.search,
    MAILER_RB.replace,
    old='    mail(to: inv.client.email, subject: \\"Invoice #{inv.number} paid\\")\n',
    new=(
        '    mail(to: inv.client.email, reply_to: \\"support@example.com\\", '
        'subject: \\"Invoice #{inv.number} paid\\")\n'
    ),
)
good(
    ORDERS,
    "unindented_quote",
    ORDERS.search,
    ORDERS.replace,
    old="state TEXT NOT NULL DEFAULT 'pending'\n);\n",
    new=(
        "state TEXT NOT NULL DEFAULT 'pending',\n"
        "created_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n"
    ),
)
good(
    LIMITS,
    "typo_fixed",
    LIMITS.search,
    LIMITS.replace,
    old="MAX_RETRIS_COUNT: int = 3\n",
    new="MAX_RETRIS_COUNT: int = 5\n",
)


# --------------------------------------------------------------------------- third round:
# a whitespace-only request, twin bodies, numbers copied from the prompt, a case misquote

CHECKOUT = scenario(
    name="py_checkout_respace",
    language="python",
    path="checkout.py",
    content="""def checkout(items):
    total = 0
    for item in items:
        total += item.price
    log("total: %d" % total)
    return total
""",
    old='for it in items:\n    total += it.price\nlog("total: %d" % total)\n',
    new='for it in items:\n    total += it.price\n    log("total: %d" % total)\n',
    search='    for item in items:\n        total += item.price\n    log("total: %d" % total)\n',
    replace=(
        '    for item in items:\n        total += item.price\n        log("total: %d" % total)\n'
    ),
    instruction="Log the running total inside the loop.",
)
standard_good(CHECKOUT)
bad(
    CHECKOUT,
    "respace_other_line",
    CHECKOUT.search + "    return total\n",
    CHECKOUT.search + "        return total\n",
)
bad(
    CHECKOUT,
    "nbsp_indent",
    CHECKOUT.search,
    sub(CHECKOUT.replace, "        log", "    \u00a0\u00a0\u00a0\u00a0log"),
)
bad(
    CHECKOUT,
    "ideographic_indent",
    CHECKOUT.search,
    sub(CHECKOUT.replace, "        log", "    \u3000\u3000log"),
)
bad(CHECKOUT, "respace_literal", CHECKOUT.search, sub(CHECKOUT.replace, "total: %d", "total:   %d"))
good(
    CHECKOUT,
    "prompt_line_numbers",
    "".join(f"{n}\t{line}\n" for n, line in enumerate(CHECKOUT.search.splitlines(), 3)),
    "".join(f"{n}\t{line}\n" for n, line in enumerate(CHECKOUT.replace.splitlines(), 3)),
)

TWIN_BODY = '    row = db.fetch("users", uid)\n    if row is None:\n'
TWINS = scenario(
    name="py_twin_loaders",
    language="python",
    path="loaders.py",
    content=(
        "import db\n\nCACHE = {}\n\n\ndef load_user(uid):\n"
        + TWIN_BODY
        + "        raise KeyError(uid)\n    return row\n\n\ndef load_admin(uid):\n"
        + TWIN_BODY
        + "        raise KeyError(uid)\n    return row\n"
    ),
    old='row = db.fetch("user", uid)\nif row is None:\n',
    new='row = CACHE.get(uid) or db.fetch("user", uid)\nif row is None:\n',
    search="def load_user(uid):\n" + TWIN_BODY,
    replace="def load_user(uid):\n"
    + '    row = CACHE.get(uid) or db.fetch("users", uid)\n    if row is None:\n',
    instruction="Make load_user read through the cache.",
)
good(TWINS, "as_quoted", TWINS.search, TWINS.replace)
bad(
    TWINS,
    "the_other_twin",
    "def load_admin(uid):\n" + TWIN_BODY,
    TWINS.replace.replace("load_user", "load_admin"),
)

TIMEOUTS = scenario(
    name="py_timeouts_case",
    language="python",
    path="http_client.py",
    content="""import requests

CONNECT_TIMEOUT = 5
READ_TIMEOUT = 30
MAX_RETRIES = 3


def get(url):
    return requests.get(url, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT))
""",
    old="read_timeout = 30\n",
    new="read_timeout = 60\n",
    search="READ_TIMEOUT = 30\n",
    replace="READ_TIMEOUT = 60\n",
    instruction="Raise the read timeout to 60 seconds.",
)
standard_good(TIMEOUTS)
bad(TIMEOUTS, "neighbour_line", "MAX_RETRIES = 3\n", "MAX_RETRIES = 6\n")
bad(
    TIMEOUTS,
    "connect_too",
    "CONNECT_TIMEOUT = 5\nREAD_TIMEOUT = 30\n",
    "CONNECT_TIMEOUT = 10\nREAD_TIMEOUT = 60\n",
)


def all_answers() -> list[Answer]:
    return [answer for sc in SCENARIOS for answer in sc.answers]


BY_NAME: dict[str, Scenario] = {sc.name: sc for sc in SCENARIOS}
