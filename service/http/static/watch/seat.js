// The seated player on a game's page: the token kept for this tab, who it makes the caller, the
// hand and the moves it may send, and the receipt of each move sent.

import { postJSON, problemWords } from "../shared/api.js";
import { clear, el } from "../shared/dom.js";
import { renderPlay } from "../table/play.js";
import { perspectiveAfterToken } from "./perspectives.js";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "cardledger-token";

export function storedToken() {
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

// ``page``: { gameId, state, who(), message(), addEvent(), identify(), perspectiveOptions(),
// setPerspective(), seen(), refresh(), follow() } from the game's page; ``page.state`` is its own,
// read and written here.
export function seatPanel(page) {
  const state = page.state;

  function renderMine() {
    const whoami = $("whoami");
    const play = $("play");
    $("forget").hidden = !state.token;
    if (!state.me) {
      whoami.textContent = state.token ? "" : "Watching as a spectator. A player enters their token to see their hand and play.";
      clear(play);
      return;
    }
    if (state.me.seat === null) {
      whoami.textContent = state.me.admin ? "The operator's token: every hand is visible; operators cannot play." : "This token has no seat at this game: you watch as a spectator.";
      clear(play);
      return;
    }
    whoami.textContent = `You are ${page.who(state.me.seat)}, seat ${state.me.seat}.`;
    document.body.dataset.myVersion = state.me.view.version;
    renderPlay(play, state.me.view, { who: page.who, send });
  }

  async function send(command) {
    if (state.sending) return;
    state.sending = true;
    page.message("Sending…");
    try {
      const result = await postJSON(`/games/${page.gameId}/commands`, command, state.token);
      // Bots answer at once: the stream may have brought views newer than this answer's.
      if (result.view.version >= state.me.view.version) state.me.view = result.view;
      for (const event of result.events) page.addEvent(event);
      const receipt = `${result.version}:${result.chain_head}`;
      const check = el("button", "small", "check it");
      check.type = "button";
      check.onclick = () => {
        $("receipt").value = receipt;
        $("receipt-form").requestSubmit();
      };
      page.message(["Done. Your receipt: ", el("code", "receipt", receipt), " ", check], "ok");
      renderMine();
      if (!state.stream) await page.refresh(); // a live stream brings the table's new state itself
    } catch (error) {
      page.message(problemWords(error.problem), "error");
      await page.refresh();
    } finally {
      state.sending = false;
    }
  }

  function forgetToken() {
    state.token = "";
    state.me = null;
    sessionStorage.removeItem(TOKEN_KEY);
    $("token").value = "";
  }

  // Another token (or none): the table and the seat's panel are redrawn together, in the
  // perspective this token sees.
  async function useToken(token) {
    const oldSeat = state.me ? state.me.seat : null;
    state.token = token;
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else forgetToken();
    page.message("");
    await page.identify();
    page.perspectiveOptions();
    state.frames.reset(state.perspective); // fetched with the old token
    await page.setPerspective(perspectiveAfterToken(state.perspective, oldSeat, page.seen()));
    renderMine();
    if (state.stream) page.follow(true); // reopen it with this player's ticket
  }

  return { renderMine, forgetToken, useToken };
}
