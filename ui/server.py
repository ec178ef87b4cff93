"""Tuning of the serving process that Streamlit's settings do not reach."""
from __future__ import annotations

import gc
import importlib
import os
import socket
import stat
import sys
import threading

_lock = threading.Lock()
_done = False
_settled = False


def _fd_dir() -> str | None:
    for path in ("/proc/self/fd", "/dev/fd"):
        if os.path.isdir(path):
            return path
    return None


def disable_nagle() -> int:
    """Turn off Nagle's algorithm on this process's TCP sockets, once per process.

    Streamlit 1.67 binds its listening socket with protocol number 0, and asyncio only sets
    TCP_NODELAY on connections whose protocol is TCP. With Nagle on, each small websocket
    message that follows another waits for the browser's delayed ACK: measured with
    harness/stclient.py, the award reached the client ~40 ms after the server had sent it.
    Connections accepted later inherit the option from the listening socket.
    Returns how many sockets were changed (0 when there is nothing to list fds from).
    """
    global _done
    with _lock:
        if _done:
            return 0
        _done = True
    fd_dir = _fd_dir()
    changed = 0
    for name in os.listdir(fd_dir) if fd_dir else ():
        try:
            fd = int(name)
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
            # a duplicate descriptor: closing it leaves the owner's socket open
            with socket.socket(fileno=os.dup(fd)) as s:
                if s.family in (socket.AF_INET, socket.AF_INET6) and s.type == socket.SOCK_STREAM:
                    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    changed += 1
        except (OSError, ValueError):
            continue   # closed meanwhile, or not a socket we can tune: leave it as it is
    return changed


def send_at_once() -> bool:
    """Have Streamlit's runtime send each queued message as soon as it is queued (a module setting:
    setting it again on each run costs nothing). Returns whether the setting was found (False: a
    Streamlit without it, nothing changed).

    Streamlit 1.67's runtime loop sends every session's queued messages, then sleeps 5 ms
    (`MESSAGE_FLUSH_INTERVAL_SECS`: defined in `runtime_util`, imported into `runtime`, whose copy
    `Runtime._loop_coroutine` reads on each pass; that copy is the one set here) before it looks again. A message queued during that sleep waits for its end. Under 30
    users the loop is woken by some session's run most of the time, so a move's award often waited
    for a pass over other sessions' messages to end: with the sleep at 0 the award's median under
    30 users fell from 8.4-9.1 ms to 5.7-6.6 ms, with the same server CPU (docs/performance.md,
    "The runtime's 5 ms pause"). The messages keep their order; only the pause between passes
    goes. The loop still waits, without spinning, until a run queues the next message. The bare
    app and the peer in bench/ are served with it too, so that a ratio measures the apps."""
    from streamlit.runtime import runtime as runtime_module
    if not isinstance(getattr(runtime_module, "MESSAGE_FLUSH_INTERVAL_SECS", None), (int, float)):
        return False
    runtime_module.MESSAGE_FLUSH_INTERVAL_SECS = 0.0
    return True


def serving_settings() -> None:
    """The settings every app of ours is served with: the dashboard, and bench/'s bare app and
    peer, so that a ratio between them measures the apps, not the server (Nagle off, no pause
    between the runtime's sends). The collector's setting is settle_heap, called where each app
    has loaded what it needs."""
    disable_nagle()
    send_at_once()


def settle_heap(modules: tuple[str, ...] = ()) -> int:
    """Import `modules`, then move everything alive into the collector's permanent generation,
    once per process; returns how many objects were frozen (0 after the first call).

    Python's full (gen2) collection walks every tracked object, and a Streamlit server holds
    millions (Streamlit, pandas, numpy, Plotly): each full collection stopped the process for
    60-107 ms, and any slider move arriving meanwhile waited that long (bench/load.py --team 2:
    p95 38 ms against 8 ms alone). Frozen objects are never walked again; what sessions make
    afterwards is collected as before. The pages' heavy modules are imported first so that
    they are frozen too, not walked in every session's full collection.
    """
    global _settled
    with _lock:
        if _settled:
            return 0
        _settled = True
        for name in modules:
            importlib.import_module(name)
        gc.collect()   # what is garbage now must not be frozen with the rest
        gc.freeze()
        return gc.get_freeze_count()


def settled() -> bool:
    """Whether settle_heap has run in this process (dashboard.py: after its first complete run)."""
    return _settled


_refused: dict[str, set[str]] = {}   # session id -> ids of widgets whose value could not be read
_guarded = False


def guard_widget_values() -> bool:
    """Refuse a widget value the page sent that cannot be read, instead of failing the run; once
    per process. Returns whether this call installed the guard.

    A browser reports each widget's value; the custom elements' values are JSON text, which
    Streamlit 1.67 parses (runtime.state.common.unpack_widget_state_value) before any code of the
    app runs. A page other than ours could send text that is not JSON (JSONDecodeError), JSON
    nested 200,000 deep (RecursionError) or a 5,000-digit number (ValueError): each ended the run
    of that session with a traceback. Now such a value reads as none (the widget's default) and
    the page says that it was refused (`refused_values`)."""
    global _guarded
    with _lock:
        if _guarded:
            return False
        from streamlit.runtime.state import session_state as state_module
        original = getattr(state_module, "unpack_widget_state_value", None)
        if original is None:   # a Streamlit that reads values elsewhere: nothing to guard here
            return False
        _guarded = True

    def unpack(widget_state):
        try:
            return original(widget_state)
        except (ValueError, RecursionError, TypeError, MemoryError):   # JSONDecodeError is a ValueError
            _note_refused(widget_state.id)
            return None

    state_module.unpack_widget_state_value = unpack
    return True


def _note_refused(widget_id: str) -> None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        with _lock:
            _refused.setdefault(ctx.session_id, set()).add(widget_id)


def refused_values() -> list[str]:
    """Ids of this session's widgets whose value was refused since the last call."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return []
    with _lock:
        return sorted(_refused.pop(ctx.session_id, ()))


def hint(argv: list[str]) -> str:
    """Where the dashboard opens, for the person who started it (port from the arguments or 8501)."""
    port, address = "8501", "localhost"
    for i, arg in enumerate(argv):
        for name in ("port", "address"):
            flag = f"--server.{name}"
            value = arg.split("=", 1)[1] if arg.startswith(flag + "=") else (
                argv[i + 1] if arg == flag and i + 1 < len(argv) else None)
            if value and name == "port":
                port = value
            elif value and name == "address" and value not in ("0.0.0.0", "::"):
                address = value
    return (f"\n  The grant dashboard is starting. Open http://{address}:{port}/ in a web browser:\n"
            f"  it opens on the Calculator; the other pages are in the sidebar. Stop it with Ctrl+C.\n")


USAGE = """usage: python dashboard.py [--server.port PORT] [--server.address ADDRESS] [other options of streamlit run]

The State capital grant dashboard: the Calculator, Compare scenarios, Sensitivity, Portfolio and
Rules pages in a web browser. It prints the address it opens at (http://localhost:8501/ unless
told otherwise) and serves until Ctrl+C.

options:
  -h, --help                  show this help and exit
  --server.port PORT          the port to listen on (default 8501), for example --server.port 8502
                              when 8501 is taken
  --server.address ADDRESS    the address to listen on (default: this machine only); to serve a
                              team, see docs/deploy.md
  Every other option of `streamlit run` is passed on (`streamlit run --help` lists them).

The board report's PDF packet (Compare, Calculator, Portfolio) needs Chrome or Chromium on this
machine (BROWSER_PATH, or chromium on the PATH); the HTML report and the slides (PowerPoint) do not.
"""


def serve(script: str, argv: list[str]) -> int:
    """`python dashboard.py [streamlit options]`: say where the app opens, then serve it; `--help`
    says the dashboard's own options (not a start message followed by Streamlit's help)."""
    if any(arg in ("-h", "--help") for arg in argv):
        print(USAGE, end="")
        return 0
    print(hint(argv), flush=True)
    from streamlit.web import cli
    sys.argv = ["streamlit", "run", script, *argv]
    return cli.main()
