"""The batch's reading of a plain CSV file in whole columns (core/law/tables_csv.py, issue 53): Arrow's CSV
reader, where every line has the header's cells and no quotes, gives the very frame, row numbers and
errors that pandas' reader gives; anything else is read by pandas as before."""
import io

import pandas as pd
import pytest
from hypothesis import example, given, settings, strategies as st

from core.law import tables_csv
from core.law.tables import TableError, read

CELL = st.text(alphabet="ab7 \t.,;-=#é\u00a0\u202e\x0b\x00", max_size=6)


def _outcome(data: bytes, max_rows=None):
    try:
        t = read(data, "t.csv", max_rows=max_rows)
    except TableError as exc:
        return "error", str(exc)
    return "table", t.frame, list(t.rows)


def _by_pandas(monkeypatch, data: bytes, max_rows=None):
    with monkeypatch.context() as m:
        m.setattr(tables_csv, "_arrow_frame", lambda *a: None)
        return _outcome(data, max_rows)


def _same(a, b):
    assert a[0] == b[0], (a, b)
    if a[0] == "error":
        assert a[1] == b[1]
    else:
        pd.testing.assert_frame_equal(a[1], b[1])
        assert a[2] == b[2]


@st.composite
def plain_files(draw):
    """Files without quotes: a header of 1 to 5 titles, rows of about as many cells (some short, some
    long), blank lines and lines of separators only, notes above, CRLF or CR or LF line ends."""
    sep = draw(st.sampled_from([",", ";"]))
    width = draw(st.integers(1, 5))
    header = sep.join(f"c{i}" for i in range(width))
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["row", "row", "row", "row", "short", "long", "blank", "seps"]))
        n = {"row": width, "short": max(1, width - 1), "long": width + 1}.get(kind, 0)
        if kind == "blank":
            lines.append(draw(st.sampled_from(["", "  ", "\t", "\u00a0"])))
        elif kind == "seps":
            lines.append(sep * draw(st.integers(1, width + 1)))
        else:
            lines.append(sep.join(draw(CELL).replace(sep, "") for _ in range(n)))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    notes = draw(st.sampled_from(["", "# a note" + end]))
    return (notes + header + end + end.join(lines) + draw(st.sampled_from(["", end]))).encode("utf-8")


@settings(max_examples=150, deadline=None)
@example(b"a,b\n1,2\n3,4\n")
@example(b"a,b\n1,2\n,\n\n3,4\n")
@example(b"a,b\n1,2,3\n")
@example(b"a,b\n1\n2,3\n")
@example(b"a;b\n1;2\r\n 3 ; 4 \r\n")
@example(b"a,b\nx\x00y,2\n")
@given(plain_files())
def test_a_plain_file_reads_as_pandas_reads_it(data):
    mp = pytest.MonkeyPatch()
    try:
        _same(_outcome(data), _by_pandas(mp, data))
        _same(_outcome(data, max_rows=3), _by_pandas(mp, data, max_rows=3))
    finally:
        mp.undo()


def test_a_plain_file_is_read_without_pandas_reader(monkeypatch):
    """Issue 53: pandas' reader made a Python string of every cell, then Arrow text of it (half the
    batch's reading time); a file without quotes is read by Arrow's reader in C."""
    monkeypatch.setattr(pd, "read_csv", lambda *a, **k: pytest.fail("pandas' reader was used"))
    t = read(b"name,project_type,eligible_cost\n007,renovation,1000000.005\n\nNA,conversion, 5 \n", "t.csv")
    assert t.frame.to_dict("list") == {"name": ["007", "NA"], "project_type": ["renovation", "conversion"],
                                       "eligible_cost": ["1000000.005", " 5 "]}
    assert list(t.rows) == [2, 4]
    assert str(t.frame["name"].dtype) == "str"


def test_a_row_of_another_width_is_still_named_as_before():
    with pytest.raises(TableError, match=r"t.csv: row 3 has 3 cells but the header names 2 columns"):
        read(b"a,b\n1,2\n1,2,3\n", "t.csv")
    short = read(b"a,b\n1\n2,3\n", "t.csv").frame   # pandas fills a short row with empty cells
    assert short.to_dict("list") == {"a": ["1", "2"], "b": ["", "3"]}


def test_quoted_cells_are_read_by_the_csv_module_as_before():
    t = read(io.BytesIO(b'a,b\n"x,1",2\n').getvalue(), "t.csv")
    assert t.frame.to_dict("list") == {"a": ["x,1"], "b": ["2"]}
