"""Every chart that can carry a user's name, made with a given name (tests of chart text)."""
from __future__ import annotations

QUOTED = "Option \"B\" (board's pick) & <b>co</b>"   # as a user types it: quotes, an ampersand, a tag


def every_figure(name: str) -> dict:
    """Compare's three charts, the sweep's overlay, and the Portfolio's three (ranking, running
    total, priority), each with `name` in it."""
    import numpy as np

    from core.law.analysis import sweep
    from core.law.application import Application
    from core.law.award import evaluate
    from core.report.charts.compare import change_figure, compare_caps_figure, funding_figure
    from core.report.charts.portfolio import cumulative_figure, priority_figure, ranked_figure
    from core.report.charts.sensitivity import sweep_figure
    a = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                        "local_contribution": 500_000}))
    b = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 2_000_000,
                                        "local_contribution": 500_000}))
    named = [("As submitted", a), (name, b)]
    curve = sweep(a.application, "eligible_cost", 0, 300_000_000)
    names, awards = np.array(["First", name]), np.array([50_000_000, 60_000_000])
    rank, binding = np.array([2, 1]), np.array(["program_max", "cost_share"])
    return {"compare caps": compare_caps_figure(named, focus=name),
            "funding": funding_figure(named), "change": change_figure(named, name),
            "sweep": sweep_figure([("Regulation", curve), (name, curve)], "Total cost"),
            "ranked": ranked_figure(names, awards, awards, binding, rank),
            "cumulative": cumulative_figure(names, awards, rank, 200_000_000),
            "priority": priority_figure(names, np.array([0.4, 0.9]), awards, binding)}
