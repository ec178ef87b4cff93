"""Money (core/law/money.py): dollar text and numbers to exact cents at both sides of every
limit, and the messages that name the field and the value."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import example, given, strategies as st

from core.law.money import ValidationError, to_cents
from tests.support.builders import error_of


MONEY_OK = [
    ("0", 0), (0, 0), ("0.01", 1), ("0.1", 10), ("1.10", 110), ("-0", 0), ("1e-2", 1), ("1E2", 10_000),
    ("1,000", 100_000), ("1,000,000.5", 100_000_050), ("$1", 100), ("$ 1,234.56", 123_456), (" 7 ", 700),
    ("1000000000000", 100_000_000_000_000), ("1000000000000.00", 100_000_000_000_000),
    (10**12, 100_000_000_000_000), (0.125, 12), (0.135, 14), (1e12, 100_000_000_000_000),
    (Decimal("2.50"), 250), (Decimal("1000000000000"), 100_000_000_000_000),
]


MONEY_BAD = [
    ("-0.01", "'-0.01' is negative; amounts must be $0 or more"),
    (-1, "-1 is negative; amounts must be $0 or more"),
    (-0.5, "-0.5 is negative; amounts must be $0 or more"),
    ("1000000000000.01", "'1000000000000.01' is over $1,000,000,000,000, the largest amount accepted"),
    (10**12 + 1, "1000000000001 is over $1,000,000,000,000, the largest amount accepted"),
    (1000000000000.02, "1000000000000.02 is over $1,000,000,000,000, the largest amount accepted"),
    ("1.001", "'1.001' has fractions of a cent; use at most two decimal places"),
    ("1000000.005", "'1000000.005' has fractions of a cent; use at most two decimal places"),
    ("1,0000", "'1,0000' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    ("$", "'$' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    ("1..2", "'1..2' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    (".", "'.' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    ("Infinity", "'Infinity' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    (float("-inf"), "-inf is not a finite amount; enter dollars such as 1250000"),
    (False, "False is not an amount; enter dollars such as 1250000 or 1,250,000.50"),
    (None, "is not an amount; enter dollars such as 1250000 or 1,250,000.50"),
    ({"a": 1}, "{'a': 1} is not an amount; enter dollars such as 1250000"),
]


@pytest.mark.parametrize("raw,cents", MONEY_OK)
def test_money_accepted_at_the_edges(raw, cents):
    assert to_cents(raw, "local_contribution") == cents


@pytest.mark.parametrize("raw,message", MONEY_BAD)
def test_money_rejected_at_the_edges(raw, message):
    assert error_of(to_cents, raw, "local_contribution") == f"local_contribution: {message}"


@pytest.mark.parametrize("raw,problem", [
    (Decimal("-0.01"), "is negative; amounts must be $0 or more"),
    (Decimal("0.001"), "has fractions of a cent; use at most two decimal places"),
    (Decimal("1000000000000.01"), "is over $1,000,000,000,000, the largest amount accepted"),
    (Decimal("NaN"), "is not a finite amount; enter dollars such as 1250000"),
    (Decimal("Infinity"), "is not a finite amount; enter dollars such as 1250000"),
])
def test_decimal_money_rejected_at_the_edges(raw, problem):
    message = error_of(to_cents, raw, "local_contribution")
    assert message.startswith("local_contribution: ") and message.endswith(" " + problem)


def test_long_bad_value_is_cut_in_the_message():
    raw = "x" * 61
    assert error_of(to_cents, raw, "eligible_cost") == (
        f"eligible_cost: {raw[:60] + '…'!r} is not a number; enter dollars such as 1250000 or 1,250,000.50")
    raw = "y" * 60
    assert error_of(to_cents, raw, "eligible_cost").startswith(f"eligible_cost: {raw!r} is not")


@pytest.mark.parametrize("raw,shown", [
    (10**5000, "a number of more than 4,300 digits"),
    (["a" * 76], repr(["a" * 76])),                                   # repr of 80 characters: whole
    (["a" * 77], repr(["a" * 77])[:60] + "… (81 characters)"),        # 81: cut after 60
    (["a" * 996], repr(["a" * 996])[:60] + "… (1,000 characters)"),
], ids=["5001-digits", "repr-80", "repr-81", "repr-1000"])
def test_error_shows_a_long_value_cut(raw, shown):
    problem = ("is over $1,000,000,000,000, the largest amount accepted" if isinstance(raw, int) else
               "is not an amount; enter dollars such as 1250000")
    assert error_of(to_cents, raw, "eligible_cost") == f"eligible_cost: {shown} {problem}"


@pytest.mark.parametrize("digits,shown", [
    (59, "-" + "1" * 59),                            # str of 60 characters: shown as written
    (60, "Decimal('-" + "1" * 60 + "')"),            # 61: its repr
])
def test_error_shows_a_decimal_as_written_up_to_sixty_characters(digits, shown):
    assert error_of(to_cents, Decimal("-" + "1" * digits), "local_contribution") == (
        f"local_contribution: {shown} is negative; amounts must be $0 or more")


@pytest.mark.parametrize("raw,message", [
    # The pattern admits an exponent with no digits before it; Decimal does not: its own message.
    ("e5", "'e5' is not a number; enter dollars such as 1250000"),
    (".e5", "'.e5' is not a number; enter dollars such as 1250000"),
    ("+e5", "'+e5' is not a number; enter dollars such as 1250000"),
    # Longer than 40 characters is not an amount; the length is said with a thousands comma.
    ("0" * 41, "'" + "0" * 41 + "' is 41 characters long; not an amount"),
    ("0" * 1000, "'" + "0" * 60 + "…' is 1,000 characters long; not an amount"),
], ids=["e5", ".e5", "+e5", "41-characters", "1000-characters"])
def test_money_text_rejected_whole(raw, message):
    with pytest.raises(ValidationError) as err:
        to_cents(raw, "eligible_cost")
    assert str(err.value) == f"eligible_cost: {message}"
    assert (err.value.field, err.value.value) == ("eligible_cost", raw)


@pytest.mark.parametrize("raw,cents", [
    ("0" * 40, 0),                      # 40 characters: still read
    ("0" * 37 + ".01", 1),
    ("1 000 000", 100_000_000),         # spaces inside are dropped, like the ones around
    ("$ 1 000.50", 100_050),
])
def test_money_text_accepted_at_the_edges(raw, cents):
    assert to_cents(raw, "eligible_cost") == cents


@pytest.mark.parametrize("raw,message", [
    # 39 characters, 38 significant digits in cents: the product must not be rounded to 100 cents.
    ("1." + "0" * 36 + "1", "'1." + "0" * 36 + "1' has fractions of a cent; use at most two decimal places"),
    ("1e-99999999", "'1e-99999999' has fractions of a cent; use at most two decimal places"),
    (Decimal("0.001"), "0.001 has fractions of a cent; use at most two decimal places"),
    (Decimal("0.0001"), "0.0001 has fractions of a cent; use at most two decimal places"),
    (Decimal("NaN"), "NaN is not a finite amount; enter dollars such as 1250000"),
    (Decimal("-Infinity"), "-Infinity is not a finite amount; enter dollars such as 1250000"),
], ids=["39-characters", "1e-99999999", "0.001", "0.0001", "NaN", "-Infinity"])
def test_money_rejected_whole_with_its_value(raw, message):
    with pytest.raises(ValidationError) as err:
        to_cents(raw, "local_contribution")
    assert str(err.value) == f"local_contribution: {message}"
    assert err.value.value is raw


junk = st.one_of(st.text(max_size=30), st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**15, 10**15),
                 st.none(), st.booleans(), st.decimals(allow_nan=True), st.lists(st.integers(), max_size=2))


@example("1000000.005")
@example("1000000000000.01")
@example("1000000000000")
@example(-0.5)
@example(True)
@given(junk)
def test_to_cents_accepts_or_names_the_field(value):
    try:
        c = to_cents(value, "eligible_cost")
    except ValidationError as err:
        assert str(err).startswith("eligible_cost:")
    else:
        assert isinstance(c, int) and 0 <= c <= 10**14


@example(0)
@example(1)
@example(10**14)
@given(st.integers(0, 10**14))
def test_to_cents_exact_for_every_two_decimal_string(c):
    text = f"{c // 100}.{c % 100:02d}"
    assert to_cents(text, "x") == c
    assert to_cents(f"${c // 100:,}.{c % 100:02d}", "x") == c
