"""The board report's last section: the law and the interpretations used. The sentences of the
limits that hold the awards down, the interpretations and readings applied, the paragraph letters,
and for programs, the names the data files use for what the report calls by its label."""
from __future__ import annotations

from core.law.provisions import CAP, LETTERING_SEVEN, LETTERS_INFERRED, PROVISION, ROUTES, citations, lettering
from core.report.page import esc


def law_section(items: list, tail: str = "") -> str:
    """The section for the report's items (core.report.html.Item), `tail` (the footer) closing it."""
    from core.law.readings import READING
    used = dict.fromkeys(s.provision for i in items for s in i.award.steps if s.provision in PROVISION)
    cited = dict.fromkeys(c for i in items for c in citations(i.award))
    # under the statute or a variant, the law applied is not only the regulation: its own words are cited
    other = any(i.award.ruleset_id != "regulation" or i.award.is_variant for i in items)
    parts = ['<section class="sources"><h2>The regulation and the interpretations used</h2>',
             "<h3>The regulation's sentences for the limits that hold the awards down</h3>"] if not other else [
             '<section class="sources"><h2>The law and the interpretations used</h2>',
             "<h3>The law's sentences for the limits that hold the awards down (each of the law and day applied)</h3>"]
    for c in cited:
        parts.append(f"<p class='cited'><b>{esc(c.words)}</b></p>")
        if c.law:   # another law's act and value, in the words above: no sentence quoted as if the law's own
            continue
        if c.sentences:
            parts += [f"<blockquote>{esc(t)}</blockquote>" for t in c.sentences]
        else:
            parts.append("<p>No sentence of the regulation says this; it is an interpretation (below).</p>")
    parts += _interpretations(items, used)
    readings = dict.fromkeys(i.award.readings for i in items)
    parts.append("<h3>Readings</h3><ul>")
    for rd in readings:
        who = ", ".join(esc(i.name) for i in items if i.award.readings == rd)
        for rid, alt in rd.as_dict().items():
            r = READING[rid]
            if not any(r.applies(i.award.ruleset) for i in items if i.award.readings == rd):
                continue   # no law of these scenarios has the sentence it reads (the statute has no "§F")
            a = r.alternative(alt)
            note = "the default" if alt == r.default else "not the default"
            parts.append(f"<li><b>{esc(r.title)}: {esc(a.title)}</b> ({note})"
                         + (f" for {who}" if len(readings) > 1 else "") + f": {esc(a.meaning)}</li>")
    parts.append(f"</ul><h3>Paragraph letters</h3><p>{esc(LETTERS_INFERRED)}</p>")   # said once, here
    letterings = dict.fromkeys(lettering(i.award.readings) for i in items)
    for letters in letterings:
        who = ", ".join(esc(i.name) for i in items if lettering(i.award.readings) == letters)
        kind = "seven paragraphs, as the reading “§F is the top-up for earlier grantees” reads the text" \
            if letters == LETTERING_SEVEN else "eight paragraphs"
        parts.append(f"<p>This report letters the text in {kind} (an inference, as said above)"
                     + (f" for {who}" if len(letterings) > 1 else "")
                     + ": " + esc("; ".join(f"§{k}, {w}" for k, w in letters)) + ".</p>")
    parts.append(_glossary(items, tail) + "</section>")
    return "".join(parts)


def _interpretations(items: list, used: dict) -> list:
    """The interpretations applied, each law's own: a provision the statute states in words of its own (its
    `cites`: the federal grant always first, its Board test) is said in those words for its scenarios, never
    the regulation's reading (a statute report said "when federal law is to the contrary, the federal grant is
    not applied first" beside the statute's "with no 'unless federal law is to the contrary'")."""
    parts = ["<h3>Interpretations applied</h3><ul>"]
    laws = dict.fromkeys(i.award.ruleset for i in items)
    for pid in used:
        p = PROVISION[pid]
        own = dict.fromkeys(rs.cites[pid] + (f".{dated}" if (dated := _as_of(rs, pid)) else "")
                            for rs in laws if pid in rs.cites)
        if p.interpretation and any(pid not in rs.cites for rs in laws):
            parts.append(f"<li><b>{esc(p.title)}{' (the regulation)' if own else ''}:</b> {esc(p.interpretation)}</li>")
        parts += [f"<li><b>{esc(p.title)} (the statute):</b> {esc(words)}</li>" for words in own]
    parts.append("<li><b>Money:</b> amounts are exact to the cent; every limit taken as a percentage of an amount "
                 "(the State share) is rounded down, so no limit is exceeded by rounding; the required local "
                 "match is rounded up, so it is never understated.</li></ul>")
    return parts


def _as_of(rs, pid: str) -> str:
    """What a dated law's numbers for provision `pid` are as of its day, each with its source (the statute's
    Board test of 1990 is ch. 125's residual-value test, not the four conditions of 1986)."""
    from core.law.rulesets import PARAMETERS, value_words
    dated = [q for q in rs.parameters.values() if q.provision == pid and q.history and rs.as_of_date]
    return "".join(f" As of {rs.as_of_date.isoformat()}, the {PARAMETERS[q.name][1][:1].lower()}"
                   f"{PARAMETERS[q.name][1][1:]}: {value_words(q.name, q.value)} ({q.citation})." for q in dated)


def _glossary(items: list, tail: str = "") -> str:
    """For programs reading the JSON and CSV files: the names used there for what this report
    calls by its label (caps, routes and readings that appear in it). `tail` (the footer) is kept
    with it: on its own the footer once made a last page of one line."""
    from core.law.readings import READINGS
    caps = dict.fromkeys(c for i in items for c in i.award.caps)
    routes = dict.fromkeys(i.award.route for i in items)
    rulesets = dict.fromkeys((i.award.ruleset_label, i.award.ruleset_id) for i in items)
    rows = ([(label, f"ruleset {rid}") for label, rid in rulesets] + [(CAP[c].title, c) for c in caps]
            + [(ROUTES[r], r) for r in routes]
            + [(r.title, r.id) for r in READINGS if any(r.applies(i.award.ruleset) for i in items)])
    return ("<div class='glossary'><h3>For programs: the names used in the data files</h3><table><tr><th>In this "
            "report</th><th>In JSON and CSV</th></tr>" + "".join(
                f"<tr><td>{esc(label)}</td><td><code>{esc(name)}</code></td></tr>" for label, name in rows)
            + "</table>" + tail + "</div>")
