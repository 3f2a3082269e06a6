// Double Heartbeat (双倍心跳): climbing with two decks, bombs and alliances.

import { el } from "../../shared/dom.js";
import { ordinal, plural, secretValue, spaced } from "../../shared/words.js";
import { cardRow, cardsLabel, rankOf, suitOf } from "../cards.js";
import { block, facts, playsRow, seatTable } from "../table-parts.js";

export const scoreUnit = "points";
// RULES.md §2: 3 low, 2 high, then the jokers.
export const rankOrder = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];

// --- combinations in words ------------------------------------------------------------------

const COMBINATIONS = {
  single: "single",
  pair: "pair",
  triple: "triple",
  triple_pair: "triple with a pair",
  straight: "straight",
  consecutive_pairs: "consecutive pairs",
  airplane: "airplane",
  airplane_pairs: "airplane with pairs",
  bomb: "bomb",
  straight_flush: "straight flush",
};
// Kinds named by the rank they hold most of; the others (runs) by their top rank.
const OF_A_KIND = ["single", "pair", "triple", "triple_pair", "bomb"];
// The sequence line: an ace is low in a run that holds a 2 (A-2-3...), high otherwise.
const LINE = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

function combinationName(kind, count) {
  if (kind === "bomb" && count) return count === 8 ? "bomb of 8 (天王炸)" : `bomb of ${count}`;
  return COMBINATIONS[kind] || spaced(kind);
}

function rankPlural(rank) {
  return rank === "6" ? "6es" : `${rank}s`;
}

// The top combination in words: "pair of 7s", "airplane with pairs up to Q", "bomb: 6 × K".
function combinationPhrase(kind, count, rank) {
  switch (kind) {
    case "single": return `single ${rank}`;
    case "pair": return `pair of ${rankPlural(rank)}`;
    case "triple": return `three ${rankPlural(rank)}`;
    case "triple_pair": return `three ${rankPlural(rank)} with a pair`;
    case "bomb": return count === 8 ? `bomb: 8 × ${rank} (天王炸, unbeatable)` : `bomb: ${count} × ${rank}`;
    case "straight":
    case "consecutive_pairs":
    case "airplane":
    case "airplane_pairs":
    case "straight_flush":
      return `${COMBINATIONS[kind]} up to ${rank} (${count} cards)`;
    default: return combinationName(kind, count);
  }
}

// A play command's combination in words, its rank read from its cards.
function playPhrase(command) {
  const ranks = command.cards.map(rankOf);
  let rank;
  if (OF_A_KIND.includes(command.combination)) {
    const counts = {};
    ranks.forEach((r) => (counts[r] = (counts[r] || 0) + 1));
    rank = Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0];
  } else {
    const aceLow = ranks.includes("A") && ranks.includes("2");
    const position = (r) => (r === "A" ? (aceLow ? 1 : 14) : LINE.indexOf(r));
    rank = ranks.reduce((best, r) => (position(r) > position(best) ? r : best));
  }
  return combinationPhrase(command.combination, command.cards.length, rank);
}

// --- playing --------------------------------------------------------------------------------

function sortedRanks(cards) {
  return cards.map(rankOf).sort().join(",");
}

function isFlush(cards) {
  return cards.length > 1 && cards.every((c) => suitOf(c) === suitOf(cards[0]));
}

// The service lists one play per combination, with cards of its choosing: the selected cards
// make each listed combination of the same ranks, a straight flush only in one suit and a
// straight only in several.
export function commandsForSelection(selected, commands) {
  const ranks = sortedRanks(selected);
  const flush = isFlush(selected);
  const kinds = new Map();
  for (const command of commands) {
    if (command.type !== "play" || sortedRanks(command.cards) !== ranks) continue;
    if (command.combination === "straight_flush" && !flush) continue;
    if (command.combination === "straight" && flush) continue;
    kinds.set(command.combination, { type: "play", cards: selected, combination: command.combination });
  }
  return [...kinds.values()];
}

export const moves = {
  play: {
    label: (command) => `Play ${playPhrase(command)}`,
    group: (command) => combinationName(command.combination),
  },
  pass: { label: () => "Pass", primary: true },
  bury: {
    label: (command) => (command.cards.length ? `Bury ${cardsLabel(command.cards)}` : "Bury nothing"),
    toPick: "cards to bury",
  },
};

// --- the log --------------------------------------------------------------------------------

export function describe(event, who) {
  const p = event.payload;
  const by = who(p.seat);
  switch (event.type) {
    case "FirstDealerDrawn":
      return `${by} is drawn as the first dealer.`;
    case "CardsBuried": {
      const cards = secretValue(p.cards);
      return p.count
        ? `${by} buries ${plural(p.count, "card")} face down${cards ? ` (${cardsLabel(cards)})` : ""}.`
        : `${by} buries nothing.`;
    }
    case "CombinationPlayed":
      return `${by} plays a ${combinationName(p.combination, p.cards.length)}: ${cardsLabel(p.cards)}${p.bonus ? ` (+${p.bonus} bomb bonus)` : ""}.`;
    case "TurnPassed":
      return `${by} passes.`;
    case "AllianceFormed":
      return `${who(p.copier)} copies ${who(p.leader)}'s lead: they are allies.`;
    case "AllianceBroken":
      return `Betrayal! ${who(p.by)} bombs ally ${who(p.ally)}: the alliance is broken.`;
    case "PlayerWentOut":
      return `${by} goes out, finishing ${ordinal(p.place)}.`;
    case "LeadInherited":
      return `${by} takes the lead, as ${who(p.from_seat)} has gone out.`;
    case "HandSettled":
      return `Hand ${p.hand} settled: ${p.points.map((x, s) => `${who(s)} ${x > 0 ? "+" : ""}${x}`).join(", ")}.`;
    default:
      return null;
  }
}

// --- the table ------------------------------------------------------------------------------

export function ending(view) {
  const hands = view.table.hands_to_play;
  return `${hands === 1 ? "The hand was" : `All ${hands} hands were`} played: the highest total wins.`;
}

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
  if (t.results.length) parts.push(block("Hand and match scores", scores(view, ctx), buriedBefore(t.results, ctx)));
  return parts;
}

// A row per seat: the match total, then each hand's points, the latest first.
function scores(view, ctx) {
  const match = { head: "match", cell: (seat) => el("td", "sum", view.scores[seat]) };
  const hands = [...view.table.results].reverse().map((result) => ({
    head: `hand ${result.hand}`,
    cell(seat) {
      const place = result.order.indexOf(seat);
      const label = place >= 0 ? ordinal(place + 1) : result.last === seat ? "last" : "";
      const total = result.places[seat] + result.bonuses[seat];
      return el("td", "", `${total > 0 ? "+" : ""}${total}`, el("small", "", ` ${label}${result.bonuses[seat] ? `, bombs +${result.bonuses[seat]}` : ""}`));
    },
  }));
  return seatTable(view, ctx.who, [match, ...hands]);
}

// The cards buried in the hands played, public once each hand is over.
function buriedBefore(results, ctx) {
  const buried = results.filter((result) => result.buried && result.buried.length);
  if (!buried.length) return null;
  return facts(buried.map((result) => [`buried in hand ${result.hand}`, el("span", "", `by ${ctx.who(result.dealer)} `, cardRow(result.buried, { size: "tiny" }))]));
}
