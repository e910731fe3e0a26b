"""files/_reading.py on its own: what a read gives back, and what each refusal says.

The engine tests reach the reader through whole edits, which only look at the error's type.
Here each promise is pinned where it is kept: the snapshot's fields, the size limit at the
exact byte (also for a file that grows after it was measured), every refusal word for word
with the path it names and what to do next, links looked at and never through, and the
descriptors the reader opens (folder only, no write, not inherited, never blocking).
"""

from __future__ import annotations

import errno
import hashlib
import os
import socket
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from editengine._errors import (
    BinaryFile,
    FileError,
    FileTooLarge,
    NotAFile,
    PathOutsideWorkspace,
    UnsupportedEncoding,
)
from editengine.files._reading import (
    MISSING,
    FileSnapshot,
    _kind,
    decode,
    read_snapshot,
    read_snapshot_at,
    sha256_hex,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="dir_fd, FIFOs and links")

CONVERT = "Convert the file to UTF-8 first, or edit it with another tool."
SMALLER = "Edit a smaller file, or raise max_file_bytes if this is intended."
MIB = 1 << 20


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "folder"
    made.mkdir()
    return made


@pytest.fixture
def dir_fd(folder: Path) -> Iterator[int]:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    yield fd
    os.close(fd)


def read(dir_fd: int, name: str = "f.txt", *, max_bytes: int = 1000) -> FileSnapshot:
    return read_snapshot_at(dir_fd, name, display=f"shown/{name}", max_bytes=max_bytes)


def open_files() -> list[str]:
    return sorted(os.listdir("/proc/self/fd"))


def before_opening(
    monkeypatch: pytest.MonkeyPatch, name: str, action: Callable[[int], None]
) -> None:
    """Run ``action(dir_fd)`` when the reader opens ``name``: after its stat, before it reads."""
    real_open = os.open

    def opening(path, flags, *args, **kwargs):
        if path == name and kwargs.get("dir_fd") is not None:
            action(kwargs["dir_fd"])
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", opening)


def failing_open(monkeypatch: pytest.MonkeyPatch, name: str | Path, error: OSError) -> None:
    real_open = os.open

    def opening(path, flags, *args, **kwargs):
        if path == name:
            raise error
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", opening)


def flags_of_opens(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    real_open = os.open
    seen: list[tuple[str, int]] = []

    def opening(path, flags, *args, **kwargs):
        seen.append((str(path), flags))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", opening)
    return seen


# The snapshot


def test_a_snapshot_holds_the_bytes_their_digest_size_mode_and_text(folder, dir_fd):
    content = "\ufeffhé\r\nwörld".encode()
    (folder / "f.txt").write_bytes(content)
    os.chmod(folder / "f.txt", 0o640)
    snapshot = read(dir_fd)
    assert snapshot.exists is True
    assert snapshot.data == content
    assert snapshot.text == "\ufeffhé\r\nwörld"  # the BOM kept, so encoding gives the bytes back
    assert snapshot.text.encode("utf-8") == content
    assert snapshot.size == len(content) == 14
    assert snapshot.sha256 == hashlib.sha256(content).hexdigest()
    assert snapshot.mode == 0o640


def test_the_digest_is_sha256_in_hex():
    assert sha256_hex(b"abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


@pytest.mark.parametrize(
    ("text", "lines"),
    [("", 0), ("a", 1), ("a\n", 1), ("\n", 1), ("a\nb", 2), ("a\nb\n", 2), ("\n\n\n", 3)],
)
def test_a_snapshot_counts_a_last_line_without_a_newline_as_a_line(text, lines):
    assert FileSnapshot(exists=True, text=text).lines == lines


def test_a_missing_file_or_folder_is_the_missing_snapshot_not_an_error(folder, dir_fd):
    assert read(dir_fd, "absent.txt") is MISSING
    shown = "shown/x.txt"
    assert read_snapshot(folder / "gone" / "x.txt", display=shown, max_bytes=10) is MISSING
    (folder / "plain").write_text("not a folder\n")
    assert read_snapshot(folder / "plain" / "x.txt", display=shown, max_bytes=10) is MISSING
    assert read_snapshot_at(dir_fd, "plain/x.txt", display=shown, max_bytes=10) is MISSING
    assert not MISSING.exists


def test_a_read_by_path_reads_the_named_file_in_its_folder(folder):
    (folder / "f.txt").write_bytes(b"hello\n")
    snapshot = read_snapshot(folder / "f.txt", display="f.txt", max_bytes=6)
    assert (snapshot.data, snapshot.text, snapshot.size) == (b"hello\n", "hello\n", 6)


def test_a_read_by_path_refuses_with_its_own_display_and_limit(folder):
    (folder / "f.txt").write_bytes(b"\xffhello\n")
    with pytest.raises(UnsupportedEncoding) as caught:
        read_snapshot(folder / "f.txt", display="shown/f.txt", max_bytes=100)
    assert caught.value.path == "shown/f.txt"
    (folder / "f.txt").write_bytes(b"hello\n")
    with pytest.raises(FileTooLarge) as caught:
        read_snapshot(folder / "f.txt", display="shown/f.txt", max_bytes=5)
    assert caught.value.message.startswith("shown/f.txt is 6 bytes, over the 5-byte limit")


def test_a_read_leaves_no_descriptor_open(folder, dir_fd):
    (folder / "f.txt").write_bytes(b"hello\n")
    (folder / "bin").write_bytes(b"\x00")
    opened = open_files()
    read_snapshot(folder / "f.txt", display="f.txt", max_bytes=100)
    with pytest.raises(BinaryFile):
        read_snapshot(folder / "bin", display="bin", max_bytes=100)
    read(dir_fd)
    assert open_files() == opened


# The descriptors it opens


def test_the_folder_is_opened_as_a_folder_for_reading_and_not_inherited(folder, monkeypatch):
    (folder / "f.txt").write_bytes(b"x")
    seen = flags_of_opens(monkeypatch)
    read_snapshot(folder / "f.txt", display="f.txt", max_bytes=10)
    (folder_flags,) = [flags for path, flags in seen if path == str(folder)]
    assert folder_flags & (os.O_DIRECTORY | os.O_CLOEXEC) == os.O_DIRECTORY | os.O_CLOEXEC
    assert folder_flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) == 0


def test_the_file_is_opened_for_reading_without_blocking_following_or_being_inherited(
    folder, dir_fd, monkeypatch
):
    (folder / "f.txt").write_bytes(b"x")
    seen = flags_of_opens(monkeypatch)
    assert read(dir_fd).data == b"x"
    (file_flags,) = [flags for path, flags in seen if path == "f.txt"]
    needed = os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    assert file_flags & needed == needed
    assert file_flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC) == 0


def test_a_fifo_in_place_of_the_folder_is_not_opened_to_wait_for_a_writer(folder):
    os.mkfifo(folder / "pipe")
    outcome: list[object] = []
    worker = threading.Thread(
        target=lambda: outcome.append(
            read_snapshot(folder / "pipe" / "x.txt", display="pipe/x.txt", max_bytes=10)
        ),
        daemon=True,
    )
    worker.start()
    worker.join(5)
    if worker.is_alive():  # let the stuck open return, then fail
        os.close(os.open(folder / "pipe", os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
    assert outcome == [MISSING]


# Size


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(folder, dir_fd):
    (folder / "f.txt").write_bytes(b"x" * 1000)
    assert read(dir_fd, max_bytes=1000).size == 1000
    (folder / "f.txt").write_bytes(b"x" * 1001)
    with pytest.raises(FileTooLarge) as caught:
        read(dir_fd, max_bytes=1000)
    assert caught.value.message == (
        "shown/f.txt is 1,001 bytes, over the 1,000-byte limit for editing."
    )
    assert caught.value.hint == SMALLER
    assert caught.value.path == "shown/f.txt"


def test_a_file_that_grows_past_the_limit_after_it_was_measured_is_refused_by_what_was_read(
    folder, dir_fd, monkeypatch
):
    (folder / "f.txt").write_bytes(b"x" * 1000)
    before_opening(monkeypatch, "f.txt", lambda _: _append(folder / "f.txt", b"y" * 500))
    with pytest.raises(FileTooLarge) as caught:
        read(dir_fd, max_bytes=1000)
    # Reading stops one byte past the limit: enough to know, however far the file grew.
    assert caught.value.message == (
        "shown/f.txt is 1,001 bytes, over the 1,000-byte limit for editing."
    )
    assert caught.value.hint == SMALLER
    assert caught.value.path == "shown/f.txt"


def test_a_file_over_a_mebibyte_is_read_whole(folder, dir_fd):
    content = (bytes(range(32, 127)) + b"\n") * (3 * MIB // 96)
    (folder / "f.txt").write_bytes(content)
    assert read(dir_fd, max_bytes=4 * MIB).data == content


def test_a_large_file_that_grows_past_the_limit_is_read_only_to_one_byte_past_it(
    folder, dir_fd, monkeypatch
):
    limit = 2 * MIB + MIB // 2
    (folder / "f.txt").write_bytes(b"x" * limit)
    before_opening(monkeypatch, "f.txt", lambda _: _append(folder / "f.txt", b"y" * MIB))
    with pytest.raises(FileTooLarge) as caught:
        read(dir_fd, max_bytes=limit)
    assert caught.value.message.startswith(f"shown/f.txt is {limit + 1:,} bytes, over the")


def test_reads_that_return_one_byte_at_a_time_are_continued_to_one_byte_past_the_limit(
    folder, dir_fd, monkeypatch
):
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, size: real_read(fd, min(size, 1)))
    (folder / "f.txt").write_bytes(b"0123456789")
    assert read(dir_fd, max_bytes=10).data == b"0123456789"
    before_opening(monkeypatch, "f.txt", lambda _: _append(folder / "f.txt", b"abc"))
    with pytest.raises(FileTooLarge, match=r"^shown/f\.txt is 11 bytes, over the 10-byte limit"):
        read(dir_fd, max_bytes=10)


def _append(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


# Encodings and binary files


@pytest.mark.parametrize(
    ("start", "name"),
    [
        (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
        (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
        (b"\xfe\xff", "UTF-16 (big-endian)"),
        (b"\xff\xfe", "UTF-16 (little-endian)"),
    ],
)
def test_a_utf16_or_utf32_file_is_refused_naming_its_encoding(folder, dir_fd, start, name):
    (folder / "f.txt").write_bytes(start + "hi\n".encode("utf-16-le"))
    with pytest.raises(UnsupportedEncoding) as caught:
        read(dir_fd)
    assert caught.value.message == (
        f"shown/f.txt is encoded as {name}; only UTF-8 files can be edited."
    )
    assert caught.value.hint == CONVERT
    assert caught.value.path == "shown/f.txt"


def test_a_binary_file_is_refused_at_its_first_nul_byte(folder, dir_fd):
    (folder / "f.txt").write_bytes(b"abc\x00def\x00")
    with pytest.raises(BinaryFile) as caught:
        read(dir_fd)
    assert caught.value.message == (
        "shown/f.txt looks like a binary file (NUL byte at offset 3); "
        "binary files cannot be edited with text search/replace."
    )
    assert caught.value.path == "shown/f.txt"


def test_text_that_is_not_utf8_is_refused_at_its_first_bad_byte_and_line(folder, dir_fd):
    (folder / "f.txt").write_bytes(b"\nab\n\xe9t\xe9\n")
    with pytest.raises(UnsupportedEncoding) as caught:
        read(dir_fd)
    assert caught.value.message == (
        "shown/f.txt is not valid UTF-8 (byte 0xe9 at offset 4, line 3); "
        "only UTF-8 files can be edited."
    )
    assert caught.value.hint == CONVERT
    assert caught.value.path == "shown/f.txt"


def test_a_bad_byte_on_the_first_line_is_on_line_one():
    with pytest.raises(UnsupportedEncoding, match=r"byte 0xff at offset 2, line 1\)"):
        decode(b"ab\xff\ncd\n", display="f")


def test_a_utf8_bom_is_text_not_an_encoding_to_refuse():
    assert decode(b"\xef\xbb\xbfx\n", display="f") == "\ufeffx\n"


# Links and other things that are not regular files


def test_a_link_to_a_file_is_refused_as_a_swap_after_the_check(folder, dir_fd, tmp_path):
    (tmp_path / "outside.txt").write_text("secret\n")
    os.symlink(tmp_path / "outside.txt", folder / "f.txt")
    with pytest.raises(PathOutsideWorkspace) as caught:
        read(dir_fd)
    assert caught.value.message == (
        "Refused shown/f.txt: it became a symbolic link after the path was checked; "
        "nothing was read or written."
    )
    assert caught.value.hint == "Check what replaced the file, then retry the edit."
    assert caught.value.path == "shown/f.txt"


@pytest.mark.parametrize("target", ["a folder", "nowhere"])
def test_a_link_is_looked_at_not_through(folder, dir_fd, target):
    # A link to a folder is not "a directory", a dangling one is not a missing file.
    (folder / "a folder").mkdir()
    os.symlink(folder / target, folder / "f.txt")
    with pytest.raises(PathOutsideWorkspace, match=r"^Refused shown/f\.txt: it became a symbolic"):
        read(dir_fd)


def test_a_link_loop_is_not_a_file(folder, dir_fd):
    os.symlink("f.txt", folder / "f.txt")
    with pytest.raises(NotAFile) as caught:
        read(dir_fd)
    assert caught.value.message == "shown/f.txt is a symbolic link loop; it cannot be edited."
    assert caught.value.path == "shown/f.txt"


def test_a_link_loop_in_place_of_the_folder_is_not_a_file(folder):
    os.symlink("loop", folder / "loop")
    with pytest.raises(NotAFile) as caught:
        read_snapshot(folder / "loop" / "x.txt", display="loop/x.txt", max_bytes=10)
    assert caught.value.message == "loop/x.txt is a symbolic link loop; it cannot be edited."
    assert caught.value.path == "loop/x.txt"


def test_a_link_swapped_in_after_the_stat_is_refused_as_a_swap(
    folder, dir_fd, tmp_path, monkeypatch
):
    (folder / "f.txt").write_text("mine\n")
    (tmp_path / "outside.txt").write_text("secret\n")

    def swap(_: int) -> None:
        os.unlink(folder / "f.txt")
        os.symlink(tmp_path / "outside.txt", folder / "f.txt")

    before_opening(monkeypatch, "f.txt", swap)
    with pytest.raises(PathOutsideWorkspace) as caught:
        read(dir_fd)
    assert caught.value.message.startswith("Refused shown/f.txt: it became a symbolic link")
    assert caught.value.path == "shown/f.txt"


def test_a_link_loop_swapped_in_after_the_stat_is_not_a_file(folder, dir_fd, monkeypatch):
    (folder / "f.txt").write_text("mine\n")

    def swap(_: int) -> None:
        os.unlink(folder / "f.txt")
        os.symlink("f.txt", folder / "f.txt")

    before_opening(monkeypatch, "f.txt", swap)
    with pytest.raises(NotAFile) as caught:
        read(dir_fd)
    assert caught.value.message == "shown/f.txt is a symbolic link loop; it cannot be edited."
    assert caught.value.path == "shown/f.txt"


def test_a_file_removed_after_the_stat_is_missing(folder, dir_fd, monkeypatch):
    (folder / "f.txt").write_text("mine\n")
    before_opening(monkeypatch, "f.txt", lambda _: os.unlink(folder / "f.txt"))
    assert read(dir_fd) is MISSING


def test_a_fifo_swapped_in_after_the_stat_is_refused_without_waiting(folder, dir_fd, monkeypatch):
    (folder / "f.txt").write_text("mine\n")

    def swap(_: int) -> None:
        os.unlink(folder / "f.txt")
        os.mkfifo(folder / "f.txt")

    before_opening(monkeypatch, "f.txt", swap)
    with pytest.raises(NotAFile) as caught:
        read(dir_fd)
    assert caught.value.message == "shown/f.txt is a FIFO (named pipe), not a regular file."
    assert caught.value.path == "shown/f.txt"


def test_a_folder_is_not_a_regular_file(folder, dir_fd):
    (folder / "f.txt").mkdir()
    with pytest.raises(NotAFile) as caught:
        read(dir_fd)
    assert caught.value.message == (
        "shown/f.txt is a directory, not a regular file; it cannot be edited."
    )
    assert caught.value.path == "shown/f.txt"


def test_a_fifo_is_refused_from_its_stat_alone(folder, dir_fd):
    os.mkfifo(folder / "f.txt")
    with pytest.raises(NotAFile, match=r"^shown/f.txt is a FIFO \(named pipe\), not a regular"):
        read(dir_fd)


def test_a_socket_is_not_a_regular_file(folder, dir_fd, monkeypatch):
    monkeypatch.chdir(folder)  # a socket's path must be short: bind it by its name
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("f.txt")
        with pytest.raises(NotAFile, match=r"^shown/f.txt is a socket, not a regular file"):
            read(dir_fd)


def test_a_device_is_not_a_regular_file():
    devices = os.open("/dev", os.O_RDONLY | os.O_DIRECTORY)
    try:
        with pytest.raises(NotAFile) as caught:
            read_snapshot_at(devices, "null", display="null", max_bytes=10)
    finally:
        os.close(devices)
    assert caught.value.message == "null is a device, not a regular file; it cannot be edited."


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        (stat.S_IFDIR, "a directory"),
        (stat.S_IFIFO, "a FIFO (named pipe)"),
        (stat.S_IFSOCK, "a socket"),
        (stat.S_IFCHR, "a device"),
        (stat.S_IFBLK, "a device"),
        (0, "a special file"),
    ],
)
def test_each_kind_of_file_is_named_in_words(kind, words):
    assert _kind(kind | 0o644) == words


# Failures of the system calls


def test_a_folder_that_cannot_be_opened_says_why(folder, monkeypatch):
    failing_open(monkeypatch, folder, PermissionError(errno.EACCES, "Permission denied"))
    with pytest.raises(FileError) as caught:
        read_snapshot(folder / "f.txt", display="shown/f.txt", max_bytes=10)
    assert type(caught.value) is FileError
    assert caught.value.message == "Could not read shown/f.txt: Permission denied."
    assert caught.value.path == "shown/f.txt"


def test_a_name_that_cannot_be_looked_at_says_why(dir_fd):
    with pytest.raises(FileError) as caught:
        read(dir_fd, "n" * 300)
    assert type(caught.value) is FileError
    assert caught.value.message == f"Could not read shown/{'n' * 300}: File name too long."
    assert caught.value.path == f"shown/{'n' * 300}"


def test_a_file_that_cannot_be_opened_says_why(folder, dir_fd, monkeypatch):
    (folder / "f.txt").write_text("x\n")
    failing_open(monkeypatch, "f.txt", PermissionError(errno.EACCES, "Permission denied"))
    with pytest.raises(FileError) as caught:
        read(dir_fd)
    assert type(caught.value) is FileError
    assert caught.value.message == "Could not read shown/f.txt: Permission denied."
    assert caught.value.path == "shown/f.txt"


def test_a_folder_found_when_opening_is_not_a_file(folder, dir_fd, monkeypatch):
    (folder / "f.txt").write_text("x\n")
    failing_open(monkeypatch, "f.txt", IsADirectoryError(errno.EISDIR, "Is a directory"))
    with pytest.raises(NotAFile) as caught:
        read(dir_fd)
    assert caught.value.message == "shown/f.txt is a directory, not a file."
    assert caught.value.path == "shown/f.txt"


def test_a_failing_read_says_why_and_closes_the_file(folder, dir_fd, monkeypatch):
    (folder / "f.txt").write_text("x\n")
    opened = open_files()

    def failing_read(fd: int, size: int) -> bytes:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "read", failing_read)
    with pytest.raises(FileError) as caught:
        read(dir_fd)
    assert caught.value.message == "Could not read shown/f.txt: Input/output error."
    assert caught.value.path == "shown/f.txt"
    assert open_files() == opened


def test_a_failure_without_a_reason_is_named_by_its_kind(folder, dir_fd, monkeypatch):
    (folder / "f.txt").write_text("x\n")
    failing_open(monkeypatch, "f.txt", TimeoutError())
    with pytest.raises(FileError) as caught:
        read(dir_fd)
    assert caught.value.message == "Could not read shown/f.txt: TimeoutError."
