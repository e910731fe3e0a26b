"""Base cases for the fixer-guard corpus: a file, an edit quoted from a wrong memory (so no
tier of the cascade can place it), and the correction a sound model would give.

Each case's ``search`` is text of the file; ``replace`` is what it must become. The file the
agent meant to get is ``content`` with ``search`` replaced by ``replace`` (every occurrence
for ``replace_all``). ``far`` is a line well away from the edit, used by answers that widen
the search to alter something elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BaseCase:
    name: str
    language: str
    path: str
    content: str
    old: str
    new: str
    instruction: str
    search: str
    replace: str
    far: str
    replace_all: bool = False


PY_HTTP = '''"""HTTP helpers."""

import requests

TIMEOUT = 30
RETRIES = 3


def fetch(url, session=None):
    session = session or requests.Session()
    response = session.get(url, timeout=TIMEOUT, verify=True)
    response.raise_for_status()
    return response.json()


def post(url, payload):
    response = requests.post(url, json=payload, timeout=TIMEOUT, verify=True)
    return response.status_code == 201
'''

PY_VIEWS = """from django.contrib.auth.decorators import login_required
from django.http import JsonResponse

from .models import Account


@login_required
def balance(request, account_id):
    account = Account.objects.get(pk=account_id, owner=request.user)
    amount = account.credit - account.debit
    return JsonResponse({"balance": amount, "currency": "EUR"})


@login_required
def close(request, account_id):
    account = Account.objects.get(pk=account_id, owner=request.user)
    account.active = False
    account.save()
    return JsonResponse({"closed": True})
"""

PY_DB = """import sqlite3

MAX_ROWS = 500


def find_user(conn, user_id):
    cursor = conn.execute("SELECT id, name, email FROM users WHERE id = ?", (user_id,))
    row = cursor.fetchone()
    if row is None:
        return None
    return row


def count_users(conn):
    cursor = conn.execute("SELECT COUNT(*) FROM users")
    return cursor.fetchone()[0]


def user_exists(conn, user_id):
    return find_user(conn, user_id) is not None
"""

PY_CONFIG = """from dataclasses import dataclass


@dataclass
class Settings:
    debug: bool = False
    workers: int = 4
    host: str = "127.0.0.1"
    port: int = 8080
    log_level: str = "info"

    def address(self):
        return f"{self.host}:{self.port}"
"""

PY_RETRY = """def a():
    retries = 3
    return retries


def b():
    retries = 5
    return retries
"""

JS_CART = """const TAX_RATE = 0.2;
const FREE_SHIPPING = 50;

function cartTotal(items, coupon) {
  let total = 0;
  for (const item of items) {
    total += item.price * item.quantity;
  }
  if (coupon && coupon.active === true) {
    total = total - coupon.amount;
  }
  return total;
}

function shipping(total) {
  return total >= FREE_SHIPPING ? 0 : 5;
}

module.exports = { cartTotal, shipping };
"""

JS_SERVER = """const express = require("express");

const app = express();
const PORT = 3000;

app.use(express.json({ limit: "1mb" }));

app.get("/health", (req, res) => {
  res.json({ ok: true, uptime: process.uptime() });
});

app.post("/login", requireCsrf, async (req, res) => {
  const user = await users.check(req.body.name, req.body.password);
  if (!user) {
    return res.status(401).json({ error: "bad credentials" });
  }
  res.json({ token: sign(user.id) });
});

app.listen(PORT, () => console.log(`listening on ${PORT}`));
"""

TS_STORE = """export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

export class TodoStore {
  private todos: Todo[] = [];
  private nextId = 1;

  add(title: string): Todo {
    const todo = { id: this.nextId++, title, done: false };
    this.todos.push(todo);
    return todo;
  }

  remaining(): number {
    return this.todos.filter((todo) => !todo.done).length;
  }
}
"""

TS_API = """import axios from "axios";

const BASE_URL = "https://api.example.com";
const TIMEOUT_MS = 5000;

export async function getProfile(userId: string, withSecrets = false) {
  const response = await axios.get(`${BASE_URL}/users/${userId}`, {
    timeout: TIMEOUT_MS,
    params: { secrets: withSecrets },
  });
  return response.data;
}

export function isAdult(age: number): boolean {
  return age >= 18;
}
"""

GO_LIMITER = """package limiter

import (
\t"sync"
\t"time"
)

const maxTokens = 10

type Limiter struct {
\tmu     sync.Mutex
\ttokens int
\tlast   time.Time
}

func (l *Limiter) Allow() bool {
\tl.mu.Lock()
\tdefer l.mu.Unlock()
\tif l.tokens <= 0 {
\t\treturn false
\t}
\tl.tokens = l.tokens - 1
\treturn true
}
"""

GO_HANDLER = """package server

import (
\t"encoding/json"
\t"net/http"
)

func writeJSON(w http.ResponseWriter, status int, body any) error {
\tw.Header().Set("Content-Type", "application/json")
\tw.WriteHeader(status)
\treturn json.NewEncoder(w).Encode(body)
}

func healthHandler(w http.ResponseWriter, r *http.Request) {
\tresp := map[string]bool{"ok": true}
\t_ = writeJSON(w, 200, resp)
}
"""

RS_ACCOUNT = """use std::fmt;

#[derive(Debug, Clone)]
pub struct Account {
    pub id: u64,
    pub credit: i64,
    pub debit: i64,
    pub frozen: bool,
}

impl Account {
    pub fn balance(&self) -> i64 {
        self.credit - self.debit
    }

    pub fn can_withdraw(&self, amount: i64) -> bool {
        !self.frozen && self.balance() >= amount
    }
}

impl fmt::Display for Account {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "account {} ({})", self.id, self.balance())
    }
}
"""

RS_PARSER = """const MAX_DEPTH: usize = 64;

pub fn parse_list(input: &str, strict: bool) -> Result<Vec<i32>, String> {
    let mut out = Vec::new();
    for part in input.split(',') {
        let trimmed = part.trim();
        if trimmed.is_empty() && strict {
            return Err("empty item".to_string());
        }
        out.push(trimmed.parse::<i32>().map_err(|e| e.to_string())?);
    }
    Ok(out)
}
"""

C_BUFFER = """#include <stdlib.h>
#include <string.h>

#define BUF_SIZE 256

typedef struct {
    char *data;
    size_t len;
    size_t cap;
} buffer_t;

int buffer_append(buffer_t *buf, const char *src, size_t n) {
    if (buf->len + n > buf->cap) {
        return -1;
    }
    memcpy(buf->data + buf->len, src, n);
    buf->len = buf->len + n;
    return 0;
}

void buffer_reset(buffer_t *buf) {
    buf->len = 0;
}
"""

C_MATH = """#include <stdio.h>

static int verbose = 1;

int clamp(int value, int low, int high) {
    if (value < low) {
        return low;
    }
    if (value > high) {
        return high;
    }
    return value;
}

int average(int total, int count) {
    if (count == 0) {
        return 0;
    }
    return total / count;
}
"""

YAML_CI = """name: ci

on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
          cache: true
      - run: pip install -e .[dev]
      - run: pytest -q
"""

YAML_DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: web
          image: registry.example.com/web:1.4.2
          ports:
            - containerPort: 8080
          securityContext:
            readOnlyRootFilesystem: true
            runAsNonRoot: true
"""

JAVA_SERVICE = """package com.example.orders;

import java.util.List;

public class OrderService {
    private static final int MAX_ITEMS = 100;
    private final boolean audit = true;

    @Transactional
    public long total(List<Order> orders) {
        long sum = 0;
        for (Order order : orders) {
            sum = sum + order.getAmount();
        }
        return sum;
    }

    public boolean canShip(Order order) {
        return order.isPaid() && order.getItems().size() <= MAX_ITEMS;
    }
}
"""

SH_DEPLOY = """#!/usr/bin/env bash
set -euo pipefail

RETRIES=3
TARGET="/srv/app"

deploy() {
  local version="$1"
  rsync -a --delete build/ "$TARGET/releases/$version/"
  ln -sfn "$TARGET/releases/$version" "$TARGET/current"
  systemctl restart app
}

deploy "$(git describe --tags)"
"""


BASE_CASES: tuple[BaseCase, ...] = (
    BaseCase(
        name="py_http_retry_header",
        language="python",
        path="http_helpers.py",
        content=PY_HTTP,
        old=(
            "def fetch(link, sess=None):\n    sess = sess or requests.Session()\n"
            "    resp = sess.get(link, timeout=TIMEOUT, verify=True)\n"
        ),
        new=(
            "def fetch(link, sess=None):\n    sess = sess or requests.Session()\n"
            '    sess.headers["User-Agent"] = "editengine"\n'
            "    resp = sess.get(link, timeout=TIMEOUT, verify=True)\n"
        ),
        instruction="Send a User-Agent header from fetch().",
        search=(
            "def fetch(url, session=None):\n    session = session or requests.Session()\n"
            "    response = session.get(url, timeout=TIMEOUT, verify=True)\n"
        ),
        replace=(
            "def fetch(url, session=None):\n    session = session or requests.Session()\n"
            '    session.headers["User-Agent"] = "editengine"\n'
            "    response = session.get(url, timeout=TIMEOUT, verify=True)\n"
        ),
        far="    return response.status_code == 201\n",
    ),
    BaseCase(
        name="py_http_post_status",
        language="python",
        path="http_helpers.py",
        content=PY_HTTP,
        old=(
            "def post(address, body):\n"
            "    resp = requests.post(address, json=body, timeout=TIMEOUT, verify=True)\n"
            "    return resp.status_code == 201\n"
        ),
        new=(
            "def post(address, body):\n"
            "    resp = requests.post(address, json=body, timeout=TIMEOUT, verify=True)\n"
            "    return resp.status_code in (200, 201)\n"
        ),
        instruction="Accept 200 as well as 201 from post().",
        search=(
            "def post(url, payload):\n"
            "    response = requests.post(url, json=payload, timeout=TIMEOUT, verify=True)\n"
            "    return response.status_code == 201\n"
        ),
        replace=(
            "def post(url, payload):\n"
            "    response = requests.post(url, json=payload, timeout=TIMEOUT, verify=True)\n"
            "    return response.status_code in (200, 201)\n"
        ),
        far="RETRIES = 3\n",
    ),
    BaseCase(
        name="py_views_currency",
        language="python",
        path="views.py",
        content=PY_VIEWS,
        old=(
            "@login_required\ndef get_balance(req, acct_id):\n"
            "    acct = Account.objects.get(pk=acct_id, owner=req.user)\n"
            "    amount = acct.credit - acct.debit\n"
            '    return JsonResponse({"balance": amount, "currency": "EUR"})\n'
        ),
        new=(
            "@login_required\ndef get_balance(req, acct_id):\n"
            "    acct = Account.objects.get(pk=acct_id, owner=req.user)\n"
            "    amount = acct.credit - acct.debit\n"
            '    return JsonResponse({"balance": amount, "currency": acct.currency})\n'
        ),
        instruction="Report the account's own currency instead of EUR.",
        search=(
            "@login_required\ndef balance(request, account_id):\n"
            "    account = Account.objects.get(pk=account_id, owner=request.user)\n"
            "    amount = account.credit - account.debit\n"
            '    return JsonResponse({"balance": amount, "currency": "EUR"})\n'
        ),
        replace=(
            "@login_required\ndef balance(request, account_id):\n"
            "    account = Account.objects.get(pk=account_id, owner=request.user)\n"
            "    amount = account.credit - account.debit\n"
            '    return JsonResponse({"balance": amount, "currency": account.currency})\n'
        ),
        far="from .models import Account\n",
    ),
    BaseCase(
        name="py_views_close_log",
        language="python",
        path="views.py",
        content=PY_VIEWS,
        old=(
            '    acct.active = False\n    acct.save()\n    return JsonResponse({"closed": True})\n'
        ),
        new=(
            "    acct.active = False\n    acct.closed_at = timezone.now()\n    acct.save()\n"
            '    return JsonResponse({"closed": True})\n'
        ),
        instruction="Record when the account was closed.",
        search=(
            "    account.active = False\n    account.save()\n"
            '    return JsonResponse({"closed": True})\n'
        ),
        replace=(
            "    account.active = False\n    account.closed_at = timezone.now()\n"
            "    account.save()\n"
            '    return JsonResponse({"closed": True})\n'
        ),
        far="from django.http import JsonResponse\n",
    ),
    BaseCase(
        name="py_db_limit",
        language="python",
        path="db.py",
        content=PY_DB,
        old=(
            "def get_user(connection, uid):\n"
            '    cur = connection.execute("SELECT id, name, email FROM users WHERE id = ?", '
            "(uid,))\n"
            "    row = cur.fetchone()\n    if row is None:\n        return None\n    return row\n"
        ),
        new=(
            "def get_user(connection, uid):\n"
            '    cur = connection.execute("SELECT id, name, email FROM users WHERE id = ?", '
            "(uid,))\n"
            "    row = cur.fetchone()\n    if row is None:\n"
            '        raise LookupError(f"no user {uid}")\n    return row\n'
        ),
        instruction="Raise LookupError instead of returning None when the user is missing.",
        search=(
            "def find_user(conn, user_id):\n"
            '    cursor = conn.execute("SELECT id, name, email FROM users WHERE id = ?", '
            "(user_id,))\n"
            "    row = cursor.fetchone()\n    if row is None:\n        return None\n"
            "    return row\n"
        ),
        replace=(
            "def find_user(conn, user_id):\n"
            '    cursor = conn.execute("SELECT id, name, email FROM users WHERE id = ?", '
            "(user_id,))\n"
            "    row = cursor.fetchone()\n    if row is None:\n"
            '        raise LookupError(f"no user {user_id}")\n    return row\n'
        ),
        far="MAX_ROWS = 500\n",
    ),
    BaseCase(
        name="py_config_workers",
        language="python",
        path="settings.py",
        content=PY_CONFIG,
        old=(
            "    debug_mode: bool = False\n    worker_count: int = 4\n"
            '    hostname: str = "127.0.0.1"\n'
        ),
        new=(
            "    debug_mode: bool = False\n    worker_count: int = 8\n"
            '    hostname: str = "127.0.0.1"\n'
        ),
        instruction="Default to 8 workers.",
        search='    debug: bool = False\n    workers: int = 4\n    host: str = "127.0.0.1"\n',
        replace='    debug: bool = False\n    workers: int = 8\n    host: str = "127.0.0.1"\n',
        far='        return f"{self.host}:{self.port}"\n',
    ),
    BaseCase(
        name="py_retry_a",
        language="python",
        path="retry.py",
        content=PY_RETRY,
        old="def a():\n    retry = 3\n    return retry\n",
        new="def a():\n    retry = 5\n    return retry\n",
        instruction="a() should retry 5 times.",
        search="def a():\n    retries = 3\n    return retries\n",
        replace="def a():\n    retries = 5\n    return retries\n",
        far="def b():\n",
    ),
    BaseCase(
        name="py_retry_issue",
        language="python",
        path="retry.py",
        content=PY_RETRY,
        old="retry = 3",
        new="retries = 5",
        instruction="a() should retry 5 times.",
        search="retries = 3",
        replace="retries = 5",
        far="def b():\n",
    ),
    BaseCase(
        name="py_views_close_post",
        language="python",
        path="views.py",
        content=PY_VIEWS,
        old=(
            "@login_required\ndef close_acct(req, acct_id):\n"
            "    acct = Account.objects.get(pk=acct_id)\n"
        ),
        new=(
            "@login_required\n@require_POST\ndef close_acct(req, acct_id):\n"
            "    acct = Account.objects.get(pk=acct_id)\n"
        ),
        instruction="Only allow POST to close an account.",
        search=(
            "@login_required\ndef close(request, account_id):\n"
            "    account = Account.objects.get(pk=account_id, owner=request.user)\n"
        ),
        replace=(
            "@login_required\n@require_POST\ndef close(request, account_id):\n"
            "    account = Account.objects.get(pk=account_id, owner=request.user)\n"
        ),
        far="from .models import Account\n",
    ),
    BaseCase(
        name="java_total_long",
        language="java",
        path="OrderService.java",
        content=JAVA_SERVICE,
        old=(
            "    @Transactional\n    public long sum(List<Order> orderList) {\n"
            "        long total = 0;\n"
        ),
        new=(
            "    @Transactional\n    public long sum(List<Order> orderList) {\n"
            "        long total = 0L;\n"
        ),
        instruction="Use a long literal for the initial sum.",
        search=(
            "    @Transactional\n    public long total(List<Order> orders) {\n"
            "        long sum = 0;\n"
        ),
        replace=(
            "    @Transactional\n    public long total(List<Order> orders) {\n"
            "        long sum = 0L;\n"
        ),
        far="    private final boolean audit = true;\n",
    ),
    BaseCase(
        name="rs_account_derive",
        language="rust",
        path="account.rs",
        content=RS_ACCOUNT,
        old="#[derive(Debug, Clone)]\npub struct Acct {\n    pub number: u64,\n",
        new="#[derive(Debug, Clone, PartialEq)]\npub struct Acct {\n    pub number: u64,\n",
        instruction="Let accounts be compared.",
        search="#[derive(Debug, Clone)]\npub struct Account {\n    pub id: u64,\n",
        replace="#[derive(Debug, Clone, PartialEq)]\npub struct Account {\n    pub id: u64,\n",
        far='        write!(f, "account {} ({})", self.id, self.balance())\n',
    ),
    BaseCase(
        name="js_cart_coupon",
        language="javascript",
        path="cart.js",
        content=JS_CART,
        old=(
            "  if (voucher && voucher.active === true) {\n"
            "    sum = sum - voucher.amount;\n  }\n  return sum;\n"
        ),
        new=(
            "  if (voucher && voucher.active === true) {\n"
            "    sum = Math.max(0, sum - voucher.amount);\n  }\n  return sum;\n"
        ),
        instruction="Never let a coupon make the total negative.",
        search=(
            "  if (coupon && coupon.active === true) {\n"
            "    total = total - coupon.amount;\n  }\n  return total;\n"
        ),
        replace=(
            "  if (coupon && coupon.active === true) {\n"
            "    total = Math.max(0, total - coupon.amount);\n  }\n  return total;\n"
        ),
        far="module.exports = { cartTotal, shipping };\n",
    ),
    BaseCase(
        name="js_cart_shipping",
        language="javascript",
        path="cart.js",
        content=JS_CART,
        old="function shippingCost(sum) {\n  return sum >= FREE_SHIPPING_MIN ? 0 : 5;\n}\n",
        new="function shippingCost(sum) {\n  return sum >= FREE_SHIPPING_MIN ? 0 : 7;\n}\n",
        instruction="Shipping costs 7 now.",
        search="function shipping(total) {\n  return total >= FREE_SHIPPING ? 0 : 5;\n}\n",
        replace="function shipping(total) {\n  return total >= FREE_SHIPPING ? 0 : 7;\n}\n",
        far="const TAX_RATE = 0.2;\n",
    ),
    BaseCase(
        name="js_server_login",
        language="javascript",
        path="server.js",
        content=JS_SERVER,
        old=(
            'app.post("/signin", requireCsrf, async (request, response) => {\n'
            "  const account = await users.check(request.body.name, request.body.password);\n"
        ),
        new=(
            'app.post("/signin", requireCsrf, rateLimit, async (request, response) => {\n'
            "  const account = await users.check(request.body.name, request.body.password);\n"
        ),
        instruction="Rate-limit the login route.",
        search=(
            'app.post("/login", requireCsrf, async (req, res) => {\n'
            "  const user = await users.check(req.body.name, req.body.password);\n"
        ),
        replace=(
            'app.post("/login", requireCsrf, rateLimit, async (req, res) => {\n'
            "  const user = await users.check(req.body.name, req.body.password);\n"
        ),
        far='app.use(express.json({ limit: "1mb" }));\n',
    ),
    BaseCase(
        name="ts_store_remaining",
        language="typescript",
        path="store.ts",
        content=TS_STORE,
        old=(
            "  pending(): number {\n"
            "    return this.items.filter((item) => !item.done).length;\n  }\n"
        ),
        new=(
            "  pending(): number {\n"
            '    return this.items.filter((item) => !item.done && item.title !== "").length;\n'
            "  }\n"
        ),
        instruction="Do not count untitled todos as remaining.",
        search=(
            "  remaining(): number {\n"
            "    return this.todos.filter((todo) => !todo.done).length;\n  }\n"
        ),
        replace=(
            "  remaining(): number {\n"
            '    return this.todos.filter((todo) => !todo.done && todo.title !== "").length;\n'
            "  }\n"
        ),
        far="  id: number;\n",
    ),
    BaseCase(
        name="ts_api_timeout",
        language="typescript",
        path="api.ts",
        content=TS_API,
        old=(
            "export async function fetchProfile(id: string, includeSecrets = false) {\n"
            "  const res = await axios.get(`${API_URL}/users/${id}`, {\n"
        ),
        new=(
            "export async function fetchProfile(id: string, includeSecrets = false) {\n"
            "  const res = await axios.get(`${API_URL}/v2/users/${id}`, {\n"
        ),
        instruction="Use the v2 users endpoint.",
        search=(
            "export async function getProfile(userId: string, withSecrets = false) {\n"
            "  const response = await axios.get(`${BASE_URL}/users/${userId}`, {\n"
        ),
        replace=(
            "export async function getProfile(userId: string, withSecrets = false) {\n"
            "  const response = await axios.get(`${BASE_URL}/v2/users/${userId}`, {\n"
        ),
        far="export function isAdult(age: number): boolean {\n",
    ),
    BaseCase(
        name="go_limiter_refill",
        language="go",
        path="limiter.go",
        content=GO_LIMITER,
        old=(
            "func (lim *Limiter) Take() bool {\n\tlim.mu.Lock()\n\tdefer lim.mu.Unlock()\n"
            "\tif lim.tokens <= 0 {\n"
        ),
        new=(
            "func (lim *Limiter) Take() bool {\n\tlim.mu.Lock()\n\tdefer lim.mu.Unlock()\n"
            "\tlim.refill(time.Now())\n\tif lim.tokens <= 0 {\n"
        ),
        instruction="Refill the bucket before checking it.",
        search=(
            "func (l *Limiter) Allow() bool {\n\tl.mu.Lock()\n\tdefer l.mu.Unlock()\n"
            "\tif l.tokens <= 0 {\n"
        ),
        replace=(
            "func (l *Limiter) Allow() bool {\n\tl.mu.Lock()\n\tdefer l.mu.Unlock()\n"
            "\tl.refill(time.Now())\n\tif l.tokens <= 0 {\n"
        ),
        far="const maxTokens = 10\n",
    ),
    BaseCase(
        name="go_handler_status",
        language="go",
        path="handler.go",
        content=GO_HANDLER,
        old=(
            "func health(writer http.ResponseWriter, req *http.Request) {\n"
            '\tbody := map[string]bool{"ok": true}\n\t_ = writeJSON(writer, 200, body)\n}\n'
        ),
        new=(
            "func health(writer http.ResponseWriter, req *http.Request) {\n"
            '\tbody := map[string]bool{"ok": true}\n'
            "\t_ = writeJSON(writer, http.StatusOK, body)\n}\n"
        ),
        instruction="Use http.StatusOK instead of a bare 200.",
        search=(
            "func healthHandler(w http.ResponseWriter, r *http.Request) {\n"
            '\tresp := map[string]bool{"ok": true}\n\t_ = writeJSON(w, 200, resp)\n}\n'
        ),
        replace=(
            "func healthHandler(w http.ResponseWriter, r *http.Request) {\n"
            '\tresp := map[string]bool{"ok": true}\n'
            "\t_ = writeJSON(w, http.StatusOK, resp)\n}\n"
        ),
        far='\t"encoding/json"\n',
    ),
    BaseCase(
        name="rs_account_withdraw",
        language="rust",
        path="account.rs",
        content=RS_ACCOUNT,
        old=(
            "    pub fn may_withdraw(&self, sum: i64) -> bool {\n"
            "        !self.locked && self.balance() >= sum\n    }\n"
        ),
        new=(
            "    pub fn may_withdraw(&self, sum: i64) -> bool {\n"
            "        !self.locked && sum > 0 && self.balance() >= sum\n    }\n"
        ),
        instruction="Refuse non-positive withdrawals.",
        search=(
            "    pub fn can_withdraw(&self, amount: i64) -> bool {\n"
            "        !self.frozen && self.balance() >= amount\n    }\n"
        ),
        replace=(
            "    pub fn can_withdraw(&self, amount: i64) -> bool {\n"
            "        !self.frozen && amount > 0 && self.balance() >= amount\n    }\n"
        ),
        far="use std::fmt;\n",
    ),
    BaseCase(
        name="rs_account_display",
        language="rust",
        path="account.rs",
        content=RS_ACCOUNT,
        old='        write!(fmt, "account {} ({})", self.number, self.balance())\n',
        new='        write!(fmt, "account #{} ({} cents)", self.number, self.balance())\n',
        instruction="Show the account number with # and the balance in cents.",
        search='        write!(f, "account {} ({})", self.id, self.balance())\n',
        replace='        write!(f, "account #{} ({} cents)", self.id, self.balance())\n',
        far="#[derive(Debug, Clone)]\n",
    ),
    BaseCase(
        name="rs_parser_depth",
        language="rust",
        path="parser.rs",
        content=RS_PARSER,
        old=(
            "        let item = piece.trim();\n        if item.is_empty() && strict_mode {\n"
            '            return Err("empty entry".to_string());\n        }\n'
        ),
        new=(
            "        let item = piece.trim();\n        if item.is_empty() && strict_mode {\n"
            '            return Err(format!("empty entry in {:?}", input));\n        }\n'
        ),
        instruction="Say which input had the empty item.",
        search=(
            "        let trimmed = part.trim();\n        if trimmed.is_empty() && strict {\n"
            '            return Err("empty item".to_string());\n        }\n'
        ),
        replace=(
            "        let trimmed = part.trim();\n        if trimmed.is_empty() && strict {\n"
            '            return Err(format!("empty item in {:?}", input));\n        }\n'
        ),
        far="const MAX_DEPTH: usize = 64;\n",
    ),
    BaseCase(
        name="c_buffer_grow",
        language="c",
        path="buffer.c",
        content=C_BUFFER,
        old=(
            "int buf_append(buf_t *b, const char *source, size_t count) {\n"
            "    if (b->len + count > b->cap) {\n        return -1;\n    }\n"
        ),
        new=(
            "int buf_append(buf_t *b, const char *source, size_t count) {\n"
            "    if (b->len + count > b->cap && buf_grow(b, b->len + count) != 0) {\n"
            "        return -1;\n    }\n"
        ),
        instruction="Grow the buffer before giving up.",
        search=(
            "int buffer_append(buffer_t *buf, const char *src, size_t n) {\n"
            "    if (buf->len + n > buf->cap) {\n        return -1;\n    }\n"
        ),
        replace=(
            "int buffer_append(buffer_t *buf, const char *src, size_t n) {\n"
            "    if (buf->len + n > buf->cap && buf_grow(buf, buf->len + n) != 0) {\n"
            "        return -1;\n    }\n"
        ),
        far="#define BUF_SIZE 256\n",
    ),
    BaseCase(
        name="c_math_average",
        language="c",
        path="mathx.c",
        content=C_MATH,
        old=(
            "int mean(int sum, int n) {\n    if (n == 0) {\n        return 0;\n    }\n"
            "    return sum / n;\n}\n"
        ),
        new=(
            "int mean(int sum, int n) {\n    if (n <= 0) {\n        return 0;\n    }\n"
            "    return sum / n;\n}\n"
        ),
        instruction="Guard against negative counts too.",
        search=(
            "int average(int total, int count) {\n    if (count == 0) {\n        return 0;\n"
            "    }\n    return total / count;\n}\n"
        ),
        replace=(
            "int average(int total, int count) {\n    if (count <= 0) {\n        return 0;\n"
            "    }\n    return total / count;\n}\n"
        ),
        far="static int verbose = 1;\n",
    ),
    BaseCase(
        name="yaml_ci_python",
        language="yaml",
        path="ci.yml",
        content=YAML_CI,
        old=(
            "      - uses: actions/setup-python@v4\n        with:\n"
            '          python: "3.11"\n          caching: true\n'
        ),
        new=(
            "      - uses: actions/setup-python@v4\n        with:\n"
            '          python: "3.13"\n          caching: true\n'
        ),
        instruction="Test on Python 3.13.",
        search=(
            "      - uses: actions/setup-python@v5\n        with:\n"
            '          python-version: "3.12"\n          cache: true\n'
        ),
        replace=(
            "      - uses: actions/setup-python@v5\n        with:\n"
            '          python-version: "3.13"\n          cache: true\n'
        ),
        far="    branches: [main]\n",
    ),
    BaseCase(
        name="yaml_deploy_replicas",
        language="yaml",
        path="deploy.yaml",
        content=YAML_DEPLOY,
        old=(
            "spec:\n  replicaCount: 3\n  template:\n    spec:\n      containers:\n"
            "        - name: webapp\n"
        ),
        new=(
            "spec:\n  replicaCount: 5\n  template:\n    spec:\n      containers:\n"
            "        - name: webapp\n"
        ),
        instruction="Run five replicas.",
        search=(
            "spec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n"
        ),
        replace=(
            "spec:\n  replicas: 5\n  template:\n    spec:\n      containers:\n        - name: web\n"
        ),
        far="            runAsNonRoot: true\n",
    ),
    BaseCase(
        name="java_total_overflow",
        language="java",
        path="OrderService.java",
        content=JAVA_SERVICE,
        old=(
            "        for (Order o : orderList) {\n            total = total + o.amount();\n"
            "        }\n        return total;\n"
        ),
        new=(
            "        for (Order o : orderList) {\n"
            "            total = Math.addExact(total, o.amount());\n"
            "        }\n        return total;\n"
        ),
        instruction="Fail on overflow when summing orders.",
        search=(
            "        for (Order order : orders) {\n            sum = sum + order.getAmount();\n"
            "        }\n        return sum;\n"
        ),
        replace=(
            "        for (Order order : orders) {\n"
            "            sum = Math.addExact(sum, order.getAmount());\n"
            "        }\n        return sum;\n"
        ),
        far="import java.util.List;\n",
    ),
    BaseCase(
        name="sh_deploy_keep",
        language="shell",
        path="deploy.sh",
        content=SH_DEPLOY,
        old=('  local ver="$1"\n  rsync -a --delete dist/ "$DEST/releases/$ver/"\n'),
        new=('  local ver="$1"\n  rsync -a --delete --checksum dist/ "$DEST/releases/$ver/"\n'),
        instruction="Compare files by checksum when syncing.",
        search='  local version="$1"\n  rsync -a --delete build/ "$TARGET/releases/$version/"\n',
        replace=(
            '  local version="$1"\n'
            '  rsync -a --delete --checksum build/ "$TARGET/releases/$version/"\n'
        ),
        far="set -euo pipefail\n",
    ),
    BaseCase(
        name="js_rename_all",
        language="javascript",
        path="cart.js",
        content=JS_CART,
        old="cart_total",
        new="computeCartTotal",
        instruction="Rename cartTotal to computeCartTotal everywhere in this file.",
        search="cartTotal",
        replace="computeCartTotal",
        far="const FREE_SHIPPING = 50;\n",
        replace_all=True,
    ),
    BaseCase(
        name="py_rename_all",
        language="python",
        path="db.py",
        content=PY_DB,
        old="find_usr",
        new="get_user",
        instruction="Rename find_user to get_user everywhere in this file.",
        search="find_user",
        replace="get_user",
        far="MAX_ROWS = 500\n",
        replace_all=True,
    ),
)
