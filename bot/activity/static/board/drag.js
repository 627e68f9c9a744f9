// Pointer events for mouse, pen and touch: a press that moves a few pixels picks the card (or the run below a
// face-up card) up and moves it under requestAnimationFrame; a press that does not is a tap. A drop ends in
// the same play a tap on a lit target makes; a drop that asks for nothing flies back (anim.js).


const START_PX = 5;

/**
 * Listen for presses on the table. `controls` gives: `board` (its `drag` is the drag in progress), `canDrag(source)`,
 * `pickUp(drag)` (light the dests), `drop(drag, slotId)`, `tap(element)`.
 */
export function attachPointer(table, controls) {
  let press = null;
  let frame = 0;

  const paint = () => {
    frame = 0;
    const drag = controls.board.drag;
    if (!drag) return;
    for (const el of drag.els) el.style.transform = `translate(${drag.dx}px, ${drag.dy}px)`;
  };

  table.addEventListener("pointerdown", (event) => {
    if (press || (event.pointerType === "mouse" && event.button !== 0)) return;
    const el = event.target.closest(".card, .slot");
    if (!el) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, el, started: false };
    table.setPointerCapture(event.pointerId);
  });

  table.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.started) {
      if (Math.hypot(dx, dy) < START_PX) return;
      const source = press.el.classList.contains("card") ? press.el.dataset.source : null;
      if (!source || !controls.canDrag(source)) return;
      press.started = true;
      controls.board.drag = { source, els: runFrom(press.el), dx, dy };
      for (const el of controls.board.drag.els) el.classList.add("dragging");
      controls.pickUp(controls.board.drag);
    }
    const drag = controls.board.drag;
    if (!drag) return;
    drag.dx = dx;
    drag.dy = dy;
    if (!frame) frame = requestAnimationFrame(paint);
  });

  const finish = (event, cancelled) => {
    if (!press || event.pointerId !== press.id) return;
    const ended = press;
    press = null;
    if (table.hasPointerCapture(event.pointerId)) table.releasePointerCapture(event.pointerId);
    if (!ended.started) {
      if (!cancelled) controls.tap(ended.el);
      return;
    }
    const drag = controls.board.drag;
    if (!drag) return;
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    paint();
    const slotId = cancelled ? null : slotAt(event.clientX, event.clientY);
    controls.drop(drag, slotId);
  };
  table.addEventListener("pointerup", (event) => finish(event, false));
  table.addEventListener("pointercancel", (event) => finish(event, true));
}

/** The pressed card and every card after it in its slot (a pile's run). */
function runFrom(el) {
  const run = [el];
  for (let next = el.nextElementSibling; next; next = next.nextElementSibling) {
    if (next.classList.contains("card")) run.push(next);
  }
  return el.parentElement.classList.contains("pile") ? run : [el];
}

/** The slot under a point (the dragged cards let the pointer through). */
function slotAt(x, y) {
  const under = document.elementFromPoint(x, y);
  const slot = under && under.closest("[data-slot]");
  return slot ? slot.dataset.slot : null;
}
