"""CSV of a table of text held by Arrow (the batch's output, issue 53), made safe, quoted and joined in
C by core/report/export.py: the very bytes pandas' writer gives after spreadsheet_safe, for any text."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings, strategies as st

from core.report import export
from core.report.export import csv_bytes, csv_text

TEXT = pd.StringDtype("pyarrow", na_value=np.nan)   # pandas' "str"
CELL = st.one_of(st.none(), st.text(alphabet="a1 ,;\"'=+-@\t\r\n\x00\x7f\u202e\u200b\u00a0é😀", max_size=6),
                 st.text(max_size=4))


def frame(columns: dict) -> pd.DataFrame:
    return pd.DataFrame({k: pd.Series(v, dtype=TEXT) for k, v in columns.items()})


@st.composite
def text_frames(draw):
    width = draw(st.integers(2, 4))
    height = draw(st.integers(1, 6))
    titles = draw(st.lists(st.text(alphabet="ab ,=\"\n", min_size=1, max_size=4), min_size=width, max_size=width,
                           unique=True))
    return frame({t: draw(st.lists(CELL, min_size=height, max_size=height)) for t in titles})


@settings(max_examples=100, deadline=None)
@example(frame({"name": ["=cmd|' /C calc'!A0", "a,b", 'say "hi"', "x\r=2+2", "Al\u202eder", None],
                "n": ["-5", "+1", "@x", "\tx", "", "é"]}))
@example(frame({"a": ["1", "2"], "b": ["3", "4"]}))
@given(text_frames())
def test_arrow_text_is_written_as_pandas_writes_it(df):
    for raw in (False, True):
        want = csv_text(df, raw).encode("utf-8")
        assert export._arrow_csv(df, raw) == want
        assert csv_bytes(df, raw) == want


def test_other_tables_are_left_to_pandas():
    """Numbers, one column (Python's writer quotes a lone empty cell), no rows: pandas' writer, as before."""
    assert export._arrow_csv(pd.DataFrame({"a": [1], "b": ["x"]}), False) is None
    assert export._arrow_csv(frame({"a": [""]}), False) is None
    assert csv_bytes(frame({"a": ["", "x"]})) == b'a\r\n""\r\nx\r\n'
    assert export._arrow_csv(frame({"a": [], "b": []}), False) is None


def test_a_text_table_is_written_without_pandas_writer(monkeypatch):
    """Issue 53: pandas' writer, and spreadsheet_safe's map of str.isprintable over every cell, were most
    of the batch's time; a table of Arrow text is written by Arrow."""
    monkeypatch.setattr(pd.DataFrame, "to_csv", lambda *a, **k: pytest.fail("pandas' writer was used"))
    df = frame({"name": ["=1+1", "a,b", "plain"], "award": ["500000.00", "", "0.01"]})
    assert csv_bytes(df) == b"name,award\r\n'=1+1,500000.00\r\n\"a,b\",\r\nplain,0.01\r\n"
    assert csv_bytes(df, raw=True) == b"name,award\r\n=1+1,500000.00\r\n\"a,b\",\r\nplain,0.01\r\n"
