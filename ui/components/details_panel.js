// The calculator's details as one element (ui/components/details_panel.py says why): the checks, how the
// award is worked out and what would change it. Built once; a run's data refills the lists that
// changed. The switch that shows the regulation's sentences works here, without a server run,
// and is remembered for the browser tab.

const QUOTES_KEY = "grant-details-quotes";

function remembered() {
  try { return window.sessionStorage.getItem(QUOTES_KEY) === "1"; } catch { return false; }
}

function remember(on) {
  try { window.sessionStorage.setItem(QUOTES_KEY, on ? "1" : "0"); } catch { /* storage refused: this page only */ }
}

function part(root, heading) {
  const box = el("div", { class: "gd-part" });
  box.append(el("h2", { class: "gd-heading" }, heading));
  root.append(box);
  return box;
}

function build(root) {
  const checks = el("ul", { class: "gd-checks" });
  part(root, "Checks").append(checks);
  const how = part(root, "How the award is worked out");
  const id = `gd-${Math.random().toString(36).slice(2, 8)}-quotes`;
  const label = el("div", { class: "gd-switch" });
  const box = el("input", { type: "checkbox", role: "switch", class: "ui-switch", id });
  const words = el("label", { for: id });
  label.append(box, words);
  box.checked = remembered();
  root.classList.toggle("gd-show-quotes", box.checked);
  box.addEventListener("change", () => {
    root.classList.toggle("gd-show-quotes", box.checked);
    remember(box.checked);
  });
  const steps = el("ol", { class: "gd-steps" });
  how.append(label, steps);
  const changes = el("ul", { class: "gd-changes" });
  part(root, "What would change it").append(changes);
  return { checks, words, steps, changes, last: {} };
}

function checkItem(c) {
  const li = el("li", { class: `gd-check gd-${c.status}` });
  const badge = el("span", { class: "gd-badge" });
  badge.append(el("span", { class: "gd-icon", "aria-hidden": "true" }, c.icon), c.word);
  li.append(badge, " ", el("strong", {}, c.label), `: ${c.message}`);
  return li;
}

function stepItem(s) {
  const li = el("li");
  li.append(s.text, " ", el("span", { class: "gd-source" }, `(${s.source})`));
  if (s.quote) li.append(el("p", { class: "gd-quote" }, s.quote));
  return li;
}

const ITEM = { checks: checkItem, steps: stepItem, changes: (text) => el("li", {}, text) };

export default function (component) {
  const data = decode(component.data);
  const root = component.parentElement.querySelector(".gd");
  const view = root.gd || (root.gd = build(root));
  view.words.textContent = data.quotes;
  for (const [name, item] of Object.entries(ITEM)) {
    if (!changed(view.last, name, data[name])) continue;   // a move that left this list alone
    view[name].replaceChildren(...data[name].map(item));
  }
}
