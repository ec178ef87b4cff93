// A projector's clicker in presentation mode (ui/present.py): PageDown, ArrowRight, Space and "n"
// press the page's Next (Compare's "Next scenario" up to the last, else the deck's "Next" page);
// PageUp and ArrowLeft its Previous. ArrowDown and ArrowUp (Home, End) scroll the page, which scrolls
// inside Streamlit's main area, where no key reached it with the focus on the page; B or "." blanks the
// screen, as in a slide show, and any key or click brings it back. Never while a text box, a select or a
// slider has the focus (the keys are theirs then); Space presses Next on the show's own buttons (Previous
// and Next scenario, the bar) too, where it pressed the button last clicked (going back), but a focused
// other button or link keeps it (the browser presses that itself; Enter too).

const NEXT = new Set(["PageDown", "ArrowRight", " ", "n", "N"]);
const PREVIOUS = new Set(["PageUp", "ArrowLeft"]);
const SCROLL = {ArrowDown: 0.8, ArrowUp: -0.8, End: Infinity, Home: -Infinity};
const BLANK = new Set(["b", "B", "."]);
const SHOW = '[class*="cmp_next"], [class*="cmp_prev"], .st-key-present_bar';

function blank() {
  const cover = document.createElement("div");
  cover.className = "ck-blank";
  cover.setAttribute("role", "dialog");
  cover.setAttribute("aria-label", "Screen blanked: press any key to come back");
  cover.tabIndex = -1;
  // inline: it sits on the document's body, outside the element, where the element's own CSS may not reach
  Object.assign(cover.style, {position: "fixed", inset: "0", background: "#000", zIndex: "100000", outline: "none"});
  document.body.append(cover);
  cover.focus();
  const back = (e) => { e.preventDefault(); e.stopPropagation(); cover.remove(); };
  cover.addEventListener("keydown", back, {once: true});
  cover.addEventListener("click", back, {once: true});
}

function scroll(share) {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return;
  const by = Number.isFinite(share) ? share * main.clientHeight : share > 0 ? main.scrollHeight : -main.scrollHeight;
  main.scrollBy({top: by, behavior: "smooth"});
}

function typing(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], ' +
                                  '[role="slider"], [role="textbox"], [role="combobox"], [role="spinbutton"]'));
}

// On Compare, the scenarios first: past the last one (or before the first) the deck's next (or
// previous) page, so the clicker runs the whole show instead of going round the scenarios.
function atEdge(step) {
  const nav = document.querySelector('[class*="st-key-keep_cmp_nav"]');
  const m = nav && nav.innerText.match(/Scenario (\d+) of (\d+)/);
  if (!m) return true;
  return step === 1 ? Number(m[1]) >= Number(m[2]) : Number(m[1]) <= 1;
}

function control(step) {
  const scenario = document.querySelector(`[class*="cmp_${step === 1 ? "next" : "prev"}"] button`);
  if (scenario && !scenario.disabled && !atEdge(step)) return scenario;
  const word = step === 1 ? "Next" : "Previous";
  return [...document.querySelectorAll(".st-key-present_bar a")].find(a => a.innerText.trim().endsWith(word)) || null;
}

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
  if (document.querySelector(".ck-blank")) return;   // the blank screen takes the next key itself
  if (BLANK.has(event.key)) { event.preventDefault(); blank(); return; }
  if (event.key in SCROLL) { event.preventDefault(); scroll(SCROLL[event.key]); return; }
  const step = NEXT.has(event.key) ? 1 : PREVIOUS.has(event.key) ? -1 : 0;
  if (!step) return;
  if (event.key === " " && event.target instanceof Element && event.target.closest("button, a")
      && !event.target.closest(SHOW)) return;
  const target = control(step);
  if (!target) return;
  event.preventDefault();   // PageDown and Space would scroll instead
  target.click();
}

// The key note gives way: the page leaves it a strip under its scrolling area (ui/present.py), and
// should anything of the page reach it there, it moves to the first corner where it meets no text,
// chart or table (bottom right, bottom left, top right), or out of sight where every corner has
// some; looked at again on every scroll, resize and redraw. Fixed in a corner, it covered an
// axis title, the Portfolio's "Priority rank" and a cell of Compare's table.
const CONTENT = 'p, span, td, th, h1, h2, h3, li, label, a, button, svg text, .js-plotly-plot .bg, ' +
                '[data-testid="stMetricValue"], img, canvas';
const CORNERS = [{right: "12px", bottom: "2px"}, {left: "12px", bottom: "2px"}, {right: "12px", top: "8px"}];

function meets(note) {
  const n = note.getBoundingClientRect();
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return false;
  const m = main.getBoundingClientRect();   // what the page shows: its scrolled-out part is not covered
  for (const e of main.querySelectorAll(CONTENT)) {
    if (note.contains(e)) continue;
    const b = e.getBoundingClientRect();
    const r = {left: Math.max(b.left, m.left), right: Math.min(b.right, m.right),
               top: Math.max(b.top, m.top), bottom: Math.min(b.bottom, m.bottom)};
    if (r.right <= r.left || r.bottom <= r.top || r.left >= n.right || r.right <= n.left || r.top >= n.bottom || r.bottom <= n.top) continue;
    if (!(e.textContent.trim() || e.matches('.bg, img, canvas'))) continue;
    const style = getComputedStyle(e);
    if (style.visibility !== "hidden" && style.display !== "none") return true;
  }
  return false;
}

function place(note) {
  for (const corner of CORNERS) {
    note.style.left = note.style.right = note.style.top = note.style.bottom = "auto";
    Object.assign(note.style, corner);
    if (!meets(note)) {
      note.style.visibility = "visible";
      return;
    }
  }
  note.style.visibility = "hidden";
}

function watch(note) {
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; if (note.isConnected) place(note); });
  };
  document.addEventListener("scroll", later, true);   // whichever element scrolls the page
  window.addEventListener("resize", later);
  new MutationObserver(later).observe(document.body, {childList: true, subtree: true});
  later();
}

export default function (component) {
  if (!window.__grantClicker) {
    window.__grantClicker = true;
    document.addEventListener("keydown", onKey);
  }
  // The hint: fixed in a corner, so it takes no room from the first screen's answer.
  const root = component.parentElement.querySelector(".ck");
  if (root && !root.textContent) {
    root.setAttribute("role", "note");
    root.textContent = "Keys: Page Down, \u2192, Space, N next; Page Up, \u2190 previous; \u2193 \u2191 scroll; " +
                       "B blank (not in a text box or slider)";
    watch(root);
  }
}
