// One Up One Down (一上一下): face up, face down, bluff and challenge.

import { countdown, el } from "../../shared/dom.js";
import { capitalise, listed, plural, secretValue, spaced, winnersText } from "../../shared/words.js";
import { cardBack, cardFace, cardLabel } from "../cards.js";
import { block, facts } from "../table-parts.js";

export const scoreUnit = "";
export const rankOrder = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]; // RULES.md §5
export const suitsMatter = false;

// Why a game ended without a last card that stood (StalemateEnded's reason); `max` the cap.
const STALEMATES = {
  vote: () => "every player still in voted to end it once the stock was empty",
  cap: (max) => (max ? `the limit of ${max} plays was reached` : "the play limit was reached"),
  blocked: () => "nobody still in had a card to play",
  abandoned: () => "at most one player was still in",
};

function stalemateWords(reason, max) {
  return STALEMATES[reason] ? STALEMATES[reason](max) : `it ended (${spaced(reason)})`;
}

// How the game ended (RULES.md §5, Winning and Stalemate), from the table's `ended_by`.
function endedWords(view, who) {
  const t = view.table;
  if (t.ended_by === "last_card") {
    // Between LastCardStood and GameFinished there are no winners yet: the seat without cards.
    const out = view.winners || view.hand_sizes.flatMap((size, seat) => (size === 0 ? [seat] : []));
    return `${listed(out.map(who))}'s last card stood`;
  }
  return `${capitalise(stalemateWords(t.ended_by, t.options.max_plays))}: the fewest cards win`;
}

export function ending(view, ctx) {
  return `${endedWords(view, ctx.who)}.`;
}

export function describe(event, who) {
  const p = event.payload;
  const by = who(p.seat);
  switch (event.type) {
    case "CardPlayed":
      return `${by} plays ${cardLabel(p.card)} face up.`;
    case "FirstPlayerDrawn":
      return `${by} drew the highest card and plays first.`;
    case "CardPlayedFaceDown": {
      const card = secretValue(p.card);
      return `${by} plays a card face down, declaring ${p.declared}${card ? ` (really ${cardLabel(card)})` : ""}.`;
    }
    case "CardDrawn": {
      const card = secretValue(p.card);
      return `${by} draws a card from the stock${card ? ` (${cardLabel(card)})` : ""}.`;
    }
    case "Challenged":
      return `${by} challenges!`;
    case "ChallengeDeclined":
      return `${by} lets it stand.`;
    case "ChallengeWindowExpired":
      return "The challenge window runs out.";
    case "ChallengeWindowClosed":
      return `Nobody challenged: ${by}'s ${p.declared} stands.`;
    case "ChallengeResolved": {
      const challenger = who(p.challenger);
      const result = p.succeeded ? `succeeds, ${by} takes the pile` : `fails, ${challenger} takes the pile`;
      return `${challenger} challenged ${by}: the card is ${cardLabel(p.card)}, declared ${p.declared} — the challenge ${result}.`;
    }
    case "PileCollected": {
      const count = p.shown && p.shown.length ? ` (${plural(p.shown.length + (secretValue(p.hidden) || []).length, "card")})` : "";
      return `${by} picks up the pile${count} and starts a new round.`;
    }
    case "EndVoted":
      return `${by} votes to end the game.`;
    case "LastCardStood":
      return `${by}'s last card stands: ${by} wins!`;
    case "StalemateEnded":
      return `The game ends: ${stalemateWords(p.reason)}, so the fewest cards win — ${winnersText(p.winners, who)}.`;
    default:
      return null;
  }
}

export const moves = {
  play_up: { hint: "Click a card to play it face up." },
  play_down: {
    hint: "Click a card to play it face down, then declare a rank.",
    choosing: (card) => `Play ${cardLabel(card)} face down, declaring: `,
    label: (command) => command.declared,
  },
  challenge: { label: () => "Challenge!", primary: true },
  decline: { label: () => "Let it stand" },
  vote_end: { label: () => "Vote to end the game" },
};

export function badges(view, seat) {
  const t = view.table;
  const marks = [];
  if (t.end_votes.includes(seat)) marks.push("votes to end");
  const window = t.challenge;
  if (window && window.challenged.includes(seat)) marks.push("challenges");
  if (window && window.declined.includes(seat)) marks.push("lets it stand");
  return marks;
}

export function actingWords(view) {
  const t = view.table;
  if (t.challenge && t.challenge.awaiting.length) return "may challenge";
  return `to play face ${t.facing}`;
}

export function center(view, ctx) {
  const t = view.table;
  const parts = [];
  const arrow = t.facing === "up" ? "↑" : "↓";
  const target = el("div", "target", el("span", "rank", t.target), el("span", `arrow ${t.facing}`, arrow));
  target.title = `target ${t.target}; the next card is played face ${t.facing}`;
  const stock = el("div", "stock", cardBack("small", "the stock"), el("span", "", `${t.stock_size} in the stock`));
  parts.push(block(`Round ${t.round}`, el("div", "target-row", target, el("p", "phase", `Target ${t.target}; next card face ${t.facing}${t.to_play != null ? `, ${ctx.who(t.to_play)} to play` : ""}.`), stock)));
  const pile = el("div", "pile");
  for (const card of t.pile) {
    const face = card.face_down && !card.revealed ? (card.card ? cardFace(card.card) : cardBack()) : cardFace(card.card);
    if (card.face_down && !card.revealed && card.card) face.classList.add("peek");
    const spot = el("div", `play ${card.face_down ? "down" : "up"}`, face, el("span", "by", ctx.who(card.seat)));
    if (card.face_down) spot.append(el("span", "declared", `says ${card.declared}`));
    pile.append(spot);
  }
  parts.push(block(`The pile (${t.pile.length})`, t.pile.length ? pile : el("p", "phase", "empty")));
  if (t.challenge) {
    const c = t.challenge;
    const window = el("div", "challenge",
      el("p", "", `${ctx.who(c.seat)} played face down and says ${c.declared} (the target was ${c.target}).`),
      facts([
        ["waiting for", c.awaiting.length ? c.awaiting.map(ctx.who).join(", ") : null],
        ["challenged", c.challenged.length ? c.challenged.map(ctx.who).join(", ") : null],
        ["let it stand", c.declined.length ? c.declined.map(ctx.who).join(", ") : null],
      ]));
    if (c.deadline && ctx.live) window.append(el("p", "", "Window closes in ", countdown(c.deadline)));
    parts.push(block("Challenge?", window));
  }
  parts.push(facts([
    ["plays", `${t.plays} of at most ${t.options.max_plays}`],
    ["votes to end", t.end_votes.length ? t.end_votes.map(ctx.who).join(", ") : null],
    // once the game is over the ending above the table says it
    ["ended", t.ended_by && view.status === "active" ? endedWords(view, ctx.who) : null],
  ]));
  return parts;
}
