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

const TICK_MS = 250;

async function start() {
  const dom = findDom(document);
  const ui = {
    draw: () => draw(controller.state, dom),
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
    controller.say(`Could not sign in through Discord: ${error.message || error}`, true);
    return;
  }
  controller.say("Connecting to the game…");
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
