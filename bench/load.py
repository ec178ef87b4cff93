"""Many users at once: N sessions, each opened from its own link, each moving the cost
slider M times. Checks that every session always gets the award for its own inputs and no
error, and reports slider-to-award latency under that load against one session alone,
measured in the same run.

    python -m bench.load [--sessions 30] [--moves 20] [--think 1.0] [--browsers 1] [--floor] [--team N] [--rounds R]

--browsers of the sessions are real Chromium pages (keypress to award drawn, and to the
award's message arriving). The others speak Streamlit's websocket protocol directly
(harness/stclient.py): the same handshake and rerun messages a browser sends, read off a real
one, and the same award text checked. On a two-core machine thirty Chromium renderers took
nearly all the CPU (the server got 10-20%), so the benchmark measured the load generator;
--browsers 30 runs every session in Chromium where there are cores for it.

Each user pauses a random 0.5x to 1.5x of --think seconds between moves, as a person reads
the new award before the next move (0 hammers the server as fast as it answers).
--floor runs the same load, served the same way, against bench/bare_slider.py (one slider, one
number: what Streamlit itself allows here, the floor) and bench/peer_app.py (the peer: what a
capable Streamlit user would build over the same law), one after the other in the same run, and
prints the dashboard's p95 under load against each (issue 53's goals: at most 2x the floor's,
below the peer's). --team N runs the load through deploy/run-team: N replicas behind nginx, each
session pinned to one replica by the proxy's cookie (the floor and the peer too, each in its
own team); it reports each replica's CPU and sessions, the server CPU per move, and a
projection from that cost to 300 and 3,000 users. --rounds R repeats the three apps R times,
in turn, and prints the median of each ratio.
"""
from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path


from harness.stclient import Session
from core.law.application import Application
from core.law.award import evaluate
from core.law.money import fmt
from harness.serve import CHROMIUM_FLAGS, chromium_path
from bench.servers import cpu_of, one_server, team_server

ROOT = Path(__file__).resolve().parents[1]

# Installed before the app loads: note when a server message carrying an expected text arrives,
# so the time the server takes can be told apart from the time this (shared-CPU) browser
# takes to draw it.
WIRE = """
(() => {
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener('message', (ev) => {
      if (!window.__want || window.__got !== null || !(ev.data instanceof ArrayBuffer)) return;
      const text = new TextDecoder('utf-8', {fatal: false}).decode(ev.data);
      if (text.includes(window.__want)) window.__got = performance.now();
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
})();
"""

ARM = """
(want) => { window.__want = want; window.__got = null; window.__latency = new Promise((resolve) => {
  const value = () => document.querySelector('[data-testid=stMetricValue]');
  let t0 = null, drawn = null;   // drawn: the award the browser draws itself while the slider moves
  const done = () => {
    const v = value(), live = document.querySelector('[data-testid=gfLiveAward]');
    if (t0 !== null && drawn === null && live && live.textContent === want) drawn = performance.now() - t0;
    if (t0 !== null && v && v.textContent === want) {
      obs.disconnect();
      resolve([performance.now() - t0, window.__got === null ? null : window.__got - t0, v.textContent, drawn]);
    }
  };
  const obs = new MutationObserver(done);
  obs.observe(document.body, {subtree: true, childList: true, characterData: true});
  document.addEventListener('keydown', () => { if (t0 === null) t0 = performance.now(); }, {capture: true, once: true});
  setTimeout(() => { obs.disconnect(); resolve([null, null, value() && value().textContent, drawn]); }, 30000);
}); }
"""
READY = ("() => { const a = document.querySelector('[data-testid=stApp]');"
         " return a && a.getAttribute('data-test-script-state') === 'notRunning'"
         " && document.querySelector('[data-testid=stMetricValue]')"
         " && !document.querySelector('.st-key-first_paint')"   # the award drawn alone, the rest still to come
         " && !document.querySelector('[data-testid^=stSkeleton]'); }")


def expected(cost_dollars: int, local: int) -> str:
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": cost_dollars,
                                 "local_contribution": local})
    return fmt(evaluate(app).amount)


BARE = "bench/bare_slider.py"
PEER = "bench/peer_app.py"
# The award each app should show for a user's inputs (the bare app shows half the cost).
EXPECTED = {"dashboard.py": expected, PEER: expected, BARE: lambda cost_dollars, local: f"${cost_dollars // 2:,}"}
NAMES = {BARE: "the bare one-slider app (the floor)", PEER: "the peer (bench/peer_app.py)", "dashboard.py": "the dashboard"}


def link(k: int) -> tuple[int, int, str]:
    """User k's own inputs (the award follows the cost here) and the query of their link."""
    cost, local = 400_000 + 10_000 * k, 150_000 + 5_000 * k
    return cost, local, f"project_type=renovation&eligible_cost={cost}&local_contribution={local}"


async def protocol_session(url: str, k: int, moves: int, problems: list, think: float,
                           start: asyncio.Barrier | None = None, expected=expected,
                           placed: list | None = None) -> list[tuple[float, None]]:
    """One user over the websocket protocol: open their link, move the cost slider one
    $1,000 step `moves` times, check every award. Latency: rerun sent -> award received."""
    cost, local, query = link(k)
    await asyncio.sleep(0.1 * k if start else 0)
    s = Session(url)
    try:
        try:
            run = await s.open(query)
        except BaseException:
            if start:
                await start.abort()   # the others stop waiting for this user, and the run fails
            raise
        shown = run.metrics.get("State grant award")
        if shown != expected(cost, local):
            problems.append(f"session {k}: opened showing {shown}, expected {expected(cost, local)}")
        if placed is not None:
            placed.append(s.served_by)
        if start:
            await start.wait()
        times, rnd = [], random.Random(k)
        for m in range(1, moves + 1):
            await asyncio.sleep(think * rnd.uniform(0.5, 1.5))
            want = expected(cost + 1_000 * m, local)
            run = await s.set_slider("s:eligible_cost", cost + 1_000 * m)
            got = run.metrics.get("State grant award")
            if got != want or run.exceptions:
                problems.append(f"session {k}, move {m}: got {got}, expected {want}"
                                + (f"; error: {run.exceptions[0]}" if run.exceptions else ""))
            elif run.first is not None:
                times.append((run.first * 1000, None))
        return times
    finally:
        await s.close()


async def browser_session(browser, url: str, k: int, moves: int, problems: list, think: float,
                          start: asyncio.Barrier | None = None, expected=expected) -> list[tuple[float, float | None]]:
    """One user in Chromium: open their link, press the right arrow `moves` times, check every
    award on screen. Latency: (keypress -> the server's award drawn, keypress -> award's message
    arrived, keypress -> the award the browser draws itself while the slider moves, or None)."""
    cost, local, query = link(k)
    page = await browser.new_page(viewport={"width": 1300, "height": 900})
    await page.add_init_script(WIRE)
    await asyncio.sleep(0.4 * k if start else 0)   # people arrive one after another...
    try:
        await page.goto(f"{url}/?{query}", timeout=180_000)
        await page.wait_for_function(READY, timeout=180_000)
    except BaseException:
        if start:
            await start.abort()
        raise
    if start:
        await start.wait()                         # ...then all of them move sliders at once
    shown = await page.locator("[data-testid=stMetricValue]").first.inner_text()
    if shown != expected(cost, local):
        problems.append(f"browser session {k}: opened showing {shown}, expected {expected(cost, local)}")
    times = []
    slider = page.get_by_role("slider").first
    rnd = random.Random(k)
    for m in range(1, moves + 1):
        await asyncio.sleep(think * rnd.uniform(0.5, 1.5))
        await slider.focus()
        want = expected(cost + 1_000 * m, local)
        await page.evaluate(ARM, want)
        await page.keyboard.press("ArrowRight")
        screen, wire, text, drawn = await page.evaluate("() => window.__latency")
        if screen is None:
            # a rerun may still be finishing: give it time, then judge what the session shows
            try:
                await page.wait_for_function(
                    f"() => document.querySelector('[data-testid=stMetricValue]').innerText === {want!r}",
                    timeout=30_000)
            except Exception:
                problems.append(f"browser session {k}, move {m}: shows {text}, expected {want}")
        else:
            times.append((screen, wire, drawn))
        await page.wait_for_function(READY, timeout=60_000)
    if await page.locator('[data-testid="stException"]').count():
        problems.append(f"browser session {k}: an exception is on screen")
    await page.close()
    return times


async def run(sessions: int, moves: int, think: float, browsers: int = 1, script: str = "dashboard.py",
              team: int = 0) -> dict:
    """One session alone (and one browser alone, if any), then all `sessions` at once, of
    which `browsers` are Chromium pages; through deploy/run-team with `team` replicas if set."""
    from playwright.async_api import async_playwright
    with (team_server(team, script) if team else one_server(script)) as (url, serving):
        async with async_playwright() as p:
            browser = None
            if browsers:
                browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS,
                                                  headless=True)
            problems: list[str] = []
            want = EXPECTED[script]
            alone = await protocol_session(url, 0, moves, problems, think, expected=want)
            alone_browser = (await browser_session(browser, url, 0, moves, problems, think, expected=want)
                             if browsers else [])
            barrier = asyncio.Barrier(sessions)
            placed: list = []
            jobs = [browser_session(browser, url, k, moves, problems, think, barrier, want) if k <= browsers else
                    protocol_session(url, k, moves, problems, think, barrier, want, placed)
                    for k in range(1, sessions + 1)]
            pids = serving()
            t0, c0, own0 = time.perf_counter(), cpu_of(pids), time.process_time()
            results = await asyncio.gather(*jobs)
            wall = time.perf_counter() - t0
            c1 = cpu_of(pids)
            per_process = {name: (c1[name] - c0[name]) / wall for name in pids}
            busy = sum(v for name, v in per_process.items() if not name.startswith("nginx"))
            client = (time.process_time() - own0) / wall
            if browser:
                await browser.close()
    return {"alone": alone, "alone_browser": alone_browser,
            "loaded": [t for r in results[browsers:] for t in r],
            "loaded_browser": [t for r in results[:browsers] for t in r],
            "problems": problems, "server_cpu": busy, "client_cpu": client, "per_process": per_process,
            "wall": wall, "placed": placed}


def summary(what: str, alone: list[float], loaded: list[float], sessions: int, think: float) -> float | None:
    if not alone or len(loaded) < 2:
        print(f"{what}: too few measurements ({len(alone)} alone, {len(loaded)} under load)")
        return None
    med = statistics.median(alone)
    p95 = statistics.quantiles(loaded, n=20)[18]
    print(what)
    print(f"  one session alone: {len(alone)} moves, median {med:.0f} ms")
    print(f"  {sessions} sessions at once (think {think:g} s): {len(loaded)} moves, "
          f"p50 {statistics.median(loaded):.0f} ms, p95 {p95:.0f} ms")
    print(f"  ratio (p95 under load / median alone): {p95 / med:.2f}x  (goal: at most 3x)")
    return p95 / med


def team_report(out: dict, replicas: int, sessions: int, moves: int, think: float, ratio: float | None) -> None:
    """Per-replica CPU and sessions, CPU per move, and a projection from that cost."""
    per = out["per_process"]
    placed = {name: out["placed"].count(name) for name in per if not name.startswith("nginx")}
    nginx = sum(v for name, v in per.items() if name.startswith("nginx"))
    print("per replica under load: " + ", ".join(
        f"{name} {per[name]:.0%} of a core ({placed[name]} protocol sessions)" for name in placed)
        + f"; nginx {nginx:.0%} (master and workers)")
    done = sessions * moves
    app_ms = out["server_cpu"] * out["wall"] / done * 1000
    nginx_ms = nginx * out["wall"] / done * 1000
    loaded = [t[0] for t in out["loaded"]]
    cycle = think + (statistics.median(loaded) / 1000 if loaded else 0)
    print(f"server CPU per slider move: {app_ms:.1f} ms in the replicas + {nginx_ms:.2f} ms in nginx "
          f"(CPU over the loaded phase / {done} moves; opening the {sessions} sessions included)")
    per_replica = sessions / replicas
    mean_busy = out["server_cpu"] / replicas
    held = "within" if ratio is not None and ratio <= 3 else "NOT within"
    saturate = cycle / (app_ms / 1000)      # users whose moves fill one core
    print(f"projection from that cost (an estimate, not measured at that scale): a user moving a slider every "
          f"~{cycle:.1f} s needs {app_ms / 1000 / cycle:.3f} of a core. One replica is one Python process: it "
          f"can use one core, which ~{saturate:.0f} such users fill (replicas must stay well below that for "
          f"short waits). This run: {per_replica:g} sessions per replica at {mean_busy:.0%} of a core each, "
          f"p95 {held} 3x of one session alone.")
    for users in (300, 3000):
        cores = users * (app_ms + nginx_ms) / 1000 / cycle
        at_least = math.ceil(users / saturate)
        need = math.ceil(users / per_replica)
        print(f"  {users:,} users: ~{cores:.1f} cores busy (replicas and nginx); at least {at_least} replicas "
              f"(each core full); at this run's {per_replica:g} users per replica, {need} replicas "
              f"(~{math.ceil(need / 2)} machines of 2 cores, one replica per core), one nginx, one PostgreSQL")


def p95(xs: list[float]) -> float | None:
    return statistics.quantiles(xs, n=20)[18] if len(xs) >= 2 else None


def on_screen(t: tuple) -> float:
    """A Chromium keypress's time to the award on screen: the browser's own drawing where the app
    draws one (the dashboard's money sliders, issue 39), else the server's award drawn."""
    return t[2] if len(t) > 2 and t[2] is not None else t[0]


def report(out: dict, args, script: str) -> dict:
    """Print one app's run; return its figures for the comparison (ms)."""
    print(f"{NAMES[script]}: {args.sessions} sessions, {args.sessions - args.browsers} over the websocket "
          f"protocol, {args.browsers} in Chromium" + (f"; through nginx to {args.team} replicas (deploy/run-team)"
                                                      if args.team else "; one server process"))
    what = f"the {args.team} replicas together" if args.team else "the server process"
    print(f"under load {what} used {out['server_cpu']:.0%} of a core, this load generator "
          f"{out['client_cpu']:.0%} (on {os.cpu_count()} cores)")
    alone, loaded = [t[0] for t in out["alone"]], [t[0] for t in out["loaded"]]
    ratio = summary("server: slider move -> award received (protocol sessions)", alone, loaded, args.sessions, args.think)
    got = {"alone": statistics.median(alone) if alone else None, "p95": p95(loaded),
           "cpu_ms": out["server_cpu"] * out["wall"] / (args.sessions * args.moves) * 1000}
    if args.browsers:
        summary("browser: keypress -> award's message arrived (Chromium sessions)",
                [t[1] for t in out["alone_browser"] if t[1] is not None],
                [t[1] for t in out["loaded_browser"] if t[1] is not None], args.sessions, args.think)
        summary("browser: keypress -> the server's award drawn (Chromium sessions)",
                [t[0] for t in out["alone_browser"]], [t[0] for t in out["loaded_browser"]],
                args.sessions, args.think)
        alone_live = [t[2] for t in out["alone_browser"] if t[2] is not None]
        loaded_live = [t[2] for t in out["loaded_browser"] if t[2] is not None]
        if alone_live and loaded_live:   # issue 39: drawn from the pieces, before the server is asked
            summary("browser: keypress -> award drawn by the browser itself (Chromium sessions)",
                    alone_live, loaded_live, args.sessions, args.think)
        got["screen_p95"] = p95([on_screen(t) for t in out["loaded_browser"]])
    print(f"sessions showing a wrong award or an error: {len(out['problems'])}")
    for p in out["problems"][:20]:
        print("  " + p)
    if args.team:
        team_report(out, args.team, args.sessions, args.moves, args.think, ratio)
    else:
        print(f"server CPU per slider move: {got['cpu_ms']:.1f} ms (CPU over the loaded phase / "
              f"{args.sessions * args.moves} moves; opening the sessions included)")
    return got


def compare(got: dict) -> dict:
    """Print the dashboard's figures against the floor's and the peer's of the same round; return the ratios."""
    d, ratios = got["dashboard.py"], {}
    for key, what in (("p95", "slider move -> award received, p95 under load (protocol sessions)"),
                      ("screen_p95", "keypress -> award on screen, p95 under load (the Chromium sessions)"),
                      ("cpu_ms", "server CPU per move")):
        if any(g.get(key) is None for g in got.values()):
            continue
        print(f"  {what}: floor {got[BARE][key]:.1f} ms, peer {got[PEER][key]:.1f} ms, "
              f"dashboard {d[key]:.1f} ms; dashboard / floor {d[key] / got[BARE][key]:.2f}x, "
              f"dashboard / peer {d[key] / got[PEER][key]:.2f}x")
        ratios[key] = (d[key] / got[BARE][key], d[key] / got[PEER][key])
    return ratios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--think", type=float, default=1.0, help="seconds between a user's moves (mean)")
    ap.add_argument("--floor", action="store_true",
                    help="also run the same load, served the same way, against the bare one-slider app (the floor) "
                         "and the peer (bench/peer_app.py), and print the dashboard's p95 against theirs")
    ap.add_argument("--team", type=int, default=0, metavar="N",
                    help="run the load through deploy/run-team with N replicas behind nginx")
    ap.add_argument("--browsers", type=int, default=1,
                    help="how many of the sessions are real Chromium pages (default 1; the rest speak the "
                         "websocket protocol)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --floor: run the three apps this many times, in turn, and print each ratio's median")
    args = ap.parse_args()
    if not 0 <= args.browsers <= args.sessions:
        sys.exit(f"--browsers: {args.browsers} is not between 0 and --sessions ({args.sessions})")
    if args.browsers and not chromium_path():
        sys.exit("no Chromium found (apt-get install chromium), or run with --browsers 0")
    if args.team < 0:
        sys.exit(f"--team: {args.team} replicas is not a number of replicas")
    if not 1 <= args.rounds <= 10:
        sys.exit(f"--rounds: {args.rounds} must be between 1 and 10")
    scripts = [BARE, PEER, "dashboard.py"] if args.floor else ["dashboard.py"]
    rounds = []
    for r in range(args.rounds):
        order = scripts[r % len(scripts):] + scripts[:r % len(scripts)]   # each app first in turn: drift hits all alike
        got = {}
        for script in order:
            print(f"--- round {r + 1} of {args.rounds}: {NAMES[script]}, load average {os.getloadavg()[0]:.1f} ---",
                  flush=True)
            out = asyncio.run(run(args.sessions, args.moves, args.think, args.browsers, script=script, team=args.team))
            got[script] = report(out, args, script)
        if args.floor:
            print(f"round {r + 1}, the three apps under the same {args.sessions} users "
                  f"(goal, issue 53: the dashboard's p95 at most 2x the floor's and below the peer's):")
            rounds.append(compare(got))
    if args.floor and args.rounds > 1:
        print(f"medians over {args.rounds} rounds (load average now {os.getloadavg()[0]:.1f} / "
              f"{os.getloadavg()[1]:.1f} / {os.getloadavg()[2]:.1f} on {os.cpu_count()} cores):")
        for key in rounds[0]:
            each = [r[key] for r in rounds if key in r]
            print(f"  {key}: dashboard / floor {statistics.median(e[0] for e in each):.2f}x "
                  f"({', '.join(f'{e[0]:.2f}' for e in each)}), dashboard / peer "
                  f"{statistics.median(e[1] for e in each):.2f}x ({', '.join(f'{e[1]:.2f}' for e in each)})")


if __name__ == "__main__":
    main()
