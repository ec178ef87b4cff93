"""Issue 51: the Portfolio packet's columns of amounts fit their widest value ("$503,586.14" ran into
the next column), and the Portfolio editor shows and reads money as the rest of the tool does."""
import re

from core.law import portfolio
from core.report.portfolio import COLUMN_PT, _table, editable


def test_every_amount_column_fits_its_widest_value():
    from core.report.portfolio import NARROWER, RANKING_WIDTHS
    rows = [{"Rank": "1", "Application": "Illustrative application 00320", "Priority score": "0.812",
             "Maximum award": "$600,000", "Held down by": "the limit for earlier grantees", "Board's exception": "",
             "Allocated": "$503,586.14", "Local match": "$298,000.50 short"}]
    html = _table(rows, "ranking", RANKING_WIDTHS | NARROWER)
    shares = [float(w) for w in re.findall(r"width:([\d.]+)%", html)]
    assert abs(sum(shares) - 100) < 0.5
    got = dict(zip(rows[0], shares))
    for column in ("Allocated", "Local match", "Maximum award"):
        widest = max(len(r[column]) for r in rows)
        assert got[column] / 100 * COLUMN_PT >= widest * 9 * 0.6 + 8, column   # 9 pt figures, 4 pt padding a side
    assert got["Application"] > 15 and got["Held down by"] > 15


def test_the_editor_shows_money_and_project_types_as_the_tool_does_and_reads_them_back_exactly():
    t = portfolio.sample()
    frame = t.frame.copy()
    frame.loc[0, "eligible_cost"] = "1450000"
    frame.loc[1, "eligible_cost"] = "1,450,000.50"
    frame.loc[2, "project_type"] = "master_plan"
    shown = editable(frame)
    assert list(shown["eligible_cost"][:3]) == ["$1,450,000", "$1,450,000.50", "$3,445,000"]
    assert shown.loc[2, "project_type"] == "Master plan" and "master_plan" not in set(shown["project_type"])
    assert shown.loc[0, "federal_grant"] == "$653,000"
    before, after = portfolio.run(frame, 400_000_000), portfolio.run(shown, 400_000_000)
    assert list(before.awards) == list(after.awards) and list(before.allocated) == list(after.allocated)
    bad = frame.copy()
    bad.loc[0, "eligible_cost"] = "lots"
    assert editable(bad).loc[0, "eligible_cost"] == "lots"   # kept as typed, for its row's error to name it
