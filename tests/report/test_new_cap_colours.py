"""A cap added to the registry (docs/architecture.md, "How to add a provision": its `[caps.ID]`
table in core/law/provisions.toml) is drawn in its own colour and marker in every chart, in the
report and beside the deck's words, with no edit in core/report. Issue 50: the curve colours were a
list of eight beside the registry, and a ninth cap was drawn near-black; the bars' colours were a
dict made once from it, so a cap the registry gained later was grey."""
from __future__ import annotations

import io
import tomllib
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from core.law import provisions
from core.law.application import Application
from core.law.award import evaluate
from core.report.charts.calculator import headroom_figure
from core.report.charts.colours import SLACK, TEXT
from core.report.charts.compare import compare_caps_figure
from core.report.charts.paper import PRINT_HALF, for_print
from core.report.charts.portfolio import priority_figure, ranked_figure
from core.report.charts.sensitivity import map_figure, sweep_figure

# The recipe's table as a maintainer writes it: a colour and a marker of its own, no curve colour.
ENTRY = """
[caps.equipment_cap]
title = "Equipment maximum"
provision = "program_max"
label = "the equipment maximum"
meaning = "the most an equipment-only grant may be"
colour = "#0b6e4f"
marker = "cross"
cite.default = ["Program maximum", "A"]
"""
COLOUR = "#0b6e4f"
CURVE = "#117733"   # a curve colour of its own, when the table gives one (`line`)


def _add(monkeypatch, entry: str):
    """The cap read from its table by the registry's own reader, added to the registry."""
    cap = provisions._cap("equipment_cap", tomllib.loads(entry)["caps"]["equipment_cap"])
    monkeypatch.setitem(provisions.CAP, cap.id, cap)
    return cap


@pytest.fixture
def new_cap(monkeypatch):
    return _add(monkeypatch, ENTRY)


def _held_by_new_cap():
    """An award the new cap holds down at $100,000, beside the regulation's own caps."""
    a = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                        "local_contribution": 500_000}))
    return replace(a, caps={**a.caps, "equipment_cap": 10_000_000}, binding=("equipment_cap",), amount=10_000_000)


def test_the_headroom_bar_is_the_new_caps_colour_hatched_on_screen_and_on_paper(new_cap):
    award = _held_by_new_cap()
    for fig in (headroom_figure(award), for_print(headroom_figure(award), PRINT_HALF)):
        bar = fig.data[0]
        k = list(award.caps).index("equipment_cap")
        assert bar.y[k] == "Equipment maximum" and bar.marker.color[k] == COLOUR
        assert bar.marker.pattern.bgcolor[k] == COLOUR and bar.marker.pattern.shape[k] == "/"
        assert [c for c in bar.marker.color if c in (SLACK, TEXT)] == []


def test_compare_marks_the_new_cap_in_its_colour_and_marker(new_cap):
    award = _held_by_new_cap()
    fig = compare_caps_figure([("Equipment", award), ("Also", award)])
    mark = next(t for t in fig.data if t.name == "Equipment maximum")
    assert (mark.marker.color, mark.marker.symbol) == (COLOUR, "cross")
    assert list(mark.x) == [100_000.0, 100_000.0] and list(mark.text) == ["$100,000 (holds it down)"] * 2


def _sweep():
    """A curve held by the State's share, then by the new cap from $200,000 of award."""
    return SimpleNamespace(points=[(0, 0), (40_000_000, 20_000_000), (80_000_000, 20_000_000)], breakpoints=[],
                           segments=[(0, 0, 40_000_000, 20_000_000, ("cost_share",)),
                                     (40_000_000, 20_000_000, 80_000_000, 20_000_000, ("equipment_cap",))])


@pytest.mark.parametrize("entry,curve", [(ENTRY, COLOUR), (ENTRY + f'line = "{CURVE}"\n', CURVE)],
                         ids=["its colour", "its own curve colour"])
def test_the_sensitivity_curve_is_the_new_caps_colour_not_near_black(monkeypatch, entry, curve):
    _add(monkeypatch, entry)
    fig = sweep_figure([("The regulation in force", _sweep())], "Total cost")
    lines = {t.name: t.line.color for t in fig.data if t.mode == "lines"}
    assert lines == {"The State's share of the cost holds the award down": "#0072B2",
                     "The equipment maximum holds the award down": curve}


def test_the_portfolios_bars_and_points_are_the_new_caps_colour(new_cap):
    names, awards = np.array(["Equipment", "Renovation"]), np.array([10_000_000, 60_000_000])
    binding, rank = np.array(["equipment_cap", "program_max"]), np.array([1, 2])
    ranked = ranked_figure(names, awards, awards, binding, rank)
    bar = next(t for t in ranked.data if t.name == "Maximum award, held down by the equipment maximum")
    assert bar.marker.color == COLOUR and bar.marker.pattern.bgcolor == (COLOUR,)
    points = priority_figure(names, np.array([0.9, 0.4]), awards, binding)
    point = next(t for t in points.data if t.name == "Equipment maximum")
    assert point.marker.color == COLOUR


def test_the_map_names_the_new_caps_region(new_cap):
    award = np.array([[10_000_000, 10_000_000], [30_000_000, 60_000_000]])
    binding = np.array([["equipment_cap", "equipment_cap"], ["cost_share", "program_max"]], dtype=object)
    fig = map_figure([0, 100_000_000], [0, 100_000_000], award, binding, "Total cost", "Local contribution")
    assert "<b>the equipment maximum</b>" in [a.text for a in fig.layout.annotations]


def test_the_report_draws_the_new_cap_in_its_colour_and_the_deck_names_it(new_cap):
    """The report's charts are the figures above (core.report.page draws them, for_print on paper);
    the deck draws no cap by colour (its comparison is the award and the headroom) but says each
    cap in its speaker notes."""
    from pptx import Presentation

    from core.report.deck import deck
    from core.report.html import Item, Report, render
    report = Report([Item("Equipment", _held_by_new_cap())])
    html = render(report)
    assert f'"{COLOUR}"' in html and "Equipment maximum" in html
    slides = Presentation(io.BytesIO(deck(report))).slides
    notes = " ".join(s.notes_slide.notes_text_frame.text for s in slides)
    assert "Equipment maximum, $100,000 (holds the award down)" in notes
