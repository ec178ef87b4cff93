"""Run `streamlit run SCRIPT ...` under cProfile in every thread, for bench/profile_move.py.

SIGUSR1 starts recording (threads started from then on, and the server's own thread);
SIGUSR2 stops it and writes the merged statistics to $PROFILE_OUT. Not for production use."""
import cProfile
import os
import signal
import sys
import threading
import time

from streamlit.web import cli

_on = False
_profiles: list[tuple[str, cProfile.Profile]] = []
_main = cProfile.Profile(time.thread_time)   # CPU time: waits for the GIL are not counted


def _hook(frame, event, arg):  # the first event of each new thread: give it a profiler of its own
    sys.setprofile(None)
    if _on:
        p = cProfile.Profile(time.thread_time)
        _profiles.append((threading.current_thread().name, p))
        p.enable()


def _start(*_):
    global _on
    _on = True
    _main.enable()


def _stop(*_):
    global _on
    _on = False
    _main.disable()
    import pstats
    stats = pstats.Stats(_main)
    for _, p in _profiles:
        stats.add(p)
    stats.dump_stats(os.environ["PROFILE_OUT"])
    with open(os.environ["PROFILE_OUT"] + ".threads", "w") as f:
        f.write("\n".join(name for name, _ in _profiles))


threading.setprofile(_hook)
signal.signal(signal.SIGUSR1, _start)
signal.signal(signal.SIGUSR2, _stop)
sys.argv = ["streamlit", "run", *sys.argv[1:]]
sys.exit(cli.main())
