// Put before the script of each of the app's custom elements (ui/elements.py): Streamlit loads
// each element's script as a module of its own from a blob: URL, so they cannot import a shared one.

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// A run's data: JSON bytes (the Python side sends bytes, forwarded as they are), or text.
function decode(data) {
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return JSON.parse(new TextDecoder().decode(data));
  return typeof data === "string" ? JSON.parse(data) : data;
}

// Whether `value` differs from what was last recorded under `key` in `memo` (as JSON), recording
// it: a run resends every part of an element, and only what a move changed is drawn again.
function changed(memo, key, value) {
  const text = JSON.stringify(value);
  if (memo[key] === text) return false;
  memo[key] = text;
  return true;
}
