"""The readings (core/law/readings.py): parsed and named at their edges, in words and back."""
from __future__ import annotations


import pytest

from core.law import readings as R
from core.law.readings import DEFAULT, ReadingError, Readings, every, from_dict, parse


def test_readings_in_words_and_back():
    assert DEFAULT.describe() == "default readings" and DEFAULT.is_default and DEFAULT.changed() == {}
    r = parse(["f_reference=prior_grant", " local_match_effect = condition "])
    assert r.describe() == "f_reference=prior_grant, local_match_effect=condition"
    assert r.changed() == {"f_reference": "prior_grant", "local_match_effect": "condition"}
    assert not r.is_default
    assert from_dict(r.as_dict()) == r == from_dict(r.changed())
    assert from_dict(None) == DEFAULT == from_dict({}) == parse([]) == parse(None)
    assert r.switched("f_reference") == parse(["local_match_effect=condition"])
    assert DEFAULT.switched("funding_need_cap").describe() == "funding_need_cap=none"
    assert len(every()) == 32 and every()[0] == DEFAULT and len(set(every())) == 32


@pytest.mark.parametrize("pairs,message", [
    (["f_reference"], "reading 'f_reference': write ID=ALTERNATIVE, e.g. f_reference=prior_grant"),
    (["colour=red"], "unknown reading 'colour'; known: f_reference, local_match_base, local_match_effect, "
                     "funding_need_cap, prior_grant_limit"),
])
def test_readings_rejected_with_their_names(pairs, message):
    with pytest.raises(ReadingError) as err:
        parse(pairs)
    assert str(err.value) == message


def test_readings_rejected_shapes():
    with pytest.raises(ReadingError) as err:
        from_dict(["f_reference"])
    assert str(err.value) == "readings: a table of reading ids, not ['f_reference']"
    with pytest.raises(ReadingError) as err:
        parse(["f_reference=prior_grant=x"])
    assert "'prior_grant=x'" in str(err.value)
    with pytest.raises(ReadingError):
        Readings(f_reference="nope")
    with pytest.raises(ReadingError) as err:
        DEFAULT.replace(colour="red")
    assert str(err.value).startswith("unknown reading 'colour'")


def test_readings_parse_rejects_unknown_ids_and_alternatives_by_name():
    with pytest.raises(R.ReadingError, match="unknown reading 'f_ref'"):
        R.parse(["f_ref=prior_grant"])
    with pytest.raises(R.ReadingError, match="f_reference: unknown alternative 'sideways'"):
        R.parse(["f_reference=sideways"])
    assert len(R.every()) == 32 and len(set(R.every())) == 32
    assert R.every()[0] == R.DEFAULT


def test_unknown_reading_and_alternative_messages_whole():
    with pytest.raises(ReadingError) as err:
        DEFAULT.replace(colour="red")
    assert str(err.value) == ("unknown reading 'colour'; known: f_reference, local_match_base, "
                              "local_match_effect, funding_need_cap, prior_grant_limit")
    with pytest.raises(ReadingError) as err:
        parse(["f_reference=prior_grant=x"])
    assert str(err.value) == ("reading f_reference: unknown alternative 'prior_grant=x'; use one of "
                              "board_exception, prior_grant")
