"""Case tables kept as data, one per provision (tests/cases/<provision>.csv), checked by the
one-application engine and, each table being a batch CSV, by the batch engine."""

import pandas as pd
import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.batch import evaluate_table, read_file
from core.law.provisions import CAPS, PROVISION
from core.law.readings import parse
from core.law.rulesets import load
from tests.support import ROOT


CASES = ROOT / "tests" / "cases"


TABLES = sorted(CASES.glob("*.csv"))


ROWS = [(t.stem, row) for t in TABLES for _, row in read_file(t).iterrows()]


def test_one_table_per_provision_with_a_cap():
    """Every provision that holds a cap (the registry's), and the federal grant's, which moves them all."""
    assert {t.stem for t in TABLES} == {c.provision for c in CAPS} | {"federal_first"}
    assert all(t.stem in PROVISION for t in TABLES)


def test_case_names_are_plain_ascii():
    """mutmut hands pytest back the test ids it collected, and an id with a character outside
    ASCII (pytest writes \\xa7 for a section sign) is not found again: the clean run fails."""
    assert [r["case"] for _, r in ROWS if not r["case"].isascii()] == []


@pytest.mark.parametrize("table,row", ROWS, ids=[f"{t}: {r['case']}" for t, r in ROWS])
def test_case(table, row):
    readings = parse([p for p in row["readings"].split(";") if p])
    data = {k: v for k, v in row.items() if not k.startswith("expect_") and k not in ("case", "ruleset", "readings")}
    app = Application.from_dict(data)
    a = evaluate(app, load(row["ruleset"]), readings)
    assert (f"{a.amount // 100}.{a.amount % 100:02d}", ";".join(a.binding), a.route) == \
        (row["expect_award"], row["expect_binding"], row["expect_route"])


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.stem)
def test_batch_engine_on_the_same_table(path):
    df = read_file(path)
    for (rs_id, rd), part in df.groupby(["ruleset", "readings"]):
        out = evaluate_table(part.drop(columns=["case", "ruleset", "readings"]), load(rs_id),
                             parse([p for p in rd.split(";") if p]))
        assert (out["error"] == "").all(), out["error"].tolist()
        pd.testing.assert_series_equal(out["award"], part["expect_award"], check_names=False)
        pd.testing.assert_series_equal(out["binding"], part["expect_binding"], check_names=False)
        pd.testing.assert_series_equal(out["route"], part["expect_route"], check_names=False)
