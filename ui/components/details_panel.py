"""The calculator's checks, how the award is worked out, and what would change it, as one
element: a custom component (ui/components/details_panel.js).

Why not st.markdown and st.toggle: every element a slider move sends costs the server ~0.3 ms
(building, enqueueing, the event loop's send) for every user, and the browser a React redraw
(docs/performance.md, "The calculator's cost per move"). These three sections were three elements; they
are one. The switch that shows the regulation's own sentences beside each step works in the
page: the sentences travel with the steps, so turning it on or off needs no run of the server.
"""
from __future__ import annotations

import orjson

from core.law.provisions import PROVISION, citation
from ui.components.elements import element
from ui.text import STATUS

PANEL = element("grant_details", "details_panel", "gd")
QUOTES = "Show the regulation's own sentences"


def details_data(award, changes) -> dict:
    """What the element draws for `award`: its checks, its steps, each with its provision's
    title and sentence, and the sentences of what would change it (core.law.analysis.changes)."""
    checks = [{"status": c.status, "icon": STATUS[c.status][1], "word": STATUS[c.status][2],
               "label": c.label, "message": c.message} for c in award.checks]
    steps = []
    for step in award.steps:
        p = PROVISION.get(step.provision)
        quote = None
        if p is not None:   # the same citation as the award box's "In the regulation:" and the report's
            c = citation(step.provision, award)
            quote = (f"{c.words}: “{' '.join(c.sentences)}”" if c.sentences else
                     f"{p.title}: no sentence of the regulation says this.")
            if p.interpretation:
                quote += f" Interpretation: {p.interpretation}"
        steps.append({"text": step.text, "source": p.title if p else "Result", "quote": quote})
    return {"quotes": QUOTES, "checks": checks, "steps": steps, "changes": list(changes)}


def details(award, changes, key: str = "details") -> None:
    """Draw the three sections for `award` as one element."""
    # Bytes: Streamlit forwards them as they are (a dict is walked and hashed on every run).
    PANEL(key=key, data=orjson.dumps(details_data(award, changes)))
