// Heartbeat (心跳): three rounds of secret simultaneous choices under a tempo card.

import { el } from "../../shared/dom.js";
import { listed, plural, secretValue, winnersText } from "../../shared/words.js";
import { cardBack, cardFace, cardLabel } from "../cards.js";
import { block, seatTable } from "../table-parts.js";

export const scoreUnit = "chips";
// By value (RULES.md §1): a joker 0, A 1, J/Q/K 10; suits never matter.
export const rankOrder = ["BJ", "RJ", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const suitsMatter = false;

// The tempo cards: name and what each does to its round.
const TEMPO = {
  pressure: ["Pressure", "choose before the timer runs out"],
  reveal: ["Reveal", "everyone shows a card first"],
  reverse: ["Reverse", "the lowest card wins"],
  double: ["Double", "winners take 2 chips"],
};

function tempoName(tempo) {
  return (TEMPO[tempo] || [tempo])[0];
}

export function describe(event, who) {
  const p = event.payload;
  switch (event.type) {
    case "TempoDeckShuffled":
      return `The tempo deck (${plural(p.size, "card")}) is shuffled.`;
    case "TempoCardFlipped": {
      const [name, meaning] = TEMPO[p.tempo] || [p.tempo || "no tempo card", ""];
      return `Round ${p.round}: the tempo card is ${name}${meaning ? " — " + meaning : ""}.`;
    }
    case "CardShown": {
      const card = p.card || secretValue(p.sealed);
      return `${who(p.seat)} reveals ${card ? cardLabel(card) : "a card of rank " + p.rank}.`;
    }
    case "CardChosen": {
      const card = secretValue(p.card);
      return `${who(p.seat)} chooses a card face down${card ? ` (${cardLabel(card)})` : ""}.`;
    }
    case "ChoiceTimedOut":
      return `Time is up: a card is picked at random for ${listed(p.seats.map(who))}.`;
    case "ChoicesRevealed":
      return `Round ${p.round}, the choices turn over: ${p.plays.map((x) => `${who(x.seat)} ${cardLabel(x.card)}`).join(", ")}.`;
    case "RoundScored": {
      const chips = p.winners.length ? ` (${p.chips.map((c, s) => (c ? `${who(s)} +${c}` : "")).filter(Boolean).join(", ")})` : "";
      return `Round ${p.round}${p.tempo ? ` (${tempoName(p.tempo)})` : ""}: ${winnersText(p.winners, who)}${chips}.`;
    }
    default:
      return null;
  }
}

export function ending(view) {
  return `All ${view.table.rounds_total} rounds were played: the most chips win.`;
}

export function badges(view, seat) {
  const t = view.table;
  if (view.status !== "active") return [];
  if (t.phase === "choose" && t.chosen[seat]) return ["chosen"];
  if (t.phase === "reveal" && t.shown.some((s) => s.round === t.round && s.seat === seat)) return ["revealed"];
  return [];
}

export function actingWords(view) {
  return view.table.phase === "reveal" ? "to reveal a card" : "to choose a card";
}

function tempoCard(tempo, left) {
  const [name, meaning] = TEMPO[tempo] || ["No tempo card", "the highest card wins"];
  const card = el("div", `tempo tempo-${tempo || "none"}`, el("b", "", name), el("span", "", meaning));
  card.dataset.tempo = tempo || "";
  return el("div", "tempo-area", card, left ? el("span", "stack", cardBack("tiny", "tempo deck"), ` ${left} left`) : null);
}

export function center(view, ctx) {
  const t = view.table;
  const parts = [];
  const over = t.phase === "over";
  parts.push(block(over ? "All three rounds played" : `Round ${t.round} of ${t.rounds_total}`, over ? null : tempoCard(t.tempo, t.tempo_cards_left)));
  const shownNow = t.shown.filter((s) => s.round === t.round);
  if (!over && (t.phase === "reveal" || shownNow.length)) {
    const row = el("div", "plays");
    for (const shown of shownNow) {
      const card = shown.card ? cardFace(shown.card) : el("span", "card small rank-only", shown.rank);
      row.append(el("div", "play", card, el("span", "by", ctx.who(shown.seat))));
    }
    parts.push(block("Revealed (stays in hand, not playable this round)", row));
  }
  if (!over && t.phase === "choose") {
    const row = el("div", "plays choices");
    t.chosen.forEach((chosen, seat) => {
      const card = t.choices[seat] ? cardFace(t.choices[seat]) : chosen ? cardBack("small", "chosen, face down") : el("span", "card small empty", "…");
      const spot = el("div", "play", card, el("span", "by", ctx.who(seat)));
      spot.dataset.seat = seat;
      row.append(spot);
    });
    parts.push(block("Choices, face down until everyone has chosen", row));
  }
  if (t.rounds.length) {
    const columns = t.rounds.map((round) => ({
      head: el("span", "", `round ${round.round}`, el("small", "", round.tempo ? ` ${tempoName(round.tempo)}` : "")),
      cell(seat) {
        const play = round.plays.find((p) => p.seat === seat);
        const cell = el("td", round.winners.includes(seat) ? "won" : "", play ? cardFace(play.card, "tiny") : "—");
        if (round.chips[seat]) cell.append(` +${round.chips[seat]}`);
        cell.title = play ? `${cardLabel(play.card)}${round.winners.includes(seat) ? ", wins" : ""}` : "";
        return cell;
      },
    }));
    parts.push(block("Reveals and chips, round by round", seatTable(view, ctx.who, columns)));
  }
  return parts;
}
