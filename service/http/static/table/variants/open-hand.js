// Open Hand (打扑克不盖被): five face-up tricks, the highest card takes each.

import { el } from "../../shared/dom.js";
import { cardLabel, cardRow } from "../cards.js";
import { block, facts, playsRow } from "../table-parts.js";

export const scoreUnit = "tricks";
export const rankOrder = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]; // RULES.md §3

export function describe(event, who) {
  const p = event.payload;
  switch (event.type) {
    case "FirstLeaderChosen":
      return p.method === "cutter"
        ? `${who(p.seat)} leads first (the seat right of the dealer).`
        : `${who(p.seat)} drew the highest card and leads first.`;
    default:
      return null;
  }
}

export function ending() {
  return "All five tricks were played: the most tricks win.";
}

export function seatLine(view, seat) {
  const played = view.table.played[seat] || [];
  return played.length ? [el("span", "played", "played ", cardRow(played, { size: "tiny" }))] : [];
}

export function badges(view, seat) {
  return view.table.leader === seat && view.status === "active" ? ["leads"] : [];
}

export function actingWords() {
  return "to play a card";
}

export function center(view, ctx) {
  const t = view.table;
  const parts = [];
  const number = Math.min(5, t.tricks.length + 1);
  const last = t.tricks[t.tricks.length - 1];
  if (t.trick.length || !last) {
    const title = view.status === "active" ? `Trick ${number} of 5` : "The table";
    const leader = t.leader != null && view.status === "active" ? `${ctx.who(t.leader)} leads` : "";
    parts.push(block(title, el("p", "phase", leader), playsRow(t.trick, ctx.who)));
  } else {
    parts.push(block(`Trick ${last.number}: ${ctx.who(last.winner)} takes it`, playsRow(last.plays, ctx.who, { winner: last.winner })));
  }
  if (t.tricks.length) {
    const list = el("ol", "tricks");
    for (const trick of t.tricks) {
      const item = el("li", "", el("b", "", ctx.who(trick.winner)), " ", cardRow(trick.plays.map((p) => p.card), { size: "tiny" }));
      item.dataset.winner = trick.winner;
      list.append(item);
    }
    parts.push(block("Tricks won", list));
  }
  if (t.first_leader_draws && t.first_leader_draws.length) {
    parts.push(facts([["first-leader draw", t.first_leader_draws.map((card, seat) => `${ctx.who(seat)} ${cardLabel(card)}`).join(", ")]]));
  }
  return parts;
}
