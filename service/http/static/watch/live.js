// A game's page following it live: the stream of events and views, the page drawn from them as
// they come, and the refresh that reads the game again when the stream cannot say enough.

import { postJSON, problemWords } from "../shared/api.js";
import { showLinks } from "./audit.js";
import { markCurrent, renderLog } from "./log.js";

const $ = (id) => document.getElementById(id);

// ``page``: { gameId, state, over(), notice(), loadSummary(), identify(), loadEvents(), addEvent(),
// show(), perspectiveOptions(), logContext(), renderMine(), scheduleAudit(), updateRematch() }
// from the game's page; ``page.state`` is its own, read and written here.
export function livePanel(page) {
  const state = page.state;
  let refreshing = null;
  let again = false;

  async function refresh() {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          const names = state.summary ? state.summary.seats.length : 0;
          await page.loadSummary();
          page.updateRematch();
          if (state.me) await page.identify();
          await page.loadEvents();
          renderLog($("log"), state.events, page.logContext(names !== state.summary.seats.length));
          showLinks(state.events);
          page.renderMine();
          // Whether the page follows the head is read now, not before the reads above: a step back
          // taken while they ran (ArrowLeft, the slider) must not be undone by this refresh.
          if (state.following) await page.show(state.head);
          else markCurrent($("log"), state.version);
          page.scheduleAudit();
        } catch (error) {
          page.notice(problemWords(error.problem));
        }
      } while (again);
      refreshing = null;
    })();
    return refreshing;
  }

  // The perspective a live stream's views are in: the ticket holder's seat, else public.
  function streamPerspective(ticketed) {
    if (!ticketed || !state.me) return "public";
    if (state.me.admin) return "full";
    return state.me.seat !== null ? `seat:${state.me.seat}` : "public";
  }

  // A live view: the head moves on. Its events came just before it on the stream, so when the
  // page shows the stream's own perspective nothing more is fetched.
  async function onLiveView(source, view) {
    if (refreshing || state.events.length < view.version - 1 || view.status !== "active") return refresh();
    const last = state.events[view.version - 1];
    if (!last) return refresh();
    const names = state.summary.seats.length;
    state.summary = { ...state.summary, status: view.status, seats: view.seats, version: view.version };
    state.head = view.version;
    $("head").textContent = state.head;
    $("slider").max = Math.max(1, state.head);
    if (source.perspective === state.perspective) state.frames.set(view.version, { version: view.version, event: last, view });
    if (state.me && source.perspective === `seat:${state.me.seat}`) state.me.view = view;
    else if (state.me) await page.identify();
    if (names !== view.seats.length) {
      page.perspectiveOptions();
      renderLog($("log"), state.events, page.logContext(true));
    }
    drawSoon();
  }

  // Views can come faster than a page can draw: draw the newest once the browser is free.
  let drawPending = false;

  function drawSoon() {
    if (drawPending) return;
    drawPending = true;
    setTimeout(async () => {
      drawPending = false;
      renderLog($("log"), state.events, page.logContext());
      showLinks(state.events);
      page.renderMine();
      if (state.following) await page.show(state.head);
      page.scheduleAudit();
    }, 60);
  }

  async function follow(on) {
    if (state.stream) state.stream.close();
    state.stream = null;
    $("live").checked = on;
    if (!on) return;
    let url = `/games/${page.gameId}/stream?after=${state.events.length}`;
    if (state.token) {
      try {
        const ticket = await postJSON(`/games/${page.gameId}/stream-ticket`, undefined, state.token);
        url += `&ticket=${encodeURIComponent(ticket.ticket)}`;
      } catch {
        // a spectator's stream then
      }
    }
    const source = new EventSource(url);
    source.perspective = streamPerspective(url.includes("ticket="));
    source.addEventListener("event", (message) => page.addEvent(JSON.parse(message.data)));
    source.addEventListener("view", (message) => onLiveView(source, JSON.parse(message.data)));
    source.addEventListener("end", () => {
      source.close();
      if (state.stream === source) state.stream = null;
      $("live").checked = false;
      refresh();
    });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED && state.stream === source && !page.over()) {
        setTimeout(() => follow(true), 1000); // a new ticket: the old one lasts a minute
      }
    };
    state.stream = source;
    if (state.head) {
      state.following = true;
      await refresh(); // following: it shows the head
    }
  }

  return { refresh, follow };
}
