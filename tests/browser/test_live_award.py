"""The award follows the hand (ui/components/live_award.js): while a money slider moves, the
browser draws the award, the limit holding it, the route, the headroom and the funding picture
from the server's pieces; each drawing equals the law's own evaluation of the drawn inputs
(`python -m core evaluate`, and the waterfall's steps), to the cent, and once the hand stops the
server's run settles on the same and its charts stand again. axe-core checks the drawing too."""
import json
import subprocess
import sys
from urllib.parse import urlencode

import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.fields import FIELD
from core.law.money import fmt, plain, to_cents
from core.law.provisions import CAP, ROUTES
from core.report.charts.calculator import waterfall_steps
from harness.a11y import axe, summary
from harness.serve import streamlit_server, wait_ready
from tests.support import ROOT
from tests.support.browser import chromium  # noqa: F401
from tests.support.browser import no_error_on

pytestmark = pytest.mark.browser

# Dollars, and the key held on each slider (ArrowRight unless named). The sliders are moved in
# the page's order, each from where the last left the others. Each starts near where a limit
# changes: the cost near $1.2M (the State's share meets the program maximum), the federal grant
# runs down to $0 (where the federal-first rule stops applying), the local contribution past where
# what the project lacks meets the program maximum, prior funds up from $0 (where the
# earlier-grantee limit starts); on the exception route the property's value crosses the standard
# route's award, and the route changes with it.
SCENARIOS = {
    "standard": ({"project_type": "construction", "eligible_cost": 1_170_000, "federal_grant": 20_000,
                  "local_contribution": 590_000, "prior_program_funds": 0},
                 {"federal_grant": "ArrowLeft"}),
    "exception": ({"project_type": "conversion", "eligible_cost": 1_000_000, "federal_grant": 0,
                   "local_contribution": 0, "prior_program_funds": 0, "bpw_exception_requested": True,
                   "state_funds_in_property": False, "state_bonded_debt": False, "local_property_value": 480_000},
                  {"prior_program_funds": "ArrowLeft"}),   # held at $0: prior funds would close the route
}

PRESSES = 40

# The answer box's own Markdown: the one that holds "Held down by".
ANSWER_BOX = """const answerBox = () => [...document.querySelectorAll('[data-testid=stMarkdownContainer]')].find((m) =>
  [...m.querySelectorAll('strong')].some((s) => s.textContent.trim() === 'Held down by'));"""

READ = """() => {
  """ + ANSWER_BOX + """
  const words = document.querySelector('[data-testid=gfLiveWords]');   // drawn in place of the box's words
  const strong = (t) => [...(words || document).querySelectorAll('strong')].find((s) => s.textContent.trim() === t);
  const drawn = document.querySelector('[data-testid=gfLiveAward]');
  const box = answerBox();
  const rows = (cls) => [...document.querySelectorAll(`[data-testid=gfLivePanel] .${cls} li`)].map((li) =>
    [li.querySelector('.gf-live-name').textContent, li.querySelector('.gf-live-text').textContent]);
  return {value: document.activeElement.value, award: drawn && drawn.textContent,
          limit: strong('Held down by').nextSibling.nodeValue.trim(), route: strong('Route:').nextSibling.nodeValue.trim(),
          headroom: rows('gf-live-headroom'), funding: rows('gf-live-funding'),
          panel: (document.querySelector('[data-testid=gfLivePanel]') || {}).outerHTML || null,
          words: words && words.outerHTML, later: words && words.querySelector('.gf-live-later').textContent,
          box_shown: box.offsetParent !== null && getComputedStyle(box).visibility === 'visible'};   // the last run's lines
}"""

# The headroom and funding drawn while the hand moves, put back after the run has removed them,
# for axe-core to check as a user saw them (the drawing lasts only until the run lands).
AGAIN = """([panel, words]) => { """ + ANSWER_BOX + """
  const host = [...document.querySelectorAll('.gc')].find((g) => g.querySelector('.gc-chart'));
  host.classList.add('gf-live-host'); host.insertAdjacentHTML('afterbegin', panel);
  const box = answerBox();
  box.setAttribute('data-gf-veiled', ''); box.parentElement.classList.add('gf-live-host');
  box.insertAdjacentHTML('afterend', words); }"""


def headroom_and_funding(result: dict, inputs: dict) -> tuple[list, list]:
    """What the live panel should say for `python -m core evaluate`'s result: each cap of the route
    that holds the award (the headroom chart's table) and the waterfall's steps."""
    award = to_cents(result["award"], "award")
    caps = [(c, to_cents(v, c)) for c, v in result["caps"].items()]
    headroom = [[CAP[c].title, f"{fmt(v)}: {fmt(v - award)} above the award"
                 + (", holds it down" if c in result["binding"] else "")] for c, v in caps]
    steps = waterfall_steps(evaluate(Application.from_dict(inputs)))
    return headroom, [[name, fmt(amount)] for name, _, _, amount in steps]

SETTLED = """([award]) => !document.querySelector('[data-testid=gfLiveAward]')
  && document.querySelector('[data-testid=stMetricValue]').textContent === award
  && document.querySelector('[data-testid=stApp]').getAttribute('data-test-script-state') === 'notRunning'"""


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):  # noqa: F811
    db = tmp_path_factory.mktemp("db") / "lib.db"
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url


def law(applications: list[dict]) -> list[dict]:
    """`python -m core evaluate` of the applications, as a user would run it."""
    out = subprocess.run([sys.executable, "-m", "core", "evaluate", "-"], input=json.dumps(applications),
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout)


def url_of(base: str, fields: dict) -> str:
    return base + "/?" + urlencode({k: ("true" if v else "false") if isinstance(v, bool) else v for k, v in fields.items()})


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_award_drawn_while_a_key_is_held_is_the_laws_to_the_cent(server, chromium, scenario):  # noqa: F811
    start, keys = SCENARIOS[scenario]
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url_of(server, start))
    wait_ready(page)
    fields = {n: v for n, v in start.items() if FIELD[n].kind == "money"}   # dollars, as on screen
    drawn = []
    assert page.get_by_role("slider").count() == len(fields)   # every money slider on the page
    for name in list(fields):
        page.get_by_role("slider", name=FIELD[name].label, exact=True).focus()
        key = keys.get(name, "ArrowRight")
        for _ in range(PRESSES):   # held: one keydown after another, the later ones repeats
            page.keyboard.down(key)
            seen = page.evaluate(READ)
            if seen["award"] is not None:   # at $0 a further ArrowLeft moves nothing and draws nothing
                drawn.append((start | fields | {name: int(seen["value"])}, seen))
        page.keyboard.up(key)
        fields[name] = int(page.evaluate("() => document.activeElement.value"))
        page.wait_for_function(SETTLED, arg=[drawn[-1][1]["award"]], timeout=30_000)
        # the run's words, the same as the last drawn
        gone = {"award": None, "value": None, "headroom": [], "funding": [], "panel": None,   # the drawing, replaced
                "words": None, "later": None, "box_shown": True}
        settled = page.evaluate(READ)
        assert settled | gone == drawn[-1][1] | gone
        assert settled["panel"] is None   # the server's charts stand again
        assert (settled["words"], settled["box_shown"]) == (None, True)   # and the box's own words, every line
    assert len(drawn) >= PRESSES * len(fields) - 2 * PRESSES   # every press drew, but those held at $0
    applications = [{k: plain(v * 100) if FIELD[k].kind == "money" else v for k, v in inputs.items()}
                    for inputs, _ in drawn]
    for (inputs, seen), application, result in zip(drawn, applications, law(applications), strict=True):
        want = {"award": fmt(to_cents(result["award"], "award")), "limit": result["binding_text"], "route": ROUTES[result["route"]]}
        assert {k: seen[k] for k in want} == want, inputs
        assert (seen["headroom"], seen["funding"]) == headroom_and_funding(result, application), inputs
        # beside a drawn award, none of the last run's lines that the drawing does not work out
        assert not seen["box_shown"] and seen["later"].startswith("The rest of this box"), inputs
    # Across limits and routes, not along one line.
    assert len({seen["limit"].split(" (")[0] for _, seen in drawn}) >= (4 if scenario == "standard" else 2)
    if scenario == "exception":
        assert {seen["route"] for _, seen in drawn} == set(ROUTES.values())
    assert not [e for e in errors if "live award defect" in e]
    assert page.evaluate("() => window.__liveAwardDefects") is None
    page.evaluate(AGAIN, [drawn[-1][1]["panel"], drawn[-1][1]["words"]])
    results = axe(page)
    assert results["violations"] == [] or summary(results) == []
    no_error_on(page)
    page.close()


# Every award drawn, with both sliders' values at the moment it was drawn (a MutationObserver runs
# in the same task as the slider's input event, so the values are those the drawing was made for).
RECORD = """() => { window.__drawn = [];
  const value = (name) => document.querySelector(`.gf-money[data-field=${name}] input[type=range]`).value;
  new MutationObserver(() => {
    const d = document.querySelector('[data-testid=gfLiveAward]');
    if (d) window.__drawn.push([d.textContent, value('eligible_cost'), value('local_contribution')]);
  }).observe(document.body, {subtree: true, childList: true, characterData: true}); }"""


@pytest.mark.parametrize("first, second", [("eligible_cost", "local_contribution"),
                                           ("local_contribution", "eligible_cost")])
def test_two_sliders_moved_quickly_draw_only_what_the_law_gives_for_both(server, chromium, first, second):  # noqa: F811
    """One step of a slider, then at once one of another (within the 300 ms before the first is
    sent): the second's pieces assumed the first's old value, and drew $500,500 (or $499,000) where
    the law gives $500,000 for both moves. Every award drawn is the law's for the sliders as they
    stood when it was drawn, and the run settles on the law's for both."""
    start = {"project_type": "renovation", "eligible_cost": 1_000_000, "federal_grant": 0,
             "local_contribution": 500_000, "prior_program_funds": 0}
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url_of(server, start))
    wait_ready(page)
    page.evaluate(RECORD)
    for name in (first, second):
        page.get_by_role("slider", name=FIELD[name].label, exact=True).focus()
        page.keyboard.press("ArrowRight")
    page.wait_for_function(SETTLED, arg=["$500,000"], timeout=30_000)
    page.wait_for_url(lambda u: "eligible_cost=1001000" in u and "local_contribution=501000" in u, timeout=30_000)
    drawn = page.evaluate("() => window.__drawn")
    # Drawn only for the states the hand made, in its order: the first slider moved, then both. The
    # second slider draws only once the first's answer is in (at once on a quiet machine, not at all
    # when the run lands first): a drawing for the second moved alone is a state the hand never made.
    made = [start | {first: start[first] + 1_000}, start | {first: start[first] + 1_000, second: start[second] + 1_000}]
    hand = [[str(s["eligible_cost"]), str(s["local_contribution"])] for s in made]
    seen = [d[1:] for d in drawn]
    assert drawn and all(v in hand for v in seen), drawn
    assert seen == sorted(seen, key=hand.index), drawn
    states = [start | {"eligible_cost": int(cost), "local_contribution": int(local)} for _, cost, local in drawn]
    results = law([{k: plain(v * 100) if FIELD[k].kind == "money" else v for k, v in s.items()} for s in states])
    assert [d[0] for d in drawn] == [fmt(to_cents(r["award"], "award")) for r in results], drawn
    assert not [e for e in errors if "live award defect" in e]
    assert page.evaluate("() => window.__liveAwardDefects") is None
    no_error_on(page)
    page.close()
