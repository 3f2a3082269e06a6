// Shared pieces for the variants' middles: titled blocks, rows of plays, lists of facts.

import { el } from "../shared/dom.js";
import { cardRow } from "./cards.js";

export function block(title, ...children) {
  return el("div", "block", title ? el("h3", "", title) : null, ...children);
}

export function playsRow(plays, who, { cancelled = [], winner = null } = {}) {
  const row = el("div", "plays");
  for (const play of plays) {
    const spot = el("div", "play");
    spot.dataset.seat = play.seat;
    const cards = play.cards !== undefined ? play.cards : play.card ? [play.card] : [];
    const drawn = cards.length ? cardRow(cards, { size: "small" }) : el("span", "passed", "pass");
    for (const node of drawn.querySelectorAll(".card")) {
      if (cancelled.includes(node.dataset.card)) node.classList.add("cancelled");
    }
    if (play.seat === winner) spot.classList.add("won");
    spot.append(drawn, el("span", "by", who(play.seat)));
    row.append(spot);
  }
  return row;
}

export function facts(pairs) {
  const list = el("dl", "facts");
  for (const [term, value] of pairs) {
    if (value === null || value === undefined || value === false) continue;
    list.append(el("dt", "", term), el("dd", "", value));
  }
  return list;
}

// A table with a row per seat, so that many seats grow it downwards, and a column per entry of
// `columns` ({ head, cell(seat) -> a td }); many columns scroll sideways inside it.
export function seatTable(view, who, columns) {
  const table = el("table", "rounds");
  const head = table.createTHead().insertRow();
  head.append(el("th", "", "player"), ...columns.map((column) => el("th", "", column.head)));
  const body = table.createTBody();
  for (let seat = 0; seat < view.seat_count; seat++) {
    const row = body.insertRow();
    row.dataset.seat = seat;
    const name = el("th", "name", who(seat));
    name.scope = "row";
    row.append(name, ...columns.map((column) => column.cell(seat)));
  }
  return el("div", "scroll", table);
}
