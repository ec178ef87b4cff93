"""Where the browser's time per slider move goes: a Chromium performance trace of moves.

    python bench/trace_move.py [--presses 5] [--timeline]

Measures: in headless Chromium, presses of the right-arrow key on the cost slider, for the
bare one-slider app and the dashboard's calculator, each under Chrome's tracing (the
renderer's main thread: scripting, style and layout, paint and compositing, other) and the
V8 CPU profiler (JavaScript by source: Plotly, the rest of Streamlit's frontend,
garbage collection). Per press: keydown to the award on screen (as bench/ui_latency.py)
and the main thread's busy time until the page is quiet again (charts redrawn).
--timeline instead prints, for one press of each app, the renderer main thread's tasks from
the keydown to the award drawn and a little after: when each starts, how long it runs, and
what it spent that time on (React's render, style and layout, paint, message handling).
Goal (issue 17): keypress to award on screen at most 1.5x the bare app (bench/ui_latency.py).
"""
from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ui_latency import PROBE  # noqa: E402
from tests.serve import browser, streamlit_server  # noqa: E402

SCRIPTING = {"FunctionCall", "EvaluateScript", "TimerFire", "EventDispatch", "RunMicrotasks", "FireAnimationFrame",
             "v8.compile", "v8.run", "V8.Execute", "MajorGC", "MinorGC", "V8.GCScavenger", "V8.GC_MC_BACKGROUND",
             "v8.callFunction", "XHRReadyStateChange", "FireIdleCallback", "v8.produceCache", "ParseHTML",
             "HandlePostMessage", "ResourceReceivedData"}
LAYOUT = {"UpdateLayoutTree", "Layout", "RecalculateStyles", "InvalidateLayout", "ScheduleStyleRecalculation",
          "LayoutShift", "IntersectionObserverController::computeIntersections", "ResizeObserverController::DeliverObservations"}
PAINT = {"Paint", "PaintImage", "PrePaint", "CompositeLayers", "Layerize", "UpdateLayer", "UpdateLayerTree",
         "Commit", "PaintSetup", "Decode Image", "Draw LazyPixelRef", "UpdateLayers", "BeginMainThreadFrame"}


def main_thread_self_times(events: list[dict]) -> dict[str, float]:
    """Self time (ms) by event name on the renderer's main thread(s)."""
    names = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
             and e.get("args", {}).get("name") == "CrRendererMain"}
    by_thread = collections.defaultdict(list)
    for e in events:
        if ((e.get("pid"), e.get("tid")) in names and e.get("ph") == "X" and "dur" in e
                and not e["name"].startswith("CpuProfiler")):
            by_thread[(e["pid"], e["tid"])].append(e)
    self_ms = collections.Counter()
    for evs in by_thread.values():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack: list[list] = []   # [end, name, child time]
        for e in evs:
            while stack and e["ts"] >= stack[-1][0]:
                end, name, child, dur = stack.pop()
                self_ms[name] += (dur - child) / 1000
            if stack:
                stack[-1][2] += e["dur"]
            stack.append([e["ts"] + e["dur"], e["name"], 0, e["dur"]])
        while stack:
            end, name, child, dur = stack.pop()
            self_ms[name] += (dur - child) / 1000
    return self_ms


def js_by_source(profile: dict) -> dict[str, float]:
    """V8 CPU profile self time (ms) by where the code comes from."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    out = collections.Counter()
    for nid, dt in zip(profile.get("samples", []), profile.get("timeDeltas", [])):
        f = nodes[nid]["callFrame"]
        url, fn = f.get("url", ""), f.get("functionName", "")
        if fn in ("(idle)", "(program)"):
            continue
        if fn == "(garbage collector)":
            key = "garbage collection"
        elif "PlotlyChart" in url or "plotly.min.js" in url:
            key = "Plotly (Streamlit's chunk, or plotly.min.js for the calculator)"
        elif url:
            key = "Streamlit frontend and React (other chunks)"
        else:
            key = "other (browser internals)"
        out[key] += dt / 1000
    return out


def measure(b, url: str, presses: int) -> tuple[list[float], dict, dict]:
    page = b.new_page(viewport={"width": 1400, "height": 1200})
    page.goto(url)
    page.wait_for_selector('[data-testid=stMetricValue]')
    page.wait_for_timeout(1500)
    slider = page.get_by_role("slider").first
    cdp = page.context.new_cdp_session(page)

    def press() -> float | None:
        slider.focus()
        page.evaluate(PROBE)
        page.keyboard.press("ArrowRight")
        ms = page.evaluate("() => window.__latency")
        page.wait_for_timeout(800)          # the rest of the run: charts redrawn, page quiet
        return ms

    for _ in range(3):                      # warm up: chunks loaded, charts drawn once
        press()
    # Two passes, so neither instrument slows the other's view: a trace, then a CPU profile.
    b.start_tracing(page=page, categories=["devtools.timeline", "disabled-by-default-devtools.timeline"])
    # the probe gives (to award drawn, to request sent, to award's message read) per press
    latencies = [ms[0] for ms in (press() for _ in range(presses)) if ms is not None]
    trace = json.loads(b.stop_tracing())
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Profiler.start")
    for _ in range(presses):
        press()
    profile = cdp.send("Profiler.stop")["profile"]
    page.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return latencies, main_thread_self_times(events), js_by_source(profile)


def report(name: str, latencies, self_ms, js, presses: int) -> None:
    groups = collections.Counter()
    for ev, ms in self_ms.items():
        groups["scripting" if ev in SCRIPTING else "style and layout" if ev in LAYOUT
               else "paint and compositing" if ev in PAINT else "other (tasks, messages, parsing)"] += ms
    busy = sum(groups.values())
    print(f"\n{name}: keydown to award on screen, median {statistics.median(latencies):.0f} ms over {len(latencies)} presses;"
          f" renderer main thread busy {busy / presses:.1f} ms per press")
    for g, ms in groups.most_common():
        print(f"  {g:36s} {ms / presses:6.1f} ms  {100 * ms / busy:5.1f}%")
    print("  JavaScript by source (V8 CPU profile):")
    for k, ms in js.most_common():
        print(f"    {k:44s} {ms / presses:6.1f} ms")
    top = ", ".join(f"{ev} {ms / presses:.1f}" for ev, ms in self_ms.most_common(8))
    print(f"  busiest trace events (ms per press): {top}")


# Marks the keydown and the award drawn in the trace itself (console.timeStamp), for --timeline.
MARKS = """() => {
  const value = () => document.querySelector('[data-testid=stMetricValue]');
  const before = value().textContent;
  document.addEventListener('keydown', () => console.timeStamp('keydown'), {capture: true, once: true});
  const obs = new MutationObserver(() => {
    if (value() && value().textContent !== before) { console.timeStamp('award drawn'); obs.disconnect(); }
  });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _label(e: dict) -> str:
    d = e.get("args", {}).get("data", {})
    if e["name"] == "EventDispatch":
        return f"event {d.get('type', '')}"
    if e["name"] == "FunctionCall":
        return f"script {d.get('functionName') or '(anonymous)'} in {d.get('url', '').rsplit('/', 1)[-1][:28]}"
    return e["name"]


def timeline(b, url: str, name: str) -> None:
    """One press under Chrome's trace: the main thread's tasks from the keydown on."""
    page = b.new_page(viewport={"width": 1400, "height": 1200})
    page.goto(url)
    page.wait_for_selector('[data-testid=stMetricValue]')
    page.wait_for_timeout(1500)
    slider = page.get_by_role("slider").first
    for _ in range(3):                      # warm up
        slider.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(800)
    b.start_tracing(page=page, categories=["devtools.timeline", "disabled-by-default-devtools.timeline"])
    slider.focus()
    page.evaluate(MARKS)
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(800)
    trace = json.loads(b.stop_tracing())
    page.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    marks = {e["args"]["data"]["message"]: e["ts"] for e in events if e.get("name") == "TimeStamp"}
    main = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"}
    evs = sorted((e for e in events if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X" and "dur" in e),
                 key=lambda e: (e["ts"], -e["dur"]))
    if "keydown" not in marks or "award drawn" not in marks:
        print(f"\n{name}: the press was not seen in the trace")
        return
    t0, drawn = marks["keydown"], marks["award drawn"]
    print(f"\n{name}: award drawn {(drawn - t0) / 1000:.1f} ms after the keydown; main-thread tasks over 0.3 ms")
    print("   start    ms  what in it took the time (ms)")
    for task in evs:
        if task["name"] != "RunTask" or not t0 - 2000 <= task["ts"] <= drawn + 20_000 or task["dur"] < 300:
            continue
        inside = collections.Counter()
        for e in evs:
            if e is not task and task["ts"] <= e["ts"] < task["ts"] + task["dur"] and e["dur"] >= 200:
                inside[_label(e)] += e["dur"] / 1000
        top = ", ".join(f"{k} {v:.1f}" for k, v in inside.most_common(4))
        print(f"  {(task['ts'] - t0) / 1000:6.1f} {task['dur'] / 1000:5.1f}  {top}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=5)
    ap.add_argument("--timeline", action="store_true", help="one press of each app, task by task")
    args = ap.parse_args()
    print(__doc__.split("\n\n")[2].strip(), flush=True)
    with streamlit_server("bench/bare_slider.py") as bare_url, streamlit_server() as app_url, browser() as b:
        if args.timeline:
            timeline(b, bare_url + "/?bench=bare", "bare one-slider app")
            timeline(b, app_url, "dashboard calculator")
            return
        report("bare one-slider app", *measure(b, bare_url + "/?bench=bare", args.presses), args.presses)
        report("dashboard calculator", *measure(b, app_url, args.presses), args.presses)


if __name__ == "__main__":
    main()
