// Shared by the lobby and the viewer: cards drawn as cards, events told in words.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const CARD_CODE = /^(10|[2-9JQKA])([SHDC])$|^(BJ|RJ)$/;

function isCard(value) {
  return typeof value === "string" && CARD_CODE.test(value);
}

function cardLabel(code) {
  if (code === "BJ") return "small joker";
  if (code === "RJ") return "big joker";
  return code.slice(0, -1) + SUITS[code.slice(-1)];
}

function cardElement(code, small) {
  const el = document.createElement("span");
  el.className = "card" + (small ? " small" : "");
  el.dataset.card = code;
  if (code === "BJ" || code === "RJ") {
    el.classList.add("joker");
    if (code === "RJ") el.classList.add("red");
    el.textContent = code === "RJ" ? "JOKER" : "joker";
  } else {
    const suit = code.slice(-1);
    if (suit === "H" || suit === "D") el.classList.add("red");
    el.textContent = cardLabel(code);
  }
  el.title = cardLabel(code);
  return el;
}

function cardBack(small) {
  const el = document.createElement("span");
  el.className = "card back" + (small ? " small" : "");
  el.textContent = "?";
  return el;
}

function cards(list) {
  return (list || []).map(cardLabel).join(" ");
}

function secretCards(secret) {
  if (!secret || secret.value == null) return "hidden cards";
  return Array.isArray(secret.value) ? cards(secret.value) : cardLabel(secret.value);
}

// One sentence per event. `who(seat)` names a seat.
function describe(event, who) {
  const p = event.payload || {};
  const by = p.seat !== undefined ? who(p.seat) : "";
  switch (event.type) {
    case "GameCreated": return `${p.variant} game created for ${p.seat_count} players; seed commitment ${p.seed_commitment.slice(0, 12)}…`;
    case "SeatTaken": return `${p.name} takes seat ${p.seat}.`;
    case "GameStarted": return "Every seat is taken: the game starts.";
    case "HandDealt": return `Hand ${p.hand} dealt by ${who(p.dealer)}.`;
    case "FirstLeaderChosen": return `${by} leads first (${p.method === "cutter" ? "right of the dealer" : "highest draw: " + cards(p.draws)}).`;
    case "CardPlayed": return `${by} played ${cardLabel(p.card)}.`;
    case "TrickWon": return `${by} wins trick ${p.trick} with ${cards(p.cards)}.`;
    case "PlayerLeft": return `${by} left the table.`;
    case "CancelVoted": return `${by} votes to cancel.`;
    case "GameCancelled": return `Game cancelled (${p.by}); the seed is revealed.`;
    case "GameFinished": return `Game over. Winners: ${p.winners.map(who).join(", ")}. Scores ${p.scores.join(" / ")}.`;
    case "TempoDeckShuffled": return `The tempo deck (${p.size} cards) is shuffled.`;
    case "TempoCardFlipped": return `Round ${p.round}: tempo card ${p.tempo}${p.deadline ? " — choose before the deadline" : ""}.`;
    case "CardShown": {
      const card = p.card || (p.sealed && p.sealed.value);
      return `${by} reveals ${card ? cardLabel(card) : "a card of rank " + p.rank}.`;
    }
    case "CardChosen": return `${by} has chosen a card${p.card && p.card.value ? " (" + cardLabel(p.card.value) + ")" : ""}.`;
    case "ChoiceTimedOut": return `Time is up: a card is picked for ${p.seats.map(who).join(", ")}.`;
    case "ChoicesRevealed": return `Round ${p.round} choices: ${p.plays.map((x) => who(x.seat) + " " + cardLabel(x.card)).join(", ")}.`;
    case "RoundScored": return `Round ${p.round} (${p.tempo || "plain"}): ${p.winners.map(who).join(", ")} win${p.winners.length === 1 ? "s" : ""}.`;
    case "CardsPassed": return `${by} passes three cards${p.cards && p.cards.value ? " (" + secretCards(p.cards) + ")" : ""}.`;
    case "PassesDelivered": return `Passes delivered to the ${p.direction}.`;
    case "TrickResolved": {
      const cancelled = (p.cancelled || []).length ? ` ${cards(p.cancelled)} cancel;` : "";
      const outcome = p.winner == null ? " nobody wins the trick" + (p.last ? " (last trick: nobody collects)" : "; the cards are carried over") : ` ${who(p.winner)} wins the trick`;
      return `Trick ${p.trick}:${cancelled}${outcome}.`;
    }
    case "MoonShot": return `${by} shot the moon!`;
    case "PenaltiesScored": return `Hand ${p.hand} scored: ${p.points.join(" / ")} (totals ${p.totals.join(" / ")}).`;
    case "FirstPlayerDrawn": return `${by} drew the highest card and plays first.`;
    case "CardPlayedFaceDown": return `${by} plays a card face down, declaring ${p.declared}${p.card && p.card.value ? " (really " + cardLabel(p.card.value) + ")" : ""}.`;
    case "CardDrawn": return `${by} draws a card${p.card && p.card.value ? " (" + cardLabel(p.card.value) + ")" : ""}.`;
    case "Challenged": return `${by} challenges!`;
    case "ChallengeDeclined": return `${by} declines to challenge.`;
    case "ChallengeWindowExpired": return "The challenge window runs out.";
    case "ChallengeWindowClosed": return `Nobody challenged: ${by}'s ${p.declared} stands.`;
    case "ChallengeResolved": return `${who(p.challenger)} challenged ${by}: the card was ${cardLabel(p.card)}, declared ${p.declared} — the challenge ${p.succeeded ? "succeeds" : "fails"}.`;
    case "PileCollected": return `${by} takes the pile.`;
    case "EndVoted": return `${by} votes to end the game.`;
    case "LastCardStood": return `${by}'s last card stands: ${by} wins!`;
    case "StalemateEnded": return `The game ends (${p.reason}); fewest cards wins.`;
    case "FirstDealerDrawn": return `${by} is the first dealer.`;
    case "CardsBuried": return `${by} buries ${p.count} card${p.count === 1 ? "" : "s"}${p.cards && p.cards.value ? " (" + secretCards(p.cards) + ")" : ""}.`;
    case "CombinationPlayed": return `${by} plays ${p.combination} ${cards(p.cards)}${p.bonus ? ` (+${p.bonus} bomb bonus)` : ""}.`;
    case "TurnPassed": return `${by} passes.`;
    case "AllianceFormed": return `${who(p.copier)} copies ${who(p.leader)}'s lead: they are allies.`;
    case "AllianceBroken": return `${who(p.by)} bombs ally ${who(p.ally)}: the alliance is broken.`;
    case "PlayerWentOut": return `${by} goes out in place ${p.place}.`;
    case "LeadInherited": return `${by} leads, as ${who(p.from_seat)} has gone out.`;
    case "HandSettled": return `Hand ${p.hand} settled: ${p.points.join(" / ")}.`;
    default: return `${event.type}${by ? " by " + by : ""}.`;
  }
}

async function getJSON(url, token) {
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const response = await fetch(url, { headers });
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(body.detail || response.statusText), { problem: body });
  return body;
}
