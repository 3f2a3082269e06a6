// The card table: seats around it, the variant's own picture in the middle.

import { cardRow } from "./cards.js";
import { countdown, el } from "./dom.js";
import { plural } from "./events.js";
import * as openHand from "./tables/open-hand.js";
import * as heartbeat from "./tables/heartbeat.js";
import * as doubleHeartbeat from "./tables/double-heartbeat.js";
import * as cancellationHearts from "./tables/cancellation-hearts.js";
import * as oneUpOneDown from "./tables/one-up-one-down.js";

const VARIANTS = {
  "open-hand": openHand,
  heartbeat,
  "double-heartbeat": doubleHeartbeat,
  "cancellation-hearts": cancellationHearts,
  "one-up-one-down": oneUpOneDown,
};

// How many of the other seats sit on the left and right sides (the rest across the top).
function sideCount(others) {
  if (others === 2) return 1;
  if (others <= 5) return others >= 3 ? 1 : 0;
  return others <= 9 ? 2 : 3;
}

function seatBox(view, seat, ctx, chosen) {
  const variant = view.table ? chosen : {}; // before the deal there is no table to read
  const info = view.seats[seat];
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
  for (const badge of variant.badges ? variant.badges(view, seat, ctx) : []) head.append(el("span", "badge", badge));
  if (info && info.left) head.append(el("span", "badge gone", "left"));
  if (info && info.voted_cancel && view.status === "active") head.append(el("span", "badge", "votes cancel"));
  if (winner) head.append(el("span", "badge won", view.status === "finished" ? "winner" : "wins"));
  const size = view.hand_sizes[seat] ?? 0;
  const hand = view.hands && view.hands[seat];
  const cards = el("div", "hand", cardRow(hand, { count: size, size: "tiny", limit: 10, more: false }), el("span", "count", `${size}`));
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
  const variant = VARIANTS[view.variant] || openHand;
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
  const center = el("div", "middle");
  if (view.table) {
    center.append(...variant.center(view, ctx));
  } else {
    const taken = view.seats.length;
    center.append(el("p", "phase", view.status === "waiting" ? `Waiting for players: ${taken} of ${n} seats taken.` : "The game has not started."));
  }
  felt.append(place("top", top), place("west", left), center, place("east", right), place("bottom", [bottom]));
  root.replaceChildren(felt);
}

// Shared pieces for the variants' middles.

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
