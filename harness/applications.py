"""Random applications as a batch CSV (illustrative, fictional numbers), the same every time for
a seed: the batch benchmark's load and the differential test's cases."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from core.law.fields import FIELDS, PROJECT_TYPES


def make_csv(path: Path, rows: int, seed: int = 7) -> None:
    rng = np.random.default_rng(seed)
    money = lambda hi: (rng.integers(0, hi * 100, rows) / 100).round(2)  # noqa: E731
    exc = rng.random(rows) < 0.2
    df = pd.DataFrame({
        "name": [f"Illustrative application {i}" for i in range(rows)],
        "project_type": rng.choice(list(PROJECT_TYPES), rows),
        "eligible_cost": money(4_000_000),
        "federal_grant": np.where(rng.random(rows) < 0.3, money(1_000_000), 0),
        "local_contribution": money(2_000_000),
        "prior_program_funds": np.where(rng.random(rows) < 0.1, money(400_000), 0),
        "requested_amount": np.where(rng.random(rows) < 0.5, money(800_000).astype(str), ""),
        "federal_law_contrary": np.where(rng.random(rows) < 0.05, "yes", "no"),
        "bpw_exception_requested": np.where(exc, "true", "false"),
        "local_property_value": np.where(exc, money(1_500_000), 0),
        "state_funds_in_property": np.where(rng.random(rows) < 0.1, "1", "0"),
        "state_bonded_debt": np.where(rng.random(rows) < 0.1, "1", "0"),
    })
    for field in FIELDS:   # a field added since: drawn by its kind, so a new input is in the cases too
        if field.group in ("application", "exception") and field.name not in df:
            if field.kind not in ("money", "bool"):
                raise ValueError(f"{field.name}: say here how to draw a field of kind {field.kind!r}")
            yes_no = np.where(rng.random(rows) < 0.2, "yes", "no")
            if field.kind == "bool" and field.default is None:   # may be left unsaid
                yes_no = np.where(rng.random(rows) < 0.5, "", yes_no)
            df[field.name] = money(1_000_000) if field.kind == "money" else yes_no
    df.to_csv(path, index=False, float_format="%.2f")
