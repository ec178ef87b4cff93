// The award that follows the hand (ui/components/live_award.py says how). Put before the
// fields panel's script (ui/components/fields_panel.py). No law here: the pieces are the
// server's (core.law.analysis.pieces); this only takes, at one position, each route's least
// present piece, floored to the cent, and the larger route, as core.law.award settles them.

const AWARD_LABEL = "State grant award";

// Floor division of BigInts (BigInt's / truncates toward zero).
function floorDiv(n, d) {
  const q = n / d;
  return (n % d !== 0n && (n < 0n) !== (d < 0n)) ? q - 1n : q;
}

// {award (BigInt cents), route, binding: [cap ids], caps: [[cap id, BigInt cents]] of the route
// chosen} at `cents` (a whole number) from the pieces.
function liveValue(live, cents) {
  if (cents === 0) {
    return { award: BigInt(live.zero.award), route: live.zero.route, binding: live.zero.binding,
             caps: (live.zero.caps || []).map(([c, v]) => [c, BigInt(v)]) };
  }
  if (!live.big) {   // the pieces as BigInts, made once per run's data
    live.d = BigInt(live.d);
    live.big = live.routes.map((r) => ({ route: r.route, caps: r.caps.map(([cap, a, b, m]) =>
      [cap, BigInt(a), BigInt(b), m && [BigInt(m[0]), BigInt(m[1])]]) }));
  }
  const x = BigInt(cents);
  let best = null;
  for (const r of live.big) {
    const values = [];
    for (const [cap, a, b, m] of r.caps) {
      if (m && m[0] * x + m[1] >= 0n) continue;   // a cap that holds only while its condition fails
      const v = floorDiv(a * x + b, live.d);
      values.push([cap, v > 0n ? v : 0n]);
    }
    let award = values[0][1];
    for (const [, v] of values) if (v < award) award = v;
    if (best === null || award > best.award) {
      best = { award, route: r.route, binding: values.filter(([, v]) => v === award).map(([c]) => c), caps: values };
    }
  }
  return best;
}

// Cents as the page writes them (core.law.money.fmt): "$1,250,000", "$550,000.50".
function dollars(cents) {
  const sign = cents < 0n ? "-" : "";
  const abs = cents < 0n ? -cents : cents;
  const whole = abs / 100n, part = abs % 100n;
  return `${sign}$${whole.toLocaleString("en-US")}` + (part ? `.${String(part).padStart(2, "0")}` : "");
}

// The words the page's answer box gives (core.law.explain.binding_text, ROUTES).
function liveWords(live, v) {
  const names = v.binding.map((c) => live.labels[c]);
  const amount = dollars(v.award);
  const limit = names.length === 1 ? `${names[0]} (${amount})`
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} (${names.length === 2 ? "both" : "all"} ${amount})`;
  return { award: amount, limit, route: live.routes_words[v.route] };
}

// The calculator's award (st.metric) and the answer box's words beside it (the Markdown that
// holds "Held down by" and "Route:").
function answerNodes() {
  for (const m of document.querySelectorAll('[data-testid="stMetric"]')) {
    const label = m.querySelector('[data-testid="stMetricLabel"]');
    if (!label || label.textContent.trim() !== AWARD_LABEL) continue;
    const value = m.querySelector('[data-testid="stMetricValue"]');
    let markdown = null;
    for (let i = 0, box = m; i < 8 && box && !markdown; i++, box = box.parentElement) {
      const held = [...box.querySelectorAll("strong")].find((s) => s.textContent.trim() === "Held down by");
      if (held) markdown = held.closest('[data-testid="stMarkdownContainer"]');
    }
    return { value, markdown };
  }
  return null;
}

// Drawn while the hand moves. Each drawing is a copy laid where the page's own element was, which
// is hidden (the metric, which the screen reader's announcer watches, keeps the server's settled
// amount): the award, and in place of the box's words the limit and the route. The box's other
// lines (what is not yet met, where the limit comes from, what another reading would give, what
// the Board's exception would do) are the last run's and are not worked out here, so they are not
// shown beside a drawn award: the box says they follow when the slider stops.
function liveDraw(words) {
  const nodes = answerNodes();
  if (!nodes || !nodes.value) return false;
  let shown = nodes.value.nextElementSibling;
  if (!shown || !shown.classList.contains("gf-live-award")) {
    shown = nodes.value.cloneNode(true);
    shown.classList.add("gf-live-award");
    shown.setAttribute("data-testid", "gfLiveAward");
    nodes.value.after(shown);
  }
  (shown.querySelector("p") || shown).textContent = words.award;
  nodes.value.setAttribute("data-gf-hidden", "");
  if (nodes.markdown) {
    let box = nodes.markdown.nextElementSibling;
    if (!box || !box.classList.contains("gf-live-words")) {   // made once a move; each step changes its two texts
      // Laid over the box's words, which stay in their place unseen (and unread): the box keeps
      // its size, so nothing below it moves, and no layout is forced in the frame of the key.
      box = el("div", { class: "gf-live-words", "data-testid": "gfLiveWords" });
      box.limit = document.createTextNode("");
      box.route = document.createTextNode("");
      const p = el("p");
      p.append(el("strong", {}, "Held down by"), box.limit, el("br"), el("strong", {}, "Route:"), box.route);
      box.append(p, el("p", { class: "gf-live-later" },
        "The rest of this box (anything not yet met, where the limit comes from, other readings) follows when the slider stops."));
      nodes.markdown.parentElement.classList.add("gf-live-host");
      nodes.markdown.after(box);
      nodes.markdown.setAttribute("data-gf-veiled", "");
    }
    box.limit.nodeValue = " " + words.limit;
    box.route.nodeValue = " " + words.route;
  }
  return true;
}

// The server's run has come: its award and words are shown again in place of the drawing, and a
// drawing that differed from them is a defect (the server logs it too: ui/components/live_award.py).
function liveSettle(settled, drawn, field, cents) {
  liveClear();
  if (drawn && ["award", "limit", "route"].some((k) => drawn[k] !== settled[k])) {
    console.error(`live award defect: ${field} at ${cents} cents: drew ${JSON.stringify(drawn)}, ` +
                  `the server settled ${JSON.stringify(settled)}`);
    window.__liveAwardDefects = (window.__liveAwardDefects || 0) + 1;
  }
}

// The drawing taken away, the page's own award, words and charts shown again: when the run has
// come, or when the drawing no longer holds (another slider has moved since: fields_panel.js).
function liveClear() {
  for (const n of document.querySelectorAll(".gf-live-words")) n.parentElement.classList.remove("gf-live-host");
  for (const n of document.querySelectorAll(".gf-live-award, .gf-live-words")) n.remove();
  for (const n of document.querySelectorAll("[data-gf-hidden]")) n.removeAttribute("data-gf-hidden");
  for (const n of document.querySelectorAll("[data-gf-veiled]")) n.removeAttribute("data-gf-veiled");
  livePanelRemove();
}

// The waterfall's amounts (BigInt cents) at `cents`: the cost, each source of funds (the State
// grant is the award drawn), and what they leave (ui/components/live_award.py's funding()).
function liveFunding(live, cents, award) {
  const f = live.funding;
  if (!f) return null;
  const x = BigInt(cents);
  const at = (a, b) => (a === null ? award : BigInt(a) * x + BigInt(b));
  const cost = at(f.cost[1], f.cost[2]);
  const rows = [[f.cost[0], cost]];
  let level = cost;
  for (const [label, a, b] of f.sources) {
    const v = at(a, b);
    rows.push([label, v]);
    level -= v;
  }
  rows.push([level >= 0n ? f.left.gap : f.left.beyond, level >= 0n ? level : -level]);
  return rows;
}

// While the hand moves, laid over the charts (which follow the server's run): the headroom of
// the route that holds the award (each cap's amount and the room above the award) and the funding
// picture, as text with bars drawn to scale. Not a live region: the screen reader hears the
// settled award once (ui/a11y.py); the bars are only pictures of the text beside them.
function livePanelDraw(live, v, words, cents) {
  const host = [...document.querySelectorAll(".gc")].find((g) => g.querySelector(".gc-chart"));
  if (!host || !live.titles) return;
  let panel = host.querySelector(":scope > .gf-live-panel");
  if (!panel) {
    panel = el("div", { class: "gf-live-panel", "data-testid": "gfLivePanel", role: "group",
                        "aria-label": "Drawn while the slider moves; the charts follow when it stops" });
    host.classList.add("gf-live-host");
    host.prepend(panel);
  }
  const scale = (amount, top) => (top > 0n ? Number((amount * 1000n) / top) / 10 : 0);
  const list = (cls, rows) => {
    const ul = el("ul", { class: `gf-live-list ${cls}` });
    const top = rows.reduce((m, r) => (r.amount > m ? r.amount : m), 0n);
    for (const r of rows) {
      const li = el("li", { class: r.holds ? "gf-live-holds" : "" });
      li.dataset.name = r.name;
      const bar = el("span", { class: "gf-live-bar", "aria-hidden": "true" });
      const fill = el("span", { class: "gf-live-fill" });
      fill.style.width = `${scale(r.amount, top)}%`;
      bar.append(fill);
      li.append(el("span", { class: "gf-live-name" }, r.name), bar, el("span", { class: "gf-live-text" }, r.text));
      ul.append(li);
    }
    return ul;
  };
  const headroom = v.caps.map(([c, amount]) => {
    const holds = v.binding.includes(c);
    return { name: live.titles[c], amount, holds,
             text: `${dollars(amount)}: ${dollars(amount - v.award)} above the award` + (holds ? ", holds it down" : "") };
  });
  const funds = (liveFunding(live, cents, v.award) || []).map(([name, amount]) => ({ name, amount, text: dollars(amount) }));
  panel.replaceChildren(
    el("p", { class: "gf-live-heading" }, `Headroom above the award of ${words.award} (${words.route})`),
    list("gf-live-headroom", headroom),
    el("p", { class: "gf-live-heading" }, "Where the money comes from"),
    list("gf-live-funding", funds));
}

// The server's run has come: its charts stand again.
function livePanelRemove() {
  for (const p of document.querySelectorAll(".gf-live-panel")) {
    p.parentElement.classList.remove("gf-live-host");
    p.remove();
  }
}
