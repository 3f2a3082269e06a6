// The Scores panel: a row per player (so eleven seats grow it downwards, not sideways), their
// rating, their total, then the points of the latest hands, newest first; the ranking below.

import { clear, el } from "../shared/dom.js";
import { ratingWords } from "./ratings.js";

const HANDS_SHOWN = 12;

// ratings: seat number -> its rating (watch/ratings.js), or an empty map.
export function renderScoreboard(place, board, seats, ratings) {
  if (!board.rows.length && board.status === "waiting") {
    clear(place, el("p", "fine", "No scores before the game starts."));
    return;
  }
  const rows = board.rows.slice(-HANDS_SHOWN).reverse();
  const table = el("table", "list scores");
  const head = table.createTHead().insertRow();
  head.append(el("th", "", "player"), el("th", "rating", "rating"), el("th", "sum", "total"), ...rows.map((row) => el("th", "", row.label)));
  const body = table.createTBody();
  board.totals.forEach((total, seat) => {
    const line = body.insertRow();
    line.dataset.seat = seat;
    const info = seats.find((s) => s.seat === seat);
    const rated = ratings.get(seat);
    const label = info ? info.name : `seat ${seat}`;
    const name = el("th", "name", rated ? playerLink(rated.id, label) : label);
    name.scope = "row";
    const rating = el("td", "rating", ratingWords(rated));
    if (rated && rated.rating !== null) rating.title = `rating ± uncertainty after ${rated.games} rated game${rated.games === 1 ? "" : "s"}`;
    line.append(name, rating, el("td", "sum", total), ...rows.map((row) => el("td", "", row.points[seat])));
  });
  const ranking = board.ranking && board.ranking.length
    ? el("ol", "ranking", ...board.ranking.map((r) => el("li", r.winner ? "won" : "", `${r.rank}. ${r.name} — ${r.total}${r.winner ? " (winner)" : ""}`)))
    : board.status === "cancelled" ? el("p", "fine", "Cancelled: void, no ranking.") : null;
  clear(place, el("div", "scroll", table), ranking);
}

function playerLink(id, label) {
  const link = el("a", "", label);
  link.href = `/players/${encodeURIComponent(id)}/page`;
  return link;
}
