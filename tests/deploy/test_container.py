"""The container stack end to end (docs/deploy.md, "Containers"): the three images built from
./Containerfile by `deploy/stack build`, the pod of deploy/grants-stack.yaml started by
`deploy/stack up` (PostgreSQL, two replicas, nginx), driven through nginx by Chromium, backed up,
stopped and started again on its volume, its backup restored inside the pod after the library is
lost, and started again with sign-in through a real OpenID Connect provider.

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
from tests.support import ROOT, project_python_first
from tests.support.browser import ACCESS_CONTACT, no_error_on, signin_settings
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
def podman_env(tmp_path_factory) -> dict:
    """The environment deploy/stack runs podman with on this machine (its `python3` the tests' own)."""
    podman = shutil.which("podman")
    runc = shutil.which("runc") or next((p for p in ("/usr/sbin/runc",) if os.access(p, os.X_OK)), None)
    if podman is None:
        _missing("podman not found (apt-get install podman runc debootstrap) for the container stack tests")
    if runc is None:
        _missing("runc not found (apt-get install runc): podman's default runtime fails on hosts like this one")
    env = project_python_first(dict(os.environ), tmp_path_factory.mktemp("python"))
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
        for secret in ("secrets", "signin"):
            _podman(images, "secret", "rm", f"{s.name}-{secret}")


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


def test_up_refuses_every_address_without_sign_in_and_starts_nothing(images):
    name = f"grants-open-{uuid.uuid4().hex[:6]}"
    done = subprocess.run([str(STACK), "up", "--name", name, "--port", str(free_port())], cwd=ROOT, env=images,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "refusing to publish the dashboard on every address of this host without sign-in" in done.stderr
    assert _podman(images, "pod", "exists", name).returncode != 0
    assert _podman(images, "secret", "inspect", f"{name}-secrets").returncode != 0


def _library(pod) -> tuple[list, list]:
    """The stack's library as the command line reads it in a replica: every scenario (as exported,
    owners and dates included) and the whole history."""
    for _ in range(60):   # a pod just up on a new volume: its database may still be making itself
        try:
            export = json.loads(pod.exec("replica-1", "python", "-m", "core", "scenarios", "export", "-o", "-").stdout)
            break
        except subprocess.CalledProcessError as err:
            if "Connection refused" not in (err.stderr or "") and "the database system is starting up" not in (err.stderr or ""):
                raise
            time.sleep(2)
    else:
        raise AssertionError("the stack's database never answered in 120 s")
    history = json.loads(pod.exec("replica-1", "python", "-m", "core", "scenarios", "history", "--json").stdout)
    return export["scenarios"], history


def test_the_stacks_backup_restores_inside_the_pod_after_its_library_is_lost(pod, tmp_path):
    """docs/deploy.md, "Backups and the restore drill", for the stack: back up, lose the library
    (the volume removed), start again on an empty one, `deploy/stack restore FILE --check`, and
    every scenario and history event is back as it was."""
    pod.exec("replica-1", "python", "-m", "core", "scenarios", "--as", "drill@example.org", "duplicate",
             pod.saved, "Copied before the backup")
    scenarios, history = _library(pod)
    assert len(scenarios) >= 2 and len(history) >= 2
    backups = tmp_path / "backups"
    stack(pod.env, "backup", "--name", pod.name, str(backups))
    day = time.strftime("%Y-%m-%d")
    dump, saved = backups / f"library-{day}.pgdump", backups / f"scenarios-{day}.json"
    assert backups.stat().st_mode & 0o777 == 0o700
    assert {f.stat().st_mode & 0o777 for f in (dump, saved)} == {0o600}   # people's addresses are in them
    pod.down()
    _podman(pod.env, "volume", "rm", f"{pod.name}-db", check=True)            # the library is lost
    pod.up()
    assert _library(pod) == ([], [])                                          # an empty one in its place
    stack(pod.env, "restore", "--name", pod.name, str(dump), "--check", str(saved))
    log = (ARTIFACTS / "stack-restore.log").read_text()
    assert f"{len(scenarios)} scenarios and {len(history)} history events restored" in log
    assert "every scenario equals" in log and "restored: the stack serves the library of" in log
    wait_healthy(pod.url)
    assert _library(pod) == (scenarios, history)                              # every owner, date and event
    kept = pod.exec("db", "psql", "-U", "grants", "-d", "postgres", "-Atc",
                    "SELECT datname FROM pg_database WHERE datname LIKE 'grants_replaced_%'").stdout.split()
    assert len(kept) == 1                                                     # the emptied one, kept beside it
    # and the restored library takes changes
    pod.exec("replica-2", "python", "-m", "core", "scenarios", "--as", "drill@example.org", "delete",
             "Copied before the backup")
    assert "Copied before the backup" not in pod.exec("replica-1", "python", "-m", "core", "scenarios", "list").stdout


USERS = {"alice": {"sub": "alice", "email": "alice@example.org", "name": "Alice Analyst"},
         "carol": {"sub": "carol", "email": "carol@outside.example", "name": "Carol Outsider"}}
CONTACT = ACCESS_CONTACT


def _host_address() -> str:
    """This host's own address on its network, which both a browser here and the pod's containers
    reach (the pod's 127.0.0.1 is its own)."""
    import socket
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))   # no packet is sent: this picks the outgoing interface
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


@pytest.fixture(scope="module")
def provider():
    """`python -m oidc_provider_mock` as docs/deploy.md starts it for the stack: on this host's
    address, so that the replicas fetch its configuration and tokens and the browser signs in there."""
    import sys
    host = _host_address()
    if host.startswith("127."):
        _missing("this host has no address but loopback: the pod cannot reach a sign-in provider on it")
    try:
        import oidc_provider_mock  # noqa: F401
    except ImportError:
        _missing("oidc-provider-mock is not installed (pip install -r requirements-dev.txt)")
    port = free_port()
    cmd = [sys.executable, "-m", "oidc_provider_mock", "--host", host, "--port", str(port)]
    for claims in USERS.values():
        cmd += ["--user-claims", json.dumps(claims)]
    log = open(ARTIFACTS / "oidc-provider-stack.log", "w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://{host}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/.well-known/openid-configuration", timeout=2)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "oidc-provider-mock did not start"
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def _sign_in(browser, url: str, who: str, address: str = "/"):
    context = browser.new_context(viewport={"width": 1400, "height": 2000})
    page = context.new_page()
    page.goto(url + address, timeout=120_000)
    page.get_by_role("button", name="Sign in").click(timeout=120_000)
    page.wait_for_url("**/oauth2/authorize?**", timeout=120_000)      # at the identity provider
    page.get_by_role("button", name=who, exact=True).click()
    page.wait_for_url(url + "/**", timeout=120_000)                    # back, through nginx and a replica
    page.wait_for_selector('text="Sign out"', state="attached", timeout=120_000)
    return page


def test_with_sign_in_the_stack_admits_the_allowed_refuses_an_outsider_and_records_owners_by_email(
        pod, provider, chromium, tmp_path):  # noqa: F811
    """The issue's "done when": docs/deploy.md, "Sign-in in the stack", followed with the provider the
    tests use: alice (example.org) comes in and what she saves is hers by email; carol (outside)
    sees only the page saying whom to ask."""
    settings = tmp_path / "signin.toml"
    settings.write_text(signin_settings(f"{pod.url}/oauth2callback", uuid.uuid4().hex + uuid.uuid4().hex, provider))
    pod.down()
    t0 = time.monotonic()
    stack(pod.env, "up", "--name", pod.name, "--port", str(pod.port), "--address", "127.0.0.1",
          "--sign-in", str(settings))
    wait_healthy(pod.url)
    TIMES.setdefault("stack up with sign-in until /healthz answers", time.monotonic() - t0)
    for r in ("replica-1", "replica-2"):   # the settings reached each replica, for its user only
        mode = pod.exec(r, "stat", "-L", "-c", "%U %a", "/opt/grants/.streamlit/secrets.toml").stdout.split()
        assert mode == ["grants", "600"]
    # signed out: the sign-in screen alone
    page = chromium.new_page()
    page.goto(pod.url + "/compare", timeout=120_000)
    page.get_by_role("button", name="Sign in").wait_for(timeout=120_000)
    assert pod.saved not in page.inner_text("body")
    page.close()
    # alice comes back to the address she asked for, and saves
    page = _sign_in(chromium, pod.url, "alice", "/compare")
    assert page.url.startswith(pod.url + "/compare")
    assert "Alice Analyst (alice@example.org)" in page.inner_text("body")
    page.goto(pod.url + "/?" + QUERY, timeout=120_000)
    page.get_by_label("Scenario name").fill("Alice's plan in the stack")
    page.get_by_role("button", name="Save scenario").click()
    page.wait_for_selector("text=Saved: Alice's plan in the stack", timeout=60_000)
    no_error_on(page)
    page.context.close()
    listed = pod.exec("replica-2", "python", "-m", "core", "scenarios", "list").stdout
    line = next(x for x in listed.splitlines() if x.startswith("Alice's plan in the stack\t"))
    assert line.split("\t")[-2:] == ["alice@example.org", "alice@example.org"]    # owner, last changed by
    history = json.loads(pod.exec("replica-1", "python", "-m", "core", "scenarios", "history",
                                  "Alice's plan in the stack", "--json").stdout)
    assert [(e["actor"], e["action"]) for e in history] == [("alice@example.org", "save")]
    # carol is refused, told whom to ask, and shown nothing of the library
    page = _sign_in(chromium, pod.url, "carol")
    body = page.inner_text("body")
    assert "This account may not use the dashboard" in body and f"To be let in, ask {CONTACT}" in body
    for never in ("Alice's plan", pod.saved, "Compare scenarios", "State grant calculator"):
        assert never not in body
    page.screenshot(path=str(ARTIFACTS / "stack-signin-refused.png"))
    no_error_on(page)
    page.context.close()
