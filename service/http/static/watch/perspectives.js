// Which perspectives a page may show: `public` always; a seat's to its player, and every one to
// anyone once the game is over or to the operator (DESIGN.md, Perspective rules). `seen` is
// { seatCount, over, me: {seat, admin} or null, who(seat) }.

export function forbiddenReason(perspective, seen) {
  const { seatCount, over, me, who } = seen;
  const known = /^(public|full|seat:\d+)$/.test(perspective) && !(perspective.startsWith("seat:") && Number(perspective.slice(5)) >= seatCount);
  if (!known) return `There is no perspective "${perspective}" in this game: it has public, seat:0 to seat:${seatCount - 1} and full. Showing the public table.`;
  if (perspective === "public" || over || (me && me.admin)) return null;
  if (perspective === "full") return "The full perspective, every hand at once, opens when the game is over. Showing the public table.";
  const seat = Number(perspective.slice(5));
  if (me && me.seat === seat) return null;
  return `Only ${who(seat)}'s player sees seat ${seat}'s cards before the game ends (enter that player's token to sit there). Showing the public table.`;
}

export function perspectiveLabel(value, who) {
  if (value === "public") return "public (spectator)";
  if (value === "full") return "full (every hand)";
  const seat = Number(value.slice(5));
  return `${who(seat)} (seat ${seat})`;
}

// Where a refused perspective falls back to: the player's own seat, else the public table.
export function fallbackPerspective(me) {
  return me && me.seat !== null ? `seat:${me.seat}` : "public";
}

// The perspective after a token change, `shown` before it: the new seat's where the page showed
// the public table of a game in play or the old token's seat; else `shown` while it may be seen.
export function perspectiveAfterToken(shown, oldSeat, seen) {
  const seat = seen.me && seen.me.seat !== null ? `seat:${seen.me.seat}` : null;
  if (seat && ((shown === "public" && !seen.over) || shown === `seat:${oldSeat}`)) return seat;
  if (forbiddenReason(shown, seen)) return fallbackPerspective(seen.me);
  return shown;
}
