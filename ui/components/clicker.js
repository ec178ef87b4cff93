// A projector's clicker in presentation mode (ui/present.py): PageDown, ArrowRight, Space and "n"
// press the page's Next (Compare's "Next scenario", else the deck's "Next" page); PageUp and
// ArrowLeft its Previous. Never while a text box, a select or a slider has the focus (the keys
// are theirs then), and Space not on a focused button or link (the browser presses that itself).

const NEXT = new Set(["PageDown", "ArrowRight", " ", "n", "N"]);
const PREVIOUS = new Set(["PageUp", "ArrowLeft"]);

function typing(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], ' +
                                  '[role="slider"], [role="textbox"], [role="combobox"], [role="spinbutton"]'));
}

function control(step) {
  const scenario = document.querySelector(`[class*="cmp_${step === 1 ? "next" : "prev"}"] button`);
  if (scenario && !scenario.disabled) return scenario;
  const word = step === 1 ? "Next" : "Previous";
  return [...document.querySelectorAll(".st-key-present_bar a")].find(a => a.innerText.trim().endsWith(word)) || null;
}

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
  const step = NEXT.has(event.key) ? 1 : PREVIOUS.has(event.key) ? -1 : 0;
  if (!step) return;
  if (event.key === " " && event.target instanceof Element && event.target.closest("button, a")) return;
  const target = control(step);
  if (!target) return;
  event.preventDefault();   // PageDown and Space would scroll instead
  target.click();
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
    root.textContent = "Keys: Page Down, \u2192, Space, N next; Page Up, \u2190 previous (not in a text box or slider)";
  }
}
