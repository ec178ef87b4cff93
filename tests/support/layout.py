"""What a person sees of a page's text, measured in Chromium: text cut off (an ellipsis, a box that
hides or scrolls what it holds, a line past the window's right edge), words broken across two
lines, font sizes, and where an element sits against the first screen (the fold).

Charts are left out (Plotly's SVG places its own text), and so is the inside of a data grid
(st.dataframe draws on a canvas): its scroller is measured like any other box."""
from __future__ import annotations

# Elements a person can see: laid out, not hidden, not a one-pixel label for screen readers.
_VISIBLE = """
const skip = '.js-plotly-plot, svg, canvas, [data-testid="stDataFrame"]';
function seen(e) {
  if (!e.getClientRects().length) return false;
  const s = getComputedStyle(e);
  if (s.visibility === 'hidden' || s.opacity === '0') return false;
  const r = e.getBoundingClientRect();
  if (r.width <= 2 || r.height <= 2) return false;
  if (s.clip && s.clip !== 'auto' || s.clipPath && s.clipPath !== 'none') return false;
  return true;
}
function said(e) { return (e.innerText || e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 80); }
"""

CUT = """(root) => {
""" + _VISIBLE + """
  const box = document.querySelector(root) || document.body;
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const e of box.querySelectorAll('*')) {
    const grid = e.matches('[data-testid="stDataFrame"] .dvn-scroller');   // a grid: its scroller only
    if (e.closest(skip) && !grid) continue;
    if (!seen(e)) continue;
    const s = getComputedStyle(e);
    const clips = ['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    if (clips && e.scrollWidth > e.clientWidth + 1 && (grid || said(e))) {
      out.push({what: grid ? 'grid scrolls sideways' : 'cut', text: grid ? said(e.closest('[data-testid="stDataFrame"]').parentElement) : said(e), scroll: e.scrollWidth, client: e.clientWidth});
      continue;
    }
    const hasText = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (hasText && e.getBoundingClientRect().right > width + 1)
      out.push({what: 'past the right edge', text: said(e), right: e.getBoundingClientRect().right, width});
  }
  if (document.documentElement.scrollWidth > width + 1)
    out.push({what: 'page scrolls sideways', scroll: document.documentElement.scrollWidth, width});
  return out;
}"""

# A word broken across lines: its characters sit in two line boxes. Words are split at spaces and
# at the places a line may break between words (hyphens, dashes, slashes).
BROKEN = """(root) => {
""" + _VISIBLE + """
  const box = document.querySelector(root) || document.body;
  const out = [];
  const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  const shown = new Map();
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest(skip)) continue;
    if (!shown.has(p)) shown.set(p, seen(p));
    if (!shown.get(p)) continue;
    for (const m of n.textContent.matchAll(/[^\\s\\-\\u2010-\\u2015\\/]+/g)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0)
        .sort((a, b) => a.top - b.top);
      for (let i = 1; i < rects.length; i++) {
        if (rects[i].top >= rects[i - 1].bottom - 2) {
          out.push({word: m[0], in: said(p)});
          break;
        }
      }
    }
  }
  return out;
}"""

# The computed font size of every visible text (px), largest first, with its text.
FONT_SIZES = """(root) => {
""" + _VISIBLE + """
  const box = document.querySelector(root) || document.body;
  const out = [];
  for (const e of box.querySelectorAll('*')) {
    if (e.closest(skip) || !seen(e)) continue;
    const own = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
    if (own) out.push({size: parseFloat(getComputedStyle(e).fontSize), text: own.slice(0, 60)});
  }
  return out.sort((a, b) => b.size - a.size);
}"""


def cut(page, root: str = '[data-testid="stMain"]') -> list[dict]:
    return page.evaluate(CUT, root)


def broken(page, root: str = '[data-testid="stMain"]') -> list[dict]:
    return page.evaluate(BROKEN, root)


def font_sizes(page, root: str = '[data-testid="stMain"]') -> list[dict]:
    return page.evaluate(FONT_SIZES, root)


def above_the_fold(page, locator) -> bool:
    """The whole of `locator`'s box on the first screen: the page not scrolled, the box inside the window."""
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["x"] >= 0 and box["y"] + box["height"] <= size["height"] + 1 \
        and box["x"] + box["width"] <= size["width"] + 1
