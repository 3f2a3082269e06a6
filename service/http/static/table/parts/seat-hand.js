// A seat's hand on the felt: backs while this perspective may not see it; once it may, the cards
// face up in the variant's order, a row per suit when the hand is longer than a fan that fits
// (a double deck deals 17 to 36 cards), so it reads like a hand held in order, not a heap.

import { el } from "../../shared/dom.js";
import { cardFace, cardRow, rankOf, suitOf } from "../cards.js";

const USUAL_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER = ["S", "H", "C", "D", ""]; // the jokers after the suits
const ROWS_FROM = 8; // a fan of more would wrap in a seat's box: a row per suit then
const BACKS_DRAWN = 10;

// By suit where suits matter, then low to high in the variant's rank order (ranks it does not
// list, such as jokers, rank above it), as the seat's own hand is listed.
export function sortHand(cards, { rankOrder = USUAL_ORDER, suitsMatter = true } = {}) {
  const strength = (card) => {
    const at = rankOrder.indexOf(rankOf(card));
    return at >= 0 ? at : rankOrder.length + (card === "RJ" ? 1 : 0);
  };
  const suit = (card) => (suitsMatter ? SUIT_ORDER.indexOf(suitOf(card)) : 0);
  return [...cards].sort((a, b) => suit(a) - suit(b) || strength(a) - strength(b));
}

function fan(cards) {
  const row = el("span", "cards fan");
  for (const card of cards) row.append(cardFace(card, "tiny"));
  return row;
}

// `variant` is the table module: its `rankOrder` and `suitsMatter` say how the hand sorts.
export function seatHand(hand, size, variant) {
  if (!hand) return cardRow(null, { count: size, size: "tiny", limit: BACKS_DRAWN, more: false });
  const sorted = sortHand(hand, variant);
  if (sorted.length < ROWS_FROM || variant.suitsMatter === false) return fan(sorted);
  const rows = el("span", "suits");
  for (const suit of SUIT_ORDER) {
    const cards = sorted.filter((card) => suitOf(card) === suit);
    if (cards.length) rows.append(fan(cards));
  }
  return rows;
}
