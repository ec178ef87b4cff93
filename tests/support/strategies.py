"""Hypothesis strategies for applications (shared by property tests)."""
from hypothesis import strategies as st

from core.law.application import Application
from core.law.fields import PROJECT_TYPES

# Mostly realistic amounts, sometimes exact ties and zeros.
cents = st.one_of(st.integers(0, 300_000_000), st.sampled_from([0, 1, 1_500_000, 30_000_000, 60_000_000]),
                  st.integers(0, 10**14))
small_cents = st.one_of(st.integers(0, 50_000_000), st.just(0))


@st.composite
def applications(draw, **fixed):
    exc = draw(st.booleans())
    values = dict(
        project_type=draw(st.sampled_from(list(PROJECT_TYPES))),
        eligible_cost=draw(cents),
        federal_grant=draw(st.one_of(st.just(0), small_cents, cents)),
        local_contribution=draw(st.one_of(st.just(0), cents)),
        prior_program_funds=draw(st.one_of(st.just(0), st.just(0), small_cents)),
        requested_amount=draw(st.one_of(st.none(), cents)),
        federal_law_contrary=draw(st.booleans()),
        bpw_exception_requested=exc,
        local_property_value=draw(cents) if exc else 0,
        state_funds_in_property=draw(st.booleans()) if exc else False,
        state_bonded_debt=draw(st.booleans()) if exc else False,
    )
    values.update(fixed)
    return Application(**values)
