// Names in words: variants (with their native names), combinations, tempo cards, problems.

// Used when GET /variants gives no `native_name`.
export const NATIVE_NAMES = {
  heartbeat: "心跳",
  "double-heartbeat": "双倍心跳",
  "open-hand": "打扑克不盖被",
  "cancellation-hearts": "Cancellation Hearts",
  "one-up-one-down": "一上一下",
};

export const ENGLISH_NAMES = {
  heartbeat: "Heartbeat",
  "double-heartbeat": "Double Heartbeat",
  "open-hand": "Open Hand",
  "cancellation-hearts": "Cancellation Hearts",
  "one-up-one-down": "One Up One Down",
};

let catalog = null;

// GET /variants once per page; its `native_name` and `name` win over the tables above.
export async function loadVariants() {
  if (!catalog) {
    catalog = fetch("/variants")
      .then((response) => (response.ok ? response.json() : []))
      .catch(() => []);
  }
  const list = await catalog;
  for (const item of list) {
    if (item.native_name) NATIVE_NAMES[item.id] = item.native_name;
    if (item.name) ENGLISH_NAMES[item.id] = item.name;
  }
  return list;
}

export function nativeName(variant) {
  return NATIVE_NAMES[variant] || variant;
}

export function englishName(variant) {
  return ENGLISH_NAMES[variant] || variant;
}

// "心跳 · Heartbeat", or one name when both are the same.
export function variantTitle(variant) {
  const native = nativeName(variant);
  const english = englishName(variant);
  return native === english ? english : `${native} · ${english}`;
}

export const COMBINATIONS = {
  single: "single",
  pair: "pair",
  triple: "triple",
  triple_pair: "triple with a pair",
  straight: "straight",
  consecutive_pairs: "consecutive pairs",
  airplane: "airplane",
  airplane_pairs: "airplane with pairs",
  bomb: "bomb",
  straight_flush: "straight flush",
};

export function combinationName(kind, count) {
  if (kind === "bomb" && count) return count === 8 ? "bomb of 8 (天王炸)" : `bomb of ${count}`;
  return COMBINATIONS[kind] || String(kind).replaceAll("_", " ");
}

export const TEMPO = {
  pressure: ["Pressure", "choose before the timer runs out"],
  reveal: ["Reveal", "everyone shows a card first"],
  reverse: ["Reverse", "the lowest card wins"],
  double: ["Double", "winners take 2 chips"],
};

const PROBLEMS = {
  not_your_turn: "It is not your turn.",
  card_not_in_hand: "That card is not in your hand.",
  must_follow_suit: "You must follow the suit that was led.",
  hearts_not_broken: "Hearts are not broken yet: lead another suit.",
  first_lead_restricted: "The first lead may not be a heart or the queen of spades.",
  combination_too_low: "That combination does not beat the one on top.",
  ally_cannot_beat_ally: "You may not beat your ally's play except with a bomb.",
  betrayal_forbidden: "This table forbids bombing your ally.",
  challenge_window_open: "Wait: the challenge window is still open.",
  no_challenge_window: "There is nothing to challenge right now.",
  already_answered: "You already answered this challenge.",
  own_card: "You cannot challenge your own card.",
  must_play_face_up: "This play must be face up.",
  must_play_face_down: "This play must be face down.",
  unknown_rank: "That is not a rank.",
  stock_not_empty: "You can only vote to end once the stock is empty.",
  already_chosen: "You have already chosen this round.",
  already_revealed: "You have already revealed a card.",
  reveal_first: "Reveal a card first.",
  reveal_in_progress: "Wait until everyone has revealed a card.",
  no_reveal_now: "This is not a Reveal round.",
  revealed_card_not_playable: "The card you revealed cannot be played this round.",
  deadline_passed: "Too late: the deadline has passed.",
  already_passed: "You have already passed your cards.",
  wrong_pass_size: "Pass exactly three cards.",
  not_passing: "Cards are not being passed now.",
  passing_not_done: "Wait until every player has passed.",
  moon_choice_pending: "Waiting for the moon shooter's choice.",
  no_moon_choice: "There is no moon choice to make.",
  not_a_combination: "Those cards make no combination.",
  wrong_combination: "Those cards are not the combination named.",
  combination_mismatch: "That play does not match the combination on top.",
  ambiguous_combination: "Those cards can be read several ways: name the combination.",
  empty_play: "Choose at least one card.",
  leader_cannot_pass: "The leader may not pass.",
  bury_first: "The dealer buries cards first.",
  not_bury_phase: "Burying is over.",
  not_dealer: "Only the dealer buries cards.",
  too_many_buried: "That is more cards than the dealer may bury.",
  already_allied: "One of you is already allied.",
  no_alliance_on_this_lead: "No alliance can form on this lead.",
  already_voted: "You have already voted.",
  player_left: "You have left this game.",
  not_seated: "You have no seat at this game.",
  game_not_started: "The game has not started yet.",
  game_finished: "The game is over.",
  game_cancelled: "The game was cancelled.",
  game_full: "Every seat is taken.",
  already_seated: "You already have a seat here.",
  unauthorized: "That token is not known here: check it and try again.",
  players_only: "The operator's token watches everything but cannot play.",
  perspective_forbidden: "That perspective opens at the end of the game (or to that seat's player).",
  invalid_perspective: "There is no such perspective in this game.",
  game_not_found: "There is no game with this id here.",
  game_not_over: "The export opens once the game is over.",
  version_mismatch: "The game moved on meanwhile: look again and retry.",
  too_much_contention: "The game is busy: try again.",
  invalid_command: "That move is not allowed now.",
  unknown_command: "That move does not exist in this game.",
  unknown_card: "That is not a card.",
  store_unavailable: "The service is busy: try again in a moment.",
  rate_limited: "Too many requests: wait a moment.",
};

// A problem (RFC 9457 body) in words; its own detail when the code is new to this page.
export function problemWords(problem) {
  if (!problem) return "Something went wrong.";
  return PROBLEMS[problem.code] || (problem.detail ? capitalise(problem.detail) + "." : `Refused (${problem.code}).`);
}

export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function rankPlural(rank) {
  return rank === "6" ? "6es" : `${rank}s`;
}

// The top combination in words: "pair of 7s", "airplane with pairs up to Q", "bomb: 6 × K".
export function combinationPhrase(kind, count, rank) {
  switch (kind) {
    case "single": return `single ${rank}`;
    case "pair": return `pair of ${rankPlural(rank)}`;
    case "triple": return `three ${rankPlural(rank)}`;
    case "triple_pair": return `three ${rankPlural(rank)} with a pair`;
    case "bomb": return count === 8 ? `bomb: 8 × ${rank} (天王炸, unbeatable)` : `bomb: ${count} × ${rank}`;
    case "straight":
    case "consecutive_pairs":
    case "airplane":
    case "airplane_pairs":
    case "straight_flush":
      return `${COMBINATIONS[kind]} up to ${rank} (${count} cards)`;
    default: return combinationName(kind, count);
  }
}
