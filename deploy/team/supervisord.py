"""supervisord for deploy/run-team: its configuration (the lifeline, each replica, nginx: each
stopped with its process group, its log kept), started in a session of its own in the private
working directory, asked through its XML-RPC interface (what supervisorctl uses), and stopped."""
from __future__ import annotations

import http.client
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import xmlrpc.client
from pathlib import Path

from team.common import ROOT, RUN_TEAM, say

SUPERVISORD_CONF = """\
; Written by deploy/run-team for this run; supervisorctl -c {workdir}/supervisord.conf status
[supervisord]
nodaemon = true
silent = true
logfile = {logs}/supervisord.log
logfile_maxbytes = 10MB
logfile_backups = 3
loglevel = info
pidfile = {workdir}/supervisord.pid
childlogdir = {logs}
{user}

[unix_http_server]
file = {workdir}/supervisor.sock
chmod = 0700
username = run-team
password = {password}

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl = unix://{workdir}/supervisor.sock
username = run-team
password = {password}

; Stops supervisord (and so everything) when run-team is gone, even killed outright.
[program:lifeline]
command = {env} {python} {run_team} --lifeline {run_team_pid}
priority = 1
startsecs = 0
autorestart = false
redirect_stderr = true
stdout_logfile = {logs}/lifeline.log
{replicas}
[program:nginx]
command = {nginx}
directory = {workdir}
priority = 900
autostart = false
autorestart = true
startsecs = 1
startretries = 1000
stopsignal = TERM
stopwaitsecs = 10
stopasgroup = true
killasgroup = true
redirect_stderr = true
stdout_logfile = {logs}/nginx.log
stdout_logfile_maxbytes = 10MB
stdout_logfile_backups = 3
"""

REPLICA_PROGRAM = """
[program:{name}]
command = {env} {python} {run_team} --replica-process {name} --restart-delay {delay} --workdir {workdir} -- {streamlit}
directory = {root}
priority = 500
autostart = true
autorestart = true
startsecs = 0
stopsignal = TERM
stopwaitsecs = 10
stopasgroup = true
killasgroup = true
redirect_stderr = true
stdout_logfile = {logs}/{name}.log
stdout_logfile_maxbytes = 10MB
stdout_logfile_backups = 3
"""


class Supervisord:
    def __init__(self, workdir: Path, logs: Path, app: str = "dashboard.py"):
        self.workdir, self.logs, self.app = workdir, logs, app
        self.proc: subprocess.Popen | None = None
        self.rpc = self.transport = None
        self.password = secrets.token_urlsafe(24)   # for supervisorctl, in the configuration (mode 0600)

    def write_conf(self, ports: dict[str, int], restart_delay: float, nginx_cmd: list[str]) -> Path:
        py, me = sys.executable, str(RUN_TEAM)
        # Python through env: supervisord first asks access(2) whether a command may run, and
        # access ignores capabilities, so a Python that only a capability lets this user reach
        # (the tests run run-team as nobody with CAP_DAC_READ_SEARCH) would count as forbidden.
        env = shutil.which("env") or "/usr/bin/env"
        streamlit = [py, "-m", "streamlit", "run", str(ROOT / self.app), "--server.address", "127.0.0.1",
                     "--server.port", "{port}", "--server.headless", "true", "--browser.gatherUsageStats", "false"]
        replicas = "".join(REPLICA_PROGRAM.format(
            name=n, env=env, python=py, run_team=me, delay=restart_delay, workdir=self.workdir, root=ROOT,
            logs=self.logs, streamlit=" ".join(streamlit).replace("{port}", str(p))) for n, p in ports.items())
        conf = SUPERVISORD_CONF.format(
            workdir=self.workdir, logs=self.logs, root=ROOT, env=env, python=py, run_team=me, run_team_pid=os.getpid(),
            replicas=replicas, nginx=" ".join(nginx_cmd),
            user="user = root" if os.geteuid() == 0 else "",   # as root: say so, rather than be warned
            password=self.password)
        path = self.workdir / "supervisord.conf"
        path.touch(mode=0o600)
        path.chmod(0o600)   # it holds the password of supervisord's socket
        path.write_text(conf.replace("%", "%%"), encoding="utf-8")   # supervisord expands %(name)s
        return path

    def start(self, ports: dict[str, int], restart_delay: float, nginx_cmd: list[str], env: dict, relay) -> None:
        """Configure it, start it and wait until it runs (`relay` shows its log if it does not)."""
        try:
            from supervisor.xmlrpc import SupervisorTransport
        except ImportError:
            raise SystemExit("run-team: supervisord is not installed in this Python "
                             f"({sys.executable}): pip install -r deploy/requirements.txt") from None
        conf = self.write_conf(ports, restart_delay, nginx_cmd)
        # A session of its own: a terminal's Ctrl-C or hang-up reaches run-team only (supervisord
        # takes SIGHUP as "reload"), and run-team stops it.
        self.proc = subprocess.Popen([sys.executable, "-m", "supervisor.supervisord", "-c", str(conf)],
                                     cwd=ROOT, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
        self.transport = SupervisorTransport("run-team", self.password, f"unix://{self.workdir}/supervisor.sock")
        self.rpc = xmlrpc.client.ServerProxy("http://127.0.0.1", transport=self.transport)
        deadline = time.monotonic() + 30
        while True:
            if (self.call("getState") or {}).get("statename") == "RUNNING":
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                relay()
                raise SystemExit(f"run-team: supervisord did not start (see {self.logs}/supervisord.log)")
            time.sleep(0.2)

    def call(self, method: str, *args):
        """supervisord's XML-RPC interface (what supervisorctl uses); None while it does not answer."""
        try:
            return getattr(self.rpc.supervisor, method)(*args)
        except (OSError, http.client.HTTPException, xmlrpc.client.ProtocolError):
            self.transport.close()   # not started yet, or going away
            return None

    def processes(self) -> dict[str, dict]:
        return {p["name"]: p for p in self.call("getAllProcessInfo") or []}

    def exited(self) -> int | None:
        """Its exit status, or None while it runs."""
        return self.proc.poll()

    def stop(self) -> None:
        """SIGTERM: it stops every program, nginx first; killed if it takes more than 30 s."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            say(f"supervisord (pid {self.proc.pid}) did not stop within 30 s; killing what it ran")
            self.proc.kill()
            self.proc.wait(5)
