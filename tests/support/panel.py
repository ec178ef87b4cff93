"""The calculator's inputs (ui/components/fields_panel.py, one custom element) in AppTest, driven the way
the browser drives them: an edit is the field's new state value, numbered, sent with the next
run. AppTest has no handle for custom elements, so this speaks their widget protocol itself,
as harness/stclient.py does over the websocket."""
from __future__ import annotations

import itertools
import json

from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import UnknownElement

_edits = itertools.count(1)


def _data(node: UnknownElement) -> dict:
    """The panel's data as the page's JSON.parse reads it: NaN or Infinity would fail there."""
    def refuse(token: str):
        raise ValueError(f"the panel's data holds {token}, which the page's JSON.parse refuses")
    return json.loads(node.proto.bytes, parse_constant=refuse)


def _nodes(at: AppTest):
    return [n for n in at._tree if isinstance(n, UnknownElement) and n.type == "bidi_component"]


def _element(at: AppTest, key: str, what: str) -> UnknownElement:
    for n in _nodes(at):
        if n.key == key:
            return n
    raise KeyError(f"no {what} {key!r} on the page")


def panels(at: AppTest) -> dict[str, dict]:
    """Every fields panel on the page: its key -> its data (title, fields)."""
    return {n.key: d for n in _nodes(at) if "fields" in (d := _data(n))}


def charts(at: AppTest, key: str = "charts") -> list[dict]:
    """The charts the calculator's chart element (ui/components/chart_panel.py) draws: for each, its id,
    title, accessible name (alt), table rows and Plotly figure, as the page receives them."""
    return _data(_element(at, key, "chart element"))["charts"]


def amounts(at: AppTest, key: str = "charts") -> dict[str, str]:
    """The amounts above the calculator's charts: label -> value as shown."""
    return {a["label"]: a["value"] for a in _data(_element(at, key, "chart element"))["amounts"]}


def details(at: AppTest, key: str = "details") -> dict:
    """What the calculator's details element (ui/components/details_panel.py) draws: its checks, steps
    (text, source, the regulation's sentence) and what would change it."""
    return _data(_element(at, key, "details element"))


class Panel:
    """One panel of the page by key: "application" (the inputs column) or "exception_property"
    (the Board exception's property questions, shown once its switch is on)."""

    def __init__(self, at: AppTest, key: str = "application"):
        self.at, self.key = at, key

    def _node(self) -> UnknownElement:
        for n in _nodes(self.at):
            if n.key == self.key:
                return n
        raise KeyError(f"no fields panel {self.key!r} on the page; panels: {', '.join(panels(self.at)) or 'none'}")

    @property
    def fields(self) -> dict[str, dict]:
        """Field id -> what the page shows for it (label, value or cents, text, error, max...)."""
        return {f["id"]: f for f in _data(self._node())["fields"]}

    def __getitem__(self, field: str) -> dict:
        return self.fields[field]

    def __contains__(self, field: str) -> bool:
        return field in self.fields

    def title(self) -> str:
        return _data(self._node())["title"]

    def edit(self, field: str, **edit) -> AppTest:
        """Send one edit of `field` and run, as the page does on a slider step, Enter or a click."""
        if field not in self.fields:
            raise KeyError(f"panel {self.key!r} has no field {field!r}; it has {', '.join(self.fields)}")
        sent = self.at.__dict__.setdefault("_panel_states", {}).setdefault(self.key, {})
        sent[field] = {"n": next(_edits), **edit}   # a test may forge its own n
        states = self.at._tree.get_widget_states()
        states.widgets.append(WidgetState(id=self._node().proto.id, json_value=json.dumps(sent)))
        return self.at._run(states)

    def rerun(self) -> AppTest:
        """A run another control started: the panel's state goes with it, its edits unchanged."""
        states = self.at._tree.get_widget_states()
        sent = self.at.__dict__.get("_panel_states", {}).get(self.key, {})
        states.widgets.append(WidgetState(id=self._node().proto.id, json_value=json.dumps(sent)))
        return self.at._run(states)

    def move(self, field: str, dollars: int) -> AppTest:
        """A slider step to `dollars` (whole dollars, as the slider holds them)."""
        return self.edit(field, cents=dollars * 100)

    def type(self, field: str, text: str) -> AppTest:
        """Text typed in the field's exact-amount box, then Enter."""
        return self.edit(field, text=text)

    def choose(self, field: str, value) -> AppTest:
        """A choice in a select, or a switch or checkbox set on (True) or off (False)."""
        return self.edit(field, value=value)
