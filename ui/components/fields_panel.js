// The calculator's inputs as one element (ui/components/fields_panel.py says why). Native controls only:
// a select, range sliders each with an exact-amount box, switches and checkboxes, so the
// keyboard and screen readers get what the browser gives every form.
//
// Streamlit calls this function when the element is first drawn and again with each run's
// data. The controls are built once per field and then only updated, so a control keeps its
// focus and the position of a key being held down.

const money = (dollars) => "$" + Math.round(dollars).toLocaleString("en-US");

// A label, with a help button that shows the field's explanation below it (a disclosure).
function labelRow(panel, f, forId) {
  const row = el("div", { class: "gf-label" });
  const label = el("label", { for: forId, id: `${panel.id}-${f.id}-label` }, f.label);
  row.append(label);
  if (f.help) {
    const helpId = `${panel.id}-${f.id}-help`;
    const btn = el("button", { type: "button", class: "gf-help-btn", "aria-expanded": "false",
                               "aria-controls": helpId, "aria-label": `About: ${f.label}` }, "?");
    const help = el("p", { id: helpId, class: "gf-help", hidden: "" }, f.help);
    btn.addEventListener("click", () => {
      const open = btn.getAttribute("aria-expanded") !== "true";
      btn.setAttribute("aria-expanded", String(open));
      help.hidden = !open;
    });
    row.append(btn);
    return [row, help];
  }
  return [row];
}

function buildMoney(panel, f) {
  const id = `${panel.id}-${f.id}`;
  const wrap = el("div", { class: "gf-field gf-money", "data-field": f.id });
  const parts = labelRow(panel, f, `${id}-range`);
  const line = el("div", { class: "gf-money-line" });
  const track = el("div", { class: "gf-track" });
  const range = el("input", { type: "range", id: `${id}-range`, min: "0", class: "gf-range" });
  const ends = el("div", { class: "gf-ends", "aria-hidden": "true" });
  ends.append(el("span", {}, "$0"), el("span", { class: "gf-max" }));
  track.append(range, ends);
  const entry = el("div", { class: "gf-entry" });
  const box = el("input", { type: "text", id: `${id}-text`, inputmode: "decimal", autocomplete: "off", maxlength: "60",
                            class: "gf-text", "aria-label": `${f.label}, exact amount` });
  entry.append(el("label", { for: `${id}-text`, class: "gf-small", "aria-hidden": "true" }, "Exact amount"), box);
  line.append(track, entry);
  const error = el("p", { class: "gf-error", id: `${id}-error`, role: "alert" });
  wrap.append(...parts, line, error);

  // With the server's pieces (f.live: ui/components/live_award.py) a step draws the award, its
  // limit and route in the same frame, and the amount is sent only when the hand stops: a
  // release, or 300 ms without a step (a held key, a pause in a drag): one run per move.
  // Without them a step is sent at once, and while dragging at most every 150 ms and on release.
  // A value sent while the pointer still holds the slider says so ("moving"): the server draws
  // it but makes no step of history of it (ui/state.py); the release sends the last value
  // without the flag, even if it was already sent, so that a drag is one step.
  let dragTimer = null, sentValue = null, live = null, drawn = null, dragging = false, movingSent = false;
  const send = (final = false) => {
    clearTimeout(dragTimer);
    dragTimer = null;
    const moving = !final && panel.pointerDown;
    if (range.value === sentValue && !(movingSent && !moving)) {
      if (drawn && panel.sent[f.id] === PENDING) { delete panel.sent[f.id]; settle(live && live.settled); }
      return;
    }
    sentValue = range.value;
    movingSent = moving;
    const edit = drawn ? { cents: drawn.cents, drawn: drawn.words } : { cents: Number(range.value) * 100 };
    panel.send(f.id, moving ? { ...edit, moving: true } : edit);
  };
  const settle = (settled) => {
    if (!drawn) return;
    if (settled) liveSettle(settled, drawn.words, f.id, drawn.cents);
    drawn = null;
  };
  range.addEventListener("input", () => {
    box.value = Math.round(Number(range.value)).toLocaleString("en-US");
    range.setAttribute("aria-valuetext", money(range.value));
    // This slider's pieces assume every other input as the last run had it. If another slider
    // has moved since (its value drawn or sent, not yet answered), they no longer describe the
    // law here: that move is sent now, without its drawing (drawn for values that no longer
    // stand), and this one is sent as a slider without pieces is, for the run to draw both.
    const fresh = panel.othersAnswered(f.id);
    if (!fresh) panel.flushOthers(f.id);
    if (live && live.routes && fresh) {
      const cents = Number(range.value) * 100;
      const value = liveValue(live, cents);
      const words = liveWords(live, value);
      if (liveDraw(words)) {
        livePanelDraw(live, value, words, cents);
        drawn = { cents, words };
        panel.sent[f.id] = PENDING;   // no run's value replaces the control until this move is sent and answered
        clearTimeout(dragTimer);
        dragTimer = setTimeout(send, 300);
        return;
      }
    }
    if (!panel.pointerDown) send();
    else if (dragTimer === null) dragTimer = setTimeout(send, 150);
  });
  // The release of a drag: its last position. A key press fires it too, where the pause decides.
  range.addEventListener("change", () => { if (!drawn || dragging || movingSent) send(true); dragging = false; });
  range.addEventListener("blur", () => { if (dragTimer !== null || movingSent) send(true); });
  range.addEventListener("pointerdown", () => { dragging = true; });
  range.addEventListener("pointerdown", () => { panel.pointerDown = true; });
  window.addEventListener("pointerup", () => { panel.pointerDown = false; });
  // Typed text is the user's until Enter or leaving the box; then it is checked by the server.
  box.addEventListener("input", () => { panel.typing.add(f.id); });
  const commit = () => {
    if (!panel.typing.has(f.id)) return;
    panel.typing.delete(f.id);
    panel.send(f.id, { text: box.value });
  };
  box.addEventListener("change", commit);
  box.addEventListener("keydown", (e) => { if (e.key === "Enter") commit(); });
  // Another slider has moved: the drawing of this one no longer holds; its value, if not yet
  // sent, goes now (as a plain amount: the server checks no drawing for it).
  const flush = () => {
    if (drawn) { liveClear(); drawn = null; }
    if (dragTimer !== null || panel.sent[f.id] === PENDING) send(true);
  };
  return { wrap, flush, setLive(f) { live = f.live; }, update(f) {
    settle(f.live && f.live.settled);
    range.max = String(f.max);
    range.step = String(f.step);
    range.value = String(Math.min(Math.ceil(f.cents / 100), f.max));
    sentValue = range.value;
    // the amount as the server writes it ("$1,234,567.89"), cents and all
    range.setAttribute("aria-valuetext", f.error ? money(f.cents / 100) : `$${f.text}`);
    wrap.querySelector(".gf-max").textContent = money(f.max);
    if (!panel.typing.has(f.id)) box.value = f.text;
    error.textContent = f.error || "";
    wrap.classList.toggle("gf-has-error", Boolean(f.error));
    if (f.error) {
      box.setAttribute("aria-invalid", "true");
      box.setAttribute("aria-describedby", error.id);
    } else {
      box.removeAttribute("aria-invalid");
      box.removeAttribute("aria-describedby");
    }
  } };
}

function buildSelect(panel, f) {
  const id = `${panel.id}-${f.id}`;
  const wrap = el("div", { class: "gf-field gf-select", "data-field": f.id });
  const select = el("select", { id });
  for (const [value, label] of f.options) select.append(el("option", { value }, label));
  select.addEventListener("change", () => panel.send(f.id, { value: select.value }));
  wrap.append(...labelRow(panel, f, id), select);
  return { wrap, update(f) { select.value = f.value; } };
}

function buildFlag(panel, f) {
  const id = `${panel.id}-${f.id}`;
  const wrap = el("div", { class: `gf-field gf-flag gf-${f.kind}`, "data-field": f.id });
  const box = el("input", { type: "checkbox", id });
  if (f.kind === "switch") { box.setAttribute("role", "switch"); box.classList.add("ui-switch"); }
  box.addEventListener("change", () => panel.send(f.id, { value: box.checked }));
  const parts = labelRow(panel, f, id);
  parts[0].prepend(box);
  wrap.append(...parts);
  return { wrap, update(f) { box.checked = Boolean(f.value); } };
}

// panel.sent's mark for a slider moved but not yet sent.
const PENDING = -1;

const BUILD = { money: buildMoney, select: buildSelect, switch: buildFlag, check: buildFlag };

// The server sends its data as JSON bytes (ui/components/fields_panel.py says why; decode() reads them).
export default function (component) {
  const { parentElement, setStateValue } = component;
  const data = decode(component.data);
  const root = parentElement.querySelector(".gf");
  let panel = root.gf;
  if (!panel) {
    panel = root.gf = {
      id: `gf-${Math.random().toString(36).slice(2, 8)}`,
      rows: new Map(),     // field id -> its controls
      sent: {},            // field id -> number of the last edit sent
      typing: new Set(),   // exact-amount boxes holding text not yet committed
      pointerDown: false,
      count: 0,
    };
    panel.send = (field, edit) => {
      // Numbered so that each edit differs from the last (the server runs a field's handler
      // only on a change) and so that a run's reply can be matched to the newest edit.
      panel.count = (panel.count + 1) % 1000;
      const n = Date.now() * 1000 + panel.count;
      panel.sent[field] = n;
      panel.setStateValue(field, { ...edit, n });
    };
    panel.applied = {};   // field id -> the number of its last edit the last run applied
    // Has the last run seen every edit of the fields other than `fid`? Only then do `fid`'s pieces
    // (made by that run, the others as it had them) describe the law as the screen stands.
    // (A field the last run no longer draws, such as the request once its switch is off, is left out.)
    panel.othersAnswered = (fid) => Object.keys(panel.sent).every((o) => o === fid || !panel.rows.has(o)
                                                                  || panel.sent[o] === panel.applied[o]);
    panel.flushOthers = (fid) => {
      for (const [o, row] of panel.rows) if (o !== fid && row.flush) row.flush();
    };
    const heading = el("h2", { class: "gf-title" });
    root.append(heading);
  }
  panel.setStateValue = setStateValue;
  root.querySelector(".gf-title").textContent = data.title || "";
  root.querySelector(".gf-title").hidden = !data.title;

  const wanted = new Set(data.fields.map((f) => f.id));
  for (const [fid, row] of panel.rows) {
    if (!wanted.has(fid)) { row.wrap.remove(); panel.rows.delete(fid); }
  }
  let before = root.querySelector(".gf-title");
  for (const f of data.fields) {
    let row = panel.rows.get(f.id);
    if (!row) {
      row = BUILD[f.kind](panel, f);
      panel.rows.set(f.id, row);
    }
    if (before.nextSibling !== row.wrap) before.after(row.wrap);
    before = row.wrap;
    // The server's value replaces the control's only once the server has seen the newest edit
    // of that field: a reply to an older edit would pull a held key back (the snap-back).
    panel.applied[f.id] = f.applied;
    if (row.setLive) row.setLive(f);
    if (!(f.id in panel.sent) || f.applied === panel.sent[f.id]) row.update(f);
  }
}
