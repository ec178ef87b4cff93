"""Text alternatives for the charts of core/report/charts/: for each, one sentence stating what it
shows (the chart's accessible name) and its numbers as a table (rows of plain values).

Pure functions, no Streamlit: the pages show the sentence as the chart's name and the table
beside it; tests check both against the awards."""
from __future__ import annotations

from core.law.analysis import binds, caps_words, first_up
from core.law.award import Award
from core.law.explain import award_words, joined, sources_words
from core.report.charts.calculator import waterfall_steps
from core.report.charts.colours import SOURCES
from core.report.charts.portfolio import POINTS_LIMIT, RANKED_LIMIT, every_kth, highest, in_rank_order
from core.law.provisions import CAP, ROUTES
from core.law.money import fmt

Table = list[dict]


def _binds(binding) -> str:
    return f"{first_up(caps_words(binding))} {binds(binding)}"


def headroom(award: Award) -> tuple[str, Table]:
    slack = sorted((v, c) for c, v in award.caps.items() if c not in award.binding)
    if not award.binding:
        alt = f"Award {fmt(award.amount)}; no limit holds it down"
    elif slack:
        v, c = slack[0]
        alt = (f"{_binds(award.binding)}: award {fmt(award.amount)}, "
               f"{fmt(v - award.amount)} below {CAP[c].label}")
    else:
        alt = f"{_binds(award.binding)}: award {fmt(award.amount)}; every limit holds it down"
    rows = [{"Limit": CAP[c].title, "Amount": fmt(v),
             "Headroom above the award": fmt(v - award.amount), "Holds the award down": "yes" if c in award.binding else "no"}
            for c, v in award.caps.items()]
    return f"{alt}. Route: {ROUTES[award.route]}.", rows


def waterfall(award: Award) -> tuple[str, Table]:
    steps = waterfall_steps(award)
    (_, _, _, cost), *sources, (end, _, _, left) = steps
    tail = f"leave a funding gap of {fmt(left)}" if end == "Funding gap" else f"exceed it by {fmt(left)}"
    said = joined([f"the {'State grant' if key == 'state' else name.lower()} {fmt(amount)}"
                   for name, key, _, amount in sources])   # every source of funds, as the chart draws them
    alt = f"Of the {fmt(cost)} cost of eligible work, {said} {tail}."
    return alt, [{"Step": name, "Amount": fmt(amount)} for name, _, _, amount in steps]


def compare_caps(named: list[tuple[str, Award]]) -> tuple[str, Table]:
    hi = max(named, key=lambda x: x[1].amount)
    lo = min(named, key=lambda x: x[1].amount)
    from collections import Counter
    common, count = Counter(caps_words(a.binding) if a.binding else "no limit" for _, a in named).most_common(1)[0]
    held = f"{common} holds the award down in {count} of {len(named)}"
    if len(named) == 1:
        alt = f"{hi[0]}: award {fmt(hi[1].amount)}, held down by {common}."
    elif hi[1].amount == lo[1].amount:
        alt = f"All {len(named)} scenarios get an award of {fmt(hi[1].amount)}; {held}."
    else:
        alt = (f"Across {len(named)} scenarios the award runs from {fmt(lo[1].amount)} ({lo[0]}) to "
               f"{fmt(hi[1].amount)} ({hi[0]}); {held}.")
    rows = []
    for name, a in named:
        row = {"Scenario": name, "State grant award": fmt(a.amount),
               "Held down by": caps_words(a.binding) if a.binding else "none"}
        row |= {CAP[c].title: fmt(v) for c, v in a.caps.items()}
        rows.append(row)
    return alt, rows


def funding(named: list[tuple[str, Award]]) -> tuple[str, Table]:
    gaps = [(a.funding["gap"], n) for n, a in named if a.funding["gap"] > 0]
    if gaps:
        v = max(g for g, _ in gaps)
        alt = (f"Sources of funds for {len(named)} scenario(s): {len(gaps)} leave a funding gap, "
               f"the largest {fmt(v)} ({_names([n for g, n in gaps if g == v])}).")
    else:
        alt = (f"Sources of funds for {len(named)} scenario(s): {sources_words(start=False)} money "
               "cover every cost.")
    rows = [{"Scenario": n} | {label: award_words(a) if key == "state" else fmt(a.funding[key])
                               for key, (label, _) in SOURCES.items()} for n, a in named]
    return alt, rows


def _signed(cents: int) -> str:
    return ("+" if cents > 0 else "") + fmt(cents)


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def change(named: list[tuple[str, Award]], baseline: str) -> tuple[str, Table]:
    base = dict(named)[baseline]
    rows = [{"Scenario": n, "Change in State award": _signed(a.amount - base.amount),
             "Change in funding gap": _signed(a.funding_gap - base.funding_gap)}
            for n, a in named if n != baseline]
    changes = [(a.amount - base.amount, n) for n, a in named if n != baseline]
    if not changes:
        return f"No scenario besides the baseline {baseline}.", rows
    size = max(abs(c) for c, _ in changes)   # the largest by size, up or down; every scenario that ties named
    if size == 0:
        return f"Against the baseline {baseline}, no scenario changes the State award.", rows
    ways = sorted({c for c, _ in changes if abs(c) == size}, reverse=True)   # up, down, or as much each way
    said = " and ".join(f"{_signed(c)} ({_names([n for d, n in changes if d == c])})" for c in ways)
    alt = f"Against the baseline {baseline}, the largest change in the State award is {said}."
    return alt, rows


def sweep(sw, field_label: str) -> tuple[str, Table]:
    first, last = sw.points[0], sw.points[-1]
    n = len(sw.breakpoints)
    alt = (f"As the {field_label.lower()} goes from {fmt(sw.lo)} to {fmt(sw.hi)}, the award goes from "
           f"{fmt(first[1])} to {fmt(last[1])}, with {n} breakpoint{'s' if n != 1 else ''}.")
    rows = [{"From": fmt(x0), "To": fmt(x1), "Award from": fmt(a0), "Award to": fmt(a1),
             "Held down by": caps_words(cap) if cap else "none"} for x0, a0, x1, a1, cap in sw.segments]
    return alt, rows


def binding_map(award, binding, x_label: str, y_label: str) -> tuple[str, Table]:
    import numpy as np

    kinds, counts = np.unique(binding.ravel(), return_counts=True)
    total = int(counts.sum())
    regions = sorted(zip(counts.tolist(), kinds.tolist()), reverse=True)
    alt = (f"Over {x_label.lower()} and {y_label.lower()}, the award runs from {fmt(int(award.min()))} to "
           f"{fmt(int(award.max()))}; {caps_words(regions[0][1].split(';')) if regions[0][1] else 'no limit'} "
           f"holds the award down over the largest region.")
    rows = [{"Held down by": caps_words(k.split(";")) if k else "none", "Share of the map": f"{100 * c / total:.0f}%",
             "Lowest award": fmt(int(award[binding == k].min())), "Highest award": fmt(int(award[binding == k].max()))}
            for c, k in regions]
    return alt, rows


# Each chart's table lists what the chart draws, no more (core.charts' limits): the rest of a
# large portfolio is in the page's paged table and in its CSV download.

def ranked(names, awards, allocated, binding, rank, limit: int = RANKED_LIMIT) -> tuple[str, Table]:
    order = in_rank_order(rank)
    full = sum(1 for i in order if allocated[i] >= awards[i] and awards[i] > 0)
    alt = (f"{len(names)} applications in priority order: {fmt(sum(allocated))} allocated of "
           f"{fmt(sum(awards))} in maximum awards; {full} funded in full.")
    rows = [{"Rank": rank[i], "Application": names[i], "Maximum award": fmt(awards[i]),
             "Held down by": caps_words(binding[i].split(";")) if binding[i] else "none",
             "Allocated": fmt(allocated[i])} for i in order[:limit]]
    return alt, rows


def cumulative(names, allocated, rank, budget: int, limit: int = POINTS_LIMIT) -> tuple[str, Table]:
    order = in_rank_order(rank)
    rows, total = [], 0
    picked = set(every_kth(len(order), limit)[0])
    for p, i in enumerate(order):
        total += allocated[i]
        if p in picked:
            rows.append({"Rank": rank[i], "Application": names[i], "Allocated": fmt(allocated[i]),
                         "Running total": fmt(total)})
    alt = (f"Allocations in priority order reach {fmt(total)} of the {fmt(budget)} budget"
           + (f", leaving {fmt(budget - total)}." if budget > total else "."))
    return alt, rows


def priority(names, scores, awards, binding, limit: int = POINTS_LIMIT) -> tuple[str, Table]:
    top = max(range(len(names)), key=lambda i: (scores[i], -i)) if names else None
    alt = (f"Priority score against maximum award for {len(names)} applications; the highest priority is "
           f"{names[top]} (score {scores[top]:.3f}, maximum award {fmt(awards[top])})." if names
           else "No applications.")
    rows = [{"Application": names[i], "Priority score": f"{scores[i]:.3f}", "Maximum award": fmt(awards[i]),
             "Held down by": caps_words(binding[i].split(";")) if binding[i] else "none"}
            for i in highest(scores, limit)]
    return alt, rows
