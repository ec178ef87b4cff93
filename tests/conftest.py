import os

import pytest

from tests.support import ROOT

# Tests never touch a user's library: each session gets its own SQLite file unless told otherwise
# (each pytest-xdist worker its own: two processes' tests must not see each other's scenarios).
_worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
os.environ.setdefault("SCENARIO_DB_URL", f"sqlite:///{ROOT / 'test-artifacts' / f'scenarios-test-{_worker}.db'}")
(ROOT / "test-artifacts").mkdir(exist_ok=True)

# Tests never assert on time: on a busy CI machine a single slow draw must not fail a
# property test (a 1.5 s stall once tripped Hypothesis's too_slow check), nor a slow example.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("no-timing", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Mutation testing (tools/mutation.py) runs the suite once per mutant: the same draws every time
# (a score that does not move between runs), fewer of them, no example database. The boundaries
# that matter are pinned as @example and run whatever the profile.
settings.register_profile("mutation", parent=settings.get_profile("no-timing"), max_examples=25,
                          derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "no-timing"))

# The shared fixtures (tests/support): the scenario library on SQLite and PostgreSQL, a page's own library.
from tests.support.browser import chromium  # noqa: E402,F401
from tests.support.store import db, store, url  # noqa: E402,F401


# Each folder of tests is a kind of test; its marker is set here, so `-m` selects them
# (docs/testing.md): the fast loop is -m "not browser and not nginx and not postgres".
FOLDER_MARKS = {"browser": ("browser", "slow"), "deploy": ("slow",), "law": ("mutation",)}


def pytest_collection_modifyitems(config, items):
    for item in items:
        folder = item.path.relative_to(ROOT / "tests").parts[0]
        for mark in FOLDER_MARKS.get(folder, ()):
            if mark == "mutation" and item.get_closest_marker("slow"):
                continue   # a slow law test (a subprocess, a long property run) is not in each mutant's run
            item.add_marker(mark)
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker("browser")
        # tests/deploy/test_team.py's `team` (tests/store has a fixture of that name too: a library, no nginx)
        if folder == "deploy" and ("team" in getattr(item, "fixturenames", ()) or "test_team" in item.path.name):
            item.add_marker("nginx")
        if "pod" in getattr(item, "fixturenames", ()) or "test_container" in item.path.name:
            item.add_marker("container")
        item.add_marker(pytest.mark.xdist_group(_group(item)))


def _group(item) -> str:
    """Which tests one pytest-xdist worker runs one after another (`--dist loadgroup`): a module's
    tests together, as `loadfile` would (a module's fixtures are made once, and its tests may
    share what they make), and every test that starts Chromium, nginx or the container stack on
    one worker, in the order they were collected, as in a run without xdist (when Chromium's, nginx's and
    the stack's tests each had a worker of their own and ran side by side, six of them failed:
    sign-in, the proxy's request log, the stack's drills)."""
    if any(item.get_closest_marker(kind) for kind in ("container", "nginx", "browser")):
        return "one-at-a-time"
    return item.path.relative_to(ROOT).as_posix()
