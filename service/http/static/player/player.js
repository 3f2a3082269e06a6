// A player's page (or a bot level's): their rating in each variant, and the rated games of one
// variant, newest first, each with their place and their rating before and after it.

import { getJSON, getPage, problemWords } from "../shared/api.js";
import { clear, el, listTable } from "../shared/dom.js";
import { loadVariants, variantTitle } from "../shared/names.js";

const $ = (id) => document.getElementById(id);
const playerId = decodeURIComponent(location.pathname.split("/")[2]);

const rated = (pair) => `${pair[0].toFixed(2)} ± ${pair[1].toFixed(2)}`;

function row(...cells) {
  const tr = el("tr");
  for (const cell of cells) tr.append(cell instanceof Node && cell.tagName === "TD" ? cell : el("td", "", cell));
  return tr;
}

// The export comes oldest first, a page at a time: the pages are read (up to PAGES of them) and
// the newest SHOWN games are listed.
const PAGES = 20;
const SHOWN = 100;

async function ratedGames(url) {
  const games = [];
  let next = url;
  for (let read = 0; next && read < PAGES; read += 1) {
    const page = await getPage(next);
    games.push(...page.body.games);
    next = page.next;
  }
  return { games, complete: !next };
}

async function showHistory(variant) {
  const url = `/players/${encodeURIComponent(playerId)}/ratings?variant=${encodeURIComponent(variant)}`;
  const { games, complete } = await ratedGames(url);
  $("export").href = url;
  $("export").hidden = false;
  const shown = games.slice(-SHOWN).reverse();
  let count = "";
  if (!complete) count = `the last ${shown.length} of the first ${games.length} rated games (the export has every one)`;
  else if (shown.length < games.length) count = `the latest ${shown.length} of ${games.length} rated games`;
  $("history-count").textContent = count;
  const rows = shown.map((game) => {
    const mine = game.seats.filter((seat) => seat.rated_id === playerId);
    const link = el("a", "", game.game_id.slice(0, 8));
    link.href = `/games/${game.game_id}/watch`;
    const change = mine[0].after[0] - mine[0].before[0];
    return row(
      link,
      `${mine.map((seat) => seat.rank).join(", ")} of ${game.seats.length}`,
      rated(mine[0].before),
      rated(mine[0].after),
      el("td", change >= 0 ? "up" : "down", `${change >= 0 ? "+" : ""}${change.toFixed(2)}`),
    );
  });
  clear($("history"), listTable(["game", "place", "before", "after", "change"], rows, "No rated games of this yet."));
}

async function start() {
  await loadVariants();
  let profile;
  try {
    profile = await getJSON(`/players/${encodeURIComponent(playerId)}`);
  } catch (error) {
    $("title").textContent = "No such player";
    $("notice").hidden = false;
    $("notice").textContent = problemWords(error.problem);
    return;
  }
  $("title").textContent = profile.bot ? `${profile.name} (bot)` : profile.name;
  document.title = `cardledger — ${profile.name}`;
  const rows = profile.ratings.map((r) => row(variantTitle(r.variant), el("td", "rating", `${r.rating.toFixed(2)} ± ${r.uncertainty.toFixed(2)}`), r.games));
  clear($("ratings"), listTable(["game", "rating", "rated games"], rows, "No rated games yet."));
  const choice = $("history-variant");
  for (const r of profile.ratings) {
    const option = el("option", "", variantTitle(r.variant));
    option.value = r.variant;
    choice.append(option);
  }
  choice.onchange = () => showHistory(choice.value);
  if (profile.ratings.length) await showHistory(profile.ratings[0].variant);
}

start();
