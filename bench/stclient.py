"""The websocket client of the benchmarks lives in tools/stclient.py, shared with the tests
(tests do not import from bench/); this name stays for the benchmarks that import it."""
from tools.stclient import Run, Session  # noqa: F401
