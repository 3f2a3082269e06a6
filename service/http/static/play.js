// Playing from the page: the seated player's hand and the moves the service lists for it.

import { cardFace, cardLabel, cardsLabel, rankOf, suitOf } from "./cards.js";
import { clear, countdown, el } from "./dom.js";
import { combinationPhrase, COMBINATIONS } from "./names.js";

const LINE = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const pick = { version: -1, selected: new Set(), down: null };

const WORDS = {
  pass: "Pass",
  challenge: "Challenge!",
  decline: "Let it stand",
  vote_end: "Vote to end the game",
  vote_cancel: "Vote to cancel the game",
  leave: "Leave the table",
};

function button(label, command, ctx, className = "") {
  const node = el("button", `move ${className}`.trim(), label);
  node.type = "button";
  node.dataset.command = JSON.stringify(command);
  node.onclick = () => ctx.send(command);
  return node;
}

function sortedRanks(cards) {
  return cards.map(rankOf).sort().join(",");
}

function isFlush(cards) {
  return cards.length > 1 && cards.every((c) => suitOf(c) === suitOf(cards[0]));
}

// The combinations the service lists that the selected cards could be played as.
function selectionPlays(selected, plays) {
  const ranks = sortedRanks(selected);
  const flush = isFlush(selected);
  const kinds = new Map();
  for (const command of plays) {
    if (sortedRanks(command.cards) !== ranks) continue;
    if (command.combination === "straight_flush" && !flush) continue;
    if (command.combination === "straight" && flush) continue;
    kinds.set(command.combination, { type: "play", cards: selected, combination: command.combination });
  }
  return [...kinds.values()];
}

function takeCards(pool, cards) {
  const rest = [...pool];
  for (const card of cards) {
    const at = rest.indexOf(card);
    if (at < 0) return null;
    rest.splice(at, 1);
  }
  return rest;
}

// A choice form ({type: "choice", command, field, from, min, max}) stands for every command
// made by appending min..max of its entries to the command's cards: the one the selection makes.
function matchForm(form, selected) {
  const fixed = form.command[form.field] || [];
  const rest = takeCards(selected, fixed);
  if (!rest) return null;
  const picks = [];
  const search = (pool, start) => {
    if (!pool.length) return picks.length >= form.min && picks.length <= form.max;
    if (picks.length >= form.max) return false;
    for (let i = start; i < form.from.length; i++) {
      const after = takeCards(pool, form.from[i]);
      if (!after) continue;
      picks.push(form.from[i]);
      if (search(after, i + 1)) return true;
      picks.pop();
    }
    return false;
  };
  if (!search(rest, 0)) return null;
  return { ...form.command, [form.field]: [...fixed, ...picks.flat()] };
}

function formCards(form) {
  return [...(form.command[form.field] || []), ...form.from.flat()];
}

function verbOf(command) {
  if (command.type === "pass_cards") return `Pass ${cardsLabel(command.cards)}`;
  if (command.type === "bury") return command.cards.length ? `Bury ${cardsLabel(command.cards)}` : "Bury nothing";
  if (command.type === "play" && command.combination) return `Play ${combinationOf(command)}`;
  return command.type.replaceAll("_", " ");
}

function combinationOf(command) {
  const ranks = command.cards.map(rankOf);
  const counts = {};
  ranks.forEach((r) => (counts[r] = (counts[r] || 0) + 1));
  let rank;
  if (["pair", "triple", "triple_pair", "bomb", "single"].includes(command.combination)) {
    rank = Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0];
  } else {
    const aceLow = ranks.includes("A") && ranks.includes("2");
    const position = (r) => (r === "A" ? (aceLow ? 1 : 14) : LINE.indexOf(r));
    rank = ranks.reduce((best, r) => (position(r) > position(best) ? r : best));
  }
  return combinationPhrase(command.combination, command.cards.length, rank);
}

export function renderPlay(root, view, ctx) {
  if (pick.version !== view.version) {
    pick.version = view.version;
    pick.selected.clear();
    pick.down = null;
  }
  const commands = view.legal_commands || [];
  const hand = view.hand || [];
  const single = commands.filter((c) => typeof c.card === "string");
  const multi = commands.filter((c) => Array.isArray(c.cards));
  const forms = commands.filter((c) => c.type === "choice" && c.command);
  const other = commands.filter((c) => c.card === undefined && c.cards === undefined && c.type !== "choice");
  const selected = [...pick.selected].sort((a, b) => a - b).map((i) => hand[i]);
  const selecting = multi.length + forms.length > 0 && single.length === 0;
  const usableCards = new Set([...multi.flatMap((c) => c.cards), ...forms.flatMap(formCards)]);
  const redraw = () => renderPlay(root, view, ctx);

  const status = el("p", "turn");
  if (view.status !== "active") status.textContent = view.status === "waiting" ? "The game starts when every seat is taken." : "The game is over.";
  else if (view.to_act.includes(view.seat)) {
    status.textContent = "Your move.";
    status.classList.add("yours");
    if (view.deadline) status.append(" ", countdown(view.deadline, "time left"));
  } else {
    status.textContent = view.to_act.length ? `Waiting for ${view.to_act.map(ctx.who).join(", ")}.` : "Waiting for the table.";
  }

  const cards = el("div", "hand mine");
  cards.id = "hand";
  hand.forEach((code, index) => {
    const face = cardFace(code, "");
    const own = single.filter((c) => c.card === code);
    const usable = own.length > 0 || (selecting && usableCards.has(code));
    face.tabIndex = usable ? 0 : -1;
    face.setAttribute("role", "button");
    face.classList.toggle("playable", usable);
    face.classList.toggle("selected", pick.selected.has(index) || pick.down === code);
    face.setAttribute("aria-pressed", String(pick.selected.has(index)));
    const activate = () => {
      if (selecting) {
        if (pick.selected.has(index)) pick.selected.delete(index);
        else pick.selected.add(index);
        redraw();
      } else if (own.length === 1) {
        ctx.send(own[0]);
      } else if (own.length > 1) {
        pick.down = pick.down === code ? null : code;
        redraw();
      }
    };
    face.onclick = activate;
    face.onkeydown = (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate();
      }
    };
    cards.append(face);
  });
  if (!hand.length) cards.append(el("span", "empty", "no cards in hand"));

  const moves = el("div", "moves");
  moves.id = "moves";
  const ups = single.filter((c) => c.type === "play_up");
  const downs = single.filter((c) => c.type === "play_down");
  if (ups.length) moves.append(el("p", "hint", "Click a card to play it face up."));
  if (downs.length && !pick.down) moves.append(el("p", "hint", "Click a card to play it face down, then declare a rank."));
  if (pick.down) {
    const declare = el("div", "declare", `Play ${cardLabel(pick.down)} face down, declaring: `);
    for (const command of downs.filter((c) => c.card === pick.down)) declare.append(button(command.declared, command, ctx, "rank"));
    moves.append(declare);
  }
  const plain = single.filter((c) => c.type === "play" || c.type === "reveal" || c.type === "choose");
  if (plain.length) {
    const verb = { play: "play", reveal: "reveal", choose: "choose" }[plain[0].type];
    moves.append(el("p", "hint", `Click a card to ${verb} it.`));
  }
  const passes = multi.filter((c) => c.type === "pass_cards");
  if (passes.length) {
    const size = passes[0].cards.length;
    const row = el("div", "chosen", `Pick ${size} cards to pass: `, selected.length ? cardsLabel(selected) : "none yet");
    if (selected.length === size) row.append(" ", button(`Pass these ${size}`, { type: "pass_cards", cards: selected }, ctx, "primary"));
    moves.append(row);
  }
  const buries = multi.filter((c) => c.type === "bury");
  if (buries.length) {
    const most = Math.max(...buries.map((c) => c.cards.length));
    const row = el("div", "chosen", `Bury up to ${most} cards face down: `, selected.length ? cardsLabel(selected) : "pick them in your hand");
    if (selected.length && selected.length <= most) row.append(" ", button(`Bury these ${selected.length}`, { type: "bury", cards: selected }, ctx, "primary"));
    row.append(" ", button("Bury nothing", { type: "bury", cards: [] }, ctx));
    moves.append(row);
  }
  const plays = multi.filter((c) => c.type === "play");
  if (plays.length) {
    const row = el("div", "chosen", "Selected: ", selected.length ? cardsLabel(selected) : "click cards in your hand, or pick a move below");
    const fits = selected.length ? selectionPlays(selected, plays) : [];
    for (const command of fits) {
      row.append(" ", button(`Play ${combinationOf(command)}`, command, ctx, "primary"));
    }
    if (selected.length && !fits.length) row.append(el("span", "hint", " — not a play you can make now"));
    moves.append(row);
    const groups = new Map();
    for (const command of plays) {
      if (!groups.has(command.combination)) groups.set(command.combination, []);
      groups.get(command.combination).push(command);
    }
    for (const [kind, list] of groups) {
      const group = el("details", "group", el("summary", "", `${COMBINATIONS[kind] || kind} (${list.length})`));
      group.open = groups.size <= 2 || list.length <= 4;
      for (const command of list) group.append(button(cardsLabel(command.cards), command, ctx, "small"));
      moves.append(group);
    }
  }
  if (forms.length) {
    const made = forms.map((form) => matchForm(form, selected)).filter(Boolean);
    const seen = new Set();
    const row = el("div", "chosen form", "Your pick: ", selected.length ? cardsLabel(selected) : "click cards in your hand");
    for (const command of made) {
      const key = JSON.stringify(command);
      if (seen.has(key)) continue;
      seen.add(key);
      row.append(" ", button(verbOf(command), command, ctx, "primary"));
    }
    if (selected.length && !made.length) row.append(el("span", "hint", " — that pick is not a legal move"));
    moves.append(row);
    for (const form of forms) {
      const fixed = form.command[form.field] || [];
      const size = form.min === form.max ? `${form.min}` : `${form.min} to ${form.max}`;
      const what = { pass_cards: "cards to pass", bury: "cards to bury" }[form.command.type] || "more cards";
      const hint = el("p", "hint form-hint", fixed.length ? `${verbOf({ ...form.command, [form.field]: fixed })} + pick ${size} of ${form.from.map(cardsLabel).join(", ")}` : `Pick ${size} ${what}.`);
      if (fixed.length) {
        const take = el("button", "small", "select it");
        take.type = "button";
        take.onclick = () => {
          pick.selected.clear();
          const pool = hand.map((card, index) => [card, index]);
          for (const card of fixed) {
            const at = pool.findIndex(([c]) => c === card);
            if (at >= 0) pick.selected.add(pool.splice(at, 1)[0][1]);
          }
          redraw();
        };
        hint.append(" ", take);
      }
      moves.append(hint);
    }
  }
  const row = el("div", "buttons");
  for (const command of other) {
    if (command.type === "moon") {
      const points = (view.table && view.table.options && view.table.options.moon_points) || 26;
      const label = command.choice === "subtract" ? `Take −${points} myself` : `Give +${points} to every other player`;
      row.append(button(label, command, ctx, "primary"));
    } else if (command.type === "leave") {
      const leave = el("button", "move danger", WORDS.leave);
      leave.type = "button";
      leave.onclick = () => {
        leave.replaceWith(el("span", "confirm", "Really leave? ", button("Yes, leave", command, ctx, "danger")));
      };
      row.append(leave);
    } else {
      row.append(button(WORDS[command.type] || command.type.replaceAll("_", " "), command, ctx, command.type === "challenge" || command.type === "pass" ? "primary" : ""));
    }
  }
  moves.append(row);
  clear(root, status, cards, moves);
}
