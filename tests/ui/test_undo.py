"""One state for a Calculator session (ui/state.py, ui/undo.py): the inputs, the readings, the
ruleset and the day whose law applies, read and put back whole by the address, Back and Forward,
Undo and Redo (issue 48). The browser's own Back, keys and fragment runs: tests/browser/test_history.py."""
from datetime import date

import pytest

from tests.support.pages import award, dashboard as start
from tests.support.panel import Panel
from ui import state

BIG = {"project_type": "renovation", "eligible_cost": "3000000", "local_contribution": "1500000"}
# Example 6 of docs/rules.md: $50,000 by default; $0 when a short local match is a condition.
EX6 = {"project_type": "renovation", "eligible_cost": "900000", "local_contribution": "0",
       "prior_program_funds": "250000"}


def undo(at):
    return at.button(key="w:undo").click().run()


def redo(at):
    return at.button(key="w:redo").click().run()


def test_undo_and_redo_put_back_the_laws_day():
    at = start(BIG | {"ruleset": "statute"})
    assert award(at) == "$800,000" and at.button(key="w:undo").disabled and at.button(key="w:redo").disabled
    at.date_input(key="w:as_of").set_value(date(1987, 1, 1)).run()
    assert award(at) == "$300,000"
    undo(at)
    assert award(at) == "$800,000" and "as_of" not in at.query_params
    assert at.date_input(key="w:as_of").value == date.today() and at.session_state["app:as_of"] is None
    redo(at)
    assert award(at) == "$300,000" and at.query_params["as_of"] == "1987-01-01"
    assert at.date_input(key="w:as_of").value == date(1987, 1, 1) and at.button(key="w:redo").disabled


def test_undo_puts_back_the_readings():
    at = start(EX6)
    at.button(key="w:reading_switch:local_match_effect").click().run()
    assert award(at) == "$0" and at.query_params["local_match_effect"] == "condition"
    undo(at)
    assert award(at) == "$50,000" and "local_match_effect" not in at.query_params
    assert at.session_state["app:reading:local_match_effect"] == "check"


def test_undo_after_a_change_of_ruleset_computes_under_the_ruleset_put_back():
    at = start(BIG)
    at.selectbox(key="w:ruleset").set_value("statute").run()
    assert award(at) == "$800,000"
    undo(at)
    assert award(at) == "$600,000" and "ruleset" not in at.query_params
    assert at.selectbox(key="w:ruleset").value == "regulation"
    Panel(at).move("eligible_cost", 4_000_000)   # a later move is under the regulation too
    assert award(at) == "$600,000" and "ruleset" not in at.query_params


def test_a_drag_is_one_step_of_undo_not_one_per_value_sent():
    """Values sent while the pointer holds the slider ("moving") are drawn but are no step: Undo
    after the release goes back to the value before the drag, not to one sent on the way."""
    at = start(BIG)
    panel = Panel(at)
    for dollars in (3_100_000, 3_200_000, 3_300_000):
        panel.edit("eligible_cost", cents=dollars * 100, moving=True)
        assert award(at) == "$600,000" and at.query_params["eligible_cost"] == "3000000"   # not yet a step
    panel.edit("eligible_cost", cents=340_000_000)   # the release
    assert at.query_params["eligible_cost"] == "3400000"
    undo(at)
    assert at.query_params["eligible_cost"] == "3000000" and Panel(at)["eligible_cost"]["cents"] == 300_000_000
    assert at.button(key="w:undo").disabled


def test_a_new_change_after_undo_drops_redo():
    at = start(BIG)
    Panel(at).move("eligible_cost", 2_000_000)
    undo(at)
    assert not at.button(key="w:redo").disabled
    Panel(at).move("eligible_cost", 1_000_000)
    assert at.button(key="w:redo").disabled
    undo(at)
    assert at.query_params["eligible_cost"] == "3000000"


def back_to(at, monkeypatch, params: dict):
    """The browser's Back or Forward to an address this session wrote: Streamlit reruns with it
    and says the run is a history step."""
    monkeypatch.setattr(state, "_history_step", lambda p: True)
    at.query_params.clear()
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    monkeypatch.undo()
    return at


def test_after_back_three_times_and_forward_three_times_a_fourth_undo_does_not_go_forward(monkeypatch):
    at = start(BIG)
    addresses = [dict(at.query_params)]
    for dollars in (3_100_000, 3_200_000, 3_300_000):
        Panel(at).move("eligible_cost", dollars)
        addresses.append(dict(at.query_params))
    for address in reversed(addresses[:-1]):   # Back three times
        back_to(at, monkeypatch, address)
        assert at.query_params["eligible_cost"] == address["eligible_cost"]
    assert at.button(key="w:undo").disabled and not at.button(key="w:redo").disabled
    for address in addresses[1:]:   # Forward three times
        back_to(at, monkeypatch, address)
    assert at.query_params["eligible_cost"] == "3300000" and at.button(key="w:redo").disabled
    for dollars in ("3200000", "3100000", "3000000"):
        undo(at)
        assert at.query_params["eligible_cost"] == dollars
    assert at.button(key="w:undo").disabled   # a fourth Undo: nothing to press
    redo(at)
    assert at.query_params["eligible_cost"] == "3100000"


def test_back_to_a_link_without_a_ruleset_leaves_the_statute(monkeypatch):
    at = start(BIG)
    first = dict(at.query_params)
    at.selectbox(key="w:ruleset").set_value("statute").run()
    assert award(at) == "$800,000" and at.query_params["ruleset"] == "statute"
    back_to(at, monkeypatch, first)
    assert award(at) == "$600,000" and at.selectbox(key="w:ruleset").value == "regulation"
    assert "ruleset" not in at.query_params


@pytest.mark.parametrize("link", [{"ruleset": "statute", "as_of": "1990-01-01"}, {"ruleset": "statute"}])
def test_a_new_link_without_a_day_means_today_whatever_day_that_is(link):
    """A link that omits `as_of` is the law as of today, not pinned to the day it was opened:
    the state holds no day, the address writes none, and Undo's step holds none."""
    at = start(BIG | link)
    at.query_params.clear()
    for k, v in (BIG | {"eligible_cost": "4000000"}).items():
        at.query_params[k] = v
    at.run()
    assert at.session_state["app:as_of"] is None and "as_of" not in at.query_params
    assert award(at) == "$600,000" and at.date_input(key="w:as_of").value == date.today()
    at = start(BIG)
    assert at.session_state["app:as_of"] is None
    Panel(at).move("eligible_cost", 2_000_000)
    assert "as_of" not in at.query_params and all(step[3] is None for step in at.session_state["undo:steps"])


def test_a_forged_control_value_is_said_on_the_page_it_was_sent_to():
    at = start(BIG)
    Panel(at).edit("project_type", value={"not": "a type"})
    assert any("could not be used" in w.value for w in at.warning)
    at.switch_page("pages/compare.py").run()
    assert not any("could not be used" in w.value for w in at.warning)
