"""What each thing is drawn in, on every page, in the report, the PDF and the deck: the sources of
funds (the field table's, core/law/fields.py) and the caps (the registry's, core/law/provisions.toml,
read when a chart is drawn: a cap added there has its colour, marker and curve colour with no edit
here). Imports no Plotly: the deck and the Calculator's live award read it too.

Each colour of a bar or a text is at least 4.5:1 against white (so white labels inside the bars
read, and the bars stand out 3:1 from the page); binding is never shown by colour alone: it is
written out ("holds it down") and drawn hatched.
"""
from __future__ import annotations

from core.law.fields import FUNDING_PLAN
from core.law.provisions import CAP

AWARD = "#1f4e79"        # the State award (navy, 8.7:1)
COST = "#4a4a4a"         # the cost of eligible work (8.9:1)
# The sources are the field table's (`funds`, core/law/fields.py) in the funding plan's order
# (core.law.award.funding_plan), each labelled as its field; a source without a colour here takes
# the next of EXTRA_SOURCE_COLORS.
SOURCE_COLOR = {"federal": "#00707a", "state": AWARD, "local": "#1e7b45", "gap": "#b35900"}
EXTRA_SOURCE_COLORS = ("#6a3d9a", "#7a5c00", "#2f4f6f")   # each at least 4.5:1 on white
_extra = iter(EXTRA_SOURCE_COLORS)
SOURCES = {key: (label, SOURCE_COLOR.get(key) or next(_extra)) for key, label, _ in FUNDING_PLAN} | {
    "gap": ("Funding gap", SOURCE_COLOR["gap"])}
SOURCE_COLORS = {key: color for key, (_, color) in SOURCES.items()}
BINDING = CAP["program_max"].colour   # the budget line and other "a limit here" marks
SLACK = "#555555"        # a bar held down by no cap
TEXT = "#222222"         # chart text, 15.9:1 (Streamlit's theme drew it #808495, 3.7:1)
GRID = "#e6e6e6"
OVERLAYS = ["#222222", "#8a4b00", "#3b5b92"]   # other rulesets' dashed curves (each 4.5:1 or more)


def cap_colour(cap: str) -> str:
    """A cap's bars, markers and text: its registry colour (SLACK where no cap holds it, "")."""
    return CAP[cap].colour if cap in CAP else SLACK


def cap_line(cap: str) -> str:
    """A cap's stretch of a curve (Sensitivity's, where it holds the award): the registry's `line`,
    one of Okabe and Ito's colours, which stay apart for colour-blind readers (deuteranopia,
    protanopia, tritanopia); a cap without one is drawn in its colour."""
    return (CAP[cap].line or CAP[cap].colour) if cap in CAP else TEXT
