// Small pieces of English shared by the log and the tables.

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function ordinal(n) {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}

// "Ann", "Ann and Ben", "Ann, Ben and Cat".
export function listed(names) {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}

export function winnersText(seats, who) {
  if (!seats || !seats.length) return "nobody wins";
  return `${listed(seats.map(who))} win${seats.length === 1 ? "s" : ""}`;
}

// The value of a secret (an event's `{owner, value, salt}`), or null where it is redacted.
export function secretValue(secret) {
  return secret && secret.value != null ? secret.value : null;
}

export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// A wire name in words: "vote_cancel" -> "vote cancel", "CardPlayed" -> "Card Played".
export function spaced(name) {
  return String(name).replaceAll("_", " ").replace(/([a-z])([A-Z])/g, "$1 $2");
}
