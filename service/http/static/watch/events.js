// Every event in one sentence, with the players' names. `who(seat)` names a seat.
// Here: the events domain/events.py defines for every variant (the lifecycle, the deal, a card
// played, a trick won). A variant's own events, and its own way of saying a shared one, come from
// its table module's `describe`, asked first; an event nobody words is named by its type.

import { englishName, nativeName } from "../shared/names.js";
import { spaced, winnersText } from "../shared/words.js";
import { cardLabel, cardsLabel } from "../table/cards.js";
import { tableModule } from "../table/table-modules.js";

const BY = { creator: "by its creator", vote: "by a vote of the players", admin: "by the operator" };

function shared(event, who) {
  const p = event.payload;
  switch (event.type) {
    case "GameCreated":
      return `A game of ${nativeName(p.variant)} (${englishName(p.variant)}) is created for ${p.seat_count} players; the seed commitment ${p.seed_commitment.slice(0, 12)}… is published.`;
    case "SeatTaken":
      return `${p.name} takes seat ${p.seat}${p.client_seed ? ", adding a client seed" : ""}.`;
    case "GameStarted":
      return "Every seat is taken: the game starts.";
    case "HandDealt":
      return `Hand ${p.hand}: ${who(p.dealer)} deals.`;
    case "PlayerLeft":
      return `${who(p.seat)} leaves the table.`;
    case "CancelVoted":
      return `${who(p.seat)} votes to cancel the game.`;
    case "GameCancelled":
      return `The game is cancelled ${BY[p.by] || p.by}; the seed is revealed.`;
    case "GameFinished":
      return `Game over${p.reason === "forfeit" ? " by forfeit, fewer than two players being left" : ""}: ${winnersText(p.winners, who)}. Final scores ${p.scores.join(" / ")}; the seed is revealed.`;
    case "CardPlayed":
      return `${who(p.seat)} plays ${cardLabel(p.card)}.`;
    case "TrickWon":
      return `${who(p.seat)} wins trick ${p.trick} (${cardsLabel(p.cards)})${p.points ? `, +${p.points}` : ""}.`;
    default:
      return null;
  }
}

export function describe(event, who, variant) {
  const own = tableModule(variant).describe;
  const sentence = (own && own(event, who)) || shared(event, who);
  if (sentence) return sentence;
  const seat = event.payload.seat;
  return `${spaced(event.type)}${seat != null ? " — " + who(seat) : ""}.`;
}
