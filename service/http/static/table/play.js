// Playing from the page: the seated player's hand and the moves the service lists for it.
// Nothing here knows a variant: a card that listed commands name is played by clicking it (a
// choice between them when several do); where the moves take several cards, cards are picked one
// by one and matched against the listed commands and the view's choice forms; any other command
// is a button. A variant's words for its moves, and how picked cards make its listed plays, come
// from its table module (table-modules.js).

import { clear, countdown, el } from "../shared/dom.js";
import { capitalise, spaced } from "../shared/words.js";
import { cardFace, cardLabel, cardsLabel } from "./cards.js";
import { tableModule } from "./table-modules.js";

// What the player has picked: several cards (by their place in the hand, a double deck holds a
// card twice), or the one card several commands name; forgotten when the game moves on or
// another seat's token is given.
const pick = { version: -1, seat: null, selected: new Set(), card: null };

// The commands every variant has.
const SHARED_MOVES = {
  vote_cancel: { label: () => "Vote to cancel the game" },
  leave: { label: () => "Leave the table" },
};

function fieldWords(name, value) {
  if (name === "card") return cardLabel(value);
  if (name === "cards") return cardsLabel(value);
  return Array.isArray(value) ? value.join(" ") : String(value);
}

// A command in words where its variant gives none: "Play Q♠", "Bid 3".
function plainLabel(command) {
  const fields = Object.entries(command).filter(([name]) => name !== "type");
  return capitalise([spaced(command.type), ...fields.map(([name, value]) => fieldWords(name, value))].join(" "));
}

function button(label, command, ctx, className = "") {
  const node = el("button", `move ${className}`.trim(), label);
  node.type = "button";
  node.dataset.command = JSON.stringify(command);
  node.onclick = () => ctx.send(command);
  return node;
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
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

// A choice form of the view's choice_forms ({type: "choice", command, field, from, min, max})
// stands for every command made by appending min..max of its entries to the command's cards:
// the one the selection makes.
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

// Whether a listed command is one of the form's (legal_commands lists a few of them as they
// are): those are picked through the form, not listed again.
function formHolds(form, command) {
  const same = Object.keys({ ...form.command, ...command }).every((key) => key === form.field || form.command[key] === command[key]);
  return same && Array.isArray(command[form.field]) && matchForm(form, command[form.field]) !== null;
}

function formCards(form) {
  return [...(form.command[form.field] || []), ...form.from.flat()];
}

function statusLine(view, ctx) {
  const status = el("p", "turn");
  if (view.status !== "active") status.textContent = view.status === "waiting" ? "The game starts when every seat is taken." : "The game is over.";
  else if (view.to_act.includes(view.seat)) {
    status.textContent = "Your move.";
    status.classList.add("yours");
    if (view.deadline) status.append(" ", countdown(view.deadline, "time left"));
  } else {
    status.textContent = view.to_act.length ? `Waiting for ${view.to_act.map(ctx.who).join(", ")}.` : "Waiting for the table.";
  }
  return status;
}

function handRow(turn, single, selecting, usableCards) {
  const cards = el("div", "hand mine");
  cards.id = "hand";
  turn.hand.forEach((code, index) => {
    const face = cardFace(code, "");
    const own = single.filter((c) => c.card === code);
    const usable = own.length > 0 || (selecting && usableCards.has(code));
    face.tabIndex = usable ? 0 : -1;
    face.setAttribute("role", "button");
    face.classList.toggle("playable", usable);
    face.classList.toggle("selected", pick.selected.has(index) || pick.card === code);
    face.setAttribute("aria-pressed", String(pick.selected.has(index)));
    const activate = () => {
      if (selecting) {
        if (pick.selected.has(index)) pick.selected.delete(index);
        else pick.selected.add(index);
        turn.redraw();
      } else if (own.length === 1) {
        turn.ctx.send(own[0]);
      } else if (own.length > 1) {
        pick.card = pick.card === code ? null : code;
        turn.redraw();
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
  if (!turn.hand.length) cards.append(el("span", "empty", "no cards in hand"));
  return cards;
}

// Commands naming one card: how a click plays, and the commands of the card picked, if any.
function cardMoves(turn, single) {
  const picked = single.filter((c) => c.card === pick.card);
  const nodes = [];
  for (const type of new Set(single.map((c) => c.type))) {
    if (picked.some((c) => c.type === type)) continue;
    nodes.push(el("p", "hint", turn.about(type).hint || `Click a card to ${spaced(type)}.`));
  }
  if (picked.length) {
    const choosing = turn.about(picked[0].type).choosing;
    const row = el("div", "alternatives", choosing ? choosing(pick.card) : `${cardLabel(pick.card)}: `);
    for (const command of picked) row.append(button(turn.label(command), command, turn.ctx, "alternative"));
    nodes.push(row);
  }
  return nodes;
}

// The listed several-card commands the selected cards make: the variant's module knows which
// other cards make the same play as the ones listed; without one, exactly the listed cards do.
function commandsMadeBy(variant, selected, commands) {
  if (!selected.length) return [];
  if (variant.commandsForSelection) return variant.commandsForSelection(selected, commands);
  return commands.filter((c) => sameCards(c.cards, selected));
}

// Listed several-card commands: those the selected cards make, then every one, grouped.
function selectionMoves(turn, multi) {
  const { selected, ctx } = turn;
  const row = el("div", "chosen", "Selected: ", selected.length ? cardsLabel(selected) : "click cards in your hand, or pick a move below");
  const fits = commandsMadeBy(turn.variant, selected, multi);
  for (const command of fits) row.append(" ", button(turn.label(command), command, ctx, "primary"));
  if (selected.length && !fits.length) row.append(el("span", "hint", " — not a play you can make now"));
  const groups = new Map();
  for (const command of multi) {
    const group = turn.about(command.type).group;
    const heading = group ? group(command) : spaced(command.type);
    if (!groups.has(heading)) groups.set(heading, []);
    groups.get(heading).push(command);
  }
  const nodes = [row];
  for (const [heading, list] of groups) {
    const group = el("details", "group", el("summary", "", `${heading} (${list.length})`));
    group.open = groups.size <= 2 || list.length <= 4;
    for (const command of list) group.append(button(cardsLabel(command.cards), command, ctx, "small"));
    nodes.push(group);
  }
  return nodes;
}

// Choice forms: the commands the selected cards make, then what each form asks to pick.
function formMoves(turn, forms) {
  const { selected, ctx } = turn;
  const made = forms.map((form) => matchForm(form, selected)).filter(Boolean);
  const seen = new Set();
  const row = el("div", "chosen form", "Your pick: ", selected.length ? cardsLabel(selected) : "click cards in your hand");
  for (const command of made) {
    const key = JSON.stringify(command);
    if (seen.has(key)) continue;
    seen.add(key);
    row.append(" ", button(turn.label(command), command, ctx, "primary"));
  }
  if (selected.length && !made.length) row.append(el("span", "hint", " — that pick is not a legal move"));
  const nodes = [row];
  for (const form of forms) {
    const fixed = form.command[form.field] || [];
    const size = form.min === form.max ? `${form.min}` : `${form.min} to ${form.max}`;
    const what = turn.about(form.command.type).toPick || "more cards";
    const hint = el("p", "hint form-hint", fixed.length ? `${turn.label({ ...form.command, [form.field]: fixed })} + pick ${size} of ${form.from.map(cardsLabel).join(", ")}` : `Pick ${size} ${what}.`);
    if (fixed.length) {
      const take = el("button", "small", "select it");
      take.type = "button";
      take.onclick = () => {
        pick.selected.clear();
        const pool = turn.hand.map((card, index) => [card, index]);
        for (const card of fixed) {
          const at = pool.findIndex(([c]) => c === card);
          if (at >= 0) pick.selected.add(pool.splice(at, 1)[0][1]);
        }
        turn.redraw();
      };
      hint.append(" ", take);
    }
    nodes.push(hint);
  }
  return nodes;
}

// Commands that name no card: a button each; leaving asks once more.
function buttonRow(turn, other) {
  const row = el("div", "buttons");
  for (const command of other) {
    if (command.type === "leave") {
      const leave = el("button", "move danger", turn.label(command));
      leave.type = "button";
      leave.onclick = () => {
        leave.replaceWith(el("span", "confirm", "Really leave? ", button("Yes, leave", command, turn.ctx, "danger")));
      };
      row.append(leave);
    } else {
      row.append(button(turn.label(command), command, turn.ctx, turn.about(command.type).primary ? "primary" : ""));
    }
  }
  return row;
}

export function renderPlay(root, view, ctx) {
  if (pick.version !== view.version || pick.seat !== view.seat) {
    pick.version = view.version;
    pick.seat = view.seat;
    pick.selected.clear();
    pick.card = null;
  }
  const variant = tableModule(view.variant);
  const words = { ...SHARED_MOVES, ...variant.moves };
  const about = (type) => words[type] || {};
  const hand = view.hand || [];
  // What the parts of the panel below share: the seat's cards and picks, and words for moves.
  const turn = {
    ctx,
    hand,
    variant,
    selected: [...pick.selected].sort((a, b) => a - b).map((i) => hand[i]),
    about,
    label: (command) => (about(command.type).label ? about(command.type).label(command, view) : plainLabel(command)),
    redraw: () => renderPlay(root, view, ctx),
  };
  const commands = view.legal_commands || [];
  const forms = view.choice_forms || [];
  const single = commands.filter((c) => typeof c.card === "string");
  const multi = commands.filter((c) => Array.isArray(c.cards) && !forms.some((form) => formHolds(form, c)));
  const other = commands.filter((c) => c.card === undefined && c.cards === undefined);
  const selecting = multi.length + forms.length > 0 && single.length === 0;
  const usableCards = new Set([...multi.flatMap((c) => c.cards), ...forms.flatMap(formCards)]);

  const moves = el("div", "moves");
  moves.id = "moves";
  moves.append(...cardMoves(turn, single));
  if (multi.length) moves.append(...selectionMoves(turn, multi));
  if (forms.length) moves.append(...formMoves(turn, forms));
  moves.append(buttonRow(turn, other));
  clear(root, statusLine(view, ctx), handRow(turn, single, selecting, usableCards), moves);
}
