// The card table: seats around it, the variant's own picture in the middle.

import { countdown, el } from "../shared/dom.js";
import { plural } from "../shared/words.js";
import { endingBlock } from "./parts/ending.js";
import { seatHand } from "./parts/seat-hand.js";
import { tableModule } from "./table-modules.js";

// How many of the other seats sit on the left and right sides (the rest across the top).
function sideCount(others) {
  if (others === 2) return 1;
  if (others <= 5) return others >= 3 ? 1 : 0;
  return others <= 9 ? 2 : 3;
}

function seatBox(view, seat, ctx, chosen) {
  const variant = view.table ? chosen : {}; // before the deal there is no table to read
  const info = view.seats.find((s) => s.seat === seat); // seats may fill out of order (bots)
  const box = el("div", "seat");
  box.dataset.seat = seat;
  const acting = view.to_act.includes(seat);
  const winner = (view.winners || []).includes(seat);
  box.classList.toggle("to-act", acting);
  box.classList.toggle("winner", winner);
  box.classList.toggle("left", Boolean(info && info.left));
  box.classList.toggle("me", seat === ctx.mySeat);
  const name = el("span", "name", info ? info.name : "empty seat");
  name.lang = "";
  const head = el("div", "who", name, el("span", "tag", `seat ${seat}`));
  if (info && info.bot) head.append(el("span", "badge bot", `bot · level ${info.bot.level}`));
  for (const badge of variant.badges ? variant.badges(view, seat, ctx) : []) head.append(el("span", "badge", badge));
  if (info && info.left) head.append(el("span", "badge gone", "left"));
  if (info && info.voted_cancel && view.status === "active") head.append(el("span", "badge", "votes cancel"));
  if (winner) head.append(el("span", "badge won", view.status === "finished" ? "winner" : "wins"));
  const size = view.hand_sizes[seat] ?? 0;
  const hand = view.hands && view.hands[seat];
  const cards = el("div", "hand", seatHand(hand, size, chosen), el("span", "count", `${size}`));
  cards.title = `${plural(size, "card")} in hand`;
  const unit = chosen.scoreUnit === undefined ? "points" : chosen.scoreUnit;
  const points = view.scores[seat];
  const score = el("span", "score", unit ? `${points} ${Math.abs(points) === 1 ? unit.replace(/s$/, "") : unit}` : "");
  score.dataset.score = view.scores[seat];
  const line = el("div", "line", score);
  for (const extra of variant.seatLine ? variant.seatLine(view, seat, ctx) : []) line.append(extra);
  box.append(head, cards, line);
  if (acting) {
    const waiting = el("div", "acting", variant.actingWords ? variant.actingWords(view, seat, ctx) : "to act");
    if (view.deadline && ctx.live) waiting.append(" · ", countdown(view.deadline));
    box.append(waiting);
  }
  return box;
}

export function renderTable(root, view, ctx) {
  const variant = tableModule(view.variant);
  const felt = el("div", `felt variant-${view.variant}`);
  felt.dataset.variant = view.variant;
  const n = view.seat_count;
  const bottom = ctx.mySeat != null ? ctx.mySeat : 0;
  const order = [];
  for (let i = 1; i < n; i++) order.push((bottom + i) % n);
  const side = sideCount(order.length);
  const left = order.slice(0, side).reverse(); // drawn top to bottom
  const top = order.slice(side, order.length - side);
  const right = order.slice(order.length - side);
  const place = (name, seats) => {
    const area = el("div", `side ${name}`);
    seats.forEach((seat) => area.append(seatBox(view, seat, ctx, variant)));
    return area;
  };
  const center = el("div", "middle", endingBlock(view, ctx, variant));
  if (view.table) {
    center.append(...variant.center(view, ctx));
  } else {
    const taken = view.seats.length;
    center.append(el("p", "phase", view.status === "waiting" ? `Waiting for players: ${taken} of ${n} seats taken.` : "The game has not started."));
  }
  felt.append(place("top", top), place("west", left), center, place("east", right), place("bottom", [bottom]));
  root.replaceChildren(felt);
}
