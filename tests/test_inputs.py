"""core/inputs.py: files read up to a cap, JSON that cannot hurt the parser, one line for each refusal."""
import io
import json

import pytest

from core.inputs import MAX_DEPTH, MAX_INT_DIGITS, InputError, check_depth, depth, parse_json, read_capped


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
