// One game's page: the table at any event, in any perspective it may be seen, live or replayed;
// the seated player's hand and moves; the log in words; the audit. Following the game live is in
// live.js, the seated player's token and moves in seat.js; both share this page's state.

import { getJSON, problemWords } from "../shared/api.js";
import { clear, el } from "../shared/dom.js";
import { loadVariants, variantTitle } from "../shared/names.js";
import { renderTable } from "../table/tables.js";
import { checkReceipt, showLinks, showReport, showSeed } from "./audit.js";
import { describe } from "./events.js";
import { Frames } from "./frames.js";
import { livePanel } from "./live.js";
import { markCurrent, renderLog } from "./log.js";
import { fallbackPerspective, forbiddenReason, perspectiveLabel } from "./perspectives.js";
import { seatRatings } from "./ratings.js";
import { rematchPanel } from "./rematch.js";
import { renderScoreboard } from "./scoreboard.js";
import { seatPanel, storedToken } from "./seat.js";

const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/")[2];
const AUDIT_EVERY_MS = 500;
const STATUS_WORDS = { waiting: "waiting for players", active: "in play", finished: "finished", cancelled: "cancelled" };

const asked = new URLSearchParams(location.search).get("perspective") || "public";

const state = {
  token: storedToken(),
  me: null, // { seat, admin, view } once a token is given
  perspective: asked,
  summary: null, // the public view now
  head: 0,
  version: 0,
  following: true,
  frames: new Frames(gameId, asked), // in state.perspective
  events: [], // the log as this caller may see it
  stream: null,
  showing: 0,
  sending: false,
};

const updateRematch = rematchPanel({
  gameId,
  summary: () => state.summary,
  token: () => state.token,
  seat: () => (state.me ? state.me.seat : null),
  following: () => state.following,
});

const { refresh, follow } = livePanel({
  gameId,
  state,
  over,
  notice,
  loadSummary,
  identify,
  loadEvents,
  addEvent,
  show,
  perspectiveOptions,
  logContext,
  renderMine: () => renderMine(), // seat.js's, made next with this panel's refresh and follow
  scheduleAudit,
  updateRematch,
});

const { renderMine, forgetToken, useToken } = seatPanel({
  gameId,
  state,
  who,
  message,
  addEvent,
  identify,
  perspectiveOptions,
  setPerspective,
  seen,
  refresh,
  follow,
});

function who(seat) {
  const seats = (state.summary && state.summary.seats) || [];
  const info = seats.find((s) => s.seat === seat);
  return info ? info.name : `seat ${seat}`;
}

function over() {
  return Boolean(state.summary) && (state.summary.status === "finished" || state.summary.status === "cancelled");
}

function notice(text) {
  $("notice").hidden = !text;
  $("notice").textContent = text || "";
}

function message(text, kind = "") {
  const node = $("play-message");
  node.className = `message ${kind}`.trim();
  if (typeof text === "string") node.textContent = text;
  else clear(node, ...text);
}

function showMissing(title, text) {
  $("game").hidden = true;
  $("missing").hidden = false;
  $("missing-title").textContent = title;
  $("missing-text").textContent = text;
  $("title").textContent = title;
  document.title = `cardledger — ${title.toLowerCase()}`;
}

// --- what may be seen -------------------------------------------------------------------------

// What the page may show, as perspectives.js asks it.
function seen() {
  return { seatCount: state.summary ? state.summary.seat_count : 0, over: over(), me: state.me, who };
}

function perspectiveOptions() {
  const select = $("perspective");
  const wanted = ["public", ...state.summary.seats.map((s) => `seat:${s.seat}`), "full"];
  const options = wanted.map((value) => {
    const option = el("option", "", perspectiveLabel(value, who) + (forbiddenReason(value, seen()) ? " — at the end" : ""));
    option.value = value;
    return option;
  });
  select.replaceChildren(...options);
  select.value = state.perspective;
}

async function setPerspective(value) {
  const reason = forbiddenReason(value, seen());
  if (reason) {
    value = fallbackPerspective(state.me);
    notice(value === "public" ? reason : reason.replace("Showing the public table.", "Showing your own seat."));
  } else {
    notice("");
  }
  if (value !== state.perspective) {
    state.perspective = value;
    state.frames.reset(value);
  }
  $("perspective").value = value;
  const url = new URL(location.href);
  if (value === "public") url.searchParams.delete("perspective");
  else url.searchParams.set("perspective", value);
  history.replaceState(null, "", url);
  if (state.head) await show(state.version || state.head);
}

// --- reading the game -------------------------------------------------------------------------

async function loadSummary() {
  const summary = await getJSON(`/games/${gameId}`);
  const seatsChanged = !state.summary || state.summary.seats.length !== summary.seats.length || state.summary.status !== summary.status;
  state.summary = summary;
  state.head = summary.version;
  $("title").textContent = `${variantTitle(summary.variant)} · game ${gameId.slice(0, 8)}`;
  document.title = `cardledger — ${variantTitle(summary.variant)}`;
  const status = $("game-status");
  status.textContent = STATUS_WORDS[summary.status] || summary.status;
  status.dataset.status = summary.status;
  $("head").textContent = state.head;
  $("slider").max = Math.max(1, state.head);
  if (seatsChanged) perspectiveOptions();
}

async function identify() {
  if (!state.token) {
    state.me = null;
    return;
  }
  try {
    const view = await getJSON(`/games/${gameId}/view`, state.token);
    const seesAll = view.status === "active" && view.hands.length > 0 && view.hands.every((h) => h !== null);
    state.me = { seat: view.seat, admin: view.seat === null && seesAll, view };
  } catch (error) {
    state.me = null;
    if (error.problem && error.problem.code === "unauthorized") forgetToken();
    message(problemWords(error.problem), "error");
  }
}

async function loadEvents() {
  while (true) {
    const after = state.events.length;
    if (after >= state.head) return;
    const page = await getJSON(`/games/${gameId}/events?after=${after}&limit=500`, state.token || undefined);
    if (!page.events.length) return;
    for (const event of page.events) addEvent(event);
    state.head = Math.max(state.head, page.head_version);
  }
}

function addEvent(event) {
  if (event.version === state.events.length + 1) state.events.push(event);
}

function bottomSeat() {
  if (state.perspective.startsWith("seat:")) return Number(state.perspective.slice(5));
  return state.me && state.me.seat != null ? state.me.seat : null;
}

async function show(version) {
  if (state.head < 1) return;
  const ticket = ++state.showing;
  const wanted = Math.min(Math.max(1, version), state.head);
  // Whether the page follows the head is the newest step's wish from the moment it is asked,
  // not once its frame has come: a refresh looking meanwhile (it shows the head when following)
  // would otherwise take a step back (ArrowLeft, the slider) back to the head.
  state.following = wanted === state.head;
  let current;
  try {
    current = await state.frames.get(wanted, { token: state.token, backwards: wanted < state.version });
  } catch (error) {
    if (ticket !== state.showing) return;
    if (error.problem && error.problem.code === "perspective_forbidden" && state.perspective !== "public") {
      notice(problemWords(error.problem) + " Showing the public table.");
      state.perspective = "public";
      state.frames.reset("public");
      $("perspective").value = "public";
      return show(wanted);
    }
    notice(problemWords(error.problem));
    return;
  }
  if (ticket !== state.showing || !current) return;
  state.version = wanted;
  $("version").textContent = wanted;
  $("slider").value = wanted;
  $("description").textContent = describe(current.event, who, current.view.variant);
  const live = state.following && current.view.status === "active";
  renderTable($("table"), current.view, { who, mySeat: bottomSeat(), live, events: state.events, version: wanted });
  markCurrent($("log"), wanted);
  document.body.dataset.version = wanted;
  document.body.dataset.head = state.head;
}

// --- the audit and the scores -------------------------------------------------------------------

// The audit re-runs with the game: one request at a time, the newest state next, at most
// every AUDIT_EVERY_MS while the game is live.
let auditBusy = false;
let auditAgain = false;
let auditAt = 0;

async function scheduleAudit() {
  if (auditBusy) {
    auditAgain = true;
    return;
  }
  auditBusy = true;
  do {
    auditAgain = false;
    const wait = over() ? 0 : AUDIT_EVERY_MS - (Date.now() - auditAt);
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    auditAt = Date.now();
    try {
      await Promise.all([showReport(gameId), showSeed(state.events, over(), gameId), showScoreboard()]);
    } catch (error) {
      notice(problemWords(error.problem));
    }
  } while (auditAgain);
  auditBusy = false;
}

// The seats' ratings change when a game ends (this one or another of theirs): asked again when
// the seats or the status change, not at every event.
const ratings = { key: "", found: Promise.resolve(new Map()) };

async function showScoreboard() {
  const key = `${state.summary.status}:${state.summary.seats.map((s) => s.player_id).join(",")}`;
  if (key !== ratings.key) {
    ratings.key = key;
    ratings.found = seatRatings(state.summary.seats, state.summary.variant);
  }
  const [board, found] = await Promise.all([getJSON(`/games/${gameId}/scoreboard`), ratings.found]);
  renderScoreboard($("scoreboard"), board, state.summary.seats, found);
}

// --- wiring ------------------------------------------------------------------------------------

function logContext(redraw = false) {
  return { who, variant: state.summary.variant, goto: (v) => show(v), redraw };
}

function wire() {
  $("first").onclick = () => show(1);
  $("previous").onclick = () => show(state.version - 1);
  $("next").onclick = () => show(state.version + 1);
  $("last").onclick = () => show(state.head);
  $("slider").oninput = (event) => show(Number(event.target.value));
  $("perspective").onchange = (event) => setPerspective(event.target.value);
  $("live").onchange = (event) => follow(event.target.checked);
  $("token").value = state.token;
  $("token-form").onsubmit = (event) => {
    event.preventDefault();
    useToken($("token").value.trim());
  };
  $("forget").onclick = () => useToken("");
  $("receipt-form").onsubmit = async (event) => {
    event.preventDefault();
    await loadEvents().catch(() => {});
    const [kind, text] = checkReceipt($("receipt").value, state.events, state.head);
    const result = $("receipt-result");
    result.className = kind;
    result.dataset.result = kind;
    result.textContent = text;
  };
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if ((target.tagName === "INPUT" && target.type !== "range") || target.tagName === "SELECT" || target.tagName === "TEXTAREA") return;
    const moves = { ArrowLeft: state.version - 1, ArrowRight: state.version + 1, Home: 1, End: state.head };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
}

async function start() {
  wire();
  await loadVariants();
  if (!/^[0-9a-f-]{36}$/i.test(gameId || "")) {
    showMissing("No such game", "This address names no game.");
    return;
  }
  try {
    await loadSummary();
  } catch (error) {
    if (error.status === 404) {
      showMissing("No such game", `There is no game ${gameId} on this service: the link may be mistyped, or the game lives on another server.`);
    } else {
      notice(problemWords(error.problem));
    }
    return;
  }
  $("game").hidden = false;
  await identify();
  perspectiveOptions();
  await loadEvents();
  renderLog($("log"), state.events, logContext());
  showLinks(state.events);
  renderMine();
  let wanted = state.perspective;
  if (wanted === "public" && state.me && state.me.seat !== null && !over()) wanted = `seat:${state.me.seat}`;
  await setPerspective(wanted); // shows the head
  scheduleAudit();
  updateRematch();
  if (!over()) await follow(true);
}

start();
