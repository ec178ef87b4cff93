"""The logs supervisord keeps for each program, followed as they grow (and as it rotates them),
and its line for a program that ended, put in words."""
from __future__ import annotations

import re
import signal
from pathlib import Path

EXITED = re.compile(r"exited: (\S+) \((?:terminated by (SIG\w+)|exit status (\d+))[^;]*; (not )?expected\)")


class LogFollower:
    """Lines added to a log file that supervisord writes (and rotates by renaming it)."""

    def __init__(self, path: Path):
        self.path, self.offset, self.inode, self.buf = path, 0, None, b""
        if path.exists():   # a working directory used before (--workdir): only what is new
            st = path.stat()
            self.inode, self.offset = st.st_ino, st.st_size

    def lines(self) -> list[str]:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return []
        if st.st_ino != self.inode or st.st_size < self.offset:   # new or rotated: from its start
            self.inode, self.offset = st.st_ino, 0
        if st.st_size == self.offset:
            return []
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            chunk = f.read()
        self.offset += len(chunk)
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        return [line.decode("utf-8", "replace") for line in lines]


def unexpected_exit(line: str) -> tuple[str, str] | None:
    """A line of supervisord's log saying a program ended unexpectedly: (its name, how it ended
    in words: 'was killed by signal 9', 'exited with status 1'); None for any other line."""
    m = EXITED.search(line)
    if not m or m.group(4) is None:   # an expected stop (ours)
        return None
    name, sig, status = m.group(1), m.group(2), m.group(3)
    how = (f"was killed by signal {signal.Signals[sig].value}" if sig in signal.Signals.__members__
           else f"was killed by {sig}") if sig else f"exited with status {status}"
    return name, how
