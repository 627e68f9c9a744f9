// The table's DOM from the board: built once per layout, card elements keyed (a card's notation, or a face-down
// card's place) and reused, so a card that moves is the same element and can glide to its place. Every slot's
// id is the server's; which cards may be picked up follows its `dests`.

import { glide, positions } from "./anim.js";
import { word, speechVersion } from "../speech.js";
import { STOCK, SUITS, canMoveFrom, cardWords, hasPiles, isLegal, rankOf, suitOf } from "./board.js";

const cards = new Map(); // key -> element
let built = null; // the layout the table was built for

/** Draw the board's table (its slots, cards and lights) into `table`. */
export function renderBoard(board, table) {
  const game = board.game;
  const slots = `${game.waste_id}:${game.tableau.map((p) => p.id)}:${game.foundations.map((f) => f.id)}`;
  const layout = `${game.family}:${slots}:${speechVersion()}`; // new words: the slots' labels again
  if (built !== layout) buildTable(table, game, layout);
  table.classList.toggle("four-colour", Boolean(game.four_colour));
  const first = positions(cards);
  const used = new Set();
  const place = (slotEl, list) => placeCards(slotEl, list, used);
  renderStock(game, table, place);
  renderWaste(board, table, place);
  renderFoundations(board, table, place);
  renderPiles(board, table, place);
  for (const [key, el] of cards) {
    if (!used.has(key)) {
      el.remove();
      cards.delete(key);
    }
  }
  for (const slotEl of table.querySelectorAll("[data-slot]")) {
    slotEl.classList.toggle("lit", board.lit.has(slotEl.dataset.slot));
  }
  glide(cards, first);
}

function buildTable(table, game, layout) {
  table.replaceChildren();
  for (const el of cards.values()) el.remove();
  cards.clear();
  built = layout;
  table.className = `table ${game.family}`;
  const waste = game.waste_id;
  const top = div("top-row");
  const stock = slot(STOCK, { label: word("stock"), cls: "stock" });
  top.append(stock, slot(waste, { label: word("waste"), cls: "waste", source: waste }));
  top.append(div("spacer"));
  if (hasPiles(game)) {
    for (const f of game.foundations) top.append(foundation(f, false));
    const piles = div("piles");
    for (const pile of game.tableau) {
      piles.append(slot(pile.id, { label: word("pile", { id: pile.id }), cls: "pile", source: pile.id }));
    }
    table.append(top, piles);
  } else {
    const row = div("foundations13");
    for (const f of game.foundations) row.append(foundation(f, true));
    table.append(top, row);
  }
}

/** A foundation's slot: a source where the server says its card may be picked up; in a row, what it takes. */
function foundation(f, inRow) {
  const label = word("foundation", { label: f.label });
  const el = slot(f.id, { label, cls: "foundation", source: f.source ? f.id : null });
  el.dataset.mark = SUITS[f.label] || f.label;
  if (inRow) {
    const takes = document.createElement("span");
    takes.className = "takes";
    el.append(takes);
  }
  return el;
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

function slotEl(table, id) {
  return table.querySelector(`[data-slot="${CSS.escape(id)}"]`);
}

function renderStock(game, table, place) {
  const el = slotEl(table, STOCK);
  place(el, game.stock ? [{ key: "back-stock", card: null, y: 0 }] : []);
  el.dataset.count = String(game.stock);
  el.classList.toggle("empty", game.stock === 0);
  el.classList.toggle("dim", !isLegal(game, "draw"));
  const count = { count: game.stock };
  el.setAttribute("aria-label", isLegal(game, "draw") ? word("stock_cards_draw", count) : word("stock_cards", count));
}

function renderWaste(board, table, place) {
  const game = board.game;
  const id = game.waste_id;
  const el = slotEl(table, id);
  const fan = game.waste;
  const list = fan.map((card, i) => ({
    key: card,
    card,
    x: i,
    source: i === fan.length - 1 && !game.over ? id : null,
    selected: board.selected === id && i === fan.length - 1,
  }));
  place(el, list);
  el.dataset.count = String(game.waste_count);
  const top = fan.length ? cardWords(fan[fan.length - 1]) : null;
  el.setAttribute("aria-label", top ? word("waste_card", { card: top }) : word("waste_empty"));
}

function renderFoundations(board, table, place) {
  const game = board.game;
  for (const f of game.foundations) {
    const el = slotEl(table, f.id);
    const source = f.source && f.top && !game.over && canMoveFrom(game, f.id) ? f.id : null;
    place(el, f.top ? [{ key: f.top, card: f.top, source, selected: board.selected === f.id }] : []);
    const takes = el.querySelector(".takes");
    if (takes) {
      takes.textContent = f.takes ? word("takes", { rank: f.takes === "T" ? "10" : f.takes }) : word("locked");
      el.classList.toggle("locked", !f.takes);
    }
    const label = f.top ? word("foundation_card", { label: f.label, card: cardWords(f.top) }) : null;
    el.setAttribute("aria-label", label || word("foundation_empty", { label: f.label }));
  }
}

function renderPiles(board, table, place) {
  const game = board.game;
  for (const pile of game.tableau) {
    const id = pile.id;
    const el = slotEl(table, id);
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
        selected: board.selected === id,
      });
    });
    fitPile(el, pile);
    place(el, list);
    const top = pile.up.length ? cardWords(pile.up[pile.up.length - 1]) : (pile.hidden ? word("face_down") : word("empty"));
    const fields = { id, top, count: pile.hidden };
    el.setAttribute("aria-label", pile.hidden ? word("pile_hidden", fields) : word("pile_card", fields));
  }
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
    const wanted = previous ? previous.nextSibling : slotEl.firstChild;
    if (el.parentNode !== slotEl || wanted !== el) slotEl.insertBefore(el, wanted);
    previous = el;
  }
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

function div(cls) {
  const el = document.createElement("div");
  el.className = cls;
  return el;
}
