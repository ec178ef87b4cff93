"""nginx for deploy/run-team and the stack's proxy: its configuration, written from
deploy/nginx-team.conf.in (affinity by a cookie, WebSockets, X-Served-By, /healthz, security
headers) into a private working directory, checked by `nginx -t`; and --proxy-only, which runs
nginx alone for replicas already running. Standard library only (the proxy image has no more)."""
from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import nginx_assets   # deploy/nginx_assets.py, beside run-team

from team.common import COOKIE, HERE, ROOT, healthy, proxy_url, replica_names, say


def max_upload_mb() -> int:
    try:
        with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
            return int(tomllib.load(f).get("server", {}).get("maxUploadSize", 200))
    except (OSError, ValueError, tomllib.TOMLDecodeError):
        return 200   # Streamlit's default


def _upstream(name: str) -> str:
    return f"grants_{name.replace('-', '_')}"


def upstreams(ports: dict[str, int]) -> str:
    """One upstream per replica (the others its backups), and one of them all."""
    ups = []
    for n, port in ports.items():
        lines = [f"        server 127.0.0.1:{port};"] + [f"        server 127.0.0.1:{p} backup;"
                                                      for o, p in ports.items() if o != n]
        ups.append(f"    upstream {_upstream(n)} {{\n" + "\n".join(lines) + "\n    }")
    ups.append("    upstream grants_all {\n" + "\n".join(f"        server 127.0.0.1:{p};" for p in ports.values())
               + "\n    }")
    return "\n\n".join(ups)


def pool_map(ports: dict[str, int], affinity: bool) -> str:
    """The cookie's replica -> its upstream (with --no-affinity: any replica, always)."""
    if not affinity:
        return ("    # --no-affinity (a control for tests): every request goes to any replica.\n"
                "    map $cookie_" + COOKIE + " $grants_pool {\n        default grants_all;\n    }")
    return ("    map $cookie_" + COOKIE + " $grants_pool {\n        default grants_all;\n"
            + "\n".join(f"        {n} {_upstream(n)};" for n in ports) + "\n    }")


def replica_map(ports: dict[str, int]) -> str:
    """The upstream address that answered -> the replica's name (the cookie and X-Served-By)."""
    return ("    map $upstream_addr $grants_replica {\n        default '';\n"
            + "\n".join(f"        ~127\\.0\\.0\\.1:{p}$ {n};" for n, p in ports.items()) + "\n    }")


class Nginx:
    def __init__(self, args, workdir: Path, names: list[str]):
        self.args, self.workdir, self.names = args, workdir, names

    def config(self) -> str:
        args = self.args
        ports = dict(zip(self.names, args.replica_ports))
        user = ""
        if os.geteuid() == 0:
            user = f"user {args.nginx_user} {grp.getgrgid(pwd.getpwnam(args.nginx_user).pw_gid).gr_name};"
        listen = f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}"
        fill = {"USER": user, "WORKDIR": str(self.workdir), "UPSTREAMS": upstreams(ports),
                "POOL_MAP": pool_map(ports, not args.no_affinity), "REPLICA_MAP": replica_map(ports),
                "AFFINITY_COOKIE": "" if args.no_affinity else f"{COOKIE}=$grants_replica; Path=/; HttpOnly; SameSite=Lax",
                "LISTEN": listen, "MAX_BODY": f"{max_upload_mb()}m",
                "ACCESS_LOG": ("off" if not args.access_log else "/dev/stdout grants" if args.proxy_only
                               else f"{self.workdir}/access.log grants")}
        text = (HERE / "nginx-team.conf.in").read_text(encoding="utf-8")
        return re.sub(r"\{\{([A-Z_]+)\}\}", lambda m: fill[m.group(1)], text)

    def prepare(self) -> None:
        """nginx.conf, the security headers, Plotly.js and the temp folders in the working directory."""
        self._assets()
        (self.workdir / "nginx.conf").write_text(self.config(), encoding="utf-8")
        self._temp_folders()
        check = subprocess.run(self.cmd() + ["-t", "-q"], capture_output=True, text=True)
        if check.returncode:
            raise SystemExit(f"run-team: nginx refused the configuration:\n{check.stderr}")

    def _assets(self) -> None:
        static = self.workdir / "static"
        if self.args.assets:   # made beforehand (the stack's proxy image has no Streamlit or plotly)
            assets = Path(self.args.assets)
            shutil.copyfile(assets / "security-headers.conf", self.workdir / "security-headers.conf")
            shutil.copytree(assets / "static", static, dirs_exist_ok=True)
            return
        headers, changed = nginx_assets.security_headers()
        if changed:
            say("the installed Streamlit's inline script differs from deploy/security-headers.conf; using its "
                "hash (deploy/check-upgrade tells what to change in your production copy)")
        (self.workdir / "security-headers.conf").write_text(headers, encoding="utf-8")
        nginx_assets.copy_plotly_js(static)

    def _temp_folders(self) -> None:
        temp = self.workdir / "temp"
        for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (temp / sub).mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            # nginx started by root runs its workers as this user: they must write the temp folders
            # (and reach them through the working directory).
            pw = pwd.getpwnam(self.args.nginx_user)
            for path in [temp, *temp.iterdir()]:
                os.chown(path, pw.pw_uid, pw.pw_gid)
            self.workdir.chmod(0o711)

    def cmd(self) -> list[str]:
        return [self.args.nginx, "-p", str(self.workdir), "-c", str(self.workdir / "nginx.conf"), "-e", "stderr"]


def proxy_only(args) -> int:
    """nginx alone in front of replicas that run elsewhere (the stack's proxy container): write
    its configuration, wait for the replicas, then become nginx."""
    import tempfile
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="grants-proxy-")).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    names = replica_names(args.replica_ports)
    nginx = Nginx(args, workdir, names)
    nginx.prepare()
    deadline = time.monotonic() + args.start_timeout
    while True:
        waiting = [n for n, p in zip(names, args.replica_ports) if not healthy(f"http://127.0.0.1:{p}/_stcore/health")]
        if not waiting:
            break
        if time.monotonic() > deadline:
            say(f"replicas not healthy within {args.start_timeout:g} s: {', '.join(waiting)}")
            return 1
        time.sleep(1)
    say(f"every replica answers; nginx serves {proxy_url(args)}/ for "
        + ", ".join(f"{n} on port {p}" for n, p in zip(names, args.replica_ports)))
    sys.stdout.flush()
    os.execv(args.nginx, nginx.cmd())
