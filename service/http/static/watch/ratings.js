// Each seat's rating in the game's variant (GET /players/{id}): a player's own, a bot's its
// level's. A seat with no rated game yet shows the starting rating's words, not a number.

import { getJSON } from "../shared/api.js";

// The id a seat is rated under: docs/ratings.md ("bot:level-L:vA" for every bot of a level).
export function ratedId(seat) {
  return seat.bot ? `bot:level-${seat.bot.level}:v${seat.bot.algorithm}` : seat.player_id;
}

// seat number -> { id, rating, uncertainty, games } (rating null before a first rated game).
export async function seatRatings(seats, variant) {
  const found = await Promise.all(
    seats.map(async (seat) => {
      const id = ratedId(seat);
      let profile = null;
      try {
        profile = await getJSON(`/players/${encodeURIComponent(id)}`);
      } catch {
        profile = null; // no such player (an unregistered id): no rating to show
      }
      const here = profile ? profile.ratings.find((r) => r.variant === variant) : null;
      return [seat.seat, { id, rating: here ? here.rating : null, uncertainty: here ? here.uncertainty : null, games: here ? here.games : 0 }];
    }),
  );
  return new Map(found);
}

export function ratingWords(found) {
  if (!found || found.rating === null) return "unrated";
  return `${found.rating.toFixed(1)} ± ${found.uncertainty.toFixed(1)}`;
}
