"""What Streamlit's own widgets leave out for screen readers and keyboards (WCAG 2.1 AA).

One stylesheet and one small script, put on every page by dashboard.py:
- visible focus (3px, #1f4e79, 8.7:1 on white) on every control, including the checkboxes,
  switches and slider thumbs whose real input is visually hidden, and sidebar links;
- reflow at 320 px: titles and words wrap instead of being cut;
- names: a slider's input is named by its own label and again by its group ("Range ($)
  Range ($)"): named once; icons inside text are hidden from screen readers (the calculator's
  inputs are native controls with their own names: ui/components/fields_panel.js);
- a polite live region that says the State grant award once each time it changes (after the
  value settles, so a held key announces the amount it stops on, not every step);
- a table wider than the page (it scrolls sideways) can be reached with Tab;
- Plotly charts keep their accessible name (st.plotly_chart alt=...) on the chart element.
The script runs once per browser page and watches the document, since Streamlit redraws.
"""
from __future__ import annotations

import streamlit as st

FOCUS = "#1f4e79"

CSS = """<style>
/* Visible focus on every control: 3px outline, 8.7:1 against white (WCAG 2.4.7, 1.4.11). */
:focus-visible { outline: 3px solid %(focus)s !important; outline-offset: 2px !important; }
[data-testid="stCheckbox"] label:has(input:focus-visible),
[data-testid="stRadio"] label:has(input:focus-visible),
[data-testid="stSlider"] div:has(> div > input:focus-visible),
[data-testid="stSidebarNavLink"]:focus-visible
  { outline: 3px solid %(focus)s !important; outline-offset: 2px !important; border-radius: 4px; }
/* Reflow at 320 px (WCAG 1.4.10): wrap titles and long words instead of cutting them. */
h1, h2, h3, [data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"] p
  { overflow-wrap: break-word; hyphens: auto; }
h1 span, h2 span, h3 span { white-space: normal !important; }
@media (max-width: 480px) {
  [data-testid="stMainBlockContainer"] { padding-left: 0.75rem !important; padding-right: 0.75rem !important; }
  [data-testid="stHorizontalBlock"], [data-testid="stLayoutWrapper"] > div { flex-wrap: wrap !important; }
  [data-testid="stMetricValue"] p { font-size: 1.8rem !important; }
  h1 { font-size: 1.8rem !important; }
  .stMarkdownEllipsis, [data-testid="stMetricLabel"] p { white-space: normal !important; }
}
/* Text only a screen reader reads. */
.sr-only { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
</style>""" % {"focus": FOCUS}

# The team deployment's Content-Security-Policy allows this script by its hash: after an edit,
# put the hash `deploy/run-team --print-csp` prints into deploy/security-headers.conf
# (tests/deploy/test_team.py fails until then).
SCRIPT = """<script>
(() => {
  const doc = window.parent && window.parent.document ? window.parent.document : document;
  const win = doc.defaultView;
  if (win.__grantsA11y) { return; }
  win.__grantsA11y = true;
  const live = doc.createElement('div');
  live.id = 'award-announcer';
  live.className = 'sr-only';
  live.setAttribute('role', 'status');
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('aria-atomic', 'true');
  doc.body.appendChild(live);
  win.__awardAnnouncements = 0;
  // lastAward: the amount last said (or first drawn); seen: the amount now on screen.
  let lastAward = null, seen = null, pending = null;

  // textContent, not innerText: innerText makes the browser lay out the page first, and this runs
  // on every change of the page (measured 7 ms per slider move on the calculator).
  function awardText() {
    for (const m of doc.querySelectorAll('[data-testid="stMetric"]')) {
      const label = m.querySelector('[data-testid="stMetricLabel"]');
      const value = m.querySelector('[data-testid="stMetricValue"]');
      if (label && value && label.textContent.trim() === 'State grant award') { return value.textContent.trim(); }
    }
    return null;
  }

  // Said once the amount on screen has stayed the same for 400 ms: a held key announces where it stops.
  function announce() {
    pending = null;
    const award = awardText();
    if (award === null) { lastAward = null; return; }   // left the page: its next first draw is no change
    if (award === lastAward) { return; }
    lastAward = award;
    live.textContent = 'State grant award: ' + award;
    win.__awardAnnouncements += 1;
  }

  function watchAward() {
    const award = awardText();
    // The first draw is recorded at once, not on a timer a quick first key press could beat.
    if (lastAward === null && award !== null && pending === null) { lastAward = seen = award; return; }
    if (award === seen) { return; }
    seen = award;
    win.clearTimeout(pending);
    pending = win.setTimeout(announce, 400);
  }

  function fix() {
    // A slider's input is labelled by itself and by its group, both carrying the label: name it once.
    for (const input of doc.querySelectorAll('[data-testid="stSlider"] input[type="range"][aria-labelledby]')) {
      input.removeAttribute('aria-labelledby');
    }
    // Icons inside text ("cancel icon cancel Fail") are decoration: the words say it.
    for (const icon of doc.querySelectorAll('span[role="img"][aria-label$=" icon"]:not([aria-hidden])')) {
      icon.setAttribute('aria-hidden', 'true');
    }
    // A table wider than the page scrolls sideways: keyboard users must reach it (WCAG 2.1.1).
    for (const box of doc.querySelectorAll('[data-testid="stTable"], [data-testid="stTable"] > div')) {
      const wide = box.scrollWidth > box.clientWidth + 1 && /auto|scroll/.test(win.getComputedStyle(box).overflowX);
      if (wide && box.getAttribute('tabindex') !== '0') {
        box.setAttribute('tabindex', '0');
        box.setAttribute('role', 'region');
        box.setAttribute('aria-label', 'Table (scrolls sideways)');
      }
    }
    watchAward();
  }

  new win.MutationObserver(fix).observe(doc.body, {subtree: true, childList: true, characterData: true});
  fix();
})();
</script>"""


def install() -> None:
    """Put the stylesheet and the script on the page (call once per run, from dashboard.py)."""
    st.html(CSS + SCRIPT, unsafe_allow_javascript=True)
