// Keys the whole page answers (ui/components/keys.py says which). Nothing is drawn.
// - Ctrl+Z (Cmd+Z on a Mac) presses the Calculator's Undo, Ctrl+Shift+Z (Cmd+Shift+Z) its Redo,
//   as a spreadsheet does, except in a text box, where the keys undo typing as they always do.
// - Enter in the "Law as of" box applies the day typed there. Streamlit's date field takes a typed
//   day only when the focus leaves it, and Enter opened its calendar instead, which then swallowed
//   the next click: here Enter leaves the box (the day is taken), and the focus comes back to it.

const TEXT_TYPES = new Set(["text", "search", "email", "url", "tel", "password", "number", "date"]);

function isTextBox(t) {
  return t instanceof Element && (t.isContentEditable || t.tagName === "TEXTAREA"
    || (t.tagName === "INPUT" && TEXT_TYPES.has((t.getAttribute("type") || "text").toLowerCase())));
}

// The Streamlit button with `key` ("w:undo": class st-key-w-undo), if it may be pressed.
function button(key) {
  const b = document.querySelector(`.st-key-${key.replace(":", "-")} button`);
  return b && !b.disabled ? b : null;
}

export default function () {
  const onKey = (e) => {
    if (e.isComposing || e.defaultPrevented) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "z") {
      if (isTextBox(e.target)) return;
      const b = button(e.shiftKey ? "w:redo" : "w:undo");
      if (b) { e.preventDefault(); b.click(); }
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && e.target instanceof HTMLElement
        && e.target.closest(".st-key-w-as_of") && e.target.getAttribute("role") === "spinbutton") {
      const box = e.target;
      e.preventDefault();
      e.stopPropagation();
      box.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", code: "Escape", bubbles: true }));
      box.blur();   // the date field takes the typed day when its box loses the focus
      window.setTimeout(() => { box.focus({ preventScroll: true }); }, 0);
    }
  };
  document.addEventListener("keydown", onKey, true);
  return () => document.removeEventListener("keydown", onKey, true);
}
