"""deploy/stack without containers: what it asks of podman, and what it says and exits with.

A stand-in for podman (PODMAN, a small script of this file) records every command it is given,
keeps secrets and the played pod file as files, and fails on the command it is told to fail;
a stand-in debootstrap makes an empty root file system. So `build`, `up` and their refusals are
tried in seconds; tests/deploy/test_container.py runs the same commands with the real podman."""
from __future__ import annotations

import base64
import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.support import ROOT, project_python_first

STACK = ROOT / "deploy" / "stack"

FAKE_PODMAN = r"""#!/bin/sh
# A stand-in for podman: each command is a line of $FAKE/calls; secrets and the pod are files.
echo "$*" >> "$FAKE/calls"
if [ -n "${FAKE_FAIL:-}" ] && case "$*" in *"$FAKE_FAIL"*) true ;; *) false ;; esac; then
  echo "podman: told to fail on: $FAKE_FAIL" >&2; exit 125
fi
case "$1 $2" in
  "image exists") [ -f "$FAKE/image-exists" ]; exit ;;
  "secret inspect") [ -f "$FAKE/secret-$3" ]; exit ;;
  "secret create") cat > "$FAKE/secret-$3"; exit 0 ;;
  "secret rm") rm -f "$FAKE/secret-$3"; exit 0 ;;
  "kube play") cat > "$FAKE/played.yaml"; exit 0 ;;
  "kube down") cat > /dev/null; exit 0 ;;
esac
[ "$1" = import ] && { cat > /dev/null; exit 0; }
[ "$1" = ps ] && { printf '%s\n' grants-stack-db grants-stack-replica-1 grants-stack-replica-2 grants-stack-proxy; exit 0; }
[ "$1" = exec ] && [ "$2" = -i ] && cat > /dev/null
exit 0
"""

FAKE_DEBOOTSTRAP = """#!/bin/sh
# A stand-in for debootstrap: the root file system's folder that deploy/stack writes into.
mkdir -p "$4/etc/apt" "$4/var/cache/apt/archives" "$4/var/lib/apt/lists"
"""

SIGN_IN = textwrap.dedent("""\
    [auth]
    redirect_uri = "http://grants.example.org:8080/oauth2callback"
    cookie_secret = "a-test-cookie-secret-of-some-length-0123456789"
    client_id = "grant-dashboard"
    client_secret = "test-only"
    server_metadata_url = "http://idp.example.org:9400/.well-known/openid-configuration"

    [library]
    allowed_domains = ["example.org"]
    access_contact = "the Grants Office help desk"
    """)


class Fake:
    def __init__(self, tmp: Path):
        self.dir = tmp / "fake"
        self.dir.mkdir()
        bin_ = tmp / "bin"
        bin_.mkdir()
        for name, text in (("podman", FAKE_PODMAN), ("debootstrap", FAKE_DEBOOTSTRAP)):
            (bin_ / name).write_text(text)
            (bin_ / name).chmod(0o755)
        self.env = {**project_python_first(dict(os.environ), bin_), "FAKE": str(self.dir),
                    "PODMAN": str(bin_ / "podman"), "BUILD_OPTS": ""}
        self.env.pop("BASE", None)
        (self.dir / "image-exists").touch()

    def stack(self, *args: str, fail: str = "") -> subprocess.CompletedProcess:
        env = {**self.env, "FAKE_FAIL": fail}
        return subprocess.run([str(STACK), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)

    def calls(self) -> list[str]:
        path = self.dir / "calls"
        return path.read_text().splitlines() if path.exists() else []

    def secret(self, name: str) -> dict:
        data = json.loads((self.dir / f"secret-{name}").read_text())
        return {k: base64.b64decode(v).decode() for k, v in data.items()}

    def played(self) -> str:
        return (self.dir / "played.yaml").read_text()


@pytest.fixture
def fake(tmp_path):
    return Fake(tmp_path)


def test_build_exits_0_once_it_built_even_when_it_made_the_base_image_first(fake):
    """The bug of issue 36: `trap ... RETURN` in base_image outlived it and fired when `build`
    returned, on a variable gone by then: 'rootfs: unbound variable' and exit 1 after a good build."""
    (fake.dir / "image-exists").unlink()   # no base image: build makes it first
    before = set(Path("/var/tmp").glob("grants-rootfs.*"))
    done = fake.stack("build")
    assert done.returncode == 0, done.stderr
    assert "unbound variable" not in done.stderr
    builds = [c for c in fake.calls() if c.startswith("build ")]
    assert [c.split("--target ")[1].split()[0] for c in builds] == ["app", "proxy", "db"]
    assert any(c.startswith("import ") for c in fake.calls())
    assert set(Path("/var/tmp").glob("grants-rootfs.*")) <= before   # its root file system removed
    assert "built localhost/grants-app, grants-proxy and grants-db" in done.stderr


@pytest.mark.parametrize("fail, step", [("--target proxy", "the proxy image"), ("--target app", "the app image"),
                                        ("import", "the base image (importing")])
def test_build_that_fails_exits_1_naming_the_step_and_stops_there(fake, fail, step):
    if fail == "import":
        (fake.dir / "image-exists").unlink()
    done = fake.stack("build", fail=fail)
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if line.startswith("stack: failed:")]
    assert len(said) == 1 and step in said[0] and "nothing after it was done" in said[0]
    if fail == "--target proxy":
        assert not [c for c in fake.calls() if "--target db" in c]   # stopped at the failed step


@pytest.mark.parametrize("address", [None, "0.0.0.0", "::"])
def test_up_without_sign_in_refuses_every_address_and_says_why(fake, address):
    args = ["up"] + (["--address", address] if address else [])
    done = fake.stack(*args)
    assert done.returncode == 2
    assert "refusing to publish the dashboard on every address of this host without sign-in" in done.stderr
    assert "--sign-in FILE" in done.stderr and "--address 127.0.0.1" in done.stderr and "--no-sign-in" in done.stderr
    assert not (fake.dir / "played.yaml").exists()
    assert not [c for c in fake.calls() if c.startswith(("secret create", "kube"))]   # nothing made or started


def test_up_on_one_address_or_when_told_plays_the_pod_without_sign_in(fake):
    done = fake.stack("up", "--address", "127.0.0.1")
    assert done.returncode == 0, done.stderr
    assert "GRANTS_SECRETS_TOML" not in fake.played() and "hostIP: 127.0.0.1" in fake.played()
    assert "sign-in off" in done.stderr
    (fake.dir / "played.yaml").unlink()
    done = fake.stack("up", "--no-sign-in")
    assert done.returncode == 0, done.stderr
    assert "GRANTS_SECRETS_TOML" not in fake.played() and "hostIP" not in fake.played()


def test_up_with_sign_in_keeps_the_file_as_a_secret_the_replicas_read_and_later_ups_use_it(fake, tmp_path):
    settings = tmp_path / "signin.toml"
    settings.write_text(SIGN_IN)
    done = fake.stack("up", "--sign-in", str(settings), "--replicas", "3")
    assert done.returncode == 0, done.stderr
    assert fake.secret("grants-stack-signin") == {"secrets.toml": SIGN_IN}
    pod = fake.played()
    assert pod.count("name: GRANTS_SECRETS_TOML") == 3            # every replica
    assert pod.count("secretKeyRef: {name: grants-stack-signin, key: secrets.toml}") == 3
    assert "hostIP" not in pod                                   # with sign-in, every address is allowed
    # the next up (after a down) needs no option: the secret is there
    (fake.dir / "played.yaml").unlink()
    done = fake.stack("up")
    assert done.returncode == 0, done.stderr
    assert fake.played().count("name: GRANTS_SECRETS_TOML") == 2 and "sign-in on" in done.stderr
    # a new file replaces it
    settings.write_text(SIGN_IN.replace("example.org\"]", "agency.gov\"]"))
    assert fake.stack("up", "--sign-in", str(settings)).returncode == 0
    assert "agency.gov" in fake.secret("grants-stack-signin")["secrets.toml"]


@pytest.mark.parametrize("change, said", [
    (lambda t: t.replace('cookie_secret = "a-test-cookie-secret-of-some-length-0123456789"\n', ""),
     "[auth] has no cookie_secret"),
    (lambda t: t.replace("client_id", "client"), "[auth] has no client_id"),
    (lambda t: t.split("[library]")[0].replace("[auth]", "[other]"), "no [auth] section"),
    (lambda t: t.replace('["example.org"]', '"example.org"'), "[library] allowed_domains"),
    (lambda t: t.replace('["example.org"]', '["@example.org"]'), "allowed_domains[0] is not a domain"),
    (lambda t: t + "[[[", "not TOML"),
])
def test_up_with_a_sign_in_file_that_cannot_work_refuses_before_anything_starts(fake, tmp_path, change, said):
    settings = tmp_path / "signin.toml"
    settings.write_text(change(SIGN_IN))
    done = fake.stack("up", "--sign-in", str(settings))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"stack: --sign-in {settings}: ") and said in lines[0], lines
    assert not (fake.dir / "played.yaml").exists() and not (fake.dir / "secret-grants-stack-signin").exists()


def test_up_with_sign_in_and_no_allow_list_says_everyone_may_come_in(fake, tmp_path):
    settings = tmp_path / "signin.toml"
    settings.write_text(SIGN_IN.split("[library]")[0])
    done = fake.stack("up", "--sign-in", str(settings))
    assert done.returncode == 0
    assert "lists no allowed_domains or allowed_users: everyone your identity provider admits may come in" in done.stderr


def test_up_refuses_both_sign_in_options_and_an_option_without_its_value(fake, tmp_path):
    settings = tmp_path / "signin.toml"
    settings.write_text(SIGN_IN)
    done = fake.stack("up", "--sign-in", str(settings), "--no-sign-in")
    assert done.returncode == 2 and "give one of them" in done.stderr
    done = fake.stack("up", "--sign-in")
    assert done.returncode == 2 and "--sign-in: give its value" in done.stderr
    assert "unbound variable" not in done.stderr


def test_yaml_has_sign_in_unless_told_not_to(fake):
    on = fake.stack("yaml").stdout
    off = fake.stack("yaml", "--no-sign-in").stdout
    assert on.count("name: GRANTS_SECRETS_TOML") == 2 and "GRANTS_SECRETS_TOML" not in off
    assert off.count("secretKeyRef") == on.count("secretKeyRef") - 2


def test_backup_writes_files_only_its_user_may_read_in_a_private_folder(fake, tmp_path):
    shared = tmp_path / "backups"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    done = fake.stack("backup", str(shared))
    assert done.returncode == 0, done.stderr
    assert "making" in done.stderr and "private (0700)" in done.stderr
    assert shared.stat().st_mode & 0o777 == 0o700
    files = sorted(shared.iterdir())
    assert [f.name.split("-", 1)[0] for f in files] == ["library", "scenarios"]
    assert {f.stat().st_mode & 0o777 for f in files} == {0o600}
    fresh = tmp_path / "new" / "backups"
    assert fake.stack("backup", str(fresh)).returncode == 0
    assert fresh.stat().st_mode & 0o777 == 0o700


def test_restore_refuses_what_it_cannot_use_before_touching_the_stack(fake, tmp_path):
    done = fake.stack("restore")
    assert done.returncode == 2 and "give the backup's .pgdump file" in done.stderr
    done = fake.stack("restore", str(tmp_path / "missing.pgdump"))
    assert done.returncode == 2 and "no such file" in done.stderr
    dump = tmp_path / "library.pgdump"
    dump.write_bytes(b"PGDMP")
    done = fake.stack("restore", str(dump), "--check", str(tmp_path / "missing.json"))
    assert done.returncode == 2 and "--check" in done.stderr and "no such file" in done.stderr
    assert not [c for c in fake.calls() if "exec" in c or "stop" in c]


@pytest.mark.parametrize("fail, step", [("pg_restore --list", "reading"), ("pg_restore --no-owner", "loading"),
                                        ("deploy/restore", "checking grants_restore against")])
def test_restore_that_fails_before_the_swap_leaves_the_library_in_use_and_its_replicas_alone(fake, tmp_path,
                                                                                             fail, step):
    dump, export = tmp_path / "library.pgdump", tmp_path / "scenarios.json"
    dump.write_bytes(b"PGDMP")
    export.write_text('{"scenarios": []}')
    done = fake.stack("restore", str(dump), "--check", str(export), fail=fail)
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if line.startswith("stack: failed:")]
    assert len(said) == 1 and step in said[0], done.stderr
    assert not [c for c in fake.calls() if c.startswith(("stop", "start")) or "RENAME" in c]


def test_restore_loads_checks_then_swaps_with_the_replicas_stopped_and_starts_them_again(fake, tmp_path):
    dump, export = tmp_path / "library.pgdump", tmp_path / "scenarios.json"
    dump.write_bytes(b"PGDMP")
    export.write_text('{"scenarios": []}')
    done = fake.stack("restore", str(dump), "--check", str(export))
    assert done.returncode == 0, done.stderr
    calls = fake.calls()
    order = [next(i for i, c in enumerate(calls) if want in c) for want in (
        "pg_restore --list", "CREATE DATABASE grants_restore", "pg_restore --no-owner", "deploy/restore",
        "stop grants-stack-replica-1 grants-stack-replica-2", "ALTER DATABASE grants RENAME TO grants_replaced_",
        "ALTER DATABASE grants_restore RENAME TO grants", "start grants-stack-replica-1 grants-stack-replica-2",
        "deploy/healthcheck")]
    assert order == sorted(order), calls
    assert "kept as the database grants_replaced_" in done.stderr and "restored: the stack serves" in done.stderr
