"""ui/library.py: one scenario store per server process, whatever the clients send (issue 30,
finding 3: any client's clear_cache message dropped the cached store and leaked its database
connection; 15 messages, 15 stores, 15 open lib.db descriptors)."""
import asyncio
import os

import streamlit as st

from core.law.application import Application
from core.store.repository import ScenarioStore
from harness.serve import streamlit_server

APP = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})


def test_the_store_outlives_streamlits_caches(tmp_path):
    from ui.library import shared
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    first = shared(url)
    st.cache_resource.clear()
    st.cache_data.clear()
    assert shared(url) is first                                  # nothing Streamlit clears reaches it
    other = shared(url, admins=("ada@example.org",))             # the administrators changed: a new one
    assert other is not first and other.is_admin("ADA@example.org") and shared(url, ("ada@example.org",)) is other


def _open_files(pid: int, name: str) -> int:
    fd_dir = f"/proc/{pid}/fd"
    count = 0
    for fd in os.listdir(fd_dir):
        try:
            if os.path.basename(os.readlink(f"{fd_dir}/{fd}")).startswith(name):
                count += 1
        except OSError:
            continue
    return count


def test_clear_cache_messages_leave_one_store_and_its_connections(tmp_path):
    """Fifteen clear_cache messages over the websocket, each followed by a run of the Compare page:
    the server holds as many descriptors of the library as after the first run."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    from harness.stclient import Session
    db = tmp_path / "lib.db"
    ScenarioStore(f"sqlite:///{db}").save("One", APP)
    procs = []
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}, on_start=procs.append) as url:
        def compare() -> BackMsg:
            s.page_hash = ""                          # by name, not by the hash of the page shown before
            msg = BackMsg()
            msg.rerun_script.page_name = "compare"   # the Compare page opens the library
            return msg

        s = Session(url)

        async def go():
            await s.open("")
            await s._rerun(compare(), "")
            before = _open_files(procs[0].pid, "lib.db")
            for _ in range(15):
                msg = BackMsg()
                msg.clear_cache = True
                await s.ws.send(msg.SerializeToString())
                run = await s._rerun(compare(), "")
                assert run.exceptions == []
            await asyncio.sleep(1)
            after = _open_files(procs[0].pid, "lib.db")
            await s.close()
            return before, after
        before, after = asyncio.run(go())
    assert before >= 1 and after <= before, (before, after)
