"""A browser session without the browser: speaks Streamlit's websocket protocol the way the
web page does (the same handshake, XSRF token and rerun messages with every widget's value),
so a load test can run many sessions without many Chromium renderers eating the CPU it
means to measure. The messages follow what Chromium sends, captured with Playwright's websocket events.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import time
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

# element type -> (WidgetState field, element field) for the browser's report of its value
_VALUE = {
    "slider": ("double_array_value", "value"),
    "checkbox": ("bool_value", "value"),
    "text_input": ("string_value", "value"),
    "text_area": ("string_value", "value"),
    "selectbox": ("string_value", "raw_value"),
}


@dataclass
class Run:
    """What one rerun showed: the metrics by label, and when the first of `watch` arrived."""
    metrics: dict[str, str] = field(default_factory=dict)
    first: float | None = None
    deltas: int = 0                              # elements and blocks the rerun sent
    exceptions: list[str] = field(default_factory=list)


class Session:
    """One user's session: open(query) like loading a link, then move widgets by key."""

    def __init__(self, url: str, timeout: float = 120):
        self.url = url.rstrip("/")
        self.timeout = timeout                   # seconds a rerun may take before giving up
        self.widgets: dict[str, tuple] = {}      # user key -> (widget id, element type, fragment id)
        self.panels: dict[str, tuple] = {}       # field -> (panel's widget id, fragment id) (ui/components/fields_panel.py)
        self.edits = itertools.count(1)
        self.values: dict[str, WidgetState] = {}  # widget id -> its current value, as the browser has it
        self.page_hash = ""
        self.query = ""
        self.ws = None
        self.cookies: dict[str, str] = {}          # what the server set (XSRF, a proxy's affinity cookie)
        self.session_id = ""
        self.served_by = None                      # X-Served-By of the websocket's handshake, behind deploy/run-team
        self.first_paint = None                    # the widget id of the element asking for the rest of a first run

    async def open(self, query: str, watch: str = "State grant award") -> Run:
        cookie = await asyncio.to_thread(self._xsrf_cookie)
        host = urlsplit(self.url).netloc
        self.ws = await websockets.connect(
            f"ws://{host}/_stcore/stream", subprotocols=["streamlit", cookie],
            additional_headers={"Cookie": self.cookie_header(), "Origin": self.url},
            max_size=None)
        self.served_by = self.ws.response.headers.get("X-Served-By")
        self.query = query
        run = await self._rerun(BackMsg(), watch)
        if self.first_paint is None:
            return run
        # The Calculator's first run drew the award alone (ui/components/first_paint.py): ask for the
        # rest as its page does once the award is painted; the element is gone after that run.
        wid, self.first_paint = self.first_paint, None
        self.values[wid].json_value = json.dumps({"painted": True})
        rest = await self._rerun(BackMsg(), watch)
        del self.values[wid]
        return Run(metrics=run.metrics | rest.metrics, first=run.first, deltas=run.deltas + rest.deltas,
                   exceptions=run.exceptions + rest.exceptions)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _xsrf_cookie(self) -> str:
        # the browser gets this cookie from the health check it makes before connecting; behind
        # deploy/run-team the same response pins the browser to a replica with a cookie of its own
        req = urllib.request.Request(self.url + "/_stcore/health", headers={"Cookie": self.cookie_header()})
        with urllib.request.urlopen(req, timeout=60) as r:
            for header in r.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";")[0]
        if "_streamlit_xsrf" not in self.cookies:
            raise RuntimeError("the server set no XSRF cookie")
        return self.cookies["_streamlit_xsrf"]

    async def set_slider(self, key: str, value: float, watch: str = "State grant award") -> Run:
        """Move the slider with this key to value, as a drag or arrow key does. On the calculator
        the money sliders are in one element (ui/components/fields_panel.py): "s:eligible_cost" moves its
        eligible_cost slider there, as its page does."""
        field = key.removeprefix("s:")
        if key not in self.widgets and field in self.panels:
            return await self.edit_field(field, {"cents": int(value) * 100}, watch)
        if self.widgets.get(key, (None, None))[1] != "slider":
            raise KeyError(f"no slider with key {key!r} on the page; its widgets: {', '.join(self.widgets)}")
        wid, _, fragment = self.widgets[key]
        state = self.values[wid]
        del state.double_array_value.data[:]
        state.double_array_value.data.append(value)
        msg = BackMsg()
        if fragment:
            msg.rerun_script.fragment_id = fragment
        return await self._rerun(msg, watch)

    async def edit_field(self, field: str, edit: dict, watch: str = "State grant award") -> Run:
        """An edit of one field of a ui/components/fields_panel element, numbered as its page numbers them."""
        wid, fragment = self.panels[field]
        state = json.loads(self.values[wid].json_value or "{}")
        state[field] = {**edit, "n": next(self.edits)}
        self.values[wid].json_value = json.dumps(state)
        msg = BackMsg()
        if fragment:
            msg.rerun_script.fragment_id = fragment
        return await self._rerun(msg, watch)

    async def click(self, key: str, watch: str = "") -> Run:
        """Press the button with this key (a trigger: it holds for the one run it starts)."""
        if self.widgets.get(key, (None, None))[1] != "button":
            raise KeyError(f"no button with key {key!r} on the page; its widgets: {', '.join(self.widgets)}")
        wid, _, fragment = self.widgets[key]
        msg = BackMsg()
        if fragment:
            msg.rerun_script.fragment_id = fragment
        msg.rerun_script.widget_states.widgets.append(WidgetState(id=wid, trigger_value=True))
        return await self._rerun(msg, watch)

    def type_text(self, key: str, text: str) -> None:
        """Type into a text box (it is sent with the next run, as a browser sends it on leaving the box)."""
        wid = self.widgets[key][0]
        self.values[wid].string_value = text

    async def upload(self, key: str, name: str, data: bytes, watch: str = "") -> Run:
        """Put a file in the uploader with this key, as the page does: the file to the upload
        route of this session, then a run with the uploader's new value."""
        import uuid

        from streamlit.proto.Common_pb2 import FileURLs, UploadedFileInfo
        wid, _, fragment = self.widgets[key]
        file_id = str(uuid.uuid4())
        url = f"{self.url}/_stcore/upload_file/{self.session_id}/{file_id}"
        await asyncio.to_thread(self._put_file, url, name, data)
        state = WidgetState(id=wid)
        state.file_uploader_state_value.uploaded_file_info.append(UploadedFileInfo(
            file_id=file_id, name=name, size=len(data), file_urls=FileURLs(file_id=file_id, upload_url=url,
                                                                            delete_url=url)))
        self.values[wid] = state
        msg = BackMsg()
        if fragment:
            msg.rerun_script.fragment_id = fragment
        return await self._rerun(msg, watch)

    def _put_file(self, url: str, name: str, data: bytes) -> None:
        boundary = "----stclient" + str(time.time_ns())
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        req = urllib.request.Request(url, data=body, method="PUT", headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": self.cookie_header(),
            "X-Xsrftoken": self.cookies.get("_streamlit_xsrf", ""), "Origin": self.url})
        with urllib.request.urlopen(req, timeout=self.timeout) as r:
            r.read()

    async def _rerun(self, msg: BackMsg, watch: str) -> Run:
        r = msg.rerun_script
        r.query_string = self.query
        r.page_script_hash = self.page_hash
        r.context_info.timezone, r.context_info.locale = "UTC", "en-US"
        r.context_info.url = self.url + "/"
        for state in self.values.values():
            r.widget_states.widgets.append(state)
        await self.ws.send(msg.SerializeToString())
        t0 = time.perf_counter()
        run = Run()
        while True:
            fwd = ForwardMsg()
            try:
                fwd.ParseFromString(await asyncio.wait_for(self.ws.recv(), self.timeout))
            except TimeoutError:
                raise TimeoutError(f"{self.url}: no end of the rerun within {self.timeout:g} s") from None
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                self.session_id = fwd.new_session.initialize.session_id
            if kind == "script_finished":
                if fwd.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue   # st.rerun(), or a newer run asked for: the run that follows is this one's end
                return run
            if kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "delta":
                self._delta(fwd, run, watch, t0)

    def _delta(self, fwd: ForwardMsg, run: Run, watch: str, t0: float) -> None:
        run.deltas += 1
        if fwd.metadata.active_script_hash:
            self.page_hash = fwd.metadata.active_script_hash
        if fwd.delta.WhichOneof("type") != "new_element":
            return
        el = fwd.delta.new_element
        kind = el.WhichOneof("type")
        if kind == "metric":
            run.metrics[el.metric.label] = el.metric.body
            if el.metric.label == watch and run.first is None:
                run.first = time.perf_counter() - t0
        elif kind == "exception":
            run.exceptions.append(el.exception.message)
        elif kind == "bidi_component":
            b = el.bidi_component
            if b.component_name.endswith("first_paint"):
                self.first_paint = b.id
            data = json.loads(b.bytes or b.json or b.mixed.json or "{}")   # ui/components/fields_panel sends bytes
            for f in data.get("fields", []) if isinstance(data, dict) else []:
                self.panels[f["id"]] = (b.id, fwd.delta.fragment_id)
            self.values.setdefault(b.id, WidgetState(id=b.id, json_value="{}"))
        elif kind in ("button", "file_uploader"):   # a trigger, or a value set by upload(): nothing to report yet
            w = getattr(el, kind)
            key = w.id.split("-", 2)[2] if w.id.startswith("$$ID-") else w.id
            self.widgets[key] = (w.id, kind, fwd.delta.fragment_id)
        elif kind in _VALUE:
            w = getattr(el, kind)
            key = w.id.split("-", 2)[2] if w.id.startswith("$$ID-") else w.id   # $$ID-<hash>-<user key>
            self.widgets[key] = (w.id, kind, fwd.delta.fragment_id)
            if w.set_value or w.id not in self.values:
                # the browser keeps what the user set, and takes what the server sets
                self.values[w.id] = _state(kind, w)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def _state(kind: str, w) -> WidgetState:
    """The value a browser would report for this widget element."""
    state = WidgetState(id=w.id)
    if kind == "slider":
        state.double_array_value.data.extend(w.value if w.set_value else w.default)
    elif kind == "selectbox":
        state.string_value = w.raw_value if w.set_value else (w.options[w.default] if w.options else "")
    else:
        setattr(state, _VALUE[kind][0], getattr(w, _VALUE[kind][1]) if w.set_value else w.default)
    return state
