"""First visit: from a visitor's navigation to the first award on screen, the dashboard against the
bare one-slider app (bench/bare_slider.py, the floor) and the peer (bench/peer_app.py: sliders, a
metric and a Plotly chart over the same law), all three started in this run, in Chromium.

    python -m bench.first_visit [--rounds R] [--visits V]

Each round starts both servers afresh; the first visit of each server is "cold" (the server imports
and computes what its first session needs), the next `--visits` are "warm" (a new visitor, a new
browser context with an empty cache, on a server that has served one). The page itself records,
from the navigation's start (performance.timeOrigin), the first moment a metric
(`data-testid=stMetricValue`) holds a dollar amount: the number a visitor came for. Prints the
medians of each and the dashboard's ratios to the floor and to the peer (goals, issue 53: within
1.5x of the floor, below the peer), and when each app's first slider was drawn: the dashboard
draws its award alone first and its inputs once the award is painted (ui/components/first_paint.py).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

from harness.serve import browser, streamlit_server

# Before the app's own code: the first time a metric shows a dollar amount, in ms since navigation.
FIRST_AWARD = """
(() => {
  window.__firstAward = null;
  window.__firstInput = null;   // the first slider a visitor can move (the dashboard draws its inputs after the award)
  const look = () => {
    if (window.__firstInput === null && document.querySelector('[role=slider], input[type=range]')) window.__firstInput = performance.now();
    if (window.__firstAward === null) {
      for (const m of document.querySelectorAll('[data-testid=stMetricValue]')) {
        if (/\\$[0-9]/.test(m.textContent)) { window.__firstAward = performance.now(); break; }
      }
    }
    if (window.__firstAward !== null && window.__firstInput !== null) observer.disconnect();
  };
  const observer = new MutationObserver(look);
  const start = () => observer.observe(document.documentElement, {subtree: true, childList: true, characterData: true});
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, {once: true});
  // Where the time before it goes: the socket open, the first server message naming the award (every
  // app here labels its metric "State grant award"); the page's own load is the navigation entry's.
  window.__ws = {open: null, award: null};
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener('open', () => { if (window.__ws.open === null) window.__ws.open = performance.now(); });
    ws.addEventListener('message', (ev) => {
      if (window.__ws.award !== null || !(ev.data instanceof ArrayBuffer)) return;
      if (new TextDecoder('utf-8', {fatal: false}).decode(ev.data).includes('State grant award')) window.__ws.award = performance.now();
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
})();
"""
PHASES = ("page loaded (DOMContentLoaded)", "socket open", "award's message arrived", "award drawn", "inputs drawn")


def visit(b, url: str, phases: list | None = None) -> float | None:
    """ms from navigation to the first award shown, in a new context (empty cache, new session);
    appends to `phases` the ms from navigation to each of PHASES."""
    context = b.new_context(viewport={"width": 1400, "height": 1200})
    try:
        page = context.new_page()
        page.add_init_script(FIRST_AWARD)
        page.goto(url)
        page.wait_for_function("() => window.__firstAward !== null && window.__firstInput !== null", timeout=120_000)
        got = page.evaluate("() => [performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,"
                            " window.__ws.open, window.__ws.award, window.__firstAward, window.__firstInput]")
        if phases is not None and None not in got:
            phases.append(got)
        return got[3]
    except Exception as exc:   # noqa: BLE001 - a visit that never showed an award is reported, not fatal
        print(f"  {url}: no award shown ({str(exc).splitlines()[0]})", file=sys.stderr)
        return None
    finally:
        context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--visits", type=int, default=4)
    args = ap.parse_args()
    times = {(app, kind): [] for app in ("bare", "peer", "dashboard") for kind in ("cold", "warm")}
    phases = {key: [] for key in times}
    with browser() as b:
        for r in range(args.rounds):
            with (streamlit_server("bench/bare_slider.py") as bare_url, streamlit_server("bench/peer_app.py") as peer_url,
                  streamlit_server() as app_url):
                urls = {"bare": bare_url + "/?bench=bare", "peer": peer_url + "/?bench=peer", "dashboard": app_url}
                if r % 2:   # every other round the other way round: drift hits all alike
                    urls = dict(reversed(urls.items()))
                for app, url in urls.items():   # each server's first visitor
                    times[app, "cold"].append(visit(b, url, phases[app, "cold"]))
                for _ in range(args.visits):    # interleaved, so drift hits all alike
                    for app, url in urls.items():
                        times[app, "warm"].append(visit(b, url, phases[app, "warm"]))
            print(f"round {r + 1}: " + ", ".join(f"{app} {kind} {[round(t) for t in v[-(args.visits if kind == 'warm' else 1):] if t]}"
                                                 for (app, kind), v in times.items()), flush=True)
    print(f"load average at the end: {' / '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    for kind in ("cold", "warm"):
        got = {app: [t for t in times[app, kind] if t is not None] for app in ("bare", "peer", "dashboard")}
        if not all(got.values()):
            print(f"{kind}: too few visits showed an award")
            continue
        mb, mp, mo = (statistics.median(got[app]) for app in ("bare", "peer", "dashboard"))
        print(f"{kind} visit, median of {len(got['dashboard'])}: bare app {mb:.0f} ms, peer {mp:.0f} ms, "
              f"dashboard {mo:.0f} ms; dashboard / bare {mo / mb:.2f}x (goal: at most 1.5x), "
              f"dashboard / peer {mo / mp:.2f}x (goal: below 1x); peer / bare {mp / mb:.2f}x")
        for app in ("bare", "peer", "dashboard"):   # where the time went: medians of each moment
            seen = phases[app, kind]
            if seen:
                print(f"  {app}: " + ", ".join(f"{what} {statistics.median(p[i] for p in seen):.0f} ms"
                                               for i, what in enumerate(PHASES)) + " after the navigation")


if __name__ == "__main__":
    main()
