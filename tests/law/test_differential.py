"""Differential check: the batch engine against the one-application engine, row by row, on
random applications (harness/applications.py), under every ruleset with the default readings
and under each of the 32 combinations of readings. Slow: 20,000 rows and 31 x 2,000."""
import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.batch import evaluate_parsed, parse_frame, read_file
from core.law.readings import DEFAULT, every
from core.law.rulesets import available, load
from harness.applications import make_csv

pytestmark = pytest.mark.slow


def disagreements(df, rs, rd) -> list[str]:
    values, errors = parse_frame(df)
    out = evaluate_parsed(values, rs, rd)
    bad = []
    for i, row in enumerate(df.to_dict("records")):
        if errors[i]:
            continue
        a = evaluate(Application.from_dict({k: v for k, v in row.items() if k != "name"}), rs, rd)
        got = out.iloc[i]
        if (int(got.award), got.binding, got.route, int(got.standard_award), int(got.local_shortfall),
                int(got.funding_gap)) != (a.amount, ";".join(a.binding), a.route, a.routes["standard"].award,
                                          a.local_shortfall, a.funding_gap):
            bad.append(f"row {i}: batch {got.to_dict()} vs evaluate {a.amount} {a.binding} {a.route}")
    return bad


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("differential") / "apps.csv"
    make_csv(path, 20_000, seed=11)
    return read_file(path)


@pytest.mark.parametrize("rid", available())
def test_every_row_agrees_under_each_ruleset(table, rid):
    assert disagreements(table, load(rid), DEFAULT)[:3] == []


@pytest.mark.parametrize("rd", every()[1:], ids=lambda r: r.describe())
def test_every_row_agrees_under_each_combination_of_readings(table, rd):
    assert disagreements(table.iloc[:2_000], load(), rd)[:3] == []
