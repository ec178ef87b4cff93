// Hands the browser a report file made at the click (ui/reporting.py says why): once per file,
// as a download, with a link that saves it again (a browser may hold back a download it did
// not see the person ask for, such as a second one from the same page).

function bytesOf(b64) {
  const raw = atob(b64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export default function (component) {
  const data = decode(component.data);
  const root = component.parentElement.querySelector(".rf");
  if (!data || !data.n) { root.replaceChildren(); delete root.dataset.n; return; }
  if (root.dataset.n === String(data.n)) return;   // this file is handed over already: its note stays
  if (!data.b64) { root.replaceChildren(); return; }   // drawn anew after the file was handed over
  root.dataset.n = String(data.n);
  if (root.url) URL.revokeObjectURL(root.url);
  root.url = URL.createObjectURL(new Blob([bytesOf(data.b64)], { type: data.mime }));
  const link = el("a", { href: root.url, download: data.name, class: "rf-link" }, `Save ${data.name} again`);
  const said = el("p", { role: "status", class: "rf-said" });
  said.append(`${data.what} is ready: `, el("strong", {}, data.name), " (downloaded). ");
  said.append(link);
  root.replaceChildren(said);
  const auto = el("a", { href: root.url, download: data.name, hidden: "" });
  root.append(auto);
  auto.click();
  auto.remove();
}
