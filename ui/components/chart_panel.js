// The calculator's charts as one element (ui/components/chart_panel.py says why), below the sums they break
// down. Each chart is built once: its title, the figure (named by the sentence that states its
// finding), and its numbers in a native disclosure. A run's data then only changes what moved,
// and Plotly.react redraws the figure in place once the browser has painted the run (the award
// first, the charts right after).

// The app's base URL, from the address of Streamlit's own script (an app may be served under a path).
function appBase() {
  const script = document.querySelector('script[src*="/static/js/"]');
  return script ? script.src.slice(0, script.src.indexOf("/static/js/") + 1) : `${window.location.origin}/`;
}

// Plotly.js, loaded once per browser page and kept by the window (this module may be loaded again).
function loadPlotly(path) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__grantPlotly) {
    window.__grantPlotly = new Promise((resolve, reject) => {
      const script = el("script", { src: new URL(path, appBase()).href });
      script.addEventListener("load", () => (window.Plotly ? resolve(window.Plotly) : reject(new Error("no Plotly"))));
      script.addEventListener("error", () => reject(new Error("Plotly.js did not load")));
      document.head.append(script);
    });
    window.__grantPlotly.catch(() => { window.__grantPlotly = null; });   // the next run tries again
  }
  return window.__grantPlotly;
}

function build(view, id) {
  const base = `${view.id}-${id}`;
  const section = el("section", { class: "gc-chart", "aria-labelledby": `${base}-title` });
  const title = el("p", { class: "gc-title", id: `${base}-title` });
  const figure = el("div", { class: "gc-figure", role: "figure" });
  const plot = el("div", { class: "gc-plot" });
  const problem = el("p", { class: "gc-problem", role: "alert" });
  problem.hidden = true;
  figure.append(plot);
  const details = el("details", { class: "gc-numbers" });
  const summary = el("summary");
  const scroller = el("div", { class: "gc-table", tabindex: "0", role: "region" });
  const table = el("table");
  scroller.append(table);
  details.append(summary, scroller);
  section.append(title, figure, problem, details);
  return { section, title, figure, plot, problem, details, summary, scroller, table, rows: null, drawn: null, next: null };
}

function fillTable(table, rows) {
  table.replaceChildren();
  if (!rows.length) return;
  const head = Object.keys(rows[0]);
  const tr = el("tr");
  for (const h of head) tr.append(el("th", { scope: "col" }, h));
  const body = el("tbody");
  for (const row of rows) {
    const line = el("tr");
    head.forEach((h, i) => line.append(el(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : {}, row[h] ?? "")));
    body.append(line);
  }
  const thead = el("thead");
  thead.append(tr);
  table.append(thead, body);
}

// The sums the charts break down, each a term and its value, as a row above them.
function fillAmounts(list, amounts) {
  list.hidden = !amounts.length;
  list.replaceChildren(...amounts.map((a) => {
    const item = el("div", { class: "gc-amount" });
    item.append(el("dt", {}, a.label), el("dd", {}, a.value));
    return item;
  }));
}

// Draw what the last run sent, once the browser has painted it; a newer run's figure replaces a
// figure not drawn yet, so a held key draws the latest move, not every one in turn.
function schedule(view) {
  if (view.scheduled) return;
  view.scheduled = true;
  window.requestAnimationFrame(() => window.setTimeout(() => {
    view.scheduled = false;
    loadPlotly(view.plotlyPath).then((Plotly) => {
      for (const c of view.charts.values()) {
        if (c.next === null) continue;
        const fig = c.next;
        c.next = null;
        c.problem.hidden = true;
        Plotly.react(c.plot, fig.data, fig.layout, view.config);
      }
    }, (err) => {
      for (const c of view.charts.values()) {
        c.problem.textContent = `This chart could not be drawn (${err.message}). Its numbers are in the table below.`;
        c.problem.hidden = false;
        c.details.open = true;
        c.drawn = null;   // drawn at the next run once Plotly.js loads
      }
    });
  }, 0));
}

export default function (component) {
  const data = decode(component.data);
  const root = component.parentElement.querySelector(".gc");
  let view = root.gc;
  if (!view) {
    view = root.gc = { id: `gc-${Math.random().toString(36).slice(2, 8)}`, charts: new Map(), scheduled: false,
                       amounts: el("dl", { class: "gc-amounts" }) };
    root.append(view.amounts);
    // The column can change width without the window resizing (the sidebar folded, presentation
    // mode): the drawn charts follow it, once per frame at most.
    let pending = false;
    new ResizeObserver(() => {
      if (pending || !window.Plotly) return;
      pending = true;
      window.requestAnimationFrame(() => {
        pending = false;
        for (const c of view.charts.values()) if (c.plot._fullLayout) window.Plotly.Plots.resize(c.plot);
      });
    }).observe(root);
  }
  view.plotlyPath = data.plotly;
  view.config = data.config;
  const amounts = data.amounts || [];
  if (changed(view, "amountsShown", amounts)) fillAmounts(view.amounts, amounts);
  const wanted = new Set(data.charts.map((c) => c.id));
  for (const [id, c] of view.charts) {
    if (!wanted.has(id)) { c.section.remove(); view.charts.delete(id); }
  }
  data.charts.forEach((c, n) => {
    const i = n + 1;   // the amounts come first
    let v = view.charts.get(c.id);
    if (!v) {
      v = build(view, c.id);
      view.charts.set(c.id, v);
    }
    if (root.children[i] !== v.section) root.insertBefore(v.section, root.children[i] || null);   // in the order sent
    v.title.textContent = c.title;
    v.title.hidden = !c.title;
    v.figure.setAttribute("aria-label", c.alt);
    const what = `Numbers behind “${c.title || "this chart"}”`;
    v.summary.textContent = what;
    v.scroller.setAttribute("aria-label", what);
    if (changed(v, "rows", c.rows)) fillTable(v.table, c.rows);
    if (changed(v, "drawn", c.figure)) v.next = c.figure;
  });
  if ([...view.charts.values()].some((c) => c.next !== null)) schedule(view);
}
