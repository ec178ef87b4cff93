// The address a visitor asked for, kept through sign-in (ui/addresses.py says how).
// {"write": cookie, "button": class}: writes the signed cookie when that button is pressed
// (a click, or Enter or Space on it), in the capture phase, before Streamlit's own handler asks
// the server to sign in. {"forget": cookie}: deletes the cookie. Nothing is drawn.

function cookieText(c, value, maxAge) {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  return `${c.name}=${value}; Max-Age=${maxAge}; Path=${c.path}; SameSite=Lax${secure}`;
}

export default function (component) {
  const data = decode(component.data);
  if (data.forget) {
    document.cookie = cookieText(data.forget, "", 0);
    return;
  }
  const want = data.write;
  const onClick = (event) => {
    const target = event.target;
    if (target instanceof Element && target.closest(`.${data.button} button`)) {
      document.cookie = cookieText(want, want.value, want.maxAge);
    }
  };
  document.addEventListener("click", onClick, true);
  return () => document.removeEventListener("click", onClick, true);
}
