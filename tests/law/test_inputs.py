"""Files and text in (core/law/inputs.py, core/law/names.py): JSON read with hostile input in
mind, sizes capped, names and free text without hidden characters."""
import json
import os
import re
import subprocess
import sys

import pytest

from core.law.money import ValidationError
from core.store.model import check_name
from tests.support import ROOT
import io
from core.law.inputs import MAX_DEPTH, MAX_INT_DIGITS, InputError, check_depth, depth, parse_json, read_capped


@pytest.mark.slow   # a subprocess, or drawing: not in each mutant's run
def test_json_number_with_a_fraction_of_a_cent_is_rejected_like_the_string():
    for value in ("0.005", "1000000.005"):
        for raw in (value, f'"{value}"'):
            doc = '{"project_type": "conversion", "eligible_cost": %s}' % raw
            p = subprocess.run([sys.executable, "-m", "core", "evaluate", "-"], input=doc, capture_output=True,
                               text=True)
            assert p.returncode == 2, (raw, p.stdout)
            assert p.stderr.strip() == f"error: eligible_cost: {value if raw == value else repr(value)} has " \
                                       f"fractions of a cent; use at most two decimal places"


APP = {"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000}


def run(*args, stdin=None, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "core", *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, env={**os.environ, **(env or {})})


def one_line_error(r, text):
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert text in r.stderr, r.stderr


@pytest.mark.slow   # a subprocess, or drawing: not in each mutant's run
def test_input_size_is_capped():
    one_line_error(run("evaluate", "/dev/zero", timeout=200), "larger than 64 MB")
    many = json.dumps([APP] * 100_001)
    one_line_error(run("evaluate", "-", stdin=many, timeout=200), "100,001 applications; at most 100,000")


@pytest.mark.parametrize("name, problem", [
    ("tab\there", "control character (U+0009"),
    ("line\nbreak", "control character (U+000A"),
    ("evil\u202etxt.exe", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("a\u2066b", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("zero\u200bwidth", "U+200B ZERO WIDTH SPACE"),
    ("join\u200dme", "U+200D ZERO WIDTH JOINER"),
    ("bom\ufeff", "U+FEFF"),
    ("para\u2029graph", "paragraph separator"),
    ("x" * 121, "is 121 characters long; at most 120"),
])
def test_names_refuse_hidden_characters_and_length(name, problem):
    with pytest.raises(ValidationError, match=re.escape(problem)):
        check_name(name)


def test_names_keep_what_people_type():
    for name in ("Café für Año", "北京 center", "O'Brien & Sons (2026)", "שלום", "Cap 1.0"):
        assert check_name(f"  {name} ") == name


def nested(levels: int):
    value = 1
    for _ in range(levels):
        value = [value]
    return value


def test_json_exactly_twelve_deep_is_read_and_thirteen_refused():
    """A survivor of issue 30: refusing JSON of exactly 12 levels as "more than 12" passed every test."""
    assert MAX_DEPTH == 12
    assert depth(nested(12)) == 12 and depth(nested(13)) == 13 and depth({}) == 1 and depth(5) == 0
    assert parse_json(json.dumps(nested(12)), "f.json") == nested(12)
    check_depth(nested(12), "f.json")
    with pytest.raises(InputError, match=r"^f.json: nested more than 12 levels deep"):
        parse_json(json.dumps(nested(13)), "f.json")
    with pytest.raises(InputError, match="nested more than 3 levels deep"):
        check_depth({"a": {"b": [[1]]}}, "x", limit=3)
    check_depth({"a": {"b": [1]}}, "x", limit=3)
    assert depth({"a": [1, {"b": {}}]}) == 4 and depth([[], [[[]]]]) == 4


def test_the_parser_refuses_deep_long_and_repeated_input_in_one_line():
    with pytest.raises(InputError, match=r"^d.json: nested more than 12 levels deep"):
        parse_json("[" * 200_000 + "]" * 200_000, "d.json")
    with pytest.raises(InputError, match=rf"n.json: a number of 41 digits; numbers have at most {MAX_INT_DIGITS}"):
        parse_json("[" + "9" * 41 + "]", "n.json")
    assert parse_json("[" + "9" * 40 + "]", "n.json") == [int("9" * 40)]
    with pytest.raises(InputError, match="the key 'a' appears twice in one object"):
        parse_json('{"a": 1, "a": 2}', "k.json")
    with pytest.raises(InputError, match=r"j.json: not valid JSON \(Expecting value at line 1, column 1\)"):
        parse_json("not json", "j.json")
    with pytest.raises(InputError, match="u.json: not UTF-8 text"):
        parse_json(b"\xff\xfe", "u.json")
    with pytest.raises(InputError, match="larger than 1 MB"):
        parse_json(b" " * (1024 * 1024 + 1), "big.json", limit=1024 * 1024)
    assert str(parse_json('{"x": 1.25}', "e.json", exact=True)["x"]) == "1.25"


def test_reading_stops_at_the_cap():
    assert read_capped(io.BytesIO(b"x" * 10), 10, "s") == b"x" * 10
    with pytest.raises(InputError, match="s: larger than 0 MB"):
        read_capped(io.BytesIO(b"x" * 11), 10, "s")


class Endless(io.RawIOBase):
    """/dev/zero as a file object: read(n) gives n bytes; reading it all never ends."""
    def readable(self):
        return True

    def read(self, n=-1):
        if n is None or n < 0:
            raise AssertionError("read without a limit")
        return b"0" * n


def test_reading_takes_one_byte_past_the_cap_never_the_whole():
    assert read_capped(io.BytesIO(b"x" * 5), 5, "s") == b"xxxxx"
    with pytest.raises(InputError) as err:
        read_capped(Endless(), 3 * 1024 * 1024, "zero")
    assert str(err.value) == "zero: larger than 3 MB, the most accepted; split it into smaller files"


def test_files_and_stdin_are_read_as_bytes_with_one_line_for_each_problem(tmp_path, monkeypatch):
    from core.law.inputs import read_source
    path = tmp_path / "a.json"
    path.write_bytes(b'{"x": 1}')
    assert read_source(str(path), 100) == b'{"x": 1}'
    with pytest.raises(InputError) as err:
        read_source(str(path), 3)
    assert str(err.value) == f"{path}: larger than 0 MB, the most accepted; split it into smaller files"
    with pytest.raises(InputError) as err:
        read_source(str(tmp_path / "none.json"), 100)
    assert str(err.value) == f"{tmp_path / 'none.json'}: no such file"
    with pytest.raises(InputError) as err:
        read_source(str(tmp_path), 100)
    assert str(err.value) == f"{tmp_path}: is a directory, not a file"
    locked = tmp_path / "locked.json"
    locked.write_bytes(b"{}")
    locked.chmod(0)
    if os.access(locked, os.R_OK):   # root reads anything: a path below a file cannot be opened by anyone
        locked = tmp_path / "a.json" / "below"
    with pytest.raises(InputError) as err:
        read_source(str(locked), 100)
    assert str(err.value).startswith(f"{locked}: cannot read (") and str(err.value).endswith(")")
    monkeypatch.setattr("sys.stdin", type("In", (), {"buffer": io.BytesIO(b"12345")})())
    with pytest.raises(InputError) as err:
        read_source("-", 4)
    assert str(err.value) == "stdin: larger than 0 MB, the most accepted; split it into smaller files"


def test_numbers_are_floats_or_exact_decimals_and_capped_in_length():
    from decimal import Decimal
    plain, exact = parse_json("[1.10]", "f"), parse_json("[1.10]", "f", exact=True)
    assert type(plain[0]) is float and plain == [1.1]
    assert type(exact[0]) is Decimal and str(exact[0]) == "1.10"
    longest = "1." + "0" * 58                                             # 60 characters: read
    assert parse_json(f"[{longest}]", "f") == [1.0] and parse_json(f"[{longest}]", "f", exact=True) == [Decimal(longest)]
    for exact_ in (False, True):
        with pytest.raises(InputError) as err:
            parse_json(f"[{longest}0]", "f.json", exact=exact_)
        assert str(err.value) == "f.json: a number of 61 characters; numbers have at most 60"
    assert parse_json("[" + "9" * 40 + "]", "f") == [int("9" * 40)]


def test_a_key_twice_and_sizes_at_the_limit():
    key = "k" * 50
    with pytest.raises(InputError) as err:
        parse_json(json.dumps({key: 1})[:-1] + f', "{key}": 2}}', "d.json")
    assert str(err.value) == ("d.json: the key '" + "k" * 40 + "… (50 characters)' appears twice in one object; "
                              "each key may appear once")
    assert parse_json(b"[1]", "s", limit=3) == [1]                          # exactly the limit: read
    with pytest.raises(InputError, match="^s: larger than 0 MB, the most accepted$"):
        parse_json(b"[1] ", "s", limit=3)


def test_shorten_says_how_long_the_whole_was():
    from core.law.inputs import shorten
    assert shorten("abc", 3) == "abc" and shorten("abcd", 3) == "abc… (4 characters)" and shorten(12345, 2) == "12… (5 characters)"


def test_depth_walks_every_branch():
    assert depth([[[1]], 5]) == 3 and depth([5, [[1]]]) == 3 and depth({"a": 1, "b": [[{}]]}) == 4


def test_a_depth_limit_above_the_default_is_the_one_checked():
    """check_depth measures against the limit it is given, not the default: a value 20 deep passes
    a limit of 25 and is refused under 15, naming that limit."""
    from core.law.inputs import MAX_DEPTH, InputError, check_depth
    value = 0
    for _ in range(20):
        value = [value]
    assert MAX_DEPTH < 15
    check_depth(value, "f.json", limit=25)
    with pytest.raises(InputError, match=r"^f\.json: nested more than 15 levels deep; this is not a file this app writes$"):
        check_depth(value, "f.json", limit=15)


def test_any_other_failure_of_the_json_reader_is_one_line_with_its_cause_cut(monkeypatch):
    """What json.loads raises besides a syntax error (a ValueError or MemoryError from deep inside
    it) is said in one line naming the file, its cause cut at 80 characters with its length."""
    import core.law.inputs as inputs
    cause = "v" * 200

    def failing(*args, **kwargs):
        raise ValueError(cause)

    monkeypatch.setattr(inputs.json, "loads", failing)
    with pytest.raises(inputs.InputError) as err:
        inputs.parse_json(b"[1]", "f.json")
    assert str(err.value) == f"f.json: cannot be read as JSON ({'v' * 80}… (200 characters))"
