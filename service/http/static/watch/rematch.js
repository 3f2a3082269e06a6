// A finished game's rematch on its page: where it stands, the offer, accept and decline buttons
// for a person seated there, and once it is made the link to the new game ("rematch: <id>"),
// which a page showing the last event goes to by itself if it was made while the page was open
// (a replay of an old game stays where it is).

import { deleteJSON, getJSON, postJSON, problemWords } from "../shared/api.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 3000;

function names(summary, ids) {
  return ids.map((id) => (summary.seats.find((s) => s.player_id === id) || { name: id }).name).join(", ");
}

function words(rematch, summary, mine) {
  if (rematch.status === "made") return "The rematch was made.";
  if (rematch.status === "declined") return `${names(summary, [rematch.declined_by])} declined the rematch.`;
  if (rematch.status === "none") return mine ? "Play again? Offer a rematch: everyone moves one seat on." : "Nobody has offered a rematch yet.";
  return `${names(summary, [rematch.offered_by])} offered a rematch; waiting for ${names(summary, rematch.waiting_for)}.`;
}

// ``page``: { gameId, summary(), token(), seat(), following() } read from the game's page.
export function rematchPanel(page) {
  let timer = null;
  let started = false;
  let seenOpen = false; // made while this page was open: a page at the last event goes there

  function show(rematch) {
    const summary = page.summary();
    const me = page.seat() === null ? null : summary.seats.find((s) => s.seat === page.seat());
    const mine = Boolean(me) && !me.bot;
    $("rematch-panel").hidden = false;
    $("rematch-status").textContent = words(rematch, summary, mine);
    const open = rematch.status === "none" || rematch.status === "offered";
    const said = rematch.accepted.includes(me && me.player_id);
    $("rematch-offer").hidden = !mine || !open || said;
    $("rematch-offer").textContent = rematch.status === "none" ? "Offer a rematch" : "Accept the rematch";
    $("rematch-decline").hidden = !mine || rematch.status !== "offered";
    $("rematch-decline").textContent = said ? "Withdraw the offer" : "Decline";
    const link = $("rematch-link");
    link.hidden = !rematch.new_game_id;
    if (rematch.new_game_id) {
      link.href = `/games/${rematch.new_game_id}/watch`;
      link.textContent = `rematch: ${rematch.new_game_id}`;
      if (seenOpen && page.following()) location.assign(link.href);
    }
    seenOpen = seenOpen || rematch.status !== "made";
    return rematch.status === "made" || rematch.status === "declined";
  }

  async function look() {
    clearTimeout(timer);
    try {
      const done = show(await getJSON(`/games/${page.gameId}/rematch`));
      if (!done) timer = setTimeout(look, POLL_MS);
    } catch (error) {
      $("rematch-status").textContent = problemWords(error.problem);
      timer = setTimeout(look, POLL_MS);
    }
  }

  async function answer(call) {
    $("rematch-message").textContent = "";
    try {
      show(await call());
    } catch (error) {
      $("rematch-message").textContent = problemWords(error.problem);
    }
    look();
  }

  $("rematch-offer").onclick = () => answer(() => postJSON(`/games/${page.gameId}/rematch`, {}, page.token()));
  $("rematch-decline").onclick = () => answer(() => deleteJSON(`/games/${page.gameId}/rematch`, page.token()));

  // Called whenever the page has read the game again: a finished game starts the panel.
  return function update() {
    const summary = page.summary();
    if (started || !summary || summary.status !== "finished") return;
    started = true;
    look();
  };
}
