// Quick match from the lobby: wait in a variant's queue for a table of that many players (the
// free seats going to bots after the wait chosen, if one is), then go to the game's page.

import { deleteJSON, getJSON, postJSON, problemWords } from "../shared/api.js";
import { variantTitle } from "../shared/names.js";
import { TOKEN_KEY, chooseFrom, defaultLevel, forgetStalePlayer, player } from "./solo.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;
const waiting = { token: "", variant: "", timer: null };

function say(text, kind = "") {
  $("quick-message").className = `message ${kind}`.trim();
  $("quick-message").textContent = text;
}

function seated(gameId) {
  sessionStorage.setItem(TOKEN_KEY, waiting.token);
  location.assign(`/games/${gameId}/watch`);
}

function showWaiting(entry) {
  $("quick-join").disabled = true;
  $("quick-leave").hidden = false;
  const others = entry.queue_length - 1;
  say(`Waiting for a table of ${variantTitle(entry.variant)}: ${others} other ${others === 1 ? "player" : "players"} in the queue.`);
}

function stopWaiting(text, kind = "") {
  clearTimeout(waiting.timer);
  waiting.variant = "";
  $("quick-join").disabled = false;
  $("quick-leave").hidden = true;
  say(text, kind);
}

// Where the entry stands now: still waiting (asked again soon) or seated (off to the game).
async function poll() {
  let entries;
  try {
    entries = await getJSON("/matchmaking/queue", waiting.token);
  } catch (error) {
    stopWaiting(problemWords(error.problem), "error");
    return;
  }
  const entry = entries.find((e) => e.variant === waiting.variant);
  if (!entry) return stopWaiting("You are not in the queue any more.");
  if (entry.status === "matched") return seated(entry.game_id);
  showWaiting(entry);
  waiting.timer = setTimeout(poll, POLL_MS);
}

async function join(variant) {
  const seats = Number($("quick-seats").value);
  const wait = $("quick-wait").value;
  const body = { variant: variant.id, min_seats: seats, max_seats: seats };
  if (wait !== "") body.bots = { after: Number(wait), level: defaultLevel(variant.bot_levels) };
  waiting.token = await player($("quick-name").value.trim());
  waiting.variant = variant.id;
  let entry;
  try {
    entry = await postJSON("/matchmaking/queue", body, waiting.token);
  } catch (error) {
    if (error.problem && error.problem.code === "already_queued") return poll(); // waiting still (a page reloaded)
    throw error;
  }
  if (entry.status === "matched") return seated(entry.game_id);
  showWaiting(entry);
  waiting.timer = setTimeout(poll, POLL_MS);
}

export function startQuickMatch(variants) {
  const chooser = $("quick-variant");
  const byId = chooseFrom(variants, chooser, $("quick-name"), $("quick-join"));
  if (!byId) return;
  const showSeats = () => {
    const variant = byId.get(chooser.value);
    const seats = $("quick-seats");
    seats.min = variant.min_players;
    seats.max = variant.max_players;
    if (!(Number(seats.value) >= variant.min_players && Number(seats.value) <= variant.max_players)) seats.value = variant.min_players;
  };
  showSeats();
  chooser.onchange = showSeats;
  $("quick").onsubmit = async (event) => {
    event.preventDefault();
    $("quick-join").disabled = true;
    say("Joining the queue…");
    try {
      await join(byId.get(chooser.value));
    } catch (error) {
      forgetStalePlayer(error);
      stopWaiting(problemWords(error.problem), "error");
    }
  };
  $("quick-leave").onclick = async () => {
    clearTimeout(waiting.timer);
    try {
      await deleteJSON(`/matchmaking/queue/${encodeURIComponent(waiting.variant)}`, waiting.token);
      stopWaiting("You left the queue.");
    } catch (error) {
      if (error.problem && error.problem.code === "not_queued") await poll(); // seated meanwhile
      else stopWaiting(problemWords(error.problem), "error");
    }
  };
}
