"""The container stack end to end (docs/deploy.md, "Containers"): the three images built from
./Containerfile by `deploy/stack build`, the pod of deploy/grants-stack.yaml started by
`deploy/stack up` (PostgreSQL, two replicas, nginx), driven through nginx by Chromium, backed up,
stopped and started again on its volume.

Needs podman with runc, debootstrap (only to make the base image when there is none) and
Chromium. Where one is missing these tests skip with the reason, unless REQUIRE_CONTAINER=1 (CI),
where it is a failure. Podman runs as this machine needs it (docs/deploy.md, "Containers on a
host like the CI's"): PODMAN, CONTAINERS_CONF and BUILD_OPTS from the environment, else
`podman --runtime <runc>` with a containers.conf written under test-artifacts/."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.request
import uuid

import pytest

from harness.serve import free_port
from tests.support import ROOT
from tests.support.browser import no_error_on
from tests.support.deploy import QUERY, REPLICAS, Session, get, save


pytestmark = [pytest.mark.container, pytest.mark.slow]


STACK = ROOT / "deploy" / "stack"


ARTIFACTS = ROOT / "test-artifacts"


BASE = "localhost/debian-py:base"


CONTAINERS_CONF = """\
[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
"""


TIMES: dict[str, float] = {}


def _missing(reason: str):
    if os.environ.get("REQUIRE_CONTAINER") == "1":
        pytest.fail(f"REQUIRE_CONTAINER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def podman_env() -> dict:
    """The environment deploy/stack runs podman with on this machine."""
    podman = shutil.which("podman")
    runc = shutil.which("runc") or next((p for p in ("/usr/sbin/runc",) if os.access(p, os.X_OK)), None)
    if podman is None:
        _missing("podman not found (apt-get install podman runc debootstrap) for the container stack tests")
    if runc is None:
        _missing("runc not found (apt-get install runc): podman's default runtime fails on hosts like this one")
    env = dict(os.environ)
    env.setdefault("PODMAN", f"{podman} --runtime {runc}")
    if "CONTAINERS_CONF" not in env:
        conf = ARTIFACTS / "containers.conf"
        conf.write_text(CONTAINERS_CONF)
        env["CONTAINERS_CONF"] = str(conf)
    env.setdefault("BUILD_OPTS", "--network=host -v /etc/ssl/certs:/run/host-certs:ro")
    if not env.get("BASE") and _podman(env, "image", "exists", BASE).returncode != 0 and not shutil.which("debootstrap"):
        _missing(f"no {BASE} image and no debootstrap to make it (apt-get install debootstrap)")
    return env


def _podman(env: dict, *args: str, check: bool = False, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(env["PODMAN"].split() + list(args), env=env, capture_output=True, text=True,
                          check=check, **kw)


def stack(env: dict, *args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
    """deploy/stack as docs/deploy.md shows it; its output goes to test-artifacts/."""
    with open(ARTIFACTS / f"stack-{args[0]}.log", "a") as log:
        log.write(f"\n$ deploy/stack {' '.join(args)}\n")
        log.flush()
        t0 = time.monotonic()
        run = subprocess.run([str(STACK), *args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                             timeout=timeout)
        TIMES[f"deploy/stack {args[0]}"] = TIMES.get(f"deploy/stack {args[0]}", 0) + time.monotonic() - t0
    assert run.returncode == 0, (ARTIFACTS / f"stack-{args[0]}.log").read_text()[-4000:]
    return run


@pytest.fixture(scope="module")
def images(podman_env):
    stack(podman_env, "build")
    yield podman_env
    (ARTIFACTS / "container-times.json").write_text(json.dumps(TIMES, indent=2))


def wait_healthy(url: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5) as r:
                if r.read() == b"ok":
                    return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{url}/healthz did not answer within {timeout} s"
        time.sleep(1)


class Stack:
    def __init__(self, env: dict, name: str, port: int):
        self.env, self.name, self.port = env, name, port
        self.url = f"http://127.0.0.1:{port}"

    def up(self) -> None:
        t0 = time.monotonic()
        stack(self.env, "up", "--name", self.name, "--port", str(self.port), "--address", "127.0.0.1")
        wait_healthy(self.url)
        TIMES.setdefault("stack up until /healthz answers", time.monotonic() - t0)

    def down(self) -> None:
        stack(self.env, "down", "--name", self.name)

    def exec(self, container: str, *cmd: str, check: bool = True, **kw) -> subprocess.CompletedProcess:
        return _podman(self.env, "exec", f"{self.name}-{container}", *cmd, check=check, **kw)


@pytest.fixture(scope="module")
def pod(images):
    s = Stack(images, f"grants-test-{uuid.uuid4().hex[:6]}", free_port())
    try:
        s.up()
        yield s
    finally:
        for c in ("db", "replica-1", "replica-2", "proxy"):   # what each said, for a failure's reader
            logs = _podman(images, "logs", f"{s.name}-{c}")
            (ARTIFACTS / f"container-{c}.log").write_text(logs.stdout + logs.stderr)
        subprocess.run([str(STACK), "down", "--name", s.name], cwd=ROOT, env=images, capture_output=True)
        _podman(images, "volume", "rm", "-f", f"{s.name}-db")
        _podman(images, "secret", "rm", f"{s.name}-secrets")


def test_the_images_run_as_their_own_users_and_hold_no_secret(images):
    for image, user in (("grants-app", "grants"), ("grants-proxy", "grants-proxy"), ("grants-db", "postgres")):
        inspected = json.loads(_podman(images, "image", "inspect", f"localhost/{image}:latest", check=True).stdout)[0]
        config = inspected["Config"]
        assert config["User"] == user
        env = " ".join(config.get("Env") or [])
        assert not any(k in env for k in ("SCENARIO_DB_URL", "COOKIE_SECRET", "POSTGRES_PASSWORD", "PASSWORD"))
        assert inspected["Healthcheck"]["Test"][0] == "CMD"     # kept: built with --format docker
    app = json.loads(_podman(images, "image", "inspect", "localhost/grants-app:latest", check=True).stdout)[0]
    assert app["Healthcheck"]["Test"][1:] == ["python3", "deploy/healthcheck"]
    # the pinned requirements, as requirements.txt says
    frozen = _podman(images, "run", "--rm", "localhost/grants-app:latest", "pip", "freeze", check=True).stdout.lower()
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        pin = line.split("#")[0].strip().lower()
        if pin:
            assert pin.replace("_", "-") in frozen.replace("_", "-"), pin


def test_every_container_answers_its_health_check(pod):
    status, headers, body = get(pod.url + "/healthz")
    assert (status, body) == (200, b"ok") and headers["X-Served-By"] in REPLICAS
    for c in ("db", "replica-1", "replica-2", "proxy"):   # the database may still be making its cluster
        deadline = time.monotonic() + 90
        while (run := _podman(pod.env, "healthcheck", "run", f"{pod.name}-{c}")).returncode != 0:
            assert time.monotonic() < deadline, (c, run.stdout, run.stderr)
            time.sleep(2)
    assert pod.exec("replica-1", "id", "-un").stdout.strip() == "grants"
    assert pod.exec("proxy", "id", "-un").stdout.strip() == "grants-proxy"
    # the secret reached the replicas from the environment: the same cookie secret on both
    secrets = {pod.exec(r, "printenv", "STREAMLIT_SERVER_COOKIE_SECRET").stdout for r in REPLICAS}
    assert len(secrets) == 1 and len(secrets.pop().strip()) >= 32


def test_affinity_and_security_headers_through_the_stacks_nginx(pod):
    seen = {}
    for _ in range(6):
        _, headers, _ = get(pod.url + "/")
        name = headers["X-Served-By"]
        cookie = next(c for c in headers.get_all("Set-Cookie") if c.startswith("grants_replica="))
        seen[name] = cookie.split(";")[0]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
    assert set(seen) == set(REPLICAS)
    for name, cookie in seen.items():
        assert {get(pod.url + p, cookie)[1]["X-Served-By"] for p in ("/", "/_stcore/health", "/")} == {name}


@pytest.fixture(scope="module")
def sessions(pod, chromium):  # noqa: F811
    found: dict[str, Session] = {}
    for _ in range(12):
        s = Session(chromium, pod.url, QUERY)
        if s.replica in found:
            s.context.close()
        else:
            found[s.replica] = s
        if len(found) == 2:
            break
    yield found
    for s in found.values():
        s.context.close()


def test_an_award_through_nginx_on_each_replica(sessions):
    assert set(sessions) == set(REPLICAS)
    for name, s in sessions.items():
        assert s.award() == "$500,000"
        assert s.page.evaluate("() => window.__csp") == []
        # Plotly.js from the proxy's copy loaded and drew both charts
        s.page.wait_for_function("() => document.querySelectorAll('.gc-plot .main-svg').length >= 2",
                                 timeout=60_000)
        no_error_on(s.page)


def test_a_scenario_saved_through_one_replica_is_seen_through_the_other(pod, sessions):
    name = f"Saved in the stack {uuid.uuid4().hex[:6]}"
    save(sessions["replica-1"], name)
    other = sessions["replica-2"]
    other.go("Compare scenarios")
    other.page.wait_for_selector(f"text={name}", timeout=30_000)
    no_error_on(other.page)
    pod.saved = name


def test_a_restart_of_the_stack_keeps_the_library_and_a_backup_restores(pod, sessions, tmp_path):
    name = pod.saved
    for s in sessions.values():
        s.context.close()
    sessions.clear()
    status = subprocess.run([str(STACK), "status", "--name", pod.name], cwd=ROOT, env=pod.env,
                            capture_output=True, text=True)
    assert all(f"{pod.name}-{c}" in status.stdout for c in ("db", "replica-1", "replica-2", "proxy")), status
    pod.down()
    assert _podman(pod.env, "pod", "exists", pod.name).returncode != 0
    assert _podman(pod.env, "volume", "exists", f"{pod.name}-db").returncode == 0
    pod.up()
    listed = pod.exec("replica-2", "python", "-m", "core", "scenarios", "list").stdout
    assert name in listed
    # the stack's backup: a dated pg_dump of the library and its JSON export
    stack(pod.env, "backup", "--name", pod.name, str(tmp_path))
    day = time.strftime("%Y-%m-%d")
    dump, export = tmp_path / f"library-{day}.pgdump", tmp_path / f"scenarios-{day}.json"
    assert name in {s["name"] for s in json.loads(export.read_text())["scenarios"]}
    if shutil.which("pg_restore"):
        toc = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=True).stdout
        assert "TABLE DATA public history" in toc and "TABLE DATA public scenarios" in toc
    print("container stack timings (s):", json.dumps({k: round(v, 1) for k, v in TIMES.items()}))


def test_the_server_setup_of_docs_deploy_md_makes_the_account_and_folders_the_units_expect(images):
    """docs/deploy.md, "A server with systemd and nginx": its account-and-folders block, run as
    root in a fresh Debian (the base image), leaves each folder with the owner and mode the units need."""
    from tests.support.deploy import setup_block
    check = ("stat -c '%n %U %G %a' /opt/grants /opt/grants/data /etc/grants /etc/grants/env "
             "/var/backups/grants /var/log/grants; id grants; grep -c = /etc/grants/env")
    done = _podman(images, "run", "--rm", "--network=none", BASE, "bash", "-euc", setup_block() + check)
    assert done.returncode == 0, done.stdout + done.stderr
    got = done.stdout.splitlines()
    assert got[:6] == ["/opt/grants root root 755", "/opt/grants/data grants grants 750",
                       "/etc/grants root grants 750", "/etc/grants/env root grants 640",
                       "/var/backups/grants grants grants 700", "/var/log/grants root adm 750"]
    assert "(grants)" in got[6] and got[7] == "2"
