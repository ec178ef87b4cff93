"""The dashboard in Streamlit's AppTest: opened from a link, on a page; what it shows."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.support import ROOT


def dashboard(params: dict | None = None, page: str | None = None, check: bool = True) -> AppTest:
    """The dashboard opened at a link's query parameters, on `page` (the Calculator if none);
    with check, it ran without an exception."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    if page:
        at.switch_page(page)
    at.run()
    if check:
        assert not at.exception, at.exception
    return at


def award(at) -> str:
    return next(m.value for m in at.metric if m.label == "State grant award")


def binding(at) -> str:
    # the answer beside the award, from its limit on (a requirement not yet met comes before it)
    said = next(m.value for m in at.markdown if "**Held down by**" in m.value)
    return said[said.index("**Held down by**"):]


def save(at, name: str, notes: str = "") -> AppTest:
    """Type a scenario's name and notes and press Save scenario."""
    at.text_input(key="w:scenario_name").input(name)
    at.text_area(key="w:scenario_notes").input(notes)
    at.button(key="w:save").click().run()
    return at
