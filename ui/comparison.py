"""The Compare page's comparison: which scenarios, in the order people present them, and the baseline.

People compare in the order they will present: "as submitted", then what changes it. So the
order is the user's (the order chosen, moved up or down), the first is the baseline unless another
is chosen, and the screen, presentation mode, the report and the PDF all take that order.

It is kept in session state, not in the widgets (Streamlit drops a widget's value when its page is
left), and in the page's address, so that a shared link reproduces it:
`/compare?scenario=As+submitted&scenario=With+a+federal+grant&baseline=2` (each scenario in order;
the baseline's place in that list, left out when it is the first). A link's comparison is adopted
once, when it brings one this session did not write (nor adopt) lately.
"""
from __future__ import annotations

import streamlit as st

from ui.text import Markdown, literal, md

ORDER = "cmp:order"         # the chosen scenarios' names, in order
BASELINE = "cmp:baseline"   # the baseline's name, or None: the first
SCENARIO, BASE = "scenario", "baseline"   # the address's query parameters (ui/state.py PAGE_PARAMS)
_SEEN = "_cmp_urls"         # the address's comparisons this session adopted or wrote, the latest last


def moved(order: list[str], name: str, by: int) -> list[str]:
    """`order` with `name` moved `by` places (-1 up, +1 down), kept within the list."""
    if name not in order:
        return list(order)
    out = [n for n in order if n != name]
    out.insert(min(max(order.index(name) + by, 0), len(out)), name)
    return out


def baseline_of(order: list[str], chosen: str | None) -> str | None:
    """The baseline: the one chosen while it is still compared, else the first."""
    if chosen in order:
        return chosen
    return order[0] if order else None


def order() -> list[str] | None:
    """The comparison's order; None before the page has set one in this session."""
    kept = st.session_state.get(ORDER)
    return None if kept is None else list(kept)


def put_order(names: list[str]) -> None:
    st.session_state[ORDER] = list(dict.fromkeys(names))


def put_baseline(name: str | None) -> None:
    st.session_state[BASELINE] = name


def baseline() -> str | None:
    return baseline_of(order() or [], st.session_state.get(BASELINE))


def renamed(old: str, new: str) -> None:
    """A compared scenario renamed in the library stays where it was, and stays the baseline."""
    names = order()
    if names and old in names:
        put_order([new if n == old else n for n in names])
        if st.session_state.get(BASELINE) == old:
            put_baseline(new)


def _link() -> tuple[tuple[str, ...], str | None]:
    return tuple(st.query_params.get_all(SCENARIO)), st.query_params.get(BASE)


def from_link(known, limit: int) -> list[Markdown]:
    """A comparison a link brings (new to this session), adopted: its scenarios in its order (those
    `known(names)` finds in the library, at most `limit`) and its baseline. Returns what could not
    be used, in words; the rest of the link is used."""
    names, base = _link()
    if not names or (names, base) in st.session_state.get(_SEEN, []):
        return []
    _seen((names, base))
    problems = []
    wanted = list(dict.fromkeys(n.strip() for n in names if n.strip()))
    found = set(known(wanted[:limit]))
    missing = [n for n in wanted[:limit] if n not in found]
    if missing:
        problems.append(md("The link names " + ("a scenario" if len(missing) == 1 else f"{len(missing)} scenarios")
                           + " not in the library (renamed or deleted since?): ")
                        + md(", ").join(literal(n, 120) for n in missing[:5])
                        + md(f" and {len(missing) - 5} more" if len(missing) > 5 else "")
                        + md("; comparing the others."))
    if len(wanted) > limit:
        problems.append(md(f"The link names {len(wanted)} scenarios; a comparison shows at most {limit}, "
                           f"so the first {limit} are compared."))
    chosen = None
    if base is not None:
        place = base.strip()
        if place.isascii() and place.isdigit() and 1 <= int(place) <= len(wanted):   # not "²" nor "٢"
            chosen = wanted[int(place) - 1]
            if chosen not in found:
                chosen = None   # said above: it is not in the library
        else:
            problems.append(md("The link's baseline ") + literal(base, 40)
                            + md(f" is not a place in its list of scenarios (1 to {len(wanted)}); "
                                 "the first is the baseline."))
    put_order([n for n in wanted[:limit] if n in found])
    put_baseline(chosen)
    return problems


def write_url(names: list[str], base: str | None) -> None:
    """The comparison in the page's address (the other query parameters, such as present, kept)."""
    place = str(names.index(base) + 1) if base in names and names.index(base) > 0 else None
    if tuple(st.query_params.get_all(SCENARIO)) != tuple(names):
        if names:
            st.query_params[SCENARIO] = list(names)
        elif SCENARIO in st.query_params:
            del st.query_params[SCENARIO]
    if st.query_params.get(BASE) != place:
        if place is None:
            del st.query_params[BASE]
        else:
            st.query_params[BASE] = place
    _seen((tuple(names), place))


def _seen(link: tuple) -> None:
    """Remember a comparison of the address as this session's own. Each rerun carries the address
    the browser showed when it asked for it; two quick moves ask before the browser has taken the
    address of the first, so a rerun can carry any recent one of ours: taken for a new link, it
    undid the move (as ui/state.py's _written_here explains for the calculator's inputs)."""
    recent = [x for x in st.session_state.get(_SEEN, []) if x != link] + [link]
    st.session_state[_SEEN] = recent[-50:]
