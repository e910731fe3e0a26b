from __future__ import annotations

import dataclasses
import threading

from editengine.fixer import Correction, CorrectionCache, correction_key

from .conftest import make_request


def _correction(search: str = "a") -> Correction:
    return Correction(search=search, replace="b")


def test_the_key_changes_with_every_input_that_decides_the_answer():
    base = make_request()
    variants = [
        make_request(content=base.content + "\n"),
        make_request(old=base.old_string + " "),
        make_request(new=base.new_string + " "),
        make_request(instruction="Another instruction."),
        make_request(instruction=None),
        dataclasses.replace(base, replace_all=True),
        dataclasses.replace(base, expected_replacements=2),
    ]
    keys = {correction_key(request) for request in variants}

    assert correction_key(base) == correction_key(make_request())
    assert len(keys) == len(variants) and correction_key(base) not in keys


def test_the_key_ignores_notes_added_to_the_error_later():
    request = make_request()
    before = correction_key(request)

    request.error.add_note_for_agent("The fixer timed out.")

    assert correction_key(request) == before


def test_the_least_recently_used_entry_is_evicted():
    cache = CorrectionCache(maxsize=2)
    cache.put("a", _correction("a"))
    cache.put("b", _correction("b"))
    cache.get("a")  # a is now the most recent

    cache.put("c", _correction("c"))

    assert cache.get("b") is None
    assert cache.get("a") is not None and cache.get("c") is not None
    assert len(cache) == 2


def test_size_zero_disables_the_cache():
    cache = CorrectionCache(maxsize=0)

    cache.put("a", _correction())

    assert cache.get("a") is None and len(cache) == 0 and cache.forget("a") is False


def test_forget_and_clear():
    cache = CorrectionCache()
    cache.put("a", _correction())
    cache.put("b", _correction())

    assert cache.forget("a") is True and cache.forget("a") is False
    cache.clear()
    assert len(cache) == 0


def test_concurrent_use_keeps_the_cache_consistent():
    cache = CorrectionCache(maxsize=50)
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for n in range(500):
                key = f"{worker}-{n % 80}"
                cache.put(key, _correction(key))
                found = cache.get(key)
                assert found is None or found.search == key
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(cache) == 50


def test_the_key_includes_the_error_text_but_not_notes_added_later():
    from editengine._errors import NoMatch, Region

    base = make_request()
    other_place = dataclasses.replace(
        base, error=NoMatch("old_string was not found.", closest=(Region(7, 9, 0.6),))
    )
    other_words = dataclasses.replace(base, error=NoMatch("old_string matched nothing."))
    noted = make_request()
    noted.error.add_note_for_agent("The LLM fixer could not correct it: timeout.")

    assert correction_key(other_place) != correction_key(base)
    assert correction_key(other_words) != correction_key(base)
    assert correction_key(noted) == correction_key(base)


def test_a_lone_surrogate_anywhere_in_the_request_makes_a_key():
    for field in ("old", "new", "instruction"):
        request = make_request(**{field: "x = '\ud800'"})

        key = correction_key(request)

        assert len(key) == 64 and key != correction_key(make_request())
    assert correction_key(make_request(old="\udc80")) != correction_key(make_request(old="\udc81"))


def test_a_cache_of_one_keeps_the_latest_correction():
    cache = CorrectionCache(maxsize=1)

    cache.put("a", _correction("a"))
    cache.put("b", _correction("b"))

    assert cache.maxsize == 1
    assert cache.get("a") is None and cache.get("b") == _correction("b")


def test_the_default_cache_holds_fifty_corrections():
    cache = CorrectionCache()
    for n in range(51):
        cache.put(str(n), _correction(str(n)))

    assert cache.maxsize == 50 and len(cache) == 50
    assert cache.get("0") is None and cache.get("1") is not None
