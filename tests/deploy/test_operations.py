"""Operating the dashboard on a server (docs/deploy.md): the backup and its restore drill on
SQLite and PostgreSQL, the check after an upgrade, log rotation, the systemd units and the
schema migration, each run the way docs/deploy.md shows it.

PostgreSQL cases need TEST_POSTGRES_URL (each test makes its own databases and drops them);
without it they skip, and fail in CI. The log rotation needs logrotate (.ci/run installs it)."""
from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from core.law.application import Application
from core.law.readings import DEFAULT as DEFAULT_READINGS
from core.store.repository import ScenarioStore
from tests.support import ROOT
from tests.support.deploy import DOC, setup_block


DEPLOY = ROOT / "deploy"


APP = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})


def _fail_or_skip(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} in CI; .ci/run must provide it")
    pytest.skip(reason)


class Databases:
    """New, empty libraries of one kind: SQLite files, or PostgreSQL databases dropped afterwards."""

    def __init__(self, kind: str, tmp_path: Path):
        self.kind, self.tmp, self.made = kind, tmp_path, []
        self.base = os.environ.get("TEST_POSTGRES_URL")

    def new(self, create: bool = True) -> str:
        name = f"drill_{uuid.uuid4().hex[:10]}"
        if self.kind == "sqlite":
            return f"sqlite:///{self.tmp / (name + '.db')}"
        url = self.base.rsplit("/", 1)[0] + "/" + name
        self.made.append(name)
        if create:
            self._admin(f'CREATE DATABASE "{name}"')
        return url

    def _admin(self, sql: str) -> None:
        admin = create_engine(self.base, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as c:
                c.execute(text(sql))
        finally:
            admin.dispose()

    def drop(self) -> None:
        for name in self.made:
            self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request, tmp_path):
    if request.param == "postgresql":
        if not os.environ.get("TEST_POSTGRES_URL"):
            _fail_or_skip("TEST_POSTGRES_URL not set: no PostgreSQL for the restore drill")
        for tool in ("pg_dump", "pg_restore"):
            if shutil.which(tool) is None:
                _fail_or_skip(f"{tool} not found (apt-get install postgresql-client)")
    dbs = Databases(request.param, tmp_path)
    yield dbs
    if request.param == "postgresql":
        dbs.drop()


def a_library_with_history(url: str) -> ScenarioStore:
    """Scenarios of three owners, with every kind of change in their history."""
    store = ScenarioStore(url, admins=["boss@agency.gov"])
    store.save("As submitted", APP, notes="first draft\nsecond line", actor="alice@agency.gov")
    store.save("As submitted", APP.replace(federal_grant=100_000_00), overwrite=True, actor="alice@agency.gov")
    store.save("Bob's", APP.replace(eligible_cost=2_000_000_00), actor="bob@agency.gov",
               readings=DEFAULT_READINGS.switched("f_reference"))
    store.rename("Bob's", "Bob's, renamed", actor="bob@agency.gov")
    store.duplicate("As submitted", "Carol's copy", actor="carol@agency.gov")
    store.save("Short-lived", APP, actor="carol@agency.gov")
    store.delete("Short-lived", actor="carol@agency.gov")
    first = store.history("As submitted")[0]
    store.restore_version(first.id, actor="boss@agency.gov")
    return store


def run(*cmd: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *cmd], cwd=ROOT, env={**os.environ, **(env or {})},
                          capture_output=True, text=True)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_restore_drill_brings_back_every_scenario_and_its_history(databases, tmp_path):
    """docs/deploy.md, "Restore drill": deploy/backup, then deploy/restore into a new library with
    --check against the same day's JSON export; every scenario, owner and history event equal."""
    source_url = databases.new()
    source = a_library_with_history(source_url)
    backups = tmp_path / "backups"
    done = run("deploy/backup", str(backups), env={"SCENARIO_DB_URL": source_url})
    day = dt.date.today().isoformat()
    suffix = ".pgdump" if databases.kind == "postgresql" else ".sqlite"
    copy, export = backups / f"library-{day}{suffix}", backups / f"scenarios-{day}.json"
    assert copy.stat().st_size > 0 and str(copy) in done.stdout
    assert len(json.loads(export.read_text())["scenarios"]) == 3

    target_url = databases.new(create=False)    # the drill's database does not exist yet
    done = run("deploy/restore", str(copy), "--to", target_url, "--check", str(export))
    events = len(source.history())
    assert f"3 scenarios and {events} history events restored" in done.stdout
    assert "every scenario equals" in done.stdout

    restored = ScenarioStore(target_url)
    try:
        assert restored.list() == source.list()            # owners, uids, timestamps included
        assert restored.history() == source.history()      # every event, as it was
        assert restored.deleted() == source.deleted()
        assert {s.name: s.award().amount for s in restored.list()} == {s.name: s.award().amount for s in source.list()}
        # the restored library takes changes, recorded after the restored history
        restored.save("After the restore", APP, actor="alice@agency.gov")
        assert restored.history()[-1].id > source.history()[-1].id
    finally:
        restored.dispose()
        source.dispose()

    # never over a library that holds anything
    again = run("deploy/restore", str(copy), "--to", target_url, check=False)
    assert again.returncode == 1 and ("holds tables" in again.stderr or "exists already" in again.stderr)


def test_the_json_export_of_a_backup_imports_into_any_library_without_its_history(databases, tmp_path):
    """The portable half of a backup: the scenarios themselves, owned by whoever imports them."""
    source_url = databases.new()
    source = a_library_with_history(source_url)
    run("deploy/backup", str(tmp_path), env={"SCENARIO_DB_URL": source_url})
    export = tmp_path / f"scenarios-{dt.date.today().isoformat()}.json"
    target_url = databases.new()
    run("-m", "core", "scenarios", "--as", "restorer@agency.gov", "import", str(export),
        env={"SCENARIO_DB_URL": target_url})
    target = ScenarioStore(target_url)
    try:
        fields = lambda s: (s.name, s.application, s.notes, s.ruleset_id, s.ruleset_version, s.ruleset_data,  # noqa: E731
                            s.readings, s.created_at, s.updated_at)
        assert sorted(map(fields, target.list()), key=str) == sorted(map(fields, source.list()), key=str)
        assert {s.owner for s in target.list()} == {"restorer@agency.gov"}
        assert {e.action for e in target.history()} == {"import"}
    finally:
        target.dispose()
        source.dispose()


def test_backups_older_than_the_kept_days_are_removed_and_nothing_else(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    ScenarioStore(url).save("One", APP)
    backups = tmp_path / "backups"
    backups.mkdir()
    old = [backups / "library-2020-01-01.sqlite", backups / "scenarios-2020-01-01.json"]
    keep = [backups / "notes.txt", backups / "library-2020-01-02.sqlite.tmp"]
    for f in old + keep:
        f.write_text("x")
        os.utime(f, (time.time() - 40 * 86400,) * 2)
    done = run("deploy/backup", str(backups), "--keep-days", "30", env={"SCENARIO_DB_URL": url})
    assert not any(f.exists() for f in old) and all(f.exists() for f in keep)
    assert done.stdout.count("removed") == 2
    day = dt.date.today().isoformat()
    assert (backups / f"library-{day}.sqlite").exists() and (backups / f"scenarios-{day}.json").exists()


def test_a_backup_that_cannot_be_made_says_why_and_leaves_no_file(tmp_path):
    done = run("deploy/backup", str(tmp_path / "b"),
               env={"SCENARIO_DB_URL": "postgresql+psycopg2://nobody:wrong@127.0.0.1:1/none"}, check=False)
    assert done.returncode == 1 and "backup:" in done.stderr
    assert not any((tmp_path / "b").iterdir())


def test_check_upgrade_finds_a_stale_csp_hash_and_plotly_copy_and_fixes_them(tmp_path):
    """docs/deploy.md, "Upgrade": deploy/check-upgrade, then with --fix."""
    import plotly
    headers, www = tmp_path / "grants-security-headers.conf", tmp_path / "www"
    shipped = (DEPLOY / "security-headers.conf").read_text()
    headers.write_text(re.sub(r"'sha256-[A-Za-z0-9+/=]+'", "'sha256-c3RhbGUgaGFzaCBvZiBhbiBvbGQgU3RyZWFtbGl0IQ=='",
                              shipped, count=1))
    www.mkdir()
    (www / "plotly.min.js").write_text("/* plotly.js of the release before */")
    args = ["deploy/check-upgrade", "--headers", str(headers), "--plotly", str(www / "plotly.min.js")]
    stale = run(*args, check=False)
    assert stale.returncode == 1
    assert "script-src hashes" in stale.stderr and "not the installed Streamlit's" in stale.stderr
    assert "not the installed plotly's Plotly.js" in stale.stderr and "plotly.min.js.gz: missing" in stale.stderr

    fixed = run(*args, "--fix")
    assert "reload nginx" in fixed.stdout
    assert headers.read_text() == shipped                 # the hashes back, nothing else touched
    source = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()
    assert (www / "plotly.min.js").read_bytes() == source
    assert gzip.decompress((www / "plotly.min.js.gz").read_bytes()) == source
    assert run(*args).returncode == 0


def test_check_upgrade_passes_on_the_shipped_headers_and_a_fresh_copy(tmp_path):
    www = tmp_path / "www"
    run("deploy/run-team", "--write-assets", str(tmp_path / "assets"))
    shutil.copytree(tmp_path / "assets" / "static", www)
    done = run("deploy/check-upgrade", "--headers", str(DEPLOY / "security-headers.conf"),
               "--plotly", str(www / "plotly.min.js"))
    assert "match the installed Streamlit" in done.stdout and "the installed plotly's Plotly.js" in done.stdout


def test_the_schema_migration_commands_of_the_upgrade(tmp_path):
    """`alembic current` and `alembic upgrade head` on the library of SCENARIO_DB_URL, and a
    library of the first release upgraded by opening it (`python -m core scenarios list`)."""
    from core.store.db import head_revision
    url = f"sqlite:///{tmp_path / 'new.db'}"
    alembic = [sys.executable, "-m", "alembic"]
    env = {**os.environ, "SCENARIO_DB_URL": url}
    subprocess.run(alembic + ["upgrade", "head"], cwd=ROOT, env=env, check=True, capture_output=True)
    current = subprocess.run(alembic + ["current"], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    assert head_revision() in current.stdout
    release = tmp_path / "release.db"
    shutil.copyfile(ROOT / "tests" / "fixtures" / "library-release.db", release)
    listed = run("-m", "core", "scenarios", "list", env={"SCENARIO_DB_URL": f"sqlite:///{release}"})
    assert listed.stdout.strip()
    current = subprocess.run(alembic + ["current"], cwd=ROOT, env={**os.environ, "SCENARIO_DB_URL": f"sqlite:///{release}"},
                             check=True, capture_output=True, text=True)
    assert head_revision() in current.stdout


def test_logrotate_rotates_the_apps_and_nginxs_logs(tmp_path):
    if shutil.which("logrotate") is None:
        _fail_or_skip("logrotate not found (apt-get install logrotate)")
    logs = tmp_path / "log"
    logs.mkdir()
    conf = (DEPLOY / "logrotate.conf").read_text().replace("/var/log/grants/", f"{logs}/") \
        .replace("/run/nginx.pid", str(tmp_path / "nginx.pid"))
    (tmp_path / "grants").write_text(conf)
    files = ["replica-8501.log", "replica-8502.log", "backup.log", "nginx-access.log", "nginx-error.log"]
    for name in files:
        (logs / name).write_text(f"a line of {name}\n")
    state = tmp_path / "state"
    subprocess.run(["logrotate", "--state", str(state), "--force", str(tmp_path / "grants")], check=True,
                   capture_output=True, text=True)
    for name in files:
        assert (logs / f"{name}.1").read_text() == f"a line of {name}\n"   # compressed from the next rotation
    for name in ("replica-8501.log", "replica-8502.log", "backup.log"):   # copytruncate: the open file goes on
        assert (logs / name).exists() and (logs / name).stat().st_size == 0
    check = subprocess.run(["logrotate", "--debug", "--state", str(state), str(tmp_path / "grants")],
                           capture_output=True, text=True)
    assert check.returncode == 0 and "error" not in check.stderr.lower(), check.stderr


def _unit(name: str) -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    lines = (DEPLOY / name).read_text().replace("\\\n", " ").splitlines()
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        else:
            key, _, value = line.partition("=")
            current.setdefault(key, []).append(value)
    return sections


def test_the_systemd_units_run_what_the_checkout_holds_as_the_service_account():
    replica, backup, timer = _unit("grants-replica@.service"), _unit("grants-backup.service"), _unit("grants-backup.timer")
    for unit in (replica, backup):
        service = unit["Service"]
        assert service["User"] == ["grants"] and service["WorkingDirectory"] == ["/opt/grants"]
        assert service["EnvironmentFile"] == ["/etc/grants/env"]
        assert service["ExecStart"][0].startswith("/opt/grants/.venv/bin/python ")
        assert service["StandardOutput"][0].startswith("append:/var/log/grants/")
    assert "-m streamlit run dashboard.py" in replica["Service"]["ExecStart"][0]
    command = backup["Service"]["ExecStart"][0].split()
    assert command[1] == "deploy/backup" and (ROOT / command[1]).exists()
    assert "/var/backups/grants" in backup["Service"]["ReadWritePaths"][0]
    assert timer["Timer"]["Persistent"] == ["true"] and timer["Install"]["WantedBy"] == ["timers.target"]
    if shutil.which("systemd-analyze"):
        cal = subprocess.run(["systemd-analyze", "calendar", timer["Timer"]["OnCalendar"][0]],
                             capture_output=True, text=True)
        assert cal.returncode == 0 and "Next elapse" in cal.stdout, cal.stderr
    # the logs the units write are the ones deploy/logrotate.conf rotates
    rotated = (DEPLOY / "logrotate.conf").read_text()
    assert "/var/log/grants/replica-*.log" in rotated and "/var/log/grants/backup.log" in rotated
    site = (DEPLOY / "nginx-site.conf").read_text()
    assert re.search(r"access_log /var/log/grants/nginx-\S+\.log", site) and "/var/log/grants/nginx-*.log" in rotated


def test_the_production_site_buffers_responses_as_the_team_configuration_does():
    pattern = r"^\s*(proxy_(?:buffers?|buffer_size|busy_buffers_size|max_temp_file_size)\s+[^;]+);"
    team = re.findall(pattern, (DEPLOY / "nginx-team.conf.in").read_text(), re.M)
    site = re.findall(pattern, (DEPLOY / "nginx-site.conf").read_text(), re.M)
    assert team and team == site


def test_the_backup_of_the_stack_and_of_a_server_write_the_same_names():
    stack = (DEPLOY / "stack").read_text()
    assert "library-$day.pgdump" in stack and "scenarios-$day.json" in stack
    backup = (DEPLOY / "backup").read_text()
    assert 'f"library-{day}{' in backup and 'f"scenarios-{day}.json"' in backup


def test_the_deploy_commands_docs_deploy_md_shows_exist_and_say_how_to_use_them():
    doc = DOC.read_text(encoding="utf-8")
    shown = set(re.findall(r"(?<![\w/])deploy/([a-z][\w@.-]*[a-z])", doc))   # not tests/deploy/...
    assert {"stack", "run-team", "backup", "restore", "check-upgrade", "logrotate.conf", "grants-backup.timer",
            "grants-backup.service", "grants-replica@.service", "nginx-site.conf", "grants-stack.yaml"} <= shown
    for name in shown:
        path = DEPLOY / name
        assert path.exists(), f"docs/deploy.md names deploy/{name}, which does not exist"
        if path.is_file() and path.read_text(errors="replace").startswith("#!"):   # deploy/kubernetes: a folder
            assert os.access(path, os.X_OK), f"deploy/{name} is not executable"
    for script in ("backup", "restore", "check-upgrade", "run-team"):
        assert subprocess.run([sys.executable, str(DEPLOY / script), "--help"], capture_output=True,
                              cwd=ROOT).returncode == 0
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Deploy for a team", 1)[1].split("\n## ", 1)[0]
    assert "deploy/stack build" in section and "deploy/stack up" in section and "docs/deploy.md" in section
    assert "Containerfile" in doc and "localhost/debian-py:base" in doc


def test_the_server_setup_commands_of_docs_deploy_md_are_the_ones_the_units_expect():
    """The account and folders of "On a server with systemd" (run for real in a container by
    tests/deploy/test_container.py) match the units' User, paths and the backup folder."""
    block = setup_block()
    assert "useradd --system" in block and " grants" in block
    for path in ("/opt/grants", "/etc/grants", "/opt/grants/data", "/var/backups/grants", "/var/log/grants"):
        assert path in block, path


def test_the_stack_runs_as_many_replicas_as_asked_each_behind_nginx():
    """deploy/stack yaml --replicas N: the pod `up --replicas N` plays (no podman needed to make it)."""
    def made(*args):
        return subprocess.run([str(ROOT / "deploy" / "stack"), "yaml", *args], capture_output=True, text=True,
                              timeout=60)
    out = made("--replicas", "3", "--name", "team-a", "--port", "9090", "--address", "127.0.0.1")
    assert out.returncode == 0, out.stderr
    pod = out.stdout
    assert re.findall(r"^    - name: (\S+)$", pod, re.M) == ["db", "replica-1", "replica-2", "replica-3", "proxy"]
    assert re.findall(r'STREAMLIT_SERVER_PORT\n\s+value: "(\d+)"', pod) == ["8501", "8502", "8503"]
    assert '"--replica-ports", "8501,8502,8503"' in pod
    assert pod.count("secretKeyRef: {name: team-a-secrets, key: cookie-secret}") == 3   # one cookie secret for all
    assert "hostPort: 9090\n          hostIP: 127.0.0.1" in pod and "grants-stack" not in pod
    assert made().stdout == (ROOT / "deploy" / "grants-stack.yaml").read_text()         # the shipped file as it is
    one = made("--replicas", "1").stdout
    assert re.findall(r"^    - name: (\S+)$", one, re.M) == ["db", "replica-1", "proxy"] and '"8501"]' in one
    for bad in ("0", "17", "two"):
        refused = made("--replicas", bad)
        assert refused.returncode == 2 and f"--replicas: '{bad}' is not a number of replicas from 1 to 16" in refused.stderr
