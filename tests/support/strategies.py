"""Hypothesis strategies for applications (shared by property tests)."""
from hypothesis import strategies as st

from core.law.application import Application
from core.law.fields import FIELDS, PROJECT_TYPES

# Mostly realistic amounts, sometimes exact ties and zeros.
cents = st.one_of(st.integers(0, 300_000_000), st.sampled_from([0, 1, 1_500_000, 30_000_000, 60_000_000]),
                  st.integers(0, 10**14))
small_cents = st.one_of(st.integers(0, 50_000_000), st.just(0))


# Some fields drawn as applications usually have them; any other field of the application or
# the exception is drawn by its kind, so that a new input is in every property test at once.
USUAL = {
    "federal_grant": st.one_of(st.just(0), small_cents, cents),
    "local_contribution": st.one_of(st.just(0), cents),
    "prior_program_funds": st.one_of(st.just(0), st.just(0), small_cents),
    "requested_amount": st.one_of(st.none(), cents),
}


def _by_kind(field):
    if field.name in USUAL:
        return USUAL[field.name]
    if field.kind == "money":
        return cents
    if field.kind == "bool":   # a yes/no that may be left unsaid is drawn unsaid too
        return st.booleans() if field.default is not None else st.one_of(st.none(), st.booleans())
    if field.kind == "choice":
        return st.sampled_from(list(PROJECT_TYPES))
    raise ValueError(f"{field.name}: no strategy for a field of kind {field.kind!r}; add one here")


@st.composite
def applications(draw, **fixed):
    exc = draw(st.booleans())
    values = {}
    for field in FIELDS:
        if field.group == "application":
            values[field.name] = draw(_by_kind(field))
        elif field.group == "exception" and field.name != "bpw_exception_requested":
            values[field.name] = draw(_by_kind(field)) if exc else field.default   # only when it is asked for
    values["bpw_exception_requested"] = exc
    values.update(fixed)
    return Application(**values)
