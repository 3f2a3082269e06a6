// The lobby: a game against bots to start, a quick match, games a page at a time (newest
// first), the variants hosted, one leaderboard at a time.

import { getJSON, getPage, problemWords } from "../shared/api.js";
import { clear, el, listTable } from "../shared/dom.js";
import { englishName, loadVariants, nativeName, variantTitle } from "../shared/names.js";
import { startQuickMatch } from "./quick.js";
import { startSolo } from "./solo.js";

const PAGE = 15;
const REFRESH_MS = 15000;
const $ = (id) => document.getElementById(id);
const STATUS_WORDS = { waiting: "waiting", active: "in play", finished: "finished", cancelled: "cancelled" };
// trail: the URL of each page from the first to the one shown (going back pops it); next: the
// URL of the page after the one shown, from its Link header (null on the last page).
const state = { status: "", variant: "", trail: [], next: null, shown: "", boardsAsked: 0 };

function variantCell(variant) {
  const native = nativeName(variant);
  const english = englishName(variant);
  const cell = el("td", "variant", el("span", "native", native));
  if (native !== english) cell.append(el("small", "", english));
  return cell;
}

function rematchLink(gameId) {
  const link = el("a", "rematch", "rematch");
  link.href = `/games/${gameId}/watch`;
  link.title = `the rematch: game ${gameId}`;
  return link;
}

function gameRow(entry) {
  const row = el("tr");
  row.dataset.gameId = entry.game_id;
  row.dataset.status = entry.status;
  const names = entry.seats.map((s) => s.name + (s.bot ? ` (bot · level ${s.bot.level})` : "") + (s.left ? " (left)" : "")).join(", ");
  const seated = (w) => entry.seats.find((s) => s.seat === w);
  const winners = entry.winners ? entry.winners.map((w) => (seated(w) ? seated(w).name : `seat ${w}`)).join(", ") : "";
  const link = el("a", "", entry.status === "active" ? "watch live" : entry.status === "waiting" ? "open" : "replay");
  link.href = `/games/${entry.game_id}/watch`;
  const scores = el("td", "scores", entry.scores ? entry.scores.join(" / ") : "");
  const won = el("td", "winners", winners);
  // A phone shows each game as a card: these say what the column headings said.
  scores.dataset.label = "scores";
  won.dataset.label = winners.includes(",") ? "winners" : "winner";
  row.append(
    variantCell(entry.variant),
    el("td", "players", `${entry.seats.length}/${entry.seat_count}: `, names || "—"),
    el("td", `state ${entry.status}`, STATUS_WORDS[entry.status] || entry.status),
    scores,
    won,
    el("td", "link", link, entry.rematch ? rematchLink(entry.rematch) : null),
  );
  return row;
}

function firstPage() {
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (state.status) params.set("status", state.status);
  if (state.variant) params.set("variant", state.variant);
  return `/games?${params}`;
}

async function showGames(force = false) {
  const shown = state.trail.at(-1);
  let page;
  try {
    page = await getPage(shown);
  } catch (error) {
    $("notice").hidden = false;
    $("notice").textContent = problemWords(error.problem);
    return;
  }
  if (shown !== state.trail.at(-1)) return; // the reader moved on: the page now shown is asked for
  const games = page.body;
  state.next = page.next;
  $("notice").hidden = true;
  const fingerprint = JSON.stringify(games);
  $("older").disabled = !state.next;
  $("newer").disabled = state.trail.length === 1;
  $("page-label").textContent = `page ${state.trail.length}`;
  $("updated").textContent = `as of ${new Date().toLocaleTimeString()}`;
  if (!force && fingerprint === state.shown) return;
  state.shown = fingerprint;
  const empty = state.trail.length > 1 ? "No older games." : "No games here yet.";
  const table = listTable(["game", "players", "status", "scores", "winners", ""], games.map(gameRow), empty);
  table.classList.add("games");
  clear($("games"), table);
}

// The first page again (new filters), the next older page, or back to the page before.
function restart() {
  state.trail = [firstPage()];
  showGames(true);
}

function older() {
  if (state.next) state.trail.push(state.next);
  showGames(true);
}

function newer() {
  if (state.trail.length > 1) state.trail.pop();
  showGames(true);
}

async function showLeaderboard() {
  // Answers may come back in any order: only the newest choice's is shown (an older one
  // arriving last showed a board nobody had chosen any more).
  const asked = ++state.boardsAsked;
  const variant = $("board-variant").value;
  const sort = $("board-sort").value;
  const [board] = await getJSON(`/leaderboard?variant=${encodeURIComponent(variant)}&sort=${sort}&limit=20`);
  if (asked !== state.boardsAsked) return;
  const rows = board.rows.map((r) => {
    const tr = el("tr");
    const link = el("a", "", r.name);
    link.href = `/players/${encodeURIComponent(r.player_id)}/page`;
    const rating = el("td", "rating", `${r.rating.toFixed(1)} ± ${r.uncertainty.toFixed(1)}`);
    tr.append(el("td", "", r.rank), el("td", "", link), rating);
    for (const text of [r.games, r.wins, r.points]) tr.append(el("td", "", text));
    return tr;
  });
  clear($("leaderboard"), listTable(["#", "player", "rating", "games", "wins", "points"], rows, "Nobody has finished a game of this yet."));
}

async function start() {
  const variants = await loadVariants();
  startSolo(variants);
  startQuickMatch(variants);
  const filter = $("variant-filter");
  const boardChoice = $("board-variant");
  for (const item of variants) {
    const label = variantTitle(item.id);
    const option = el("option", "", label);
    option.value = item.id;
    filter.append(option);
    const boardOption = el("option", "", label);
    boardOption.value = item.id;
    boardChoice.append(boardOption);
    const same = nativeName(item.id) === englishName(item.id);
    const entry = el("li", "", el("span", "native", nativeName(item.id)), same ? null : el("b", "", ` ${englishName(item.id)}`));
    entry.append(el("small", "", `${item.min_players}–${item.max_players} players`));
    $("variants").append(entry);
  }
  filter.onchange = () => {
    state.variant = filter.value;
    restart();
  };
  for (const button of $("status-tabs").querySelectorAll("button")) {
    button.onclick = () => {
      for (const other of $("status-tabs").querySelectorAll("button")) other.setAttribute("aria-pressed", String(other === button));
      state.status = button.dataset.status;
      restart();
    };
  }
  $("newer").onclick = newer;
  $("older").onclick = older;
  $("reload").onclick = () => showGames(true);
  boardChoice.onchange = () => showLeaderboard();
  $("board-sort").onchange = () => showLeaderboard();
  state.trail = [firstPage()];
  await showGames(true);
  if (variants.length) await showLeaderboard();
  // One small page now and then, only while the tab is in view; never the whole lobby.
  setInterval(() => {
    if (document.visibilityState === "visible") showGames();
  }, REFRESH_MS);
}

start();
