"""Safe file input and output: the one place where dpbounds opens a user-named path.

Output: a file is either absent, the old version, or the complete new version -- never half-written -- and a
target that is not a regular file (a device such as /dev/full, a FIFO, a symlink, a directory) is refused, never
renamed over.  Input: only regular files are read (a FIFO is opened non-blocking and refused, so nothing waits
forever; /dev/zero is refused before a byte is read), at most ``max_bytes``, as UTF-8 text.

Every failure -- a refused target, a missing or unreadable file, a read-only directory, a path under a regular
file, a full disk, binary or oversized input -- is a :class:`dpbounds.spec.DomainError` naming the option and the
path, so the command line reports it in one line with exit status 2.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from dpbounds.spec import DomainError

#: the largest input file read (eps files, state files): 64 MiB, far beyond any real one, so a wrong path costs
#: a clear error instead of all memory
MAX_INPUT_BYTES = 64 << 20

_OUTPUT = "output file"
_INPUT = "input file"


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISREG, "regular file"), (stat.S_ISLNK, "symbolic link"), (stat.S_ISDIR, "directory"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def _os_error(name: str, path: Any, domain: str, e: OSError) -> DomainError:
    return DomainError(name, str(path), domain, "", e.strerror or str(e) or type(e).__name__)


def path_arg(path: Any, name: str = "path") -> str | os.PathLike:
    """``path`` if it is a file path (a str or an os.PathLike naming one), else TypeError: an int would be taken by
    ``os.stat``/``os.open`` as an open file descriptor, bytes as a path in another encoding."""
    if isinstance(path, str):
        return path
    if isinstance(path, os.PathLike):
        p = os.fspath(path)
        if isinstance(p, str):
            return path
    raise TypeError(f"{name}: expected a file path (str or os.PathLike), got {type(path).__name__}")


def check_output_path(path: str | os.PathLike, name: str = "path") -> Path:
    """``path`` as a Path if it may be (re)written: absent or a regular file; DomainError otherwise.

    Symlinks are refused too (a rename would replace the link, not its target, and following it would let a
    link redirect the write); so are directories, devices, FIFOs and sockets.
    """
    if isinstance(path_arg(path, name), str) and not path.strip():
        raise DomainError(name, path, "a non-empty file path", _OUTPUT)
    p = Path(path)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return p
    except OSError as e:
        raise _os_error(name, p, "a writable file path", e) from None
    if not stat.S_ISREG(st.st_mode):
        raise DomainError(name, str(p), "a regular file or a new path", _OUTPUT,
                          f"it is a {_kind(st.st_mode)}; refusing to replace it")
    return p


def ensure_output_dir(path: str | os.PathLike, name: str = "--out", create: bool = True) -> Path:
    """``path`` as a Path to an existing writable directory (created if absent, unless not ``create``: then an
    absent path is only checked later, when it is created); DomainError otherwise."""
    if isinstance(path_arg(path, name), str) and not path.strip():
        raise DomainError(name, path, "a non-empty directory path", "output directory")
    p = Path(path)
    try:
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            st = os.stat(p)  # a link to a directory is a fine place to write into
        if not stat.S_ISDIR(st.st_mode):
            raise DomainError(name, str(p), "a directory", "output directory", f"it is a {_kind(st.st_mode)}")
    except FileNotFoundError:
        if not create:  # it will be created later: its nearest existing ancestor must be a writable directory
            anc = p.absolute().parent
            while not anc.exists() and anc != anc.parent:
                anc = anc.parent
            if not anc.is_dir() or not os.access(anc, os.W_OK | os.X_OK):
                raise DomainError(name, str(p), "a directory that can be created", "output directory",
                                  f"{anc} is not a writable directory")
            return p
        try:
            p.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise _os_error(name, p, "a directory that can be created", e) from None
    except OSError as e:
        raise _os_error(name, p, "a writable directory", e) from None
    if not os.access(p, os.W_OK | os.X_OK):
        raise DomainError(name, str(p), "a writable directory", "output directory", "permission denied")
    return p


#: whether unnamed temporaries (O_TMPFILE, named through /proc/self/fd) work here; found out on first use
_UNNAMED_OK = bool(getattr(os, "O_TMPFILE", 0)) and os.path.isdir("/proc/self/fd")


def _write_unnamed(path: Path, data: bytes, mode: int) -> str | None:
    """``data`` in a new file beside ``path``, unnamed while it is written (so a process killed meanwhile leaves
    nothing behind) and then linked under a fresh name (linkat never replaces a file); that name, or None where the
    OS or file system does not allow it (then nothing was created)."""
    global _UNNAMED_OK
    import secrets

    if not _UNNAMED_OK:
        return None
    try:
        fd = os.open(path.parent, os.O_TMPFILE | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError:
        _UNNAMED_OK = False
        return None
    with os.fdopen(fd, "wb") as f:
        os.fchmod(fd, mode)
        f.write(data)
        f.flush()
        os.fsync(fd)
        for _ in range(100):
            tmp = str(path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp")
            try:
                os.link(f"/proc/self/fd/{fd}", tmp, follow_symlinks=True)
                return tmp
            except FileExistsError:
                continue
            except OSError:  # e.g. EXDEV in some sandboxes: named temporaries from now on
                _UNNAMED_OK = False
                return None
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path.parent))


def _write_named(path: Path, data: bytes, mode: int, name: str) -> str:
    """``data`` in a fresh ``mkstemp`` file beside ``path`` (never an existing file); its name."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise _os_error(name, path, "a path in a writable directory", e) from None
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(fd, mode)
            f.write(data)
            f.flush()
            os.fsync(fd)
    except BaseException:
        os.unlink(tmp)  # the file this call created, and only it
        raise
    return tmp


def atomic_write_bytes(path: str | os.PathLike, data: bytes, name: str = "path") -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same directory, fsync, rename).

    Refuses (DomainError naming ``name``) a target that is not a regular file, and turns every OS error (read-only
    or missing directory, a parent that is a file, a full disk) into a DomainError; the old file stays intact.
    The temporary file is unnamed until the rename where the OS allows it (:func:`_write_unnamed`), else a fresh
    ``mkstemp`` name; only that file is ever removed (a process killed mid-write may leave its ``.NAME.*.tmp``,
    which is safe to delete; dpbounds never deletes a file it did not create).
    """
    path = check_output_path(path, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _os_error(name, path, "a path in a writable directory", e) from None
    # keep the old file's mode, or the usual 0644 (less the umask) for a new one
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    except OSError as e:
        raise _os_error(name, path, "a writable regular file", e) from None
    tmp = None
    try:
        tmp = _write_unnamed(path, data, mode) or _write_named(path, data, mode, name)
        check_output_path(path, name)  # again just before the rename: a special file may have appeared
        os.replace(tmp, path)
        tmp = None
    except BaseException as exc:
        if tmp is not None:  # only ever the name this call created
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        if isinstance(exc, OSError):
            raise _os_error(name, path, "a writable regular file", exc) from None
        raise
    try:  # make the rename itself durable
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def atomic_write_text(path: str | os.PathLike, text: str, name: str = "path") -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically; see :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"), name)


def atomic_write_json(path: str | os.PathLike, obj: Any, name: str = "path") -> None:
    """Write ``obj`` as indented, key-sorted JSON to ``path`` atomically; see :func:`atomic_write_bytes`."""
    atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True) + "\n", name)


def read_bytes_bounded(path: str | os.PathLike, name: str = "path", max_bytes: int = MAX_INPUT_BYTES,
                       follow_symlinks: bool = True) -> bytes:
    """The contents of the regular file ``path`` (at most ``max_bytes``); DomainError otherwise.

    Devices, FIFOs, sockets and directories are refused before reading (a FIFO is opened non-blocking, so the
    call never waits for a writer); a file larger than ``max_bytes`` is refused without reading it all; with
    ``follow_symlinks=False`` a symbolic link is refused too (lstat, O_NOFOLLOW).
    """
    if isinstance(path_arg(path, name), str) and not path.strip():
        raise DomainError(name, path, "a non-empty file path", _INPUT)
    try:
        st = os.stat(path, follow_symlinks=follow_symlinks)  # before open(): opening some devices has side effects
        if not stat.S_ISREG(st.st_mode):
            raise DomainError(name, str(path), "a regular file", _INPUT, f"it is a {_kind(st.st_mode)}")
        nofollow = 0 if follow_symlinks else getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | nofollow | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise _os_error(name, path, "a readable regular file", e) from None
    try:
        st = os.fstat(fd)  # the file actually opened (the path may have changed since the stat)
        if not stat.S_ISREG(st.st_mode):
            raise DomainError(name, str(path), "a regular file", _INPUT, f"it is a {_kind(st.st_mode)}")
        if st.st_size > max_bytes:
            raise DomainError(name, str(path), f"a file of at most {max_bytes} bytes", _INPUT,
                              f"it has {st.st_size} bytes")
        chunks = []
        total = 0
        while True:
            b = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not b:
                break
            chunks.append(b)
            total += len(b)
            if total > max_bytes:
                raise DomainError(name, str(path), f"a file of at most {max_bytes} bytes", _INPUT, "it grew")
        return b"".join(chunks)
    except OSError as e:
        raise _os_error(name, path, "a readable regular file", e) from None
    finally:
        os.close(fd)


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """``object_pairs_hook`` for json.loads: the pairs as a dict, ValueError on a repeated key (json would keep the
    last one silently: a second ``"halted": false`` in a state file, a second ``"halt"`` in a golden record)."""
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k[:40]!r} appears twice")
        out[k] = v
    return out


def read_text_bounded(path: str | os.PathLike, name: str = "path", max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The contents of the regular file ``path`` as UTF-8 text (see :func:`read_bytes_bounded`); binary content
    (NUL bytes or invalid UTF-8) is a DomainError."""
    data = read_bytes_bounded(path, name, max_bytes)
    if b"\0" in data:
        raise DomainError(name, str(path), "a UTF-8 text file", _INPUT, "it holds NUL bytes (a binary file?)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DomainError(name, str(path), "a UTF-8 text file", _INPUT,
                          f"invalid UTF-8 at byte {e.start} (a binary file?)") from None


#: the longest line accepted on a text stream (a CSV round is a few numbers of at most 400 characters each)
MAX_LINE_CHARS = 64 << 10


def bounded_lines(stream, name: str = "stdin", max_chars: int = MAX_LINE_CHARS):
    """Yield the lines of a text stream, one at a time (constant memory), each at most ``max_chars`` long.

    A longer line (``/dev/zero`` on stdin, a binary file, a 128 KiB CSV field) or a NUL character raises
    DomainError naming the line, after reading at most ``max_chars + 1`` characters of it."""
    i = 0
    while True:
        try:
            line = stream.readline(max_chars + 1)
        except UnicodeDecodeError as e:
            raise DomainError(name, f"line {i + 1}", "UTF-8 text", _INPUT, f"invalid UTF-8 ({e.reason})") from None
        if not line:
            return
        i += 1
        if len(line) > max_chars:
            raise DomainError(name, f"line {i}", f"lines of at most {max_chars} characters", _INPUT,
                              "a longer line (a binary file?)")
        if "\0" in line:
            raise DomainError(name, f"line {i}", "text without NUL characters", _INPUT, "a binary file?")
        yield line
