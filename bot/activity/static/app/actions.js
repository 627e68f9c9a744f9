// The buttons of the menu, the race screen and the result, acted on through the controller `c`: a request whose
// answer its handler shows, or (Watch, Open, the standings, the steps of leaving) a screen the page shows itself.

import { menuRace, raceRequest } from "./races.js";
import { challengeRequest } from "./views/challenges.js";

/** A button's `action` (`data`: its data attributes; `form`: the menu's fields, `deal`, `variant`, `racers`). */
export function menuAction(c, action, data, form) {
  if (action.startsWith("race-")) return raceAction(c, action, data, form);
  if (action === "resume" || action === "menu") return c.ask({ type: action });
  const back = (answer) => {
    if (answer.type === "refused") c.ask({ type: "menu" }); // the menu was out of date (played elsewhere)
  };
  if (action === "challenge") return c.ask(challengeRequest(data)).then(back);
  if (action === "start") {
    const deal = data.kind === "practice" && form.deal ? Number(form.deal) : null;
    return c.ask({ type: "start", variant: data.variant, kind: data.kind, deal }).then(back);
  }
  return undefined;
}

/** A race button: one the page answers itself, or a request answered by the race (shown). */
async function raceAction(c, action, data, form) {
  if (raceLocal(c, action, data)) return c.ui.draw();
  const request = raceRequest(action, data, form);
  const answer = await c.ask(request);
  c.state.leaving = false;
  const closed = answer.type === "race" && ["lobby", "cancelled"].includes(answer.race.status);
  if (closed && (request.type === "race_leave" || request.type === "race_cancel")) c.ask({ type: "menu" });
  else c.ui.draw();
  return undefined;
}

/** Watch or Open a race of the menu, the standings from beside the board, the two steps of leaving; whether one. */
function raceLocal(c, action, data) {
  const state = c.state;
  if (action === "race-show") {
    const race = menuRace(state.menu, Number(data.race));
    if (race) {
      state.race = race;
      state.leaving = false;
      c.show("race");
    }
  } else if (action === "race-standings" && state.race) {
    state.leaving = false;
    c.show("race");
  } else if (action === "race-leave-ask") state.leaving = true;
  else if (action === "race-keep") state.leaving = false;
  else return action === "race-standings";
  return true;
}
