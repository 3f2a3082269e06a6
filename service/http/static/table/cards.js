// Cards drawn as cards: faces, backs, and their names in words.

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export function rankOf(code) {
  return code === "BJ" || code === "RJ" ? code : code.slice(0, -1);
}

export function suitOf(code) {
  return code === "BJ" || code === "RJ" ? "" : code.slice(-1);
}

export function cardLabel(code) {
  if (code === "BJ") return "small joker";
  if (code === "RJ") return "big joker";
  return rankOf(code) + SUITS[suitOf(code)];
}

export function cardsLabel(list) {
  return (list || []).map(cardLabel).join(" ");
}

// A face-up card; `size` is "" (hand), "small" (table) or "tiny" (lists).
export function cardFace(code, size = "small") {
  const el = document.createElement("span");
  el.className = `card face ${size}`.trim();
  el.dataset.card = code;
  el.title = cardLabel(code);
  const suit = suitOf(code);
  if (suit === "H" || suit === "D" || code === "RJ") el.classList.add("red");
  const rank = document.createElement("b");
  const pip = document.createElement("i");
  if (!suit) {
    el.classList.add("joker");
    rank.textContent = "★";
    pip.textContent = code === "RJ" ? "BIG" : "small";
  } else {
    rank.textContent = rankOf(code);
    pip.textContent = SUITS[suit];
  }
  el.append(rank, pip);
  return el;
}

export function cardBack(size = "small", title = "a face-down card") {
  const el = document.createElement("span");
  el.className = `card back ${size}`.trim();
  el.title = title;
  return el;
}

// A row of cards; `cards` null means `count` backs (at most `limit` drawn, then "+n").
export function cardRow(cards, { count = 0, size = "small", limit = 13, className = "", more = true } = {}) {
  const row = document.createElement("span");
  row.className = `cards ${className}`.trim();
  if (cards) {
    cards.forEach((code) => row.appendChild(cardFace(code, size)));
  } else {
    for (let i = 0; i < Math.min(count, limit); i++) row.appendChild(cardBack(size));
    if (more && count > limit) {
      const more = document.createElement("span");
      more.className = "more";
      more.textContent = `+${count - limit}`;
      row.appendChild(more);
    }
  }
  return row;
}
