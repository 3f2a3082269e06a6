// The Scores panel: a row per player (so eleven seats grow it downwards, not sideways), their
// total, then the points of the latest hands, newest first; the ranking below.

import { clear, el } from "../dom.js";

const HANDS_SHOWN = 12;

export function renderScoreboard(place, board, seats) {
  if (!board.rows.length && board.status === "waiting") {
    clear(place, el("p", "fine", "No scores before the game starts."));
    return;
  }
  const rows = board.rows.slice(-HANDS_SHOWN).reverse();
  const table = el("table", "list scores");
  const head = table.createTHead().insertRow();
  head.append(el("th", "", "player"), el("th", "sum", "total"), ...rows.map((row) => el("th", "", row.label)));
  const body = table.createTBody();
  board.totals.forEach((total, seat) => {
    const line = body.insertRow();
    line.dataset.seat = seat;
    const name = el("th", "name", seats[seat] ? seats[seat].name : `seat ${seat}`);
    name.scope = "row";
    line.append(name, el("td", "sum", total), ...rows.map((row) => el("td", "", row.points[seat])));
  });
  const ranking = board.ranking && board.ranking.length
    ? el("ol", "ranking", ...board.ranking.map((r) => el("li", r.winner ? "won" : "", `${r.rank}. ${r.name} — ${r.total}${r.winner ? " (winner)" : ""}`)))
    : board.status === "cancelled" ? el("p", "fine", "Cancelled: void, no ranking.") : null;
  clear(place, el("div", "scroll", table), ranking);
}
