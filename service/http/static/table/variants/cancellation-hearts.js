// Cancellation Hearts: two decks, identical cards in a trick cancel, lowest total wins.

import { el } from "../../shared/dom.js";
import { listed, plural, secretValue } from "../../shared/words.js";
import { cardRow, cardsLabel } from "../cards.js";
import { block, facts, playsRow } from "../table-parts.js";

export const scoreUnit = "points";

export function describe(event, who) {
  const p = event.payload;
  switch (event.type) {
    case "CardsPassed": {
      const cards = secretValue(p.cards);
      return `${who(p.seat)} passes three cards face down${cards ? ` (${cardsLabel(cards)})` : ""}.`;
    }
    case "PassesDelivered":
      return `The passed cards are delivered to the ${p.direction}.`;
    case "TrickResolved": {
      const cancelled = (p.cancelled || []).length ? ` ${cardsLabel(p.cancelled)} cancel out;` : "";
      if (p.winner == null) {
        const rest = p.last ? "it is the last trick, so nobody collects it" : "the cards go to the carry pile";
        return `Trick ${p.trick}:${cancelled} nobody wins — ${rest}.`;
      }
      const kitty = p.kitty ? " and the kitty" : "";
      return `Trick ${p.trick}:${cancelled} ${who(p.winner)} takes it${kitty}${p.points ? ` (${plural(p.points, "point")})` : ""}.`;
    }
    case "MoonShot":
      return `${who(p.seat)} shot the moon: every heart and both queens of spades!`;
    case "PenaltiesScored": {
      const moon = p.moon != null ? ` ${who(p.moon)} shot the moon (${p.moon_choice}).` : "";
      return `Hand ${p.hand} scored: ${p.points.map((x, s) => `${who(s)} ${x}`).join(", ")}.${moon} Totals ${p.totals.join(" / ")}.`;
    }
    default:
      return null;
  }
}

export const moves = {
  pass_cards: { label: (command) => `Pass ${cardsLabel(command.cards)}`, toPick: "cards to pass" },
  moon: {
    label(command, view) {
      const points = view.table.options.moon_points;
      return command.choice === "subtract" ? `Take −${points} myself` : `Give +${points} to every other player`;
    },
    primary: true,
  },
};

export function ending(view, ctx) {
  const target = view.table.options.target;
  const reached = view.seats.map((info) => info.seat).filter((seat) => view.scores[seat] >= target);
  const who = reached.length ? listed(reached.map(ctx.who)) : "A total";
  return `${who} reached the target of ${target} after hand ${view.table.hand_number}: the lowest total wins.`;
}

export function badges(view, seat) {
  const t = view.table;
  const marks = [];
  if (t.dealer === seat) marks.push("dealer");
  if (t.phase === "passing" && t.passed[seat]) marks.push("passed");
  if (t.leader === seat && t.phase === "playing") marks.push("leads");
  if (t.moon_seat === seat) marks.push("shot the moon");
  return marks;
}

export function seatLine(view, seat) {
  const taken = view.table.trick_points[seat];
  return taken ? [el("span", "taken", ` · +${taken} this hand`)] : [];
}

export function actingWords(view) {
  const t = view.table;
  if (t.phase === "passing") return `to pass 3 cards ${t.pass_direction}`;
  if (t.moon_seat != null) return "to choose how the moon scores";
  return "to play a card";
}

// Codes that appear twice in a trick cancel each other.
function doubled(plays) {
  const seen = new Set();
  const twice = new Set();
  for (const play of plays) (seen.has(play.card) ? twice : seen).add(play.card);
  return [...twice];
}

function totals(view) {
  const target = view.table.options.target;
  const list = el("div", "totals");
  view.seats.forEach((info, seat) => {
    const score = view.scores[seat];
    const bar = el("span", "bar");
    bar.style.setProperty("--share", `${Math.min(100, (100 * score) / target)}%`);
    list.append(el("div", "total", el("span", "by", info.name), bar, el("span", "", `${score} / ${target}`)));
  });
  return list;
}

export function center(view, ctx) {
  const t = view.table;
  const parts = [];
  const title = `Hand ${t.hand_number} · ${ctx.who(t.dealer)} deals`;
  if (t.phase === "passing") {
    const arrow = t.pass_direction === "left" ? "⟲ to the left" : "⟳ to the right";
    const mine = t.my_pass ? el("p", "", "You pass ", cardRow(t.my_pass, { size: "tiny" })) : null;
    parts.push(block(title, el("p", "phase direction", `Everyone passes three cards face down, ${arrow}.`), mine));
  } else {
    const cancelled = doubled(t.trick);
    const trick = block(t.trick.length ? `${title} · trick ${t.tricks_played + 1}` : title, playsRow(t.trick, ctx.who, { cancelled }));
    if (cancelled.length) trick.append(el("p", "hint", "Struck out: identical cards cancel and cannot win."));
    if (t.received) trick.append(el("p", "", "You received ", cardRow(t.received, { size: "tiny" })));
    parts.push(trick);
    if (t.last_trick) {
      const last = t.last_trick;
      const said = last.winner == null ? "nobody wins it: carried over" : `${ctx.who(last.winner)} takes it${last.points ? `, ${plural(last.points, "point")}` : ""}`;
      parts.push(block(`Trick ${last.trick}: ${said}`, playsRow(last.plays, ctx.who, { cancelled: last.cancelled, winner: last.winner })));
    }
  }
  const kitty = t.kitty ? cardRow(t.kitty, { size: "tiny" }) : t.kitty_size ? cardRow(null, { count: t.kitty_size, size: "tiny" }) : null;
  parts.push(facts([
    ["hearts", t.hearts_broken ? "♥ broken" : "not broken yet"],
    ["carry pile", t.carry.length ? cardRow(t.carry, { size: "tiny" }) : "empty"],
    ["kitty", kitty ? el("span", "", kitty, t.kitty_taker != null ? ` taken by ${ctx.who(t.kitty_taker)}` : " face down, to the first trick's winner") : "none"],
  ]));
  parts.push(block("Totals to the target (lowest wins)", totals(view)));
  return parts;
}
