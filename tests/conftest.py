import os
import time
import uuid
from pathlib import Path

import pytest

from tests.support import ROOT

# Tests never touch a user's library: each session gets its own SQLite file unless told otherwise
# (each pytest-xdist worker its own: two processes' tests must not see each other's scenarios).
# A session starts from an empty file: what a run before kept there (a variant made on the Rules
# page, a scenario) must not decide this run's tests.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
(ROOT / "test-artifacts").mkdir(exist_ok=True)
if "SCENARIO_DB_URL" not in os.environ:
    _library = ROOT / "test-artifacts" / f"scenarios-test-{_worker}.db"
    for _file in (_library, _library.with_name(_library.name + "-wal"), _library.with_name(_library.name + "-shm")):
        _file.unlink(missing_ok=True)
    os.environ["SCENARIO_DB_URL"] = f"sqlite:///{_library}"

# Every process a test starts inherits this process's own mark, so the session can check at its
# end that none is left (nothing_left_behind, below). Assigned, not inherited: each pytest-xdist
# worker has its own.
RUN_MARK = f"{_worker}-{uuid.uuid4().hex}"
os.environ["GRANTS_TEST_RUN"] = RUN_MARK

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


@pytest.fixture(scope="session", autouse=True)
def nothing_left_behind():
    """When the session ends (each worker's, after every other fixture's teardown): no PostgreSQL
    database this process made is left on the server, and no process a test started (a server,
    nginx, a browser, a container's monitor) is alive."""
    yield
    from tests.support.store import left_behind
    deadline = time.monotonic() + 15   # a server told to stop a moment ago may still be exiting
    while (alive := _started_here()) and time.monotonic() < deadline:
        time.sleep(0.5)
    databases = left_behind()
    assert not databases and not alive, (f"left behind by the tests: PostgreSQL databases {databases}, "
                                         f"processes {alive}")


def _started_here() -> list[str]:
    """The processes alive (not zombies) whose environment holds this process's RUN_MARK."""
    found = []
    needle = f"GRANTS_TEST_RUN={RUN_MARK}".encode()
    for proc in Path("/proc").glob("[0-9]*"):
        if proc.name == str(os.getpid()):
            continue
        try:
            if needle not in (proc / "environ").read_bytes().split(b"\0"):
                continue
            stat = (proc / "stat").read_text()
        except OSError:   # gone, or not ours to read
            continue
        if stat.rsplit(")", 1)[1].split()[0] != "Z":
            found.append(f"{proc.name} {stat[stat.index('(') + 1:stat.rindex(')')]}")
    return found


# Each folder of tests is a kind of test; its marker is set here, so `-m` selects them
# (docs/testing.md): the fast loop is -m "not browser and not nginx and not postgres".
FOLDER_MARKS = {"browser": ("browser", "slow"), "deploy": ("slow",), "law": ("mutation",)}

# The two tiers (docs/testing.md, "Two tiers"). A test is in the whole suite only (marked `whole`)
# when it is any of these kinds, unless it is marked `default`: the few browser tests that keep
# every page's axe check in the default tier, say. Everything else is in the default tier, so a
# new test lands by its folder and markers: a fast test in the default, a slow one (a server,
# a browser, a subprocess, a long property run) in the whole suite.
WHOLE_KINDS = ("slow", "browser", "postgres", "nginx", "container")


def pytest_addoption(parser):
    parser.addoption("--whole", action="store_true", default=False,
                     help="run the whole suite: the default tier and every test marked `whole` (docs/testing.md)")


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist reads the groups (a plugin registered after this file)
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
        # a case run on PostgreSQL, however its test names the parameter (`url`'s own is marked already)
        params = getattr(getattr(item, "callspec", None), "params", {}).values()
        if any(isinstance(value, str) and value == "postgresql" for value in params):
            item.add_marker("postgres")
        if not item.get_closest_marker("default") and any(item.get_closest_marker(k) for k in WHOLE_KINDS):
            item.add_marker("whole")
        item.add_marker(pytest.mark.xdist_group(_group(item)))
    if _default_tier(config):
        keep = [i for i in items if not i.get_closest_marker("whole")]
        if len(keep) < len(items):
            config.hook.pytest_deselected(items=[i for i in items if i.get_closest_marker("whole")])
            items[:] = keep


def _default_tier(config) -> bool:
    """`python -m pytest` alone runs the default tier. `--whole` runs everything; so does a run that
    names what it wants (a file or folder, `-m`, `-k`): it is chosen from the whole suite."""
    if config.getoption("whole") or config.getoption("markexpr") or config.getoption("keyword"):
        return False
    return config.args_source != pytest.Config.ArgsSource.ARGS


def _group(item) -> str:
    """Which tests one pytest-xdist worker runs one after another (`--dist loadgroup`): a module's
    tests together, as `loadfile` would (a module's fixtures are made once, and its tests may
    share what they make). The team deployment (nginx) and the container stack also run one
    module after the other, on one worker: each of them runs several servers, a browser and
    (the stack) a database at once, and two of them side by side on 2 cores starve each other.
    The sign-in journeys join them: beside the stack's builds, a first page after signing in
    waited out its 120 s twice in two whole runs (a different test each time), alone never."""
    if any(item.get_closest_marker(kind) for kind in ("container", "nginx")) or item.path.name == "test_signin.py":
        return "deployments"
    return item.path.relative_to(ROOT).as_posix()
