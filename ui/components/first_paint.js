// The award first (ui/components/first_paint.py): once the award drawn with this element has been
// painted, ask for the whole page. A frame, then a task: the paint has happened. A page opened in a
// background tab gets no frames; its timer (throttled to a second there) asks instead.
export default function (component) {
  const { setStateValue } = component;
  let asked = false;
  const ask = () => { if (!asked) { asked = true; setStateValue("painted", true); } };
  requestAnimationFrame(() => window.setTimeout(ask, 0));
  window.setTimeout(ask, 1000);
}
