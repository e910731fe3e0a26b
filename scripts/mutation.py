"""Mutation testing of the core modules, one module at a time, with the tests that cover it.

    python scripts/mutation.py files/_atomic.py            # one module (minutes)
    python scripts/mutation.py files/_atomic.py matching/_already_applied.py  # several
    python scripts/mutation.py --list                     # the modules and their tests
    python scripts/mutation.py --core                     # every core module (long)
    python scripts/mutation.py --again files/_atomic.py    # retry only the last survivors
    python scripts/mutation.py --report --core            # scores of the last runs, no run
    python scripts/mutation.py --equivalents              # the equivalent mutants, as Markdown
    python scripts/mutation.py --write-docs               # docs/mutation.md from the tables

Each module runs in a scratch copy of the repository under ``build/mutation/<module>/``
whose ``[tool.mutmut]`` table is narrowed to that module and to its tests, so mutmut's
test mapping and its runs cover a few test files, not the whole suite. The copy keeps
mutmut's results between runs: a second run only tries mutants it has not judged yet
(delete the folder to start over); ``--again`` retries just the mutants the last run did
not kill, after tests were added for them. Mutants listed in :data:`EQUIVALENT` (see
``docs/mutation.md``) change no behaviour; they are counted apart and leave the score.

The score is (killed + timeout) / (killed + survived + timeout + no tests): a mutant that
makes the tests hang is caught as surely as one that fails them; equivalent mutants are left
out; the command exits 1 when a module scores below ``--min-score`` (default 90).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "src/editengine"

# Each core module and the tests that exercise it (the narrower, the faster a run).
_VERDICT_TESTS = (
    "tests/verdict/test_edit_equivalence_properties.py",
    "tests/verdict/test_relatedness_guard.py",
    "tests/engine/test_fixer_judgement.py",
    "tests/engine/test_fixer_verdict.py",
    "tests/integration/test_fixer_relatedness.py",
    "tests/integration/test_malicious_fixer.py",
)

TESTS_BY_MODULE: dict[str, tuple[str, ...]] = {
    "files/_atomic.py": (
        "tests/engine/test_atomic_write.py",
        "tests/engine/test_file_layer_contracts.py",
        "tests/engine/test_temp_sweep.py",
        "tests/files/test_atomic_primitives.py",
    ),
    "files/_anchored.py": (
        "tests/files/test_anchored_dir.py",
        "tests/engine/test_parent_swap.py",
        "tests/engine/test_workspace_guard.py",
        "tests/engine/test_file_layer_contracts.py",
        "tests/engine/test_atomic_write.py",
        "tests/files/test_anchored_refusals.py",
    ),
    "files/_workspace.py": (
        "tests/engine/test_workspace_guard.py",
        "tests/engine/test_file_layer_contracts.py",
        "tests/engine/test_path_fuzz.py",
        "tests/files/test_workspace_refusals.py",
    ),
    "files/_locking.py": (
        "tests/engine/test_lock_scope.py",
        "tests/engine/test_concurrency.py",
        "tests/engine/test_stale_protection.py",
        "tests/files/test_path_locks.py",
    ),
    "files/_reading.py": (
        "tests/files/test_file_reading.py",
        "tests/engine/test_errors_leave_files_intact.py",
        "tests/engine/test_edit_files.py",
        "tests/engine/test_stale_protection.py",
        "tests/engine/test_lock_scope.py",
    ),
    "files/_suggest.py": (
        "tests/engine/test_path_suggestions.py",
        "tests/files/test_suggest_paths.py",
    ),
    "matching/_already_applied.py": (
        "tests/matching/test_cascade.py",
        "tests/matching/test_already_applied.py",
        "tests/matching/test_already_applied_boundaries.py",
        "tests/engine/test_fixer_step.py",
    ),
    "telemetry/_sinks.py": (
        "tests/telemetry/test_sinks.py",
        "tests/telemetry/test_jsonl_rotation.py",
        "tests/telemetry/test_sink_contracts.py",
    ),
    "fixer/_cache.py": (
        "tests/fixer/test_cache.py",
        "tests/fixer/test_llm_fixer.py",
        "tests/fixer/test_single_flight.py",
    ),
    "matching/_search.py": (
        "tests/matching/test_search.py",
        "tests/matching/test_fast_paths.py",
    ),
    "matching/_fences.py": (
        "tests/matching/test_fences.py",
        "tests/matching/test_quote_cleanups.py",
    ),
    "matching/_prefixes.py": (
        "tests/matching/test_prefixes.py",
        "tests/matching/test_quote_cleanups.py",
    ),
    "matching/_quotes.py": (
        "tests/matching/test_quote_reading.py",
        "tests/matching/test_quote_cleanups.py",
        "tests/engine/test_quote_cleanups.py",
        "tests/matching/test_fences.py",
        "tests/matching/test_prefixes.py",
    ),
    "matching/_indent_style.py": (
        "tests/matching/test_indent_style.py",
        "tests/matching/test_tiers.py",
        "tests/matching/test_cascade.py",
    ),
    "fixer/_budget.py": ("tests/fixer/test_budget.py",),
    "fixer/_flight.py": (
        "tests/fixer/test_single_flight.py",
        "tests/fixer/test_llm_fixer.py",
    ),
    "fixer/_deadline.py": (
        "tests/fixer/test_deadline.py",
        "tests/fixer/test_llm_fixer.py",
    ),
    "fixer/_schema.py": (
        "tests/fixer/test_schema.py",
        "tests/fixer/test_llm_fixer.py",
    ),
    "fixer/_factory.py": ("tests/providers/test_sdk_providers.py",),
    "fixer/_llm.py": (
        "tests/fixer/test_llm_fixer_contract.py",
        "tests/fixer/test_llm_fixer.py",
        "tests/fixer/test_single_flight.py",
        "tests/fixer/test_budget.py",
    ),
    "fixer/_prompt.py": (
        "tests/fixer/test_prompt.py",
        "tests/fixer/test_budget.py",
    ),
    "fixer/_window.py": (
        "tests/fixer/test_window.py",
        "tests/fixer/test_budget.py",
        "tests/fixer/test_prompt.py",
    ),
    "matching/_closest.py": (
        "tests/matching/test_closest_regions.py",
        "tests/matching/test_cascade.py",
        "tests/matching/test_quote_cleanups.py",
        "tests/engine/test_fixer_step.py",
        "tests/tools/test_tool_calls.py",
        "tests/matching/test_fast_paths.py",
    ),
    "matching/_refusals.py": (
        "tests/matching/test_refusals.py",
        "tests/matching/test_cascade.py",
        "tests/matching/test_quote_cleanups.py",
        "tests/tools/test_tool_calls.py",
        "tests/engine/test_multi_edit.py",
    ),
    "matching/_exact.py": (
        "tests/matching/test_tiers.py",
        "tests/matching/test_cascade.py",
    ),
    "matching/_unescape.py": (
        "tests/matching/test_unescape_tier.py",
        "tests/matching/test_tiers.py",
        "tests/matching/test_cascade.py",
    ),
    "matching/_base.py": (
        "tests/matching/test_many_places.py",
        "tests/matching/test_tiers.py",
        "tests/matching/test_cascade.py",
    ),
    "matching/_whitespace.py": (
        "tests/matching/test_whitespace_tier.py",
        "tests/matching/test_many_places.py",
        "tests/matching/test_tiers.py",
        "tests/matching/test_cascade.py",
    ),
    "matching/_trimmed.py": (
        "tests/matching/test_trimmed_tiers.py",
        "tests/matching/test_tiers.py",
        "tests/matching/test_cascade.py",
        "tests/matching/test_quote_cleanups.py",
    ),
    "matching/_unicode.py": (
        "tests/matching/test_unicode_tier.py",
        "tests/matching/test_tiers.py",
        "tests/matching/test_cascade.py",
        "tests/matching/test_fast_paths.py",
    ),
    "engine/_callbacks.py": (
        "tests/engine/test_callbacks.py",
        "tests/engine/test_confirm_and_hooks.py",
        "tests/engine/test_telemetry_hooks.py",
    ),
    "verdict/_relatedness.py": (
        "tests/verdict/test_relatedness_guard.py",
        "tests/engine/test_fixer_verdict.py",
        "tests/integration/test_fixer_relatedness.py",
        "tests/integration/test_malicious_fixer.py",
    ),
    "engine/_fixing.py": (
        "tests/engine/test_fixer_judgement.py",
        "tests/engine/test_fixer_step.py",
        "tests/engine/test_fixer_verdict.py",
        "tests/integration/test_fixer_relatedness.py",
        "tests/integration/test_malicious_fixer.py",
    ),
    "engine/_judging.py": (
        "tests/engine/test_fixer_judgement.py",
        "tests/engine/test_fixer_step.py",
        "tests/engine/test_fixer_verdict.py",
        "tests/integration/test_fixer_relatedness.py",
        "tests/integration/test_malicious_fixer.py",
    ),
    "matching/_realign.py": (
        "tests/matching/test_realignment.py",
        "tests/matching/test_cascade.py",
        "tests/matching/test_tiers.py",
        "tests/matching/test_indent_style.py",
        "tests/matching/test_fast_paths.py",
    ),
    "engine/_landed.py": (
        "tests/engine/test_landed_corrections.py",
        "tests/engine/test_fixer_step.py",
        "tests/integration/test_fixer_soundness_http.py",
    ),
    "engine/_reporting.py": (
        "tests/engine/test_reporting.py",
        "tests/engine/test_edit_files.py",
        "tests/engine/test_multi_edit.py",
        "tests/engine/test_confirm_and_hooks.py",
        "tests/engine/test_telemetry_hooks.py",
        "tests/engine/test_fixer_step.py",
    ),
    "engine/_jobs.py": (
        "tests/engine/test_jobs.py",
        "tests/engine/test_edit_files.py",
        "tests/engine/test_multi_edit.py",
        "tests/engine/test_telemetry_hooks.py",
        "tests/engine/test_errors_leave_files_intact.py",
    ),
    # The cascade, its line index and its last two tiers: the matching tests as a whole,
    # each one short (the folder runs in seconds).
    "matching/_lines.py": ("tests/matching", "tests/matching/test_fast_paths.py"),
    "matching/_anchor.py": ("tests/matching",),
    "matching/_elision.py": ("tests/matching",),
    "matching/_cascade.py": ("tests/matching", "tests/tools/test_tool_calls.py"),
    "journal/_undo.py": ("tests/journal",),
    "engine/_patching.py": ("tests/patch",),
    "engine/_patch_fixing.py": ("tests/patch",),
    "engine/_patch_reporting.py": ("tests/patch",),
    # The carry of a fixer's answer (once engine/_edit_equivalence.py): one set of tests.
    "verdict/_tokens.py": _VERDICT_TESTS,
    "verdict/_alignment.py": _VERDICT_TESTS,
    "verdict/_carry.py": _VERDICT_TESTS,
    "verdict/_layout.py": _VERDICT_TESTS,
    "verdict/_replacement.py": _VERDICT_TESTS,
    "verdict/_compare.py": _VERDICT_TESTS,
    # The pipeline: the engine tests that drive edits through it, without the slow ones
    # (concurrency, parent swaps, temp sweeps, CLI, fuzzing) that each mutant would rerun.
    "engine/_core.py": (
        "tests/engine/test_callbacks.py",
        "tests/engine/test_confirm_and_hooks.py",
        "tests/engine/test_edit_files.py",
        "tests/engine/test_engine_core.py",
        "tests/engine/test_errors_leave_files_intact.py",
        "tests/engine/test_file_layer_contracts.py",
        "tests/engine/test_fixer_judgement.py",
        "tests/engine/test_fixer_step.py",
        "tests/engine/test_fixer_verdict.py",
        "tests/engine/test_jobs.py",
        "tests/engine/test_landed_corrections.py",
        "tests/engine/test_lock_scope.py",
        "tests/engine/test_lone_cr.py",
        "tests/engine/test_multi_edit.py",
        "tests/engine/test_path_suggestions.py",
        "tests/engine/test_quote_cleanups.py",
        "tests/engine/test_reporting.py",
        "tests/engine/test_stale_protection.py",
        "tests/engine/test_telemetry_hooks.py",
        "tests/tools/test_tool_calls.py",
        "tests/engine/test_workspace_guard.py",
        "tests/files/test_workspace_refusals.py",
    ),
}

# Mutants that behave exactly like the code they mutate: name -> why (docs/mutation.md).
# mutmut numbers the mutants of a function in order, so an edit of that function renumbers
# them: re-check this table against ``mutmut show NAME`` when the function changes.
_POSIX_FLAG = "the flag exists on POSIX, so getattr's default is never used"
_NO_BINARY = (
    "O_BINARY exists only on Windows; a default of 0 or 1 (O_WRONLY, already set) adds nothing"
)
_FALSY = "follow_symlinks=None is falsy, the same as False"
_WINDOWS = "the Windows branch: os.name is never 'nt' on POSIX"
_LAST_PIECE = "/proc/<pid>/stat has one ')' before the state: the last piece is the same"
_RECHECKED = (
    "a rotation asked for when none is due: _rotate_if_needed checks again under the lock and "
    "leaves the file alone"
)
_JUST_STATED = (
    "the log was stat'ed just before, under the rotation lock: only another tool deleting it in "
    "between would make missing_ok matter"
)
_OTEL_CASE = "OpenTelemetry instrument names are case-insensitive: the SDK exports them lowercased"
_FALSY_ASCII = "ensure_ascii=None is falsy, the same as False"
_SAME_MESSAGE = (
    "the PermissionError's errno is never shown: WriteFailed reports its strerror, or its "
    "text when there is none, and both are the message"
)
_FILE_LOCK_SERIALISES = (
    "a fresh thread lock per hold: the file lock (one descriptor per hold, thread_local off) "
    "still makes threads wait for each other; the thread lock only hands over sooner"
)
_FD_ZERO = "descriptor 0 is standard input, never an open folder's"
_SWEEP_DISPLAY = "the display name only words errors, and a sweep answers 0 on any error"
_FWALK = "os.fwalk follows no links by default: None and no argument both mean False"
_PREFILTER = (
    "a cheap bound that only skips work: a weaker bound lets difflib, which decides, see more "
    "paths; one equal to the threshold only rules out paths difflib would score below 0.6"
)
_UNREACHABLE = (
    "_display's last line: resolve refuses a path whose lexical form is outside both roots "
    "before it asks for a display"
)
_COUNT_EITHER_WAY = (
    "a needle of exactly 100 characters counted by str.count or by the piece search: both "
    "count the same non-overlapping places; only the speed differs"
)
_NONBLANK_STOPS = (
    "a text that starts with a fence mark has a non-blank line, and the loops skipping blank "
    "lines stop there before the two ends meet"
)
_LINE_START = (
    "the quote's offset matters only when its number is not at a line start in the file: a "
    "number after the quote's first line, or a quote starting where the file does, is led only "
    "by the quote's own spaces there, which the line-start check takes first"
)
_BOTH_FENCED = (
    "with both strings fenced, each body is compared with a string that does not end with a "
    'newline: "" and "XXXX" alike'
)
_LONGEST_FIRST = (
    "in reverse alphabetical order a name still comes before every prefix of it, which is all "
    "the longest-first order is for"
)
_UNREACHABLE_ASSERT = (
    "the assertion after tenacity's loop is never reached: tenacity either returns or raises"
)
_UPCOMING_SLEEP = (
    "tenacity (9.2 here) always sets upcoming_sleep before it asks whether to stop: the default "
    "is for older versions only"
)
_RFIND_NONE = "str.rfind takes None for a start of 0"
_MEMO_KEY = (
    "the memo key only names the entry in the view's memo: any key that no other reader of the "
    "memo takes keeps the same mapped text"
)
_TRANSLATED = (
    "the translated text only lets find_line_blocks search anchors with str.find: without it, "
    "it keys every line with the same key and finds the same runs"
)
_ESCAPED_KEY = (
    "ensure_ascii left at True: escaped JSON is as injective, so equal keys still mean equal "
    "requests (the key is a digest compared in process, never shown or stored)"
)
_CAST = "typing.cast does nothing at run time: its type argument is never read"
_JOB_INSTRUCTION = (
    "Job.instruction is never read: a single edit's fixer takes the instruction from its "
    "EditSpec, and a multi-edit (never corrected) only records whether one was given"
)
_DEFAULT_LINE_KEY = (
    "every caller of line_block_matches leaves key and fix_line at their defaults, which are "
    "LineBlock's own"
)
_BEGINS_ITS_LINE = (
    "the check that the last quoted line begins its file line only saves work: a place where "
    "it stands mid-line fails the startswith test that follows (the line's own start would "
    "have been found first), so checking less changes no place found"
)
_HELD_BEFORE_THE_LAST = (
    "the first search by another quoted line than the last: every place holds that line "
    "(stripped) before its last line, so the search that goes on from where it is found still "
    "reaches every place's last line"
)
_NOT_VERBATIM = (
    "the typography tier's matches are never verbatim: None and the default are False as well"
)
_ONE_CHARACTER = "a fence is one character repeated: its second character is its first"
_NO_BINARY_READ = (
    "O_BINARY exists only on Windows: looked up on None or under another name it is the same "
    "default 0"
)
_FOLLOW_DEFAULT = "follow_symlinks=True is os.stat's default"
_ZERO_READ = "a read of 0 bytes returns b'' at once, which ends the loop: one extra empty read"
_LEADER_ON_TIME = (
    "an async follower's wait bound: the leader runs under the same deadline, started first, "
    "and lands by it (a hanging provider still times out on time), so the follower gets the "
    "leader's outcome either way"
)
_PRICED_FALLBACK = (
    "_priced, called right after, falls back to the provider's model when the error has none"
)
_DEFAULT_FALSE = "cache_hit=False is the Correction's default"
_CODEC_CASE = 'codec names are case-insensitive: "UTF-8" is "utf-8"'
_NONE_IS_EMPTY = "re.sub takes None from its function as an empty string: the same bare prompt"
_BARE_FACTS = (
    "the bare prompt (no file) is only weighed: its windowed flag and line counts are never read"
)
_ROOM_WITH_BUDGET = "room is None exactly when max_bytes is None: both halves decide alike"
_EMPTY_EITHER_WAY = "None or () is (): an error without candidates has no closest regions"
_FOCUS_UNUSED = "the focus only places shortened lines, and this render shortens none (no cap)"
_SPANS_CUT = (
    "spans() keeps the most similar max_regions of the regions it is given: more likely lines "
    "ranked the same way give the same windows"
)
_NO_THRESHOLD = "spans() does not read the line threshold"
_ROUGH_BOUND = (
    "the cheap bound only skips rendering: a smaller one renders more windows, which the "
    "exact byte count then refuses the same way; a window as long as the budget in "
    "characters is over it once numbered"
)
_FIRST_COPY = (
    "a copy at the line's start is a perfect alignment, which rapidfuzz finds there too: the "
    "same middle"
)
_READ_PIECE = "pieces of 2 MiB instead of 1 MiB: the same bytes, read with a larger buffer per call"
_SPEED_ONLY = (
    "the sorted keys never found in the cache (or cached under another name) are sorted "
    "again on every question: slower, the same answer"
)
_MOST_COMMON_FIRST = (
    "the first of Counter.most_common's list is the commonest however long the list is"
)
_ANOTHER_PIVOT = (
    "another token to walk out from: the token at each index of the quote stands once in "
    "every place, so the walks find the same places, from more or fewer starts"
)
_SQUEEZED_SOONER = (
    "the walks give way to the squeezed search a step sooner, and it finds the same places "
    "in the same order (test_the_squeezed_search_finds_exactly_the_places_the_walks_find)"
)
_FORWARD_WALK_WASTED = (
    "a forward walk after a failed walk back: its end is thrown away, as no start was found"
)
_FIRST_TOKEN_UNCHECKED = (
    "previous_word is read only from the second token on, after the first token has set it"
)
_SPACE_ALWAYS_MATCHES = "the spacing pattern matches the empty string too: it is never None"
_X_IS_A_WORD = (
    "X is a word character: with the quote's edge a word too, the quote starts or ends inside "
    "a word of the file, which _at_word_edges refused before, or an earlier test answers True"
)
_CLOSER_ANYWAY = (
    "after[0] in )]} with any last character returns True, as the last line does: )]} are "
    "closers too"
)
EQUIVALENT: dict[str, str] = {
    "editengine.files._atomic.x_atomic_write_at__mutmut_3": (
        'backup starting as "" instead of None: the cleanup unlinks "" (ENOENT, ignored)'
    ),
    "editengine.files._atomic.x__temp_name__mutmut_1": (
        "cutting the target name at 81 instead of 80 still keeps the temp name far under 255 bytes"
    ),
    "editengine.files._atomic.x__link_backup__mutmut_7": _FALSY,
    "editengine.files._atomic.x_sweep_stale_temps__mutmut_18": _FALSY,
    "editengine.files._atomic.x__write_temp__mutmut_5": _NO_BINARY,
    "editengine.files._atomic.x__write_temp__mutmut_11": _NO_BINARY,
    "editengine.files._atomic.x__write_temp__mutmut_12": _NO_BINARY,
    "editengine.files._atomic.x__write_temp__mutmut_13": _NO_BINARY,
    "editengine.files._atomic.x__write_temp__mutmut_19": _POSIX_FLAG,
    "editengine.files._atomic.x__write_temp__mutmut_22": _POSIX_FLAG,
    "editengine.files._atomic.x__write_temp__mutmut_25": _POSIX_FLAG,
    "editengine.files._atomic.x__write_temp__mutmut_28": _POSIX_FLAG,
    "editengine.files._atomic.x__write_temp__mutmut_31": _POSIX_FLAG,
    "editengine.files._atomic.x__write_temp__mutmut_34": _POSIX_FLAG,
    "editengine.files._atomic.x__sync_directory__mutmut_2": _WINDOWS,
    "editengine.files._atomic.x__sync_directory__mutmut_3": _WINDOWS,
    "editengine.files._atomic.x__process_alive__mutmut_23": _LAST_PIECE,
    "editengine.files._atomic.x__process_alive__mutmut_26": _LAST_PIECE,
    "editengine.files._atomic.x__process_alive__mutmut_27": _LAST_PIECE
    + " ([1] of two pieces is [-1])",
    "editengine.fixer._cache.x_correction_key__mutmut_3": _FALSY_ASCII,
    "editengine.fixer._cache.x_correction_key__mutmut_5": (
        "ensure_ascii left at True: escaped JSON is as injective, so equal keys still mean "
        "equal requests (the key is a digest compared in process, never shown or stored)"
    ),
    "editengine.fixer._cache.x_correction_key__mutmut_7": (
        "ensure_ascii=True: escaped JSON is as injective, so equal keys still mean equal requests"
    ),
    "editengine.fixer._cache.x_correction_key__mutmut_14": "codec names are case-insensitive",
    "editengine.telemetry._sinks.xǁLoggingSinkǁemit__mutmut_13": (
        "logging formats a message only when it has arguments: the line is logged as is"
    ),
    "editengine.telemetry._sinks.xǁJsonlSinkǁemit__mutmut_10": _RECHECKED,
    "editengine.telemetry._sinks.xǁJsonlSinkǁemit__mutmut_19": _RECHECKED,
    "editengine.telemetry._sinks.xǁJsonlSinkǁ_rotate_if_needed__mutmut_2": (
        "the file always counted as rotated away: it is reopened under the same name, the same "
        "file, and the size check that follows decides as before"
    ),
    "editengine.telemetry._sinks.xǁJsonlSinkǁ_shift_backups__mutmut_3": _JUST_STATED,
    "editengine.telemetry._sinks.xǁJsonlSinkǁ_shift_backups__mutmut_4": _JUST_STATED,
    "editengine.telemetry._sinks.xǁOTelSinkǁ__init____mutmut_49": _OTEL_CASE,
    "editengine.telemetry._sinks.xǁOTelSinkǁ__init____mutmut_62": _OTEL_CASE,
    "editengine.telemetry._sinks.xǁOTelSinkǁ__init____mutmut_75": _OTEL_CASE,
    "editengine.telemetry._sinks.xǁOTelSinkǁ__init____mutmut_88": _OTEL_CASE,
    "editengine.telemetry._sinks.xǁOTelSinkǁ__init____mutmut_101": _OTEL_CASE,
    "editengine.telemetry._sinks.xǁOTelSinkǁ__init____mutmut_115": _OTEL_CASE,
    "editengine.telemetry._sinks.x_dumps_line__mutmut_8": _FALSY_ASCII,
    "editengine.files._locking.x_default_lock_dir__mutmut_3": (
        "os.getuid exists on POSIX: the branch without it is never taken"
    ),
    "editengine.files._locking.xǁPathLocksǁ_ensure_lock_dir__mutmut_19": _SAME_MESSAGE,
    "editengine.files._locking.xǁPathLocksǁ_ensure_lock_dir__mutmut_21": _SAME_MESSAGE,
    "editengine.files._locking.xǁPathLocksǁ_thread_lock__mutmut_1": _FILE_LOCK_SERIALISES,
    "editengine.files._locking.xǁPathLocksǁ_thread_lock__mutmut_2": _FILE_LOCK_SERIALISES,
    "editengine.files._anchored.xǁAnchoredDirǁclose__mutmut_1": _FD_ZERO,
    "editengine.files._anchored.xǁAnchoredDirǁclose__mutmut_2": _FD_ZERO,
    "editengine.files._anchored.xǁAnchoredDirǁclose__mutmut_6": (
        "-2 marks a closed folder as well as -1 does"
    ),
    "editengine.files._anchored.xǁAnchoredDirǁ_close_created__mutmut_1": (
        "closing fails only on a bad descriptor, and these were dup'ed by this walk and are "
        "closed only here"
    ),
    "editengine.files._anchored.xǁWorkspaceDirǁ_step__mutmut_21": (
        "os.mkdir's default mode is 0o777 already"
    ),
    "editengine.files._anchored.xǁAnchoredDirǁexists__mutmut_3": _FALSY,
    "editengine.files._anchored.xǁWorkspaceDirǁ_refusal__mutmut_5": _FALSY,
    "editengine.files._anchored.xǁWorkspaceDirǁsweep__mutmut_7": _SWEEP_DISPLAY,
    "editengine.files._anchored.xǁWorkspaceDirǁsweep__mutmut_8": _SWEEP_DISPLAY,
    "editengine.files._anchored.xǁWorkspaceDirǁsweep__mutmut_2": _SWEEP_DISPLAY,
    "editengine.files._anchored.xǁWorkspaceDirǁsweep__mutmut_5": _SWEEP_DISPLAY,
    "editengine.files._suggest.x_suggest_paths__mutmut_40": _PREFILTER,
    "editengine.files._suggest.x_suggest_paths__mutmut_42": _PREFILTER,
    "editengine.files._suggest.x_suggest_paths__mutmut_43": _PREFILTER,
    "editengine.files._suggest.x_suggest_paths__mutmut_44": _PREFILTER,
    "editengine.files._suggest.x_suggest_paths__mutmut_50": _PREFILTER,
    "editengine.files._suggest.x_suggest_paths__mutmut_11": _FWALK,
    "editengine.files._suggest.x_suggest_paths__mutmut_13": _FWALK,
    "editengine.files._suggest.x_suggest_paths__mutmut_59": (
        "stopping a folder early at seen == max_files: the next folder would stop at its first "
        "file anyway, having added nothing"
    ),
    "editengine.files._workspace.xǁWorkspaceǁresolve__mutmut_6": (
        "root / an absolute path is that absolute path: joining it is the same as taking it"
    ),
    "editengine.files._workspace.xǁWorkspaceǁresolve__mutmut_44": (
        "_outside_message takes the root but does not use it"
    ),
    "editengine.files._workspace.xǁWorkspaceǁresolve__mutmut_65": _UNREACHABLE,
    "editengine.files._workspace.xǁWorkspaceǁ_display__mutmut_11": _UNREACHABLE,
    "editengine.files._workspace.x__as_text__mutmut_21": (
        'os.sep is "/" on POSIX: the tuple still holds "/"'
    ),
    "editengine.matching._fences.x_unwrap__mutmut_12": _NONBLANK_STOPS,
    "editengine.matching._fences.x_unwrap__mutmut_18": _NONBLANK_STOPS,
    "editengine.matching._fences.x_unwrap__mutmut_37": _ONE_CHARACTER,
    "editengine.matching._fences.x_unwrap__mutmut_39": _ONE_CHARACTER,
    "editengine.matching._fences.x__closes__mutmut_7": _ONE_CHARACTER,
    "editengine.matching._fences.x__closes__mutmut_9": _ONE_CHARACTER,
    "editengine.matching._fences.x_has_fence_lines__mutmut_10": _RFIND_NONE,
    "editengine.matching._fences.x_has_fence_lines__mutmut_40": (
        "the next mark searched from just before the line break: no mark holds a line break, "
        "so none starts there"
    ),
    "editengine.matching._prefixes.x__strip__mutmut_9": (
        "line numbers are never negative: none is <= -1, nor <= -2"
    ),
    "editengine.matching._prefixes.x_may_be_content__mutmut_21": _LINE_START,
    "editengine.matching._prefixes.x_may_be_content__mutmut_22": _LINE_START,
    "editengine.matching._prefixes.x_may_be_content__mutmut_53": _LINE_START,
    "editengine.matching._prefixes.x_may_be_content__mutmut_35": _RFIND_NONE,
    "editengine.matching._prefixes.x_may_be_content__mutmut_68": (
        "the next place searched from two on: a number followed by a separator that is no "
        "digit cannot stand again one place further on"
    ),
    "editengine.matching._quotes.x__unfenced__mutmut_23": _BOTH_FENCED,
    "editengine.matching._quotes.x__unfenced__mutmut_33": _BOTH_FENCED,
    "editengine.matching._quotes.x__unnumbered__mutmut_15": (
        "consecutive=None is falsy, the same as False"
    ),
    "editengine.matching._indent_style.x_outside_block_comments__mutmut_2": (
        "inside=None is falsy, the same as False"
    ),
    "editengine.matching._indent_style.xǁIndentStyleǁof__mutmut_27": (
        "every step counted twice: the commonest step is the same"
    ),
    "editengine.matching._indent_style.xǁIndentStyleǁrender__mutmut_1": (
        'no levels written as tabs and spaces is "" too'
    ),
    "editengine.fixer._budget.x_context_tokens__mutmut_4": (
        'no model named reads as "xxxx", which starts with no prefix in the table: the '
        "default either way"
    ),
    "editengine.fixer._budget.x_context_tokens__mutmut_6": _LONGEST_FIRST,
    "editengine.fixer._budget.x_context_tokens__mutmut_9": _LONGEST_FIRST,
    "editengine.fixer._flight.xǁSingleFlightǁ_land__mutmut_5": (
        "a key is in _leaders whenever its flight is in the table (both are set and removed "
        "together under the lock), so pop never needs its default"
    ),
    "editengine.fixer._deadline.xǁDeadlineRunnerǁrun__mutmut_34": (
        "typing.cast does nothing at run time"
    ),
    "editengine.fixer._deadline.xǁDeadlineRunnerǁrun__mutmut_42": _UNREACHABLE_ASSERT,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁrun__mutmut_43": _UNREACHABLE_ASSERT,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁrun__mutmut_44": _UNREACHABLE_ASSERT,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁarun__mutmut_40": _UNREACHABLE_ASSERT,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁarun__mutmut_41": _UNREACHABLE_ASSERT,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁarun__mutmut_42": _UNREACHABLE_ASSERT,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁ_retry_rules__mutmut_7": _UPCOMING_SLEEP,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁ_retry_rules__mutmut_10": _UPCOMING_SLEEP,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁ_retry_rules__mutmut_13": _UPCOMING_SLEEP,
    "editengine.fixer._deadline.xǁDeadlineRunnerǁ_retry_rules__mutmut_22": (
        "tenacity asks for the wait only after a failed attempt, which always has an outcome"
    ),
    "editengine.fixer._deadline.xǁDeadlineRunnerǁ_retry_rules__mutmut_29": (
        "only transient ProviderErrors are retried, and every ProviderError has retry_after"
    ),
    "editengine.matching._search.x_count__mutmut_1": _COUNT_EITHER_WAY,
    "editengine.matching._search.x_count__mutmut_2": _COUNT_EITHER_WAY,
    "editengine.matching._search.x_find__mutmut_34": (
        "the plain search from one place before the last false one: that place was checked "
        "already (every place holding the first piece is visited in order), so it finds the same"
    ),
    "editengine.matching._already_applied.x__only_adds_to_each_segment__mutmut_4": (
        "str.find takes None for a start of 0"
    ),
    "editengine.matching._already_applied.x_verbatim_elsewhere__mutmut_14": _RFIND_NONE,
    "editengine.matching._already_applied.x_verbatim_elsewhere__mutmut_21": (
        "a line break at 0 missed: the text then starts with that blank line, which "
        "_first_indent skips, so the quote's first line is the same"
    ),
    "editengine.files._reading.x_read_snapshot__mutmut_6": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot__mutmut_9": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot__mutmut_12": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot__mutmut_15": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot__mutmut_18": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot__mutmut_21": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_38": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_41": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_44": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_47": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_50": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_53": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_68": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_71": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_74": _POSIX_FLAG,
    "editengine.files._reading.x_read_snapshot_at__mutmut_57": _NO_BINARY_READ,
    "editengine.files._reading.x_read_snapshot_at__mutmut_63": _NO_BINARY_READ,
    "editengine.files._reading.x_read_snapshot_at__mutmut_64": _NO_BINARY_READ,
    "editengine.files._reading.x_read_snapshot_at__mutmut_4": _FALSY,
    "editengine.files._reading.x__link_refusal__mutmut_6": _FOLLOW_DEFAULT,
    "editengine.files._reading.x_decode__mutmut_26": _CODEC_CASE,
    "editengine.files._reading.x_decode__mutmut_30": "bytes.count takes None for a start of 0",
    "editengine.files._reading.x__read_at_most__mutmut_3": _ZERO_READ,
    "editengine.files._reading.x__read_at_most__mutmut_15": _READ_PIECE,
    "editengine.files._reading.x__read_at_most__mutmut_16": _READ_PIECE,
    "editengine.fixer._window.x_excerpt__mutmut_30": _FOCUS_UNUSED,
    "editengine.fixer._window.x_excerpt__mutmut_45": _SPANS_CUT,
    "editengine.fixer._window.x_excerpt__mutmut_70": _NO_THRESHOLD,
    "editengine.fixer._window.x_excerpt__mutmut_101": _NO_THRESHOLD,
    "editengine.fixer._window.x__likely_regions__mutmut_8": (
        'no needle probes "XXXX", under the eight characters a probe needs: nothing found '
        "either way"
    ),
    "editengine.fixer._window.x__render_within__mutmut_10": _ROUGH_BOUND,
    "editengine.fixer._window.x__render_within__mutmut_12": _ROUGH_BOUND,
    "editengine.fixer._window.xǁ_Focusǁ_find__mutmut_6": _FIRST_COPY,
    "editengine.fixer._window.xǁ_Focusǁ_find__mutmut_7": _FIRST_COPY,
    "editengine.fixer._prompt.xǁPromptBuilderǁbuild__mutmut_25": _NONE_IS_EMPTY,
    "editengine.fixer._prompt.xǁPromptBuilderǁbuild__mutmut_26": _BARE_FACTS,
    "editengine.fixer._prompt.xǁPromptBuilderǁbuild__mutmut_33": _BARE_FACTS,
    "editengine.fixer._prompt.xǁPromptBuilderǁ_render__mutmut_1": _BARE_FACTS,
    "editengine.fixer._prompt.xǁPromptBuilderǁ_render__mutmut_2": _BARE_FACTS,
    "editengine.fixer._prompt.xǁPromptBuilderǁ_render__mutmut_3": _BARE_FACTS,
    "editengine.fixer._prompt.xǁPromptBuilderǁbuild__mutmut_82": _ROOM_WITH_BUDGET,
    "editengine.fixer._prompt.x_choose_boundary__mutmut_12": _CODEC_CASE,
    "editengine.fixer._prompt.x__closest__mutmut_6": _EMPTY_EITHER_WAY,
    "editengine.fixer._llm.xǁLLMFixerǁacorrect__mutmut_14": _LEADER_ON_TIME,
    "editengine.fixer._llm.xǁLLMFixerǁ_accept__mutmut_34": _PRICED_FALLBACK,
    "editengine.fixer._llm.xǁLLMFixerǁ_accept__mutmut_39": _PRICED_FALLBACK,
    "editengine.fixer._llm.xǁLLMFixerǁ_accept__mutmut_40": _PRICED_FALLBACK,
    "editengine.fixer._llm.xǁLLMFixerǁ_accept__mutmut_69": _DEFAULT_FALSE,
    "editengine.matching._unicode.xǁUnicodePunctuationTierǁ_find_one_for_one__mutmut_17": (
        "translating by an empty table changes nothing"
    ),
    "editengine.matching._unicode.xǁUnicodePunctuationTierǁ_find_one_for_one__mutmut_62": (
        _TRANSLATED
    ),
    "editengine.matching._unicode.x__line_blocks__mutmut_23": _TRANSLATED,
    "editengine.matching._unicode.x__line_blocks__mutmut_27": _TRANSLATED,
    "editengine.matching._unicode.x__plain_text__mutmut_1": _MEMO_KEY,
    "editengine.matching._unicode.x__plain_text__mutmut_2": _MEMO_KEY,
    "editengine.matching._unicode.x__plain_text__mutmut_3": _MEMO_KEY,
    "editengine.matching._unicode.x__spelled_alike__mutmut_5": (
        "every match the one-for-one search returns has a rewrite, so inner is never None"
    ),
    "editengine.matching._unicode.x__spelled_alike__mutmut_11": _NOT_VERBATIM,
    "editengine.matching._unicode.x__spelled_alike__mutmut_16": _NOT_VERBATIM,
    "editengine.matching._unicode.x_keep_typography__mutmut_1": (
        "the callers' old and file texts are always of one length (the mapping is one "
        "character for one); when they are equal, copying the file where new_string repeats "
        "old_string copies the same characters"
    ),
    "editengine.matching._unicode.x__common_prefix_length__mutmut_12": (
        "the halving point still falls in (low, high]: another split of the same search"
    ),
    "editengine.engine._landed.xǁLandedCorrectionsǁrecord__mutmut_13": (
        "popitem(last=None): None is falsy, so the oldest entry goes, as with False"
    ),
    "editengine.engine._landed.x__key__mutmut_4": "ensure_ascii=None is falsy, the same as False",
    "editengine.engine._landed.x__key__mutmut_6": _ESCAPED_KEY,
    "editengine.engine._landed.x__key__mutmut_8": _ESCAPED_KEY,
    "editengine.engine._landed.x__key__mutmut_15": "codec names are case-insensitive",
    "editengine.engine._jobs.x_edit_job__mutmut_5": 'EditState\'s operation defaults to "edit"',
    "editengine.engine._jobs.x_edit_job__mutmut_13": _JOB_INSTRUCTION,
    "editengine.engine._jobs.x_multi_edit_job__mutmut_15": _JOB_INSTRUCTION,
    "editengine.engine._jobs.x__text_of__mutmut_2": _CAST,
    "editengine.engine._jobs.x__text_of__mutmut_6": _CAST,
    "editengine.engine._jobs.x__text_of__mutmut_7": _CAST,
    "editengine.engine._jobs.x__text_of__mutmut_8": _CAST,
    "editengine.matching._trimmed.x_line_block_matches__mutmut_13": _DEFAULT_LINE_KEY,
    "editengine.matching._trimmed.x_line_block_matches__mutmut_18": _DEFAULT_LINE_KEY,
    "editengine.matching._trimmed.x_line_block_matches__mutmut_19": _DEFAULT_LINE_KEY,
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_30": _HELD_BEFORE_THE_LAST,
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_31": _HELD_BEFORE_THE_LAST,
    "editengine.matching._trimmed.xǁBoundaryTrimTierǁfind__mutmut_46": (
        "the core ends with a non-blank line and at most one final line break, so stripping "
        "all whitespace or only line breaks from its end leaves the same line breaks in it"
    ),
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_37": _RFIND_NONE,
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_38": _BEGINS_ITS_LINE,
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_40": _BEGINS_ITS_LINE,
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_41": _BEGINS_ITS_LINE,
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_44": (
        "a line break searched for from 1: only one at 0 is missed, and the text before the "
        "quoted line then starts with that line break, whitespace, so the verdict is the same"
    ),
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_45": _BEGINS_ITS_LINE,
    "editengine.matching._trimmed.x__partial_line_blocks__mutmut_55": (
        "after a mid-line place, the next search skips one more character: a place starting "
        "there is on the same line and mid-line too, so it would be passed over anyway"
    ),
    "editengine.matching._closest.x_closest_regions__mutmut_7": (
        "a blank quote has no line to vote with nor to search by likeness, and an empty file no "
        "line like any quote: both end with no region either way"
    ),
    "editengine.verdict._relatedness.x_occurrences__mutmut_12": (
        "str.count takes None for a start of 0"
    ),
    "editengine.verdict._relatedness.x_occurrences__mutmut_22": (
        "the last character dropped from every part, not only from one ending in a line break: "
        "a last character that is not a line break holds none to count"
    ),
    "editengine.verdict._relatedness.xǁRelatednessGuardǁsplits_a_word__mutmut_44": (
        "the word named from one character after the cut end: the search ends on a word "
        "character there, so the scan back from the next character finds the same word"
    ),
    "editengine.verdict._relatedness.xǁRelatednessGuardǁsplits_a_word__mutmut_54": (
        "the next place looked for from two characters on: a place one character on exists "
        "only for a search of one repeated character, and then the first place already ends "
        "inside a word (refused there) or neither place can cut a word"
    ),
    "editengine.engine._judging.x_judge_correction__mutmut_21": (
        "a refusal without closest regions (an AmbiguousMatch) gives None instead of (): both "
        "are falsy, so its candidates are taken either way"
    ),
    "editengine.engine._judging.x_judge_correction__mutmut_124": (
        "a search that is not text handed to the guard as is: the guard reads only a str "
        "search and takes anything else as none"
    ),
    "editengine.matching._realign.xǁNearestShiftsǁ_sorted__mutmut_1": _SPEED_ONLY,
    "editengine.matching._realign.xǁNearestShiftsǁ_sorted__mutmut_2": _SPEED_ONLY,
    "editengine.matching._realign.xǁNearestShiftsǁ_sorted__mutmut_3": _SPEED_ONLY,
    "editengine.matching._realign.xǁNearestShiftsǁ_sorted__mutmut_4": _SPEED_ONLY,
    "editengine.matching._realign.xǁNearestShiftsǁ_sorted__mutmut_9": _SPEED_ONLY,
    "editengine.matching._realign.xǁNearestShiftsǁ_sorted__mutmut_10": _SPEED_ONLY,
    "editengine.matching._realign.xǁRealignmentǁof__mutmut_33": _MOST_COMMON_FIRST,
    "editengine.matching._realign.xǁRealignmentǁof__mutmut_35": _MOST_COMMON_FIRST,
    "editengine.matching._realign.xǁCorrespondenceǁof__mutmut_5": (
        "every new line's counterpart is set by the opcode that covers it (they cover every "
        "new line), so the value it starts with is never read"
    ),
    "editengine.matching._realign.xǁCorrespondenceǁof__mutmut_48": (
        "an insertion at the very end then names the line after old_string's last as the one "
        "it comes before; no line there has a shift, so its depth follows the line before, "
        "as with none"
    ),
    "editengine.matching._realign.x_line_opcodes__mutmut_9": (
        "autojunk=None is falsy, the same as False"
    ),
    "editengine.matching._realign.x__close__mutmut_3": (
        "levels are whole columns or fractions of a level width and shifts are rounded to four "
        "places: two of them never differ by exactly 1e-6"
    ),
    "editengine.matching._whitespace.xǁWhitespaceTierǁ_places__mutmut_12": _ANOTHER_PIVOT,
    "editengine.matching._whitespace.xǁWhitespaceTierǁ_places__mutmut_14": _ANOTHER_PIVOT,
    "editengine.matching._whitespace.xǁWhitespaceTierǁ_places__mutmut_17": _ANOTHER_PIVOT,
    "editengine.matching._whitespace.x__rarest_short_token__mutmut_7": _ANOTHER_PIVOT,
    "editengine.matching._whitespace.x__rarest_short_token__mutmut_11": _ANOTHER_PIVOT,
    "editengine.matching._whitespace.x__rarest_short_token__mutmut_13": _ANOTHER_PIVOT,
    "editengine.matching._whitespace.xǁWhitespaceTierǁ_places__mutmut_26": _SQUEEZED_SOONER,
    "editengine.matching._whitespace.xǁWhitespaceTierǁ_places__mutmut_35": _SQUEEZED_SOONER,
    "editengine.matching._whitespace.xǁWhitespaceTierǁ_places__mutmut_37": _SQUEEZED_SOONER,
    "editengine.matching._whitespace.xǁWhitespaceTierǁ_places__mutmut_55": _FORWARD_WALK_WASTED,
    "editengine.matching._whitespace.x__walk_forward__mutmut_2": _FIRST_TOKEN_UNCHECKED,
    "editengine.matching._whitespace.x__walk_forward__mutmut_3": _FIRST_TOKEN_UNCHECKED,
    "editengine.matching._whitespace.x__walk_forward__mutmut_12": _SPACE_ALWAYS_MATCHES,
    "editengine.matching._whitespace.x_token_key__mutmut_2": (
        "keys are compared only with keys made the same way, and no token holds a space: "
        "any separator with one keeps different token lists apart"
    ),
    "editengine.matching._whitespace.xǁ_Frameǁ_moved__mutmut_3": (
        "the line is blank: it holds no X to strip"
    ),
    "editengine.matching._whitespace.x__clean_end__mutmut_47": (
        "after[0] is no space or tab here, so after holds two characters at most: "
        "after[1:3] is after[1:2]"
    ),
    "editengine.matching._whitespace.xǁ_ReflowedBlockǁrealign__mutmut_35": (
        "trailing_newline=None is falsy, the same as False"
    ),
    "editengine.matching._whitespace.x__clean_start__mutmut_23": _X_IS_A_WORD,
    "editengine.matching._whitespace.x__clean_start__mutmut_40": _X_IS_A_WORD,
    "editengine.matching._whitespace.x__clean_end__mutmut_31": _X_IS_A_WORD,
    "editengine.matching._whitespace.x__clean_end__mutmut_53": _X_IS_A_WORD,
    "editengine.matching._whitespace.x__clean_end__mutmut_14": (
        "the branch is entered only when the first character after the spacing is ( [ or .; "
        "after[0] is an X only when no spacing comes first, and then the branch is not entered"
    ),
    "editengine.matching._whitespace.x__clean_end__mutmut_34": _CLOSER_ANYWAY,
    "editengine.matching._whitespace.x__clean_end__mutmut_35": _CLOSER_ANYWAY,
    "editengine.matching._whitespace.x_splice_tokens__mutmut_30": (
        "region[None:start] is region[0:start]"
    ),
    "editengine.matching._whitespace.x_splice_tokens__mutmut_35": (
        "autojunk=None is falsy, the same as False"
    ),
    "editengine.matching._whitespace.x_splice_tokens__mutmut_165": (
        "str.rfind takes None for a start of 0"
    ),
    "editengine.engine._fixing.x__fixer_failed__mutmut_81": (
        "shared_call missing reads as None instead of False: neither is True"
    ),
    # editengine.matching._anchor
    **dict.fromkeys(
        (
            "editengine.matching._anchor.xǁBlockAnchorTierǁ_similarity__mutmut_21",
            "editengine.matching._anchor.xǁBlockAnchorTierǁ_similarity__mutmut_24",
            "editengine.matching._anchor.xǁBlockAnchorTierǁ_similarity__mutmut_26",
        ),
        "Levenshtein's score_cutoff only caps a distance above max_line_edits + 1: compared "
        "with max_line_edits, the capped distance answers the same",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.xǁBlockAnchorTierǁ_similarity__mutmut_33",
            "editengine.matching._anchor.xǁBlockAnchorTierǁ_similarity__mutmut_34",
            "editengine.matching._anchor.xǁBlockAnchorTierǁ_similarity__mutmut_35",
        ),
        "misquoted is only asked whether it is zero: 1, -1 and 2 are as true as one line",
    ),
    "editengine.matching._anchor.x__several_typos__mutmut_53": (
        "a count of characters is a whole number: it is at most n / 2 exactly when it is at "
        "most n // 2"
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x__min_votes__mutmut_3",
            "editengine.matching._anchor.x__min_votes__mutmut_9",
            "editengine.matching._anchor.x__min_votes__mutmut_11",
        ),
        "voted_starts caps min_votes at half its voters, ceil(min(d, 12) / 2), which is no "
        "more than ceil(d / 2): a larger value is capped to the same",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x_voted_starts__mutmut_25",
            "editengine.matching._anchor.x_voted_starts__mutmut_26",
            "editengine.matching._anchor.x_voted_starts__mutmut_27",
            "editengine.matching._anchor.x_voted_starts__mutmut_28",
            "editengine.matching._anchor.x_voted_starts__mutmut_29",
        ),
        "look_up_stripped_equal answers what lines_stripped_equal would, None included: "
        "whether it runs first only changes the cost",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x_fuzzy_starts__mutmut_11",
            "editengine.matching._anchor.x_fuzzy_starts__mutmut_12",
        ),
        "at a limit of 5 or a cutoff of 40 the direct search returns what the shared one "
        "keeps: the best five lines at or above the cutoff",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x_fuzzy_starts__mutmut_14",
            "editengine.matching._anchor.x_fuzzy_starts__mutmut_15",
        ),
        "the memo key only names the entry: any key, one per probe, that no other reader of "
        "the view's memo takes keeps the same answers",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x_fuzzy_starts__mutmut_21",
            "editengine.matching._anchor.x_fuzzy_starts__mutmut_22",
            "editengine.matching._anchor.x_fuzzy_starts__mutmut_27",
        ),
        "the shared search keeps lines of any score, or every line, only for them to be "
        "filtered at the cutoff and cut to the limit: the same best five",
    ),
    "editengine.matching._anchor.x_fuzzy_starts__mutmut_26": (
        "process.extract's default limit is 5, _SHARED_LIMIT"
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x_carry_fix__mutmut_14",
            "editengine.matching._anchor.x_carry_fix__mutmut_15",
            "editengine.matching._anchor.x_carry_fix__mutmut_16",
        ),
        "the DoubtfulMatch text is never shown: the cascade records the tier as refused and "
        "goes on to the next",
    ),
    "editengine.matching._anchor.x_merge3__mutmut_27": "clash=None is falsy, the same as False",
    "editengine.matching._anchor.x_merge3__mutmut_39": (
        "their hunks are disjoint and in order: after one that covers our change, no later one "
        "can touch it"
    ),
    "editengine.matching._anchor.x_merge3__mutmut_59": (
        "base[None:start] is base[0:start], and cursor is set again before it is next read"
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x__rewrite_of_the_fixed_line__mutmut_28",
            "editengine.matching._anchor.x__rewrite_of_the_fixed_line__mutmut_31",
            "editengine.matching._anchor.x__rewrite_of_the_fixed_line__mutmut_33",
            "editengine.matching._anchor.x__rewrite_of_the_fixed_line__mutmut_36",
        ),
        "a point strictly inside a stretch (or a stretch around a point) overlaps it: the "
        "first check has returned False for every case that would make this one true",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._anchor.x__touch__mutmut_11",
            "editengine.matching._anchor.x__touch__mutmut_13",
            "editengine.matching._anchor.x__touch__mutmut_14",
            "editengine.matching._anchor.x__touch__mutmut_16",
            "editengine.matching._anchor.x__touch__mutmut_18",
            "editengine.matching._anchor.x__touch__mutmut_19",
            "editengine.matching._anchor.x__touch__mutmut_21",
        ),
        "an insertion strictly inside the other stretch overlaps it, and one at its start is "
        "the second check's: inside_a and inside_b are false whenever they are read",
    ),
    # editengine.matching._elision
    **dict.fromkeys(
        (
            "editengine.matching._elision.xǁElidedǁof__mutmut_12",
            "editengine.matching._elision.xǁElidedǁof__mutmut_20",
        ),
        "Elided.of is only given lines holding a marker (find and already_applied check "
        "first): there are two segments or more, so > 1 and >= 1 agree",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._elision.xǁElidedǁof__mutmut_26",
            "editengine.matching._elision.xǁElidedǁof__mutmut_27",
        ),
        "Elided.leading and Elided.trailing are read nowhere: the segments are popped already",
    ),
    "editengine.matching._elision.xǁElisionTierǁfind__mutmut_25": (
        "the index of stripped lines only replaces a scan per segment: find_line_blocks "
        "returns the same places either way"
    ),
    "editengine.matching._elision.x__tightest_chains__mutmut_20": (
        "first places come in file order: of two chains with one tail the later starts later, "
        "and chain[1] (the tail's first place) is after both starts; a one-segment chain's "
        "tail is its own start, never met twice, so chain[1] is never read"
    ),
    "editengine.matching._elision.x__tightest_chains__mutmut_21": (
        "first places are distinct and in file order: >= and > replace alike"
    ),
    **dict.fromkeys(
        (
            "editengine.matching._elision.x__depth_shift__mutmut_3",
            "editengine.matching._elision.x__depth_shift__mutmut_9",
        ),
        "segments are trimmed of blank lines: the loop returns on the first line, at offset 0",
    ),
    "editengine.matching._elision.xǁ_ElisionMatchǁto_match__mutmut_18": (
        "last + 2 < len differs only at the file's last line before its final newline: "
        "eating that newline and giving it back writes what leaving it does"
    ),
    **dict.fromkeys(
        (
            "editengine.matching._elision.x__last_real__mutmut_12",
            "editengine.matching._elision.x__last_real__mutmut_14",
        ),
        "_last_real is only asked when the last line is blank or a marker, never a real line: "
        "skipping it, or looking at it again as index -1, finds the same",
    ),
    **dict.fromkeys(
        (
            "editengine.matching._elision.x__find_run__mutmut_6",
            "editengine.matching._elision.x__find_run__mutmut_7",
        ),
        "windows starting past len(keys) - len(wanted) are shorter than wanted and never equal it",
    ),
    "editengine.matching._elision.x__find_run__mutmut_11": (
        "-2 is below 0 as -1 is: the caller only asks found < 0"
    ),
    # editengine.matching._lines
    "editengine.matching._lines.xǁLineViewǁlook_up_stripped_equal__mutmut_2": (
        "keys already answered are answered again, the same way; an empty key is never asked "
        "for (lines_stripped_equal takes non-empty keys only)"
    ),
    "editengine.matching._lines.xǁLineViewǁlook_up_stripped_equal__mutmut_3": (
        "the memo checked under another name: keys already answered are counted again, to the "
        "same answer (slower only)"
    ),
    "editengine.matching._lines.xǁLineViewǁlook_up_stripped_equal__mutmut_4": (
        "the memo checked under another name: keys already answered are counted again, to the "
        "same answer (slower only)"
    ),
    "editengine.matching._lines.xǁLineViewǁlook_up_stripped_equal__mutmut_29": (
        "after is at most the text's length, and a search from the end finds no non-empty key"
    ),
    "editengine.matching._lines.xǁLineViewǁ_lines_stripped_equal__mutmut_18": (
        "the index of every line asked for at once: it answers the same lines as the search "
        "(slower for a rare key)"
    ),
    "editengine.matching._lines.xǁLineViewǁ_lines_stripped_equal__mutmut_21": (
        "a key found on 256 lines is in the index of stripped lines: the default is never used"
    ),
    "editengine.matching._lines.xǁLineViewǁ_lines_stripped_equal__mutmut_23": (
        "a key found on 256 lines is in the index of stripped lines: the default is never used"
    ),
    "editengine.matching._lines.xǁLineViewǁ_lines_stripped_equal__mutmut_27": (
        "str.rfind takes None for a start of 0"
    ),
    "editengine.matching._lines.xǁLineViewǁ_lines_stripped_equal__mutmut_34": (
        "the line start moves only when the text's one newline before the key is at offset 0; "
        "that newline then joins the text before the key, which stays blank or not as it was"
    ),
    "editengine.matching._lines.x_find_line_blocks__mutmut_16": (
        "the index of stripped lines not used: the str.find anchors find the same lines"
    ),
    "editengine.matching._lines.x_find_line_blocks__mutmut_17": (
        "the index of stripped lines not used: the str.find anchors find the same lines"
    ),
    "editengine.matching._lines.x_find_line_blocks__mutmut_18": (
        "the index of stripped lines built when missing instead of used when there: the same "
        "lines either way"
    ),
    "editengine.matching._lines.x_find_line_blocks__mutmut_22": (
        "another anchor key from the index: every run holds each of its keys, so any anchor "
        "finds the same runs in the same order (only the lines checked differ)"
    ),
    "editengine.matching._lines.x_find_line_blocks__mutmut_24": (
        "another anchor key from the index: every run holds each of its keys, so any anchor "
        "finds the same runs in the same order (only the lines checked differ)"
    ),
    "editengine.matching._lines.x_find_line_blocks__mutmut_35": (
        "strip_key's anchors looked for by keying every line instead of by str.find, and the "
        "translated text's too: the same lines"
    ),
    "editengine.matching._lines.xǁLineViewǁindent_of_block__mutmut_41": (
        "IndentStyle.of falls back to four columns a level without a fallback as well"
    ),
    "editengine.matching._lines.xǁLineViewǁindent_of_block__mutmut_43": (
        "IndentStyle.of falls back to four columns a level without a fallback as well"
    ),
    "editengine.matching._lines.x_trim_blank_lines__mutmut_5": (
        "head reaches the end only when every line is blank, and then lines[head:] is empty "
        "whatever tail is"
    ),
    "editengine.matching._lines.x_trim_blank_lines__mutmut_8": (
        "head reaches the end only when every line is blank, and then lines[head:] is empty "
        "whatever tail is"
    ),
    "editengine.matching._lines.x_trim_blank_lines__mutmut_9": (
        "head reaches the end only when every line is blank, and then lines[head:] is empty "
        "whatever tail is"
    ),
    "editengine.matching._lines.xǁLineViewǁstart__mutmut_1": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁstart__mutmut_2": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁstart__mutmut_3": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁstart__mutmut_4": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_end__mutmut_1": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_end__mutmut_2": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_end__mutmut_3": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_end__mutmut_4": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_1": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_2": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_3": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_4": (
        "the list of every line's offset not read first: counting from the known line gives the "
        "same offsets (test_offsets_counted_from_a_known_line_are_the_offsets_of_every_line)"
    ),
    "editengine.matching._lines.xǁLineViewǁ_counted_start__mutmut_2": (
        "line 0 read from the list of every line's offset instead of counted: the same 0"
    ),
    "editengine.matching._lines.xǁLineViewǁ_counted_start__mutmut_3": (
        "line 0 read from the list of every line's offset instead of counted: the same 0"
    ),
    "editengine.matching._lines.xǁLineViewǁ_counted_start__mutmut_4": (
        "one past the text's end read from the list instead of counted: the same offset"
    ),
    "editengine.matching._lines.xǁLineViewǁ_counted_start__mutmut_10": (
        "the known line itself counted backwards: nothing is subtracted, the same offset"
    ),
    "editengine.matching._lines.xǁLineViewǁ_counted_start__mutmut_29": (
        "one past the last line is never counted to: from line 0 that costs every line plus one "
        "question, more than the count allows, so the list answers it"
    ),
    "editengine.matching._lines.x_line_view__mutmut_1": (
        "a view not found by identity is found by equality: the same view, found slower"
    ),
    "editengine.matching._lines.xǁLineBlockǁto_match__mutmut_10": (
        "the extra 1 is added only when the quote's last line is the file's last, with no "
        "newline after: an end one past the text cuts nothing more"
    ),
    "editengine.matching._lines.xǁLineBlockǁto_match__mutmut_12": (
        "the extra 1 is added only when the quote's last line is the file's last, with no "
        "newline after: an end one past the text cuts nothing more"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_7": (
        "offset 0 read from the list of every line's offset instead of counted: the same line 0"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_8": (
        "offset 0 read from the list of every line's offset instead of counted: the same line 0"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_18": (
        "line 0 starts at offset 0, so the bisection of any offset in the text lands past index 0 "
        "anyway; only a negative offset, which no caller asks about, would tell"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_21": (
        "an offset at the known line's start counted backwards: no newline between, the same line"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_35": (
        "newlines counted to the text's end make the answer too far back by every line after the "
        "known one: that distance plus the lines counted to reach the known line is more than the "
        "count allows, so the list answers"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_37": (
        "newlines counted from the known line to the text's end: the answer is off by every line "
        "after the known one, which with the lines counted to reach it is more than the count "
        "allows, so the list answers"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_38": (
        "newlines counted to the text's end make the answer too far back by every line after the "
        "known one: that distance plus the lines counted to reach the known line is more than the "
        "count allows, so the list answers"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_53": (
        "a negative offset took the first return: here the offset is at least 0, where line 0 "
        "starts, so the bisection lands past index 0 anyway"
    ),
    "editengine.matching._lines.xǁLineViewǁline_of_offset__mutmut_58": (
        "str.rfind takes None for a start of 0"
    ),
    # editengine.matching._cascade
    "editengine.matching._cascade.x__number__mutmut_7": _CAST,
    "editengine.matching._cascade.xǁ_Passǁ_counted__mutmut_21": (
        "as many places as wanted get this far only when they overlap; the verbatim ones are then "
        "all of them, overlapping too, and are not taken"
    ),
    "editengine.matching._cascade.xǁ_Passǁ_apply__mutmut_25": (
        "an edit is applied at one place at least: texts is never empty"
    ),
    "editengine.matching._cascade.xǁ_Passǁrun__mutmut_46": (
        "old_is_inside=None is falsy, the same as False"
    ),
    # editengine.journal._undo
    "editengine.journal._undo.x__text__mutmut_7": "bytes.decode's default encoding is UTF-8",
    "editengine.journal._undo.x__text__mutmut_10": (
        "codec names are case-insensitive: UTF-8 is utf-8"
    ),
    "editengine.journal._undo.x__write_anchored__mutmut_13": (
        "its one caller always passes check: the None branch is never taken"
    ),
    "editengine.journal._undo.x_reverse__mutmut_1": (
        "engine.undo and engine.redo always pass steps: reverse's own default is never used"
    ),
    "editengine.journal._undo.x_reverse__mutmut_80": (
        "the group id of a reversed patch is only compared for equality: 17 hex digits of a "
        "fresh uuid4 tell groups apart as 16 do"
    ),
    "editengine.journal._undo.x__journal__mutmut_6": (
        "the engine always sets its journal attribute (None when off): getattr's default is "
        "never used"
    ),
    "editengine.journal._undo.x__stale__mutmut_11": (
        "a file read has a sha256 exactly when it exists, and a missing file takes the branch "
        "before: the '?' for no sha256 is never shown"
    ),
    "editengine.journal._undo.x__stale__mutmut_13": (
        "a file read has a sha256 exactly when it exists, and a missing file takes the branch "
        "before: the '?' for no sha256 is never shown"
    ),
    # editengine.engine._patching
    "editengine.engine._patching.x_apply_patch__mutmut_1": (
        "EditEngine.apply_patch always passes dry_run: this default is never used"
    ),
    "editengine.engine._patching.x_apply_patch__mutmut_140": (
        "dry_run=None is falsy, the same as False"
    ),
    "editengine.engine._patching.x__resolve__mutmut_11": (
        "the placeholder snapshot is replaced by the read under the lock before anything reads it"
    ),
    "editengine.engine._patching.x__resolve__mutmut_14": (
        "the placeholder snapshot is replaced by the read under the lock before anything reads it"
    ),
    "editengine.engine._patching.x__resolve__mutmut_15": (
        "the placeholder snapshot is replaced by the read under the lock before anything reads it"
    ),
    "editengine.engine._patch_fixing.x__why_not__mutmut_7": (
        "the patch reads a corrected hunk's text, strategy, spans and no_change, never its "
        "replacements"
    ),
    "editengine.engine._patch_fixing.x__why_not__mutmut_14": (
        "the patch reads a corrected hunk's text, strategy, spans and no_change, never its "
        "replacements"
    ),
    "editengine.engine._patch_fixing.x__why_not__mutmut_40": (
        "every refusal of the cascade has a message: the code in its place is never used"
    ),
    "editengine.engine._patching.x__confirmed__mutmut_29": (
        "dry_run=None is falsy, the same as False"
    ),
    "editengine.engine._patching.x__commit__mutmut_43": (
        "the group id is only compared for equality: 17 hex digits of a fresh uuid4 tell "
        "patches apart as 16 do"
    ),
    "editengine.engine._patching.x__step__mutmut_11": (
        "codec names are case-insensitive: UTF-8 is utf-8"
    ),
    "editengine.engine._patch_reporting.x_edit_result__mutmut_9": (
        "codec names are case-insensitive: UTF-8 is utf-8"
    ),
    "editengine.engine._patching.x__missing_folders__mutmut_3": (
        "depth 0 is the workspace root, which exists: checking it first finds nothing missing"
    ),
    "editengine.engine._patching.x__missing_folders__mutmut_7": (
        "one depth past the path checks the whole path again: nothing new is found missing"
    ),
    "editengine.engine._patching.x__missing_folders__mutmut_17": (
        "the deepest folder listed twice is removed once on rollback; the second rmdir finds "
        "nothing and is suppressed"
    ),
    "editengine.engine._patching.x__restore__mutmut_14": (
        "an error in a rollback is suppressed (the patch's own failure is raised): the "
        "display that would word it is never shown"
    ),
    "editengine.engine._patching.x__restore__mutmut_19": (
        "an error in a rollback is suppressed (the patch's own failure is raised): the "
        "display that would word it is never shown"
    ),
    "editengine.engine._patching.x__restore__mutmut_26": (
        "an error in a rollback is suppressed (the patch's own failure is raised): the "
        "display that would word it is never shown"
    ),
    "editengine.engine._patching.x__restore__mutmut_31": (
        "an error in a rollback is suppressed (the patch's own failure is raised): the "
        "display that would word it is never shown"
    ),
    "editengine.engine._patching.x__remove_dirs__mutmut_9": (
        "an error in a rollback is suppressed (the patch's own failure is raised): the "
        "display that would word it is never shown"
    ),
    "editengine.engine._patch_reporting.x_telemetry_failure__mutmut_23": (
        "a PatchFailed always carries a patch line (its hunk's or its operation's, never 0): "
        "the fallback after or is never used"
    ),
    # editengine.verdict (recorded as editengine.engine._edit_equivalence)
    "editengine.verdict._compare.x_same_hunks__mutmut_72": (
        "mapped=None is falsy, the same as False"
    ),
    "editengine.verdict._compare.x_same_hunks__mutmut_39": (
        "a side that ends at 0 stands at the start of both texts: the one token it then reads "
        "is one the side after the change (or the change itself) already compares"
    ),
    "editengine.verdict._compare.x_renames_by_fixer__mutmut_1": (
        "the default is never used: its one caller, replacement_to_write, always passes file_text"
    ),
    "editengine.verdict._replacement.x_replacement_to_write__mutmut_1": (
        "the default is never used: its one caller, the guard, always passes file_text"
    ),
    "editengine.verdict._replacement.x_replacement_to_write__mutmut_70": (
        "a second carry with the fixer's renames cannot fail where the first did not: the "
        "renames (of names the search lacks) change only the inserted names, and can only "
        "shrink the text counted as unquoted"
    ),
    "editengine.verdict._alignment.x__letters__mutmut_9": (
        "the separator stands between every two letters, so two joined spellings are equal "
        "exactly when their letters are"
    ),
    "editengine.verdict._alignment.x__without_context__mutmut_28": (
        "the windows it then scores never beat the best: an empty one scores 0, the whole "
        "search scores best_score itself, and only a higher score is taken"
    ),
    "editengine.verdict._alignment.x__without_context__mutmut_29": (
        "an empty window (end == start) scores 0, never above the whole search's score"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_4": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_5": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_7": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_8": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_9": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_10": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_12": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_13": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same (its two ranges meet only past 900,000 tokens)"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_14": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._tokens.x_token_code__mutmut_15": (
        "the codes are only compared with one another: any one-to-one coding of the tokens "
        "aligns the same"
    ),
    "editengine.verdict._alignment.x__touches__mutmut_2": (
        "with start == end, src_start < end and src_end > start is src_start < start < "
        "src_end, the line it replaces"
    ),
    "editengine.verdict._carry.x__line_head__mutmut_5": ("str.rfind takes None for a start of 0"),
    "editengine.verdict._carry.x__line_head__mutmut_19": (
        "the text before a line's first token holds only whitespace (any other character is "
        "a token): no X to strip"
    ),
    "editengine.verdict._layout.x_in_file_unit__mutmut_1": (
        "the checks that follow convert only between a tab-only and a space-only indentation: "
        "with no file indentation, or the same characters, they return extra as well"
    ),
    "editengine.verdict._layout.x_in_file_unit__mutmut_2": (
        "with extra but no file indentation, or the reverse, no conversion that follows "
        "applies: extra comes back either way"
    ),
    "editengine.verdict._carry.x__indented_as_requested__mutmut_13": (
        "same_size=None is falsy, the same as False"
    ),
    "editengine.verdict._carry.x__indented_as_requested__mutmut_17": (
        "only tokens kept from the search are looked up, and none of them is in a requested "
        "change: pairing the tokens a request swaps one for one changes no lookup"
    ),
    "editengine.verdict._carry.x__indented_as_requested__mutmut_54": (
        "the first character of a kept line is a token's first character (every other "
        "character is a token), so bisect finds that very token: the branch is never taken"
    ),
    "editengine.verdict._carry.x__indented_as_requested__mutmut_55": (
        "the first character of a kept line is a token's first character (every other "
        "character is a token), so bisect finds that very token: the branch is never taken"
    ),
    "editengine.verdict._carry.x__indented_as_requested__mutmut_57": (
        "the first character of a kept line is a token's first character (every other "
        "character is a token), so bisect finds that very token: the branch is never taken"
    ),
    "editengine.verdict._carry.x__indented_as_requested__mutmut_62": (
        "the map's keys are token indices: get(None) is None, as the else gives"
    ),
    "editengine.verdict._carry.x__indented_as_requested__mutmut_65": (
        "a token kept from the search pairs with an old_string token outside every "
        "requested change, which new_string keeps: new_index is None only with old_index"
    ),
    # editengine.engine._core
    "editengine.engine._core.xǁEditCascadeǁedit__mutmut_1": (
        "a default of the Protocol's signature: the engine calls a real cascade, never this stub"
    ),
    "editengine.engine._core.xǁEngineCoreǁ_begin__mutmut_3": (
        "an edit's trace is empty when it begins: a slice from None deletes what one from 0 does"
    ),
    "editengine.engine._core.xǁEngineCoreǁ_begin__mutmut_50": (
        "a plan to write now handed to _settle is written there, by the same _write, same lock"
    ),
    "editengine.engine._core.xǁEngineCoreǁ_write__mutmut_11": (
        "codec names are case-insensitive: UTF-8 is utf-8"
    ),
    "editengine.engine._core.xǁEngineCoreǁ_write__mutmut_94": (
        "summary_of tests dry_run for truth: None is as false as False"
    ),
    "editengine.engine._core.xǁEngineCoreǁ_ask_confirm__mutmut_19": (
        "summary_of tests dry_run for truth: None is as false as False"
    ),
    "editengine.engine._core.xǁEngineCoreǁ_after_fix__mutmut_68": (
        "settle reads the correction only when no fixer call is recorded; ask records one first"
    ),
}

# ---------------------------------------------------------------------- docs/mutation.md

PAGE_TEMPLATE = ROOT / "scripts" / "mutation_page.md"
PAGE = ROOT / "docs" / "mutation.md"


@dataclass(frozen=True)
class Measured:
    """One module's last fresh run, and its score with the tests that existed before."""

    module: str
    mutants: int
    before: str
    killed: int
    timeout: int
    survived: int
    equivalent: int


@dataclass(frozen=True)
class Subtotal:
    """The modules since the last subtotal (or, ``whole``, every module above)."""

    label: str
    before: str
    whole: bool = False


# The scores table of docs/mutation.md, in the order the modules were run.
RECORDED: list[Measured | Subtotal] = [
    Measured("files/_atomic.py", 306, "60.6%", 286, 1, 0, 19),
    Measured("files/_anchored.py", 275, "66.7%", 264, 0, 0, 11),
    Measured("files/_workspace.py", 173, "56.5%", 168, 0, 0, 5),
    Measured("files/_locking.py", 68, "55.6%", 61, 0, 2, 5),
    Measured("telemetry/_sinks.py", 426, "65.6%", 413, 0, 0, 13),
    Measured("fixer/_cache.py", 40, "91.7%", 36, 0, 0, 4),
    Measured("files/_suggest.py", 92, "60.7%", 82, 0, 2, 8),
    Measured("matching/_already_applied.py", 267, "87.9%", 264, 0, 0, 3),
    Measured("matching/_search.py", 76, "82.2%", 63, 10, 0, 3),
    Measured("matching/_fences.py", 101, "83.9%", 84, 9, 0, 8),
    Measured("matching/_prefixes.py", 136, "90.0%", 130, 0, 0, 6),
    Measured("matching/_quotes.py", 177, "83.3%", 174, 0, 0, 3),
    Measured("matching/_indent_style.py", 112, "66.1%", 109, 0, 0, 3),
    Measured("fixer/_budget.py", 64, "82.0%", 61, 0, 0, 3),
    Measured("fixer/_flight.py", 83, "89.0%", 80, 2, 0, 1),
    Measured("fixer/_deadline.py", 246, "77.4%", 234, 0, 0, 12),
    Subtotal("all sixteen", before="72.7%", whole=True),
    Measured("matching/_closest.py", 177, "75.0%", 176, 0, 0, 1),
    Measured("matching/_refusals.py", 128, "43.0%", 128, 0, 0, 0),
    Measured("matching/_exact.py", 26, "100%", 20, 6, 0, 0),
    Measured("matching/_unescape.py", 62, "77.4%", 57, 5, 0, 0),
    Measured("matching/_trimmed.py", 301, "63.9%", 268, 20, 0, 13),
    Measured("matching/_unicode.py", 238, "91.6%", 216, 10, 0, 12),
    Measured("engine/_callbacks.py", 67, "49.3%", 67, 0, 0, 0),
    Measured("engine/_landed.py", 94, "60.7%", 89, 0, 0, 5),
    Measured("engine/_reporting.py", 172, "84.3%", 172, 0, 0, 0),
    Measured("engine/_jobs.py", 171, "73.2%", 164, 0, 0, 7),
    Subtotal("the ten run next", before="71.8%"),
    Measured("files/_reading.py", 313, "38.5%", 288, 0, 0, 25),
    Measured("fixer/_schema.py", 78, "88.5%", 78, 0, 0, 0),
    Measured("fixer/_factory.py", 53, "83.0%", 53, 0, 0, 0),
    Measured("fixer/_window.py", 407, "69.3%", 398, 0, 0, 9),
    Measured("fixer/_prompt.py", 311, "75.2%", 299, 2, 1, 9),
    Measured("fixer/_llm.py", 442, "61.6%", 437, 0, 0, 5),
    Subtotal("the six of the file layer and the fixer run then", before="64.0%"),
    Subtotal("all thirty-two", before="70.0%", whole=True),
    Measured("verdict/_relatedness.py", 408, "75.5%", 391, 8, 5, 4),
    Measured("engine/_fixing.py (now also _judging.py)", 563, "81.1%", 553, 0, 7, 3),
    Measured("matching/_realign.py", 671, "83.3%", 614, 0, 45, 12),
    Subtotal(
        "the fixer step and the realignment, run third (not in the total above)", before="80.6%"
    ),
    Measured("matching/_whitespace.py", 826, "83.2%", 766, 4, 29, 27),
    Measured("matching/_base.py", 33, "63.6%", 33, 0, 0, 0),
    Subtotal("the whitespace tier and the bound on places, run fourth", before="82.5%"),
    Subtotal("all thirty-seven", before="73.5%", whole=True),
    Measured("matching/_lines.py", 672, "85.1%", 608, 15, 0, 49),
    Measured("matching/_cascade.py", 613, "79.6%", 609, 0, 0, 4),
    Measured("matching/_anchor.py", 496, "81.6%", 453, 3, 0, 40),
    Measured("matching/_elision.py", 699, "75.7%", 665, 1, 18, 15),
    Measured("journal/_undo.py", 622, "62.0%†", 614, 0, 0, 8),
    Measured("engine/_patching.py", 964, "67.7%†", 943, 0, 0, 21),
    Measured("engine/_edit_equivalence.py (now verdict/)", 1773, "70.4%‡", 1611, 10, 122, 30),
    Measured("engine/_core.py", 1139, "74.5%", 1129, 1, 2, 7),
    Subtotal("the last eight, run fifth", before="—"),
    Subtotal("all forty-five", before="—", whole=True),
]


def _score_cell(caught: int, judged: int) -> str:
    return "100%" if caught == judged else f"{100 * caught / judged:.1f}%"


def scores_table() -> str:
    """The Markdown scores table: one row a module, the subtotals summed from them."""
    lines = [
        "| module | mutants | before | after: killed | timeout | survived | equivalent | score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    whole = [0, 0, 0, 0, 0]
    batch = [0, 0, 0, 0, 0]
    for row in RECORDED:
        if isinstance(row, Measured):
            counts = [row.mutants, row.killed, row.timeout, row.survived, row.equivalent]
            whole = [a + b for a, b in zip(whole, counts)]
            batch = [a + b for a, b in zip(batch, counts)]
            name, before = f"`{row.module}`", row.before
        else:
            counts = whole if row.whole else batch
            batch = [0, 0, 0, 0, 0]
            name, before = f"**{row.label}**", row.before
        mutants, killed, timeout, survived, equivalent = counts
        score = _score_cell(killed + timeout, mutants - equivalent)
        lines.append(
            f"| {name} | {mutants:,} | {before} | {killed:,} | {timeout} | {survived} | "
            f"{equivalent} | {score} |"
        )
    return "\n".join(lines)


def equivalents_table() -> str:
    rows = [f"| `{name.removeprefix('editengine.')}` | {why} |" for name, why in EQUIVALENT.items()]
    return "\n".join(["| mutant | why it changes nothing |", "|---|---|", *rows])


def render_page() -> str:
    """docs/mutation.md: the prose of scripts/mutation_page.md with the tables filled in."""
    page = PAGE_TEMPLATE.read_text(encoding="utf-8")
    page = page.replace("<!-- table: scores -->", scores_table())
    return page.replace("<!-- table: equivalents -->", equivalents_table())


# Read by the code under test (prompt templates, the bundled benchmark).
_DATA = ("prompts", "fixtures")
_STATUS = re.compile(r"^\s*(?P<name>\S+): (?P<status>.+)$")


@dataclass
class Score:
    module: str
    killed: int
    survived: list[str]
    timeout: list[str]
    no_tests: list[str]
    equivalent: list[str]
    crashed: list[str] = field(default_factory=list)

    @property
    def judged(self) -> int:
        caught = self.killed + len(self.timeout) + len(self.crashed)
        return caught + len(self.survived) + len(self.no_tests)

    @property
    def percent(self) -> float:
        # A mutant that makes the tests hang or kills their process is caught (they never
        # pass), as a killed one is.
        detected = self.killed + len(self.timeout) + len(self.crashed)
        return 100.0 if self.judged == 0 else 100.0 * detected / self.judged

    def line(self) -> str:
        crashed = f", crashed {len(self.crashed)}" if self.crashed else ""
        return (
            f"{self.module}: {self.percent:.1f}% — killed {self.killed}, survived "
            f"{len(self.survived)}, timeout {len(self.timeout)}{crashed}, no tests "
            f"{len(self.no_tests)}, equivalent {len(self.equivalent)}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="paths under src/editengine/")
    parser.add_argument("--core", action="store_true", help="every module in the table")
    parser.add_argument("--list", action="store_true", help="print the table and stop")
    parser.add_argument("--again", action="store_true", help="retry the last survivors only")
    parser.add_argument("--report", action="store_true", help="score the last runs, run nothing")
    parser.add_argument(
        "--equivalents", action="store_true", help="print the equivalent mutants and stop"
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="write docs/mutation.md from scripts/mutation_page.md and the tables here",
    )
    parser.add_argument("--max-children", type=int, default=2, help="parallel mutant runs")
    parser.add_argument("--min-score", type=float, default=90.0)
    parser.add_argument(
        "--memory-limit",
        type=float,
        default=4.0,
        help="GiB of address space each mutant run may take (0: no limit)",
    )
    parser.add_argument("--json", type=Path, help="also write the scores here")
    args = parser.parse_args(argv)

    if args.equivalents:
        print(equivalents_table())
        return 0
    if args.write_docs:
        PAGE.write_text(render_page(), encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
        return 0
    if args.list:
        for module, tests in TESTS_BY_MODULE.items():
            print(f"{module}: {' '.join(tests)}")
        return 0
    modules = list(TESTS_BY_MODULE) if args.core else args.modules
    unknown = [m for m in modules if m not in TESTS_BY_MODULE]
    if not modules or unknown:
        parser.error(f"name modules from --list (unknown: {', '.join(unknown) or 'none given'})")

    if args.report:
        scores = [last_score(module) for module in modules]
    else:
        limit = int(args.memory_limit * (1 << 30)) or None
        scores = [
            run_module(module, args.max_children, again=args.again, memory_limit=limit)
            for module in modules
        ]
    print()
    for score in scores:
        print(score.line())
        for name in score.survived + score.no_tests:
            print(f"    not killed: {name}")
        for name in score.timeout:
            print(f"    timed out: {name}")
        for name in score.crashed:
            print(f"    crashed the tests: {name}")
    if args.json:
        args.json.write_text(json.dumps([vars(s) for s in scores], indent=2) + "\n")
    return 0 if all(s.percent >= args.min_score for s in scores) else 1


def _scratch(module: str) -> Path:
    return ROOT / "build" / "mutation" / module.replace("/", "_").removesuffix(".py")


def last_score(module: str) -> Score:
    """The verdicts of the last run of ``module``, as they stand."""
    return _score(module, _results(_scratch(module), dict(os.environ)))


def run_module(
    module: str, max_children: int, *, again: bool = False, memory_limit: int | None = None
) -> Score:
    """Run mutmut on one module in its scratch copy and read back its verdicts.

    ``memory_limit`` (bytes of address space, for mutmut and every test process it starts)
    turns a mutant that grows a list without end into a ``MemoryError`` in its own test
    run, before it takes the machine's memory from everything else.
    """
    scratch = _scratch(module)
    _prepare(scratch, module)
    env = dict(os.environ)
    # Tests that start a subprocess (CLI, crash workers) must import the mutated copy too.
    # The folder must exist before Python starts: a path entry that is missing then is
    # cached as dead, and mutmut's own run would import the unmutated package.
    mutated = scratch / "mutants" / "src"
    mutated.mkdir(parents=True, exist_ok=True)
    env["PYTHONPATH"] = str(mutated)
    retry: list[str] = []
    if again:
        last = _score(module, _results(scratch, env))
        retry = [name.split(" ")[0] for name in last.survived + last.timeout + last.no_tests]
        if not retry:
            return last
    run = [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children), *retry]
    subprocess.run(
        run, cwd=scratch, env=env, check=False, preexec_fn=_address_space_limit(memory_limit)
    )
    return _score(module, _results(scratch, env))


def _address_space_limit(limit: int | None) -> Callable[[], None] | None:
    if limit is None:
        return None

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def _results(scratch: Path, env: dict[str, str]) -> str:
    """``mutmut results --all``: one ``name: status`` line per mutant."""
    if not (scratch / "mutants").exists():
        return ""
    results = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return results.stdout


def _prepare(scratch: Path, module: str) -> None:
    """Fresh copies of src/, tests/ and their data, and a pyproject.toml narrowed to ``module``."""
    scratch.mkdir(parents=True, exist_ok=True)
    for folder in ("src", "tests", *_DATA):
        shutil.rmtree(scratch / folder, ignore_errors=True)
        shutil.copytree(
            ROOT / folder, scratch / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    pyproject = (ROOT / "pyproject.toml").read_text()
    (scratch / "pyproject.toml").write_text(_narrowed(pyproject, module))


def _narrowed(pyproject: str, module: str) -> str:
    """``pyproject`` with its ``[tool.mutmut]`` table replaced by one for ``module`` alone."""
    kept: list[str] = []
    inside = False
    for line in pyproject.splitlines():
        if line.startswith("["):
            inside = line.strip() == "[tool.mutmut]"
        if not inside:
            kept.append(line)
    tests = ", ".join(json.dumps(t) for t in TESTS_BY_MODULE[module])
    table = [
        "[tool.mutmut]",
        'source_paths = ["src"]',
        f"only_mutate = [{json.dumps(f'{PACKAGE}/{module}')}]",
        f"pytest_add_cli_args_test_selection = [{tests}]",
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "--hypothesis-profile=mutation"]',
        "use_git_change_detection = false",
        f"also_copy = [{', '.join(json.dumps(d) for d in _DATA)}]",
    ]
    return "\n".join([*kept, "", *table]) + "\n"


def _score(module: str, results: str) -> Score:
    prefix = "editengine." + module.removesuffix(".py").replace("/", ".")
    score = Score(module, 0, [], [], [], [])
    for line in results.splitlines():
        found = _STATUS.match(line)
        if found is None or not found["name"].startswith(prefix):
            continue
        name, status = found["name"], found["status"].strip()
        if name in EQUIVALENT:
            score.equivalent.append(name)
        elif status == "killed":
            score.killed += 1
        elif status == "timeout":
            score.timeout.append(name)
        elif status == "no tests":
            score.no_tests.append(name)
        elif status == "segfault":  # the test process died: the tests did not pass
            score.crashed.append(name)
        else:
            score.survived.append(f"{name} ({status})" if status != "survived" else name)
    return score


if __name__ == "__main__":
    sys.exit(main())
