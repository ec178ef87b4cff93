"""The team: N replicas of the app under supervisord, then nginx in front once every replica
answers /_stcore/health; watched (restarts said, health noted, the state file kept) until
SIGTERM, SIGINT or SIGHUP, then everything stopped and checked gone."""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import tempfile
import time
import xmlrpc.client
from pathlib import Path

from team.common import POLL, healthy, proxy_url, replica_names, running, say
from team.logs import LogFollower, unexpected_exit
from team.nginx import Nginx
from team.supervisord import Supervisord


def shared_env() -> dict:
    """This process's environment, with one cookie secret every replica shares."""
    env = dict(os.environ)
    secret = os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET")
    if not secret:
        secret = secrets.token_urlsafe(32)
        say("generated a cookie secret shared by the replicas for this run; set "
            "STREAMLIT_SERVER_COOKIE_SECRET to keep sign-ins across restarts of run-team")
    env["STREAMLIT_SERVER_COOKIE_SECRET"] = secret
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


class Team:
    def __init__(self, args):
        self.args = args
        self.names = replica_names(args.replica_ports)
        self.ports = dict(zip(self.names, args.replica_ports))
        self.stopping = False
        self.env = shared_env()
        if args.workdir:
            self.workdir = Path(args.workdir).resolve()
            self.workdir.mkdir(parents=True, exist_ok=True)
            self.own_workdir = False
        else:
            self.workdir = Path(tempfile.mkdtemp(prefix="grants-team-"))
            self.own_workdir = True
        self.logs = self.workdir / "logs"
        self.logs.mkdir(exist_ok=True)
        for name in self.names:   # a replica's first start is not a restart, whatever ran here before
            (self.workdir / f"{name}.start").unlink(missing_ok=True)
        self.nginx = Nginx(args, self.workdir, self.names)
        self.supervisord = Supervisord(self.workdir, self.logs, self.args.app)
        self.pids: dict[str, int | None] = {n: None for n in self.names + ["nginx"]}
        self.healthy: dict[str, bool] = {n: False for n in self.names}
        self.serving = False
        self.followers = {n: LogFollower(self.logs / f"{n}.log") for n in self.names + ["nginx", "lifeline"]}
        self.own_log = LogFollower(self.logs / "supervisord.log")

    # ---- what the programs say and do -------------------------------------------------------
    def relay(self) -> None:
        """Copy the programs' new log lines to our output, each prefixed with its name, and say
        in words what supervisord did when one of them ended."""
        for name, follower in self.followers.items():
            for line in follower.lines():
                print(f"[{name}] {line}", flush=True)
        for line in self.own_log.lines():
            print(f"[supervisord] {line}", flush=True)
            ended = None if self.stopping else unexpected_exit(line)
            if ended is None:
                continue
            name, how = ended
            if name in self.ports:
                self.healthy[name] = False
                say(f"{name} (pid {self.pids.get(name)}, port {self.ports[name]}) {how}; restarting it in "
                    f"{self.args.restart_delay:g} s or more (its sessions are lost; their browsers reconnect to "
                    f"another replica on reload)")
            elif name == "nginx":
                say(f"nginx (pid {self.pids.get(name)}) {how}; restarting it")

    def watch(self) -> None:
        """Relay the logs; note restarts (a new pid) and the health of replicas that came back."""
        info = self.supervisord.processes()   # first: every exit behind a pid seen here is in the log by now
        self.relay()
        changed = False
        for name, proc in info.items():
            if name in self.pids:
                changed = self._note_pid(name, proc["pid"]) or changed
        for name in self.names:
            if (self.pids[name] and not self.healthy[name]
                    and healthy(f"http://127.0.0.1:{self.ports[name]}/_stcore/health")):
                self.healthy[name] = True
                changed = True
                if self.serving:
                    say(f"{name} is back and healthy (pid {self.pids[name]})")
        if changed:
            self.write_state()

    def _note_pid(self, name: str, pid: int) -> bool:
        """A program's pid as supervisord reports it (0: exited, not yet started again); whether
        anything the state file says changed."""
        if not pid:
            if self.healthy.get(name):
                self.healthy[name] = False
                return True
            return False
        if pid == self.pids[name]:
            return False
        if self.pids[name] and self.serving:
            where = f", port {self.ports[name]}" if name in self.ports else ""
            say(f"{name} restarting (pid {pid}{where})")
        self.pids[name] = pid
        if name in self.healthy:
            self.healthy[name] = False
        return True

    def write_state(self) -> None:
        """Only once serving: the file's existence says the deployment answers."""
        if not self.args.state_file or not self.serving:
            return
        state = {"url": proxy_url(self.args), "workdir": str(self.workdir), "run_team": os.getpid(),
                 "supervisord": self.supervisord.proc.pid, "nginx": self.pids["nginx"],
                 "replicas": [{"name": n, "port": self.ports[n], "pid": self.pids[n], "healthy": self.healthy[n]}
                              for n in self.names]}
        tmp = Path(self.args.state_file + ".tmp")
        tmp.write_text(json.dumps(state, indent=2))
        tmp.replace(self.args.state_file)

    # ---- start, serve, stop ------------------------------------------------------------------
    def stop(self, signum=None, frame=None) -> None:
        self.stopping = True

    def wait_until(self, what: str, ready, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not self.stopping:
            self.watch()
            if ready():
                return True
            if self.supervisord.exited() is not None:
                say(f"supervisord exited with status {self.supervisord.exited()} while waiting for {what}")
                return False
            if time.monotonic() > deadline:
                say(f"{what}: not within {timeout:g} s")
                return False
            time.sleep(POLL)
        return False

    def run(self) -> int:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self.stop)
        try:
            ended_early = self._start()   # stopped, or not started: its exit status
            return ended_early if ended_early is not None else self._serve()
        finally:
            self.shutdown()

    def _start(self) -> int | None:
        """The replicas, then nginx; None once nginx answers, else run-team's exit status."""
        self.supervisord.start(self.ports, self.args.restart_delay, self.nginx.cmd(), self.env, self.relay)
        say(f"starting {len(self.names)} replicas of {self.args.app} on ports "
            f"{', '.join(str(p) for p in self.ports.values())} under supervisord (pid {self.supervisord.proc.pid}; "
            f"working directory {self.workdir}; supervisorctl -c {self.workdir}/supervisord.conf status)")
        if not self.wait_until("every replica answering /_stcore/health", lambda: all(self.healthy.values()),
                               self.args.start_timeout):
            return 0 if self.stopping else 1
        self.nginx.prepare()
        try:
            self.supervisord.call("startProcess", "nginx", True)
        except xmlrpc.client.Fault as err:
            self.watch()
            say(f"nginx did not start ({err.faultString}; see its errors above)")
            return 1
        url = proxy_url(self.args)
        if not self.wait_until(f"nginx on {self.args.host}:{self.args.port}", lambda: healthy(url + "/healthz"), 30):
            return 0 if self.stopping else 1
        return None

    def _serve(self) -> int:
        """Serving: said once, then watched until stopped (0) or supervisord is gone (1)."""
        self.serving = True
        self.watch()
        self.write_state()
        say(f"serving {proxy_url(self.args)}/ through nginx (pid {self.pids['nginx']}): "
            + ", ".join(f"{n} pid {self.pids[n]} port {self.ports[n]}" for n in self.names)
            + ("; affinity OFF (--no-affinity)" if self.args.no_affinity else ""))
        while not self.stopping:
            time.sleep(POLL)
            self.watch()
            if self.supervisord.exited() is not None:
                say(f"supervisord exited with status {self.supervisord.exited()}")
                return 1
        say("stopping")
        return 0

    def shutdown(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)   # a second Ctrl-C must not cut the cleanup short
        self.stopping = True
        pids = [p for p in self.pids.values() if p]
        self.supervisord.stop()
        for pid in pids:   # supervisord stopped their groups; make sure, in case it could not
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.relay()
        if self.args.state_file:
            Path(self.args.state_file).unlink(missing_ok=True)
        if self.own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        left = [p for p in pids if running(p)]
        say("stopped; no replica or nginx process left" if not left else f"stopped; still running: {left}")
