"""One user slowing another (issue 30): while one session imports 5,000 scenarios (again and again),
or imports 10,000, or three sessions make PDF packets at once, a second session moves the
calculator's cost slider every 0.45 s (or saves scenarios, beside the 10,000 import). Its p90 under
each load is printed as a ratio to its p90 alone, both measured in this run (alone right before
each load, so that drift on a shared machine falls on both alike). Goal: every ratio at most 2.

    python -m bench.hostile_load [--moves 40] [--loads import5000,import10000,pdf3] [--json out.json]
                                 [--postgres postgresql+psycopg2://user:password@127.0.0.1:5432/postgres]

Sessions speak Streamlit's websocket protocol (harness/stclient.py), as a browser does: uploads go
to the session's upload route, presses are the button's trigger. The server is a fresh
`streamlit run dashboard.py` on a free loopback port with a library of its own: a SQLite file, or
with --postgres a new database on that server (as a team deployment keeps its library). SQLite has
one write lock for the whole file, so a save that arrives while an import writes waits for it.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg

from harness.stclient import Session
from core.law.application import Application
from core.law.award import evaluate
from core.law.money import fmt
from core.law.rulesets import load
from core.store.fileformat import EXPORT_FORMAT, EXPORT_VERSION
from core.store.model import Scenario
from harness.serve import streamlit_server

QUERY = "project_type=renovation&eligible_cost=1000000&local_contribution=500000"
GAP = 0.45   # seconds from one move (or save) to the next


def export_file(n: int, prefix: str) -> bytes:
    """A library export of n scenarios naming their ruleset by id (with each ruleset written out,
    5,000 scenarios are 15 MB, over the app's 10 MB upload cap; so are they 1.3 MB)."""
    rs = load()
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})
    items = []
    for i in range(n):
        item = Scenario(f"{prefix} {i:05d}", app.replace(eligible_cost=100_000_000 + i * 100), rs.id, rs.version,
                        None, "", "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00").to_dict()
        item["ruleset"] = {"id": rs.id}
        items.append(item)
    return json.dumps({"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "scenarios": items}).encode()


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def on_page(s: Session, page: str) -> BackMsg:
    s.page_hash = ""
    msg = BackMsg()
    msg.rerun_script.page_name = page
    return msg


# -- the second session -----------------------------------------------------------------------

async def moves(url: str, count: int, problems: list[str]) -> list[float]:
    """`count` slider moves, one every GAP seconds; the time from each move to its rerun's end."""
    s = Session(url)
    await s.open(QUERY)
    out = []
    for k in range(count):
        dollars = 1_000_000 + (k % 2 + 1) * 1_000 * (1 + k % 7)
        start = time.perf_counter()
        run = await s.set_slider("s:eligible_cost", dollars)
        out.append(time.perf_counter() - start)
        want = fmt(evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": dollars,
                                                   "local_contribution": 500_000})).amount)
        if run.metrics.get("State grant award") != want or run.exceptions:
            problems.append(f"move to ${dollars:,}: award {run.metrics.get('State grant award')} (want {want}); "
                            f"{run.exceptions[:1]}")
        await asyncio.sleep(max(0.0, GAP - (time.perf_counter() - start)))
    await s.close()
    return out


async def saves(url: str, count: int, problems: list[str], tag: str) -> list[float]:
    """`count` saves of a new scenario on the calculator, one every GAP seconds: press to rerun's end."""
    s = Session(url)
    await s.open(QUERY)
    out = []
    for k in range(count):
        s.type_text("w:scenario_name", f"{tag} save {k}")
        start = time.perf_counter()
        run = await s.click("w:save")
        out.append(time.perf_counter() - start)
        if run.exceptions:
            problems.append(f"save {k}: {run.exceptions[:1]}")
        await asyncio.sleep(max(0.0, GAP - (time.perf_counter() - start)))
    await s.close()
    return out


# -- the loads --------------------------------------------------------------------------------

async def importer(url: str, n: int, stop: asyncio.Event, started: asyncio.Event, problems: list[str],
                   rounds: list[float]) -> None:
    """Import n scenarios on the Compare page, again and again (new names each round), until `stop`."""
    s = Session(url)
    await s.open("")
    await s._rerun(on_page(s, "compare"), "")
    files = iter(FILES[n])
    while not stop.is_set():
        data = next(files, None)
        if data is None:
            problems.append(f"import of {n}: more rounds than files made ahead ({len(FILES[n])})")
            break
        uploader = max((key for key in s.widgets if key.startswith("w:import_file:")),
                       key=lambda key: int(key.rsplit(":", 1)[1]))
        start = time.perf_counter()
        started.set()
        run = await s.upload(uploader, "library.json", data)
        if "w:import_go" not in s.widgets:
            problems.append(f"import of {n}: no import button after the upload ({run.exceptions[:1]})")
            return
        run = await s.click("w:import_go")
        rounds.append(time.perf_counter() - start)
        if run.exceptions:
            problems.append(f"import of {n}: {run.exceptions[:1]}")
        s.widgets.pop("w:import_go", None)
    await s.close()


async def pdf_maker(url: str, stop: asyncio.Event, started: asyncio.Event, problems: list[str],
                    made: list[float]) -> None:
    s = Session(url)
    await s.open(QUERY)
    while not stop.is_set():
        start = time.perf_counter()
        started.set()
        run = await s.click("w:calc:pdf")
        made.append(time.perf_counter() - start)
        if run.exceptions:
            problems.append(f"PDF: {run.exceptions[:1]}")
    await s.close()


FILES: dict[int, list[bytes]] = {}   # made before the measurements: the load generator's own work is not the server's


async def measure(url: str, load_name: str, count: int) -> dict:
    problems: list[str] = []
    second = saves if load_name == "import10000" else moves
    label = "save" if load_name == "import10000" else "slider move"
    if load_name.startswith("import") and int(load_name.removeprefix("import")) not in FILES:
        n = int(load_name.removeprefix("import"))
        FILES[n] = [export_file(n, f"Import {n}-{k}") for k in range(12)]
    alone = await second(url, count, problems, f"{load_name} alone") if second is saves else \
        await second(url, count, problems)
    stop, started, work = asyncio.Event(), asyncio.Event(), []
    if load_name.startswith("import"):
        n = int(load_name.removeprefix("import"))
        tasks = [asyncio.create_task(importer(url, n, stop, started, problems, work))]
    else:
        tasks = [asyncio.create_task(pdf_maker(url, stop, started, problems, work)) for _ in range(3)]
    await asyncio.wait_for(started.wait(), 120)
    loaded = await second(url, count, problems, f"{load_name} loaded") if second is saves else \
        await second(url, count, problems)
    stop.set()
    await asyncio.gather(*tasks)
    return {"load": load_name, "action": label, "alone_p50": statistics.median(alone), "alone_p90": p90(alone),
            "loaded_p50": statistics.median(loaded), "loaded_p90": p90(loaded), "loaded_max": max(loaded),
            "ratio_p90": p90(loaded) / p90(alone), "load_rounds": len(work),
            "load_seconds": statistics.median(work) if work else None, "problems": problems,
            "alone": alone, "loaded": loaded}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40, help="moves (or saves) alone and under each load")
    ap.add_argument("--loads", default="import5000,import10000,pdf3")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--verbose", action="store_true", help="also print the slowest moves under each load")
    ap.add_argument("--postgres", metavar="URL", help="keep the library in a new database on this PostgreSQL server")
    args = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        db_url = new_database(args.postgres) if args.postgres else f"sqlite:///{Path(tmp) / 'lib.db'}"
        print("library:", db_url.split("@")[-1] if args.postgres else "SQLite file", flush=True)
        try:
            run_all(db_url, args, results)
        finally:
            if args.postgres:
                drop_database(args.postgres, db_url.rsplit("/", 1)[1])
    worst = max(r["ratio_p90"] for r in results)
    print(f"worst p90 ratio: {worst:.2f}x (goal: at most 2x)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


def new_database(base: str) -> str:
    """A fresh database on the PostgreSQL server of `base`, for this run alone."""
    import uuid

    from sqlalchemy import create_engine, text
    name = f"bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


def drop_database(base: str, name: str) -> None:
    from sqlalchemy import create_engine, text
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def run_all(db_url: str, args, results: list) -> None:
    with streamlit_server(env={"SCENARIO_DB_URL": db_url}) as url:
        asyncio.run(moves(url, 5, []))   # warm: pages imported, first runs done
        for name in args.loads.split(","):
            results.append(asyncio.run(measure(url, name.strip(), args.moves)))
            r = results[-1]
            print(f"{r['load']:12} {r['action']:12} alone p50 {r['alone_p50'] * 1000:6.0f} ms  p90 "
                  f"{r['alone_p90'] * 1000:6.0f} ms | loaded p50 {r['loaded_p50'] * 1000:6.0f} ms  p90 "
                  f"{r['loaded_p90'] * 1000:6.0f} ms  max {r['loaded_max'] * 1000:6.0f} ms | ratio p90 "
                  f"{r['ratio_p90']:.2f}x  ({r['load_rounds']} rounds of the load"
                  + (f", {r['load_seconds']:.1f} s each" if r["load_seconds"] else "") + ")", flush=True)
            if args.verbose:
                print("   slowest under load (ms):", [round(v * 1000) for v in sorted(r["loaded"])[-8:]])
            for p in r["problems"][:5]:
                print("   problem:", p)


if __name__ == "__main__":
    main()
