// Every event in one sentence, with the players' names. `who(seat)` names a seat.

import { cardLabel, cardsLabel } from "./cards.js";
import { combinationName, englishName, nativeName, TEMPO } from "./names.js";

function secret(value) {
  return value && value.value != null ? value.value : null;
}

function list(names) {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function winnersText(seats, who) {
  if (!seats || !seats.length) return "nobody wins";
  return `${list(seats.map(who))} win${seats.length === 1 ? "s" : ""}`;
}

const BY = { creator: "by its creator", vote: "by a vote of the players", admin: "by the operator" };

export function describe(event, who, variant) {
  const p = event.payload || {};
  const by = p.seat !== undefined && p.seat !== null ? who(p.seat) : "";
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
      return `${by} leaves the table.`;
    case "CancelVoted":
      return `${by} votes to cancel the game.`;
    case "GameCancelled":
      return `The game is cancelled ${BY[p.by] || p.by}; the seed is revealed.`;
    case "GameFinished":
      return `Game over: ${winnersText(p.winners, who)}. Final scores ${p.scores.join(" / ")}; the seed is revealed.`;
    // Open Hand
    case "FirstLeaderChosen":
      return p.method === "cutter"
        ? `${by} leads first (the seat right of the dealer).`
        : `${by} drew the highest card and leads first.`;
    case "CardPlayed":
      return `${by} plays ${cardLabel(p.card)}${variant === "one-up-one-down" ? " face up" : ""}.`;
    case "TrickWon":
      return p.cards && p.cards.length && p.points !== undefined && p.trick !== undefined
        ? `${by} wins trick ${p.trick} (${cardsLabel(p.cards)})${p.points ? `, +${p.points}` : ""}.`
        : `${by} wins the trick.`;
    // Heartbeat
    case "TempoDeckShuffled":
      return `The tempo deck (${plural(p.size, "card")}) is shuffled.`;
    case "TempoCardFlipped": {
      const [name, meaning] = TEMPO[p.tempo] || [p.tempo || "no tempo card", ""];
      return `Round ${p.round}: the tempo card is ${name}${meaning ? " — " + meaning : ""}.`;
    }
    case "CardShown": {
      const card = p.card || secret(p.sealed);
      return `${by} reveals ${card ? cardLabel(card) : "a card of rank " + p.rank}.`;
    }
    case "CardChosen": {
      const card = secret(p.card);
      return `${by} chooses a card face down${card ? ` (${cardLabel(card)})` : ""}.`;
    }
    case "ChoiceTimedOut":
      return `Time is up: a card is picked at random for ${list(p.seats.map(who))}.`;
    case "ChoicesRevealed":
      return `Round ${p.round}, the choices turn over: ${p.plays.map((x) => `${who(x.seat)} ${cardLabel(x.card)}`).join(", ")}.`;
    case "RoundScored": {
      const chips = p.winners.length ? ` (${p.chips.map((c, s) => (c ? `${who(s)} +${c}` : "")).filter(Boolean).join(", ")})` : "";
      return `Round ${p.round}${p.tempo ? " (" + (TEMPO[p.tempo] || [p.tempo])[0] + ")" : ""}: ${winnersText(p.winners, who)}${chips}.`;
    }
    // Cancellation Hearts
    case "CardsPassed": {
      const cards = secret(p.cards);
      return `${by} passes three cards face down${cards ? ` (${cardsLabel(cards)})` : ""}.`;
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
      return `${by} shot the moon: every heart and both queens of spades!`;
    case "PenaltiesScored": {
      const moon = p.moon != null ? ` ${who(p.moon)} shot the moon (${p.moon_choice}).` : "";
      return `Hand ${p.hand} scored: ${p.points.map((x, s) => `${who(s)} ${x}`).join(", ")}.${moon} Totals ${p.totals.join(" / ")}.`;
    }
    // One Up One Down
    case "FirstPlayerDrawn":
      return `${by} drew the highest card and plays first.`;
    case "CardPlayedFaceDown": {
      const card = secret(p.card);
      return `${by} plays a card face down, declaring ${p.declared}${card ? ` (really ${cardLabel(card)})` : ""}.`;
    }
    case "CardDrawn": {
      const card = secret(p.card);
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
    case "ChallengeResolved":
      return `${who(p.challenger)} challenged ${by}: the card is ${cardLabel(p.card)}, declared ${p.declared} — the challenge ${p.succeeded ? `succeeds, ${by} takes the pile` : `fails, ${who(p.challenger)} takes the pile`}.`;
    case "PileCollected":
      return `${by} picks up the pile${p.shown && p.shown.length ? ` (${plural(p.shown.length + ((secret(p.hidden) || []).length), "card")})` : ""} and starts a new round.`;
    case "EndVoted":
      return `${by} votes to end the game.`;
    case "LastCardStood":
      return `${by}'s last card stands: ${by} wins!`;
    case "StalemateEnded":
      return `The game ends ${p.reason === "cap" ? "at the play limit" : "by agreement"}: fewest cards wins — ${winnersText(p.winners, who)}.`;
    // Double Heartbeat
    case "FirstDealerDrawn":
      return `${by} is drawn as the first dealer.`;
    case "CardsBuried": {
      const cards = secret(p.cards);
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
      return `${event.type.replace(/([a-z])([A-Z])/g, "$1 $2")}${by ? " — " + by : ""}.`;
  }
}

export function ordinal(n) {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}
