// Double Heartbeat (双倍心跳): climbing with two decks, bombs and alliances.

import { cardRow } from "../cards.js";
import { el } from "../dom.js";
import { combinationPhrase } from "../names.js";
import { ordinal, plural } from "../events.js";
import { block, facts, playsRow } from "../tables.js";

export const scoreUnit = "points";

export function badges(view, seat) {
  const t = view.table;
  const marks = [];
  if (t.dealer === seat) marks.push("dealer");
  const place = t.finished.indexOf(seat);
  if (place >= 0) marks.push(`out ${ordinal(place + 1)}`);
  else if (t.passed.includes(seat) && t.phase === "play") marks.push("passed");
  return marks;
}

export function seatLine(view, seat, ctx) {
  const ally = view.table.allies[seat];
  return ally != null ? [el("span", "ally", `allied with ${ctx.who(ally)}`)] : [];
}

export function actingWords(view) {
  const t = view.table;
  if (t.phase === "bury") return "to bury cards";
  return t.top ? "to beat it or pass" : "to lead";
}

// Betrayals of this hand, from the events the page has read so far.
function betrayals(ctx) {
  const found = [];
  for (const event of ctx.events) {
    if (event.version > ctx.version) break;
    if (event.type === "HandDealt") found.length = 0;
    if (event.type === "AllianceBroken") found.push(event.payload);
  }
  return found;
}

export function center(view, ctx) {
  const t = view.table;
  const parts = [];
  const title = `Hand ${t.hand_number} of ${t.hands_to_play} · ${ctx.who(t.dealer)} deals`;
  if (t.phase === "bury") {
    parts.push(block(title, el("p", "phase", `${ctx.who(t.dealer)} may bury cards face down before leading.`)));
  } else if (t.top) {
    const top = el("div", `top ${t.top.bomb ? "bomb" : ""}`.trim(), el("b", "combination", combinationPhrase(t.top.combination, t.top.count, t.top.rank)), " by ", ctx.who(t.top.seat), cardRow(t.top.cards, { size: "small" }));
    parts.push(block(title, top, t.alliance_open ? el("p", "hint", "Copy this lead exactly to become its player's ally.") : null));
  } else {
    parts.push(block(title, el("p", "phase", t.phase === "over" ? "The hand is over." : t.leader != null ? `${ctx.who(t.leader)} leads any combination.` : "")));
  }
  if (t.trick.length) parts.push(block("This trick", playsRow(t.trick, ctx.who)));
  else if (t.last_trick.length) parts.push(block("Last trick", playsRow(t.last_trick, ctx.who)));
  const alliances = t.alliances.map(([a, b]) => `${ctx.who(a)} & ${ctx.who(b)}`).join("; ");
  const betrayed = betrayals(ctx).map((b) => `${ctx.who(b.by)} bombed ${ctx.who(b.ally)}`).join("; ");
  const order = t.finished.map((seat, i) => `${ordinal(i + 1)} ${ctx.who(seat)}`).join(", ");
  const bury = t.buried && t.buried.length ? cardRow(t.buried, { size: "tiny" }) : t.buried_count ? cardRow(null, { count: t.buried_count, size: "tiny" }) : null;
  parts.push(facts([
    ["passed", t.passed.length && t.phase === "play" ? t.passed.map(ctx.who).join(", ") : null],
    ["alliances", alliances || "none"],
    ["betrayals", betrayed || null],
    ["finishing order", order || null],
    ["buried", bury ? el("span", "", bury, ` ${plural(t.buried_count, "card")}`) : null],
  ]));
  if (t.results.length) {
    const table = el("table", "rounds");
    const head = table.createTHead().insertRow();
    for (const text of ["hand", ...view.seats.map((s) => s.name)]) head.append(el("th", "", text));
    const body = table.createTBody();
    for (const result of t.results) {
      const row = body.insertRow();
      row.append(el("td", "", result.hand));
      for (let seat = 0; seat < view.seat_count; seat++) {
        const place = result.order.indexOf(seat);
        const label = place >= 0 ? ordinal(place + 1) : result.last === seat ? "last" : "";
        const total = result.places[seat] + result.bonuses[seat];
        const cell = el("td", "", `${total > 0 ? "+" : ""}${total}`, el("small", "", ` ${label}${result.bonuses[seat] ? `, bombs +${result.bonuses[seat]}` : ""}`));
        row.append(cell);
      }
      if (result.buried && result.buried.length) {
        const buried = body.insertRow();
        const cell = el("td", "", `buried by ${ctx.who(result.dealer)}: `, cardRow(result.buried, { size: "tiny" }));
        cell.colSpan = view.seat_count + 1;
        buried.append(cell);
      }
    }
    const totals = body.insertRow();
    totals.className = "sum";
    totals.append(el("td", "", "match"));
    view.scores.forEach((score) => totals.append(el("td", "", score)));
    parts.push(block("Hand and match scores", table));
  }
  return parts;
}
