// A player's page (or a bot level's): their rating in each variant, and the rated games of one
// variant, newest first, each with their place and their rating before and after it.

import { getJSON, problemWords } from "./api.js";
import { clear, el, listTable } from "./dom.js";
import { loadVariants, variantTitle } from "./names.js";

const $ = (id) => document.getElementById(id);
const playerId = decodeURIComponent(location.pathname.split("/")[2]);

const rated = (pair) => `${pair[0].toFixed(2)} ± ${pair[1].toFixed(2)}`;

function row(...cells) {
  const tr = el("tr");
  for (const cell of cells) tr.append(cell instanceof Node && cell.tagName === "TD" ? cell : el("td", "", cell));
  return tr;
}

async function showHistory(variant) {
  const url = `/players/${encodeURIComponent(playerId)}/ratings?variant=${encodeURIComponent(variant)}`;
  const exported = await getJSON(url);
  $("export").href = url;
  $("export").hidden = false;
  const rows = exported.games.slice().reverse().map((game) => {
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
