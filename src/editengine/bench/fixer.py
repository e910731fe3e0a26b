"""Fixer soundness figures: ``python -m editengine.bench.fixer``.

- Prompt budget: for generated files of several shapes (many short lines, few long lines,
  one huge line), the file's size, the prompt's bytes and estimated tokens within the
  default budget, how many lines were shown and shortened, and the time to build it.
- Single flight: provider calls made by 20 threads and by 20 tasks asking the same
  correction at once (an offline provider that answers after 50 ms).
- Abandoned calls (needs the ``openai`` SDK): against a loopback server that sends a byte
  every 20 ms, how long after ``FixerTimeout`` the worker thread and the connection end.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import threading
import time

from editengine._errors import FixerTimeout, NoMatch
from editengine._results import Region
from editengine.fixer._budget import PromptBudget
from editengine.fixer._llm import LLMFixer
from editengine.fixer._prompt import PromptBuilder
from editengine.fixer._protocol import FixRequest
from editengine.providers._base import ProviderReply, ProviderRequest
from editengine.providers._offline import CallbackProvider

_ANSWER = {"search": "a", "replace": "b", "noChangesRequired": False, "explanation": "x"}
_MODEL = "gpt-4.1-mini"


def _shapes(rng: random.Random) -> list[tuple[str, list[str], int]]:
    """(name, lines, 1-based line of the edit)."""

    def noise(width: int) -> str:
        return "".join(f"v{rng.randint(0, 99999)}=f(x);" for _ in range(width // 12 + 1))[:width]

    target = "total = apply_discount(basket, rate=0.15)"
    shapes = []
    for name, count, width in (
        ("20,000 lines x 60", 20_000, 60),
        ("310 lines x 3,900", 310, 3_900),
        ("1 line x 1.2 MB", 1, 1_200_000),
    ):
        lines = [noise(width) for _ in range(count)]
        at = count // 2
        lines[at] = lines[at][: width // 2] + target + lines[at][width // 2 :]
        shapes.append((name, lines, at + 1))
    return shapes


def prompt_figures() -> None:
    limit = PromptBudget().limit_bytes(_MODEL, 4096)
    print(f"Prompt budget for {_MODEL}: {limit:,} bytes")
    print(f"{'file':<20} {'bytes':>11} {'prompt B':>9} {'~tokens':>8} {'shown':>6} "
          f"{'cut':>4} {'ms':>7}")  # fmt: skip
    for name, lines, at in _shapes(random.Random(7)):
        content = "\n".join(lines) + "\n"
        error = NoMatch("old_string was not found.", closest=(Region(at, at, 0.7),))
        request = FixRequest(
            "f.py", content, "total = apply_discount(cart, pct=15)", "total = 0", error
        )
        started = time.perf_counter()
        prompt = PromptBuilder().build(request, max_bytes=limit)
        elapsed = (time.perf_counter() - started) * 1000
        print(
            f"{name:<20} {len(content.encode()):>11,} {prompt.size_bytes:>9,} "
            f"{PromptBudget().estimate_tokens(prompt.size_bytes):>8,} {prompt.shown_lines:>6} "
            f"{prompt.clipped_lines:>4} {elapsed:>7.1f}"
        )


def flight_figures(callers: int = 20) -> None:
    calls = 0
    lock = threading.Lock()

    def answer(request: ProviderRequest) -> ProviderReply:
        nonlocal calls
        with lock:
            calls += 1
        time.sleep(0.05)
        return ProviderReply(dict(_ANSWER))

    request = FixRequest("f.py", "a\n", "x", "y", NoMatch("old_string was not found."))
    fixer = LLMFixer(CallbackProvider(answer), timeout=5)
    threads = [threading.Thread(target=fixer.correct, args=(request,)) for _ in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    by_threads, calls = calls, 0

    async def tasks() -> None:
        tasked = LLMFixer(CallbackProvider(answer), timeout=5)
        await asyncio.gather(*(tasked.acorrect(request) for _ in range(callers)))

    asyncio.run(tasks())
    print(f"Single flight: {callers} threads -> {by_threads} call(s); {callers} tasks -> {calls}")


def _trickle_server(stop: threading.Event, hung_up: list[float]) -> int:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                while b"\r\n\r\n" not in conn.recv(65536):
                    pass
                conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n{")
                ends = time.monotonic() + 5
                while time.monotonic() < ends and not stop.is_set():
                    try:
                        conn.sendall(b" ")
                    except OSError:
                        hung_up.append(time.monotonic())
                        break
                    time.sleep(0.02)
        listener.close()

    threading.Thread(target=serve, daemon=True).start()
    return int(listener.getsockname()[1])


def abandon_figures() -> None:
    try:
        from editengine.providers._openai_provider import OpenAIProvider
    except ImportError:  # pragma: no cover - the SDK is an extra
        print("Abandoned calls: skipped (the openai SDK is not installed)")
        return
    stop, hung_up = threading.Event(), list[float]()
    port = _trickle_server(stop, hung_up)
    provider = OpenAIProvider(api_key="k", base_url=f"http://127.0.0.1:{port}/v1")
    fixer = LLMFixer(provider, timeout=0.4, max_attempts=1)
    request = FixRequest("f.py", "a\n", "x", "y", NoMatch("old_string was not found."))
    started = time.monotonic()
    with contextlib.suppress(FixerTimeout):
        fixer.correct(request)
    gave_up = time.monotonic()
    while (_fixer_thread_alive() or not hung_up) and time.monotonic() - gave_up < 6:
        time.sleep(0.005)
    ended = time.monotonic()
    stop.set()
    print(
        f"Abandoned sync call (0.4 s deadline, server trickling for 5 s): FixerTimeout after "
        f"{gave_up - started:.3f} s; worker and connection ended {1000 * (ended - gave_up):.0f} "
        "ms later"
    )


def _fixer_thread_alive() -> bool:
    return any(t.name == "editengine-fixer-call" and t.is_alive() for t in threading.enumerate())


def main() -> None:
    prompt_figures()
    flight_figures()
    abandon_figures()


if __name__ == "__main__":
    main()
