// The board's motion: a move glides its cards from where they were (FLIP), a refused drop flies back; none at all
// when the player asks for reduced motion.

const MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Whether animations are allowed (the player has not asked for reduced motion). */
export function motionAllowed() {
  return !MOTION.matches;
}

/** Where each connected card element is now (before a render moves them), or null when motion is off. */
export function positions(cards) {
  if (!motionAllowed()) return null;
  const first = new Map();
  for (const [key, el] of cards) if (el.isConnected) first.set(key, el.getBoundingClientRect());
  return first;
}

/** Glide the cards that moved since `first` (positions) to their new places; without `first`, just settle them. */
export function glide(cards, first) {
  if (!first) {
    for (const el of cards.values()) el.style.transform = "";
    return;
  }
  const moving = [];
  for (const [key, el] of cards) {
    el.style.transition = "";
    el.style.transform = "";
    const before = first.get(key);
    if (!before) continue;
    const after = el.getBoundingClientRect();
    const dx = before.left - after.left;
    const dy = before.top - after.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.style.transform = `translate(${dx}px, ${dy}px)`;
    el.classList.add("gliding");
    moving.push(el);
  }
  if (!moving.length) return;
  void document.body.offsetWidth;
  for (const el of moving) {
    el.style.transition = "transform 160ms ease-out";
    el.style.transform = "";
    el.addEventListener("transitionend", () => settle(el), { once: true });
    setTimeout(() => settle(el), 260);
  }
}

function settle(el) {
  el.classList.remove("gliding");
  el.style.transition = "";
}

/** Send dragged cards back to their places: a short glide (none when the player asks for reduced motion). */
export function flyBack(els) {
  for (const el of els) {
    el.classList.remove("dragging");
    if (!motionAllowed() || !el.style.transform) {
      el.style.transform = "";
      continue;
    }
    el.classList.add("gliding");
    el.style.transition = "transform 180ms ease-out";
    void el.offsetWidth;
    el.style.transform = "";
    const done = () => {
      el.classList.remove("gliding");
      el.style.transition = "";
    };
    el.addEventListener("transitionend", done, { once: true });
    setTimeout(done, 260);
  }
}

/** Let go of dragged cards that the next render places (its glide starts where they were dropped). */
export function letGo(els) {
  for (const el of els) el.classList.remove("dragging");
}
