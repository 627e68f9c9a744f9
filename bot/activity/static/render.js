// The DOM from the state: the table is built once per family, card elements are keyed (a card's notation, or
// a face-down card's place) and reused, so a card that moves is the same element and can glide to its place.

import { menuRacesHtml } from "./race.js";
import {
  SUITS,
  canMoveFrom,
  foundationSlot,
  formatClock,
  isLegal,
  passWords,
  rankOf,
  secondsLeft,
  suitOf,
} from "./board.js";
import { challengesHtml } from "./challenges.js";

const MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");
const cards = new Map(); // key -> element
let builtFamily = null;

/** Whether animations are allowed (the player has not asked for reduced motion). */
export function motionAllowed() {
  return !MOTION.matches;
}

/** Draw every screen from the state. */
export function render(state, dom) {
  dom.app.dataset.screen = state.screen;
  dom.status.textContent = state.status || "";
  dom.status.hidden = !state.status;
  renderToast(state, dom);
  dom.confirm.hidden = !state.confirming;
  if (state.screen === "menu") renderMenu(state, dom);
  if (state.screen !== "game" || !state.game) {
    dom.result.hidden = true;
    return;
  }
  renderTopbar(state, dom);
  renderToolbar(state, dom);
  renderTable(state, dom);
  renderResult(state, dom);
}

/** The clock alone (redrawn a few times a second). */
export function renderClock(state, dom) {
  const left = secondsLeft(state.game, state.clock, performance.now());
  dom.clock.textContent = formatClock(left);
  dom.clock.classList.toggle("low", left != null && left < 30);
}

function renderTopbar(state, dom) {
  const game = state.game;
  dom.title.textContent = game.title;
  dom.score.textContent = String(game.score);
  const pass = passWords(game);
  dom.pass.hidden = !pass;
  dom.pass.textContent = pass ? `${pass} · stock ${game.stock}` : "";
  dom.words.textContent = state.words || "";
  renderClock(state, dom);
}

function renderToolbar(state, dom) {
  const game = state.game;
  const playing = !game.over;
  dom.buttons.draw.disabled = !playing || !isLegal(game, "draw");
  dom.buttons.undo.disabled = !playing || !game.can_undo;
  dom.buttons.allup.disabled = !playing || game.family !== "klondike";
  dom.buttons.allup.hidden = game.family !== "klondike";
  dom.buttons.hint.hidden = !game.hints;
  dom.buttons.hint.disabled = !playing || !game.hints;
  dom.buttons.end.disabled = !playing;
}

function renderToast(state, dom) {
  dom.toast.hidden = !state.toast;
  dom.toast.textContent = state.toast || "";
}

// -- the table ------------------------------------------------------------------------------------------------

function renderTable(state, dom) {
  const game = state.game;
  if (builtFamily !== game.family) buildTable(dom.table, game);
  dom.table.classList.toggle("four-colour", Boolean(game.four_colour));
  const first = motionAllowed() ? positions() : null;
  const used = new Set();
  const place = (slotEl, list) => placeCards(slotEl, list, used);
  renderStock(state, dom.table, place);
  renderWaste(state, dom.table, place);
  renderFoundations(state, dom.table, place);
  if (game.family === "klondike") renderPiles(state, dom.table, place);
  for (const [key, el] of cards) {
    if (!used.has(key)) {
      el.remove();
      cards.delete(key);
    }
  }
  for (const slotEl of dom.table.querySelectorAll("[data-slot]")) {
    slotEl.classList.toggle("lit", state.lit.has(slotEl.dataset.slot));
  }
  if (first) glide(first);
  else for (const el of cards.values()) el.style.transform = "";
}

function buildTable(table, game) {
  table.replaceChildren();
  for (const el of cards.values()) el.remove();
  cards.clear();
  builtFamily = game.family;
  table.className = `table ${game.family}`;
  const top = div("top-row");
  top.append(slot("stock", { label: "stock", cls: "stock" }), slot("w", { label: "waste", cls: "waste", source: "w" }));
  if (game.family === "klondike") {
    top.append(div("spacer"));
    for (const f of game.foundations) {
      const id = foundationSlot(game, f);
      const el = slot(id, { label: `${f.label} foundation`, cls: "foundation", source: id });
      el.dataset.mark = SUITS[f.label] || f.label;
      top.append(el);
    }
    const piles = div("piles");
    for (let i = 1; i <= 7; i += 1) piles.append(slot(String(i), { label: `pile ${i}`, cls: "pile", source: String(i) }));
    table.append(top, piles);
  } else {
    top.append(div("spacer"));
    const found = div("foundations13");
    for (const f of game.foundations) {
      const el = slot(foundationSlot(game, f), { label: `${f.label} foundation`, cls: "foundation" });
      el.dataset.mark = f.label;
      const takes = document.createElement("span");
      takes.className = "takes";
      el.append(takes);
      found.append(el);
    }
    table.append(top, found);
  }
}

function slot(id, { label, cls, source }) {
  const el = div(`slot ${cls}`);
  el.dataset.slot = id;
  if (source) el.dataset.source = source;
  el.tabIndex = 0;
  el.setAttribute("role", "button");
  el.dataset.label = label;
  el.setAttribute("aria-label", label);
  return el;
}

function renderStock(state, table, place) {
  const game = state.game;
  const el = table.querySelector('[data-slot="stock"]');
  const list = game.stock ? [{ key: "back-stock", card: null, y: 0 }] : [];
  place(el, list);
  el.dataset.count = String(game.stock);
  el.classList.toggle("empty", game.stock === 0);
  el.classList.toggle("dim", !isLegal(game, "draw"));
  el.setAttribute("aria-label", `stock, ${game.stock} cards${isLegal(game, "draw") ? ", draw" : ""}`);
}

function renderWaste(state, table, place) {
  const game = state.game;
  const el = table.querySelector('[data-slot="w"]');
  const fan = game.waste;
  const canMove = !game.over;
  const list = fan.map((card, i) => ({
    key: card,
    card,
    x: i,
    source: i === fan.length - 1 && canMove ? "w" : null,
    selected: state.selected === "w" && i === fan.length - 1,
  }));
  place(el, list);
  el.dataset.count = String(game.waste_count);
  el.setAttribute("aria-label", `waste, ${fan.length ? cardWords(fan[fan.length - 1]) : "empty"}`);
}

function renderFoundations(state, table, place) {
  const game = state.game;
  for (const f of game.foundations) {
    const id = foundationSlot(game, f);
    const el = table.querySelector(`[data-slot="${CSS.escape(id)}"]`);
    const source = game.family === "klondike" && f.top && !game.over && canMoveFrom(game, id) ? id : null;
    place(el, f.top ? [{ key: f.top, card: f.top, source, selected: state.selected === id }] : []);
    if (game.family !== "klondike") {
      const takes = el.querySelector(".takes");
      takes.textContent = f.takes ? `takes ${f.takes === "T" ? "10" : f.takes}` : "locked";
      el.classList.toggle("locked", !f.takes);
    }
    el.setAttribute("aria-label", `${f.label} foundation, ${f.top ? cardWords(f.top) : "empty"}`);
  }
}

function renderPiles(state, table, place) {
  const game = state.game;
  game.tableau.forEach((pile, i) => {
    const id = String(i + 1);
    const el = table.querySelector(`[data-slot="${id}"]`);
    const list = [];
    for (let j = 0; j < pile.hidden; j += 1) list.push({ key: `back-${id}-${j}`, card: null, down: j, up: 0 });
    pile.up.forEach((card, j) => {
      list.push({
        key: card,
        card,
        down: pile.hidden,
        up: j,
        source: game.over ? null : id,
        index: j,
        selected: state.selected === id,
      });
    });
    fitPile(el, pile);
    place(el, list);
    const top = pile.up.length ? cardWords(pile.up[pile.up.length - 1]) : pile.hidden ? "face down" : "empty";
    el.setAttribute("aria-label", `pile ${id}, ${top}${pile.hidden ? `, ${pile.hidden} hidden` : ""}`);
  });
}

/** Squeeze a tall pile's fan so its last card stays on the table. */
function fitPile(el, pile) {
  const height = el.clientHeight;
  const cardHeight = el.clientWidth * 1.4;
  const style = getComputedStyle(el);
  const down = parseFloat(style.getPropertyValue("--down-step")) * cardHeight;
  const up = parseFloat(style.getPropertyValue("--up-step")) * cardHeight;
  let downStep = down;
  let upStep = up;
  const needed = cardHeight + pile.hidden * down + Math.max(0, pile.up.length - 1) * up;
  if (height > cardHeight && needed > height) {
    const room = height - cardHeight;
    const weight = pile.hidden * down + Math.max(0, pile.up.length - 1) * up;
    downStep = (down * room) / weight;
    upStep = (up * room) / weight;
  }
  el.style.setProperty("--down-px", `${downStep}px`);
  el.style.setProperty("--up-px", `${upStep}px`);
}

/** Put the listed cards into `slotEl` in order, reusing each key's element. */
function placeCards(slotEl, list, used) {
  let previous = null;
  for (const item of list) {
    const el = cardElement(item);
    used.add(item.key);
    el.style.setProperty("--down", String(item.down || 0));
    el.style.setProperty("--up", String(item.up || 0));
    el.style.setProperty("--x", String(item.x || 0));
    el.style.zIndex = "";
    if (item.source) el.dataset.source = item.source;
    else delete el.dataset.source;
    if (item.index != null) el.dataset.index = String(item.index);
    else delete el.dataset.index;
    el.classList.toggle("selected", Boolean(item.selected));
    el.classList.toggle("movable", Boolean(item.source));
    const wanted = previous ? previous.nextSibling : firstCardSpot(slotEl);
    if (el.parentNode !== slotEl || wanted !== el) slotEl.insertBefore(el, wanted);
    previous = el;
  }
}

function firstCardSpot(slotEl) {
  return slotEl.firstChild;
}

function cardElement({ key, card }) {
  let el = cards.get(key);
  if (el) return el;
  el = div(card ? `card face suit-${suitOf(card)}` : "card back");
  el.dataset.key = key;
  if (card) {
    el.dataset.card = card;
    const rank = rankOf(card);
    const symbol = SUITS[suitOf(card)];
    el.innerHTML = `<span class="corner"><b>${rank}</b><i>${symbol}</i></span><span class="pip">${symbol}</span>`;
    el.setAttribute("aria-label", cardWords(card));
  }
  cards.set(key, el);
  return el;
}

/** A card in words for screen readers ("10 of clubs"). */
export function cardWords(card) {
  const names = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const ranks = { A: "ace", J: "jack", Q: "queen", K: "king" };
  const rank = rankOf(card);
  return `${ranks[rank] || rank} of ${names[suitOf(card)]}`;
}

// -- moves glide (FLIP) ---------------------------------------------------------------------------------------

function positions() {
  const first = new Map();
  for (const [key, el] of cards) if (el.isConnected) first.set(key, el.getBoundingClientRect());
  return first;
}

function glide(first) {
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

// -- menu and result ------------------------------------------------------------------------------------------

function renderMenu(state, dom) {
  const menu = state.menu || { running: null, variants: [], daily: null };
  const parts = [`<h2>Solitaire Rush</h2>`];
  if (state.user) parts.push(`<p class="hello">Hello, ${escape(state.user.name)}</p>`);
  if (menu.running) {
    parts.push(
      `<button type="button" class="big resume" data-action="resume">Resume ${escape(menu.running.title)}` +
        ` <small>score ${menu.running.score}</small></button>`,
    );
  }
  parts.push(challengesHtml(menu.challenges, state.user, escape));
  if (state.practiceOnly) {
    parts.push(`<h3>Practice</h3><p class="note">Games here are practice: nothing is ranked.</p>`);
    parts.push(`<label class="deal">Deal number <input id="practice-deal" type="number" min="1" inputmode="numeric" placeholder="any"></label>`);
    parts.push(`<div class="choices">${menu.variants.map((v) => startButton(v, "practice")).join("")}</div>`);
  } else {
    parts.push(`<h3>New game</h3><div class="choices">${menu.variants.map((v) => startButton(v, "casual")).join("")}</div>`);
  }
  parts.push(menuRacesHtml(menu, state.practiceOnly));
  if (menu.daily) {
    const played = new Set(menu.daily.played);
    parts.push(`<h3>Today's daily <small>${escape(menu.daily.date)}</small></h3><div class="choices">`);
    for (const v of menu.variants) {
      const done = played.has(v.name);
      parts.push(
        `<button type="button" data-action="start" data-kind="daily" data-variant="${escape(v.name)}"` +
          `${done ? " disabled" : ""}>${escape(v.title)}${done ? " <small>✓ played</small>" : ""}</button>`,
      );
    }
    parts.push(`</div>`);
  }
  const html = parts.join("");
  if (dom.menu.dataset.html !== html) {
    dom.menu.innerHTML = html;
    dom.menu.dataset.html = html;
  }
}

function sheetLine(line) {
  const [label, points] = Array.isArray(line) ? line : [line, ""];
  return `<li><span>${escape(label)}</span><b>${escape(points)}</b></li>`;
}

function startButton(variant, kind) {
  return (
    `<button type="button" data-action="start" data-kind="${kind}" data-variant="${escape(variant.name)}">` +
    `${escape(variant.title)}</button>`
  );
}

function renderResult(state, dom) {
  const game = state.game;
  dom.result.hidden = !game.over;
  if (!game.over) return;
  const status = { won: "You won!", stuck: "No more moves", expired: "Time's up", ended: "Game ended" };
  const lines = game.sheet.map(sheetLine).join("");
  const html =
    `<div class="result-box"><h2>${escape(status[game.status] || game.status)}</h2>` +
    `<p class="final-score">Score <b>${game.score}</b></p>` +
    (lines ? `<ul class="sheet">${lines}</ul>` : "") +
    `<p class="deal-words">${escape(game.title)}: ${escape(game.deal || "")}</p>` +
    (game.kind === "race" ? `<p class="note">The race's results show here once every racer is done.</p>` : "") +
    `<button type="button" class="big" data-action="menu">Back to menu</button></div>`;
  if (dom.result.dataset.html !== html) {
    dom.result.innerHTML = html;
    dom.result.dataset.html = html;
  }
}

function div(cls) {
  const el = document.createElement("div");
  el.className = cls;
  return el;
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
