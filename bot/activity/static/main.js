// Wires the page: sign in through Discord, open the socket, and hand everything the server says to the one
// controller (app/controller.js), which shows it through the views (app/page.js).

import { flyBack, letGo } from "./board/anim.js";
import { installApi } from "./app/api.js";
import { Controller } from "./app/controller.js";
import { draw, findDom, tick } from "./app/page.js";
import { wire } from "./app/input.js";
import { signIn } from "./discord.js";
import { routerOf } from "./route.js";
import { Connection, socketUrl } from "./socket.js";
import { applyWords, setSpeech, word } from "./speech.js";

const TICK_MS = 250;

/** The words the page was served with (its browser's language, until the welcome says its player's). */
function firstSpeech(doc) {
  try {
    return JSON.parse(doc.getElementById("speech").textContent);
  } catch {
    return null;
  }
}

async function start() {
  setSpeech(firstSpeech(document));
  applyWords(document);
  const dom = findDom(document);
  const ui = {
    draw: () => draw(controller.state, dom),
    retell: () => applyWords(document),
    flyBack,
    letGo,
    focus: (id) => document.getElementById(id).focus(),
  };
  const controller = new Controller(ui);
  wire(controller, dom, document);
  setInterval(() => tick(controller.state, dom), TICK_MS);
  installApi(controller, window);
  ui.draw();
  const clientId = document.querySelector('meta[name="discord-client-id"]').content;
  let hello;
  try {
    ({ hello } = await signIn(clientId, new URL("api/token", document.baseURI).toString()));
  } catch (error) {
    controller.say(word("sign_in_failed", { reason: error.message || String(error) }), true);
    return;
  }
  controller.say(word("connecting_game"));
  const handlers = {
    welcome: (frame, again) => controller.welcome(frame, again),
    push: (frame) => controller.push(frame),
    status: (words) => controller.say(words),
    closed: (reason) => controller.say(reason),
  };
  controller.connection = new Connection(socketUrl(document.baseURI), hello, handlers, routerOf(document));
  controller.connection.open();
}

start();
