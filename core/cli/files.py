"""Files the CLI writes: whole or not at all, never over its own input, never two outputs
on one path, an existing file replaced only when asked (--force), and a temporary file
that cannot be a link planted by someone else. `-` is standard output, as it is standard
input where a command reads a file (one output at most may go there).

The temporary file is made by `tempfile.mkstemp` in the target's folder: a fresh name
opened with O_CREAT|O_EXCL, so an existing file or symbolic link of that name is never
opened, let alone followed. It is flushed to disk and renamed over the target with
`os.replace`, which replaces a link at the target path rather than writing through it.
On any failure the temporary file is removed. A target that is neither a regular file nor a link
(a device such as /dev/null, a pipe, a socket) is refused, even with --force: renaming over it
would replace the device itself.
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path


class WriteError(ValueError):
    """An output cannot be written as asked; one line saying why."""


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_outputs(outputs: dict[str, str], inputs: list[str], force: bool) -> None:
    """Refuse before any work is done: `outputs` maps the option (-o, --pdf) to its path."""
    seen: dict[str, str] = {}
    for option, path in outputs.items():
        if path is None:
            continue
        if not str(path).strip():
            raise WriteError(f"{option}: no file name given; write {option} FILE, or {option} - for standard output")
        if path == "-":
            if "-" in seen:
                raise WriteError(f"{option} -: standard output already takes {seen['-']}; write one of them to a file")
            seen["-"] = f"{option} -"
            continue
        target = Path(path)
        key = os.path.realpath(target)
        if key in seen:
            raise WriteError(f"{option} {path}: the same file as {seen[key]}; give each output its own file")
        seen[key] = f"{option} {path}"
        for src in inputs:
            if src != "-" and (os.path.realpath(src) == key or _same(Path(src), target)):
                raise WriteError(f"{option} {path}: that is the input file; write the output to another file")
        if target.is_dir():
            raise WriteError(f"{option} {path}: is a folder; give a file name")
        if not target.parent.is_dir():
            raise WriteError(f"{option} {path}: the folder {target.parent} does not exist")
        if _special(target):
            raise WriteError(f"{option} {path}: not a regular file (a device, a pipe or a socket), which --force "
                             f"would replace; give a file name, or {option} - for standard output")
        if (target.exists() or target.is_symlink()) and not force:
            raise WriteError(f"{option} {path}: already exists; use --force to replace it")


def _special(target: Path) -> bool:
    """Whether `target` is there and neither a regular file nor a link (a link is replaced, not followed)."""
    try:
        mode = os.lstat(target).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISLNK(mode))


def shown(path: str) -> str:
    """An output as the status line names it."""
    return "standard output" if path == "-" else path


def write_atomic(path: str, data: bytes) -> None:
    """Write `data` to `path` whole, through a fresh temporary file in the same folder; `-`:
    to standard output."""
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise WriteError(f"{path}: cannot write ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        if _special(target):   # became one since the check: never rename over /dev/null or a pipe
            raise WriteError(f"{path}: not a regular file (a device, a pipe or a socket); not replaced")
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise WriteError(f"{path}: cannot write ({exc.strerror})") from None
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
