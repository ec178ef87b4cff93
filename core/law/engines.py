"""The arithmetic of each engine that runs the law (core.law.caps): the same statements of the law
on three kinds of number, passed as an `ops` object.

- `INTS`, one application (`core.law.award`): Python ints of cents, shares rounded down to the cent;
- `ARRAYS`, the batch (`core.law.batch`): numpy int64 arrays of cents, one element per row;
- `EXACT`, the breakpoints (`core.law.analysis`): exact fractions of a cent, before rounding and
  before the clamp at zero, so that each cap is an exact line along any one input.

A cap that does not apply is `ops.ABSENT` (dropped by the one-application engine, the largest int64
in the batch so that it never binds).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from core.law.fields import PROJECT_TYPES

# Project types as small integers, for the batch's arrays.
TYPE_CODES = {t: i for i, t in enumerate(PROJECT_TYPES)}


class _Ints:
    """One application: exact integer cents."""
    name = "ints"
    ABSENT = None

    @staticmethod
    def floor_share(cents, share: Fraction):
        return cents * share.numerator // share.denominator

    @staticmethod
    def ceil_share(cents, share: Fraction):
        return -((-cents * share.numerator) // share.denominator)

    @staticmethod
    def pos(x):
        return max(0, x)

    @staticmethod
    def where(cond, a, b):
        return a if cond else b

    @staticmethod
    def both(a, b):
        return a and b

    @staticmethod
    def either(a, b):
        return a or b

    @staticmethod
    def negate(a):
        return not a

    @staticmethod
    def is_type(project_type, types):
        return project_type in types

    @staticmethod
    def positive(x):
        return x > 0

    @staticmethod
    def at_least(a, b):
        return a >= b

    @staticmethod
    def unless(cond, value):
        """`value` as a cap, absent when `cond` holds."""
        return None if cond else value


def _numpy():
    """numpy, imported when the batch first runs: one application needs none of it, and a first
    visit's award is drawn before it would be loaded (issue 53)."""
    import numpy
    return numpy


class _Arrays(_Ints):
    """The batch: numpy int64 arrays, one element per application."""
    name = "arrays"
    ABSENT = 2 ** 63 - 1   # np.iinfo(np.int64).max, the largest int64 (tests/law/test_batch.py checks it)

    @staticmethod
    def pos(x):
        return _numpy().maximum(0, x)

    @staticmethod
    def where(cond, a, b):
        return _numpy().where(cond, a, b)

    @staticmethod
    def both(a, b):
        return _numpy().logical_and(a, b)

    @staticmethod
    def either(a, b):
        return _numpy().logical_or(a, b)

    @staticmethod
    def negate(a):
        return _numpy().logical_not(a)

    @staticmethod
    def is_type(project_type, types):
        return _numpy().isin(project_type, [TYPE_CODES[t] for t in types])

    @staticmethod
    def unless(cond, value):
        return _numpy().where(cond, _Arrays.ABSENT, value)


@dataclass(frozen=True)
class Step:
    """EXACT only: a cap of `value` that applies while `margin` < 0 and is absent from
    `margin` >= 0 on (a condition such as 'local contributions at least the match').
    The award jumps where the margin crosses zero."""
    margin: Fraction
    value: Fraction


class _Exact(_Ints):
    """Breakpoints: exact fractions before rounding and before the clamp at zero, so that
    every cap is affine along one input. A condition on a moving amount becomes a `Step`."""
    name = "exact"

    @staticmethod
    def floor_share(cents, share: Fraction):
        return share * cents

    @staticmethod
    def ceil_share(cents, share: Fraction):
        # local >= ceil(share*x) <=> local >= share*x for whole cents of local
        return share * cents

    @staticmethod
    def pos(x):
        return x           # the clamp is applied to the award, after the least cap

    @staticmethod
    def at_least(a, b):
        return Fraction(a) - Fraction(b)   # a margin: the condition holds while >= 0

    @staticmethod
    def unless(margin, value):
        return Step(Fraction(margin), Fraction(value))


INTS, ARRAYS, EXACT = _Ints(), _Arrays(), _Exact()
