// A random client of cardledger built only from openapi/openapi.json: openapi-typescript turns the
// document into schema.ts, openapi-fetch sends the requests, and `tsc --strict` checks it all
// with no casts. It plays one game of the variant named on the command line to its end, sending
// only entries of `legal_commands` exactly as listed, and prints what it saw as one JSON line.
//
// Usage: node out/bot.js <base url> <variant> <seed>

import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Creation = Schemas["CreateGame"];
type Api = Client<paths>;
// A view as openapi-fetch reads it (its Readable<> widens the document's tuples to arrays).
type View = Awaited<ReturnType<typeof currentView>>;
type Entry = View["legal_commands"][number];
type Sendable = Exclude<Entry, { command: unknown }>; // choice forms stand for commands
const SKIPPED = new Set(["leave", "vote_cancel"]); // a bot that leaves or cancels never finishes
const WAIT_MS = 120_000; // for a deadline only the server can act on (generous: a busy host)

/** A small seeded generator (mulberry32), so a failing game can be played again. */
function random(seed: string): () => number {
  let state = [...seed].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619), 2166136261);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], rng: () => number): T | undefined {
  return items[Math.floor(rng() * items.length)];
}

function fail(message: string, detail?: unknown): never {
  throw new Error(detail === undefined ? message : `${message}: ${JSON.stringify(detail)}`);
}

/** The entries of `legal_commands` that can be sent as they are (not a choice form, not
 * leaving or cancelling). */
function sendable(view: View): Sendable[] {
  const found: Sendable[] = [];
  for (const entry of view.legal_commands) {
    if ("command" in entry) continue; // a choice form: it stands for commands, it is not one
    if (!SKIPPED.has(entry.type)) found.push(entry);
  }
  return found;
}

/** A short game of the variant: the catalog's default options, typed per variant, with the
 * changes tests/client.py's SHORT_GAMES makes. */
async function creation(api: Api, variant: string): Promise<Creation> {
  const { data, error } = await api.GET("/variants");
  const info = data?.find((each) => each.id === variant) ?? fail(`no variant ${variant}`, error);
  const base = { client_seed: "", bots: [] };
  switch (info.id) {
    case "open-hand":
      return { ...base, variant: info.id, seats: 4, options: info.options };
    case "heartbeat":
      return { ...base, variant: info.id, seats: 3, options: { ...info.options, pressure_seconds: 10 } };
    case "one-up-one-down": {
      const options = { ...info.options, max_plays: 60, challenge_seconds: 0 };
      return { ...base, variant: info.id, seats: 3, options };
    }
    case "cancellation-hearts":
      return { ...base, variant: info.id, seats: 6, options: { ...info.options, target: 50 } };
    case "double-heartbeat":
      return { ...base, variant: info.id, seats: 3, options: { ...info.options, hands: 1 } };
  }
}

/** One fact from each variant's own table: the view narrows by `variant` alone. */
function tableFact(view: View): string {
  switch (view.variant) {
    case "heartbeat":
      return `phase ${view.table?.phase ?? "none"}, tempo ${view.table?.tempo ?? "none"}`;
    case "double-heartbeat":
      return `phase ${view.table?.phase ?? "none"}, lead ${view.table?.lead_kind ?? "none"}`;
    case "cancellation-hearts":
      return `phase ${view.table?.phase ?? "none"}, pass ${view.table?.pass_direction ?? "none"}`;
    case "one-up-one-down":
      return `facing ${view.table?.facing ?? "none"}, ended by ${view.table?.ended_by ?? "nothing"}`;
    case "open-hand":
      return `${view.table?.tricks.length ?? 0} tricks`;
    default: {
      const unknown: never = view;
      return fail("a variant the document does not list", unknown);
    }
  }
}

async function register(base: string, count: number): Promise<Api[]> {
  const anonymous = createClient<paths>({ baseUrl: base });
  const players: Api[] = [];
  for (let index = 0; index < count; index++) {
    const { data, error } = await anonymous.POST("/players", { body: { name: `TS${index}` } });
    if (!data) fail("register", error);
    const headers = { Authorization: `Bearer ${data.token}` };
    players.push(createClient<paths>({ baseUrl: base, headers }));
  }
  return players;
}

async function start(players: Api[], creation: Creation): Promise<string> {
  const [creator, ...others] = players;
  if (!creator) fail("no players");
  const created = await creator.POST("/games", { body: creation });
  if (!created.data) fail("create", created.error);
  const game_id = created.data.game_id;
  for (const [index, player] of others.entries()) {
    const params = { path: { game_id } };
    const joined = await player.POST("/games/{game_id}/join", { params, body: { client_seed: `s${index}` } });
    if (!joined.data) fail("join", joined.error);
  }
  return game_id;
}

async function currentView(api: Api, game_id: string) {
  const { data, error } = await api.GET("/games/{game_id}/view", { params: { path: { game_id } } });
  return data ?? fail("view", error);
}

/** Seats the game waits for send random legal commands until it is over. */
async function play(players: Api[], public_: Api, game_id: string, rng: () => number) {
  let view = await currentView(public_, game_id);
  let sent = 0;
  let waitedSince: number | undefined;
  while (view.status === "active") {
    const seat = pick(view.to_act, rng);
    const player = seat === undefined ? undefined : players[seat];
    const mine = player === undefined ? undefined : await currentView(player, game_id);
    const command = mine === undefined ? undefined : pick(sendable(mine), rng);
    if (player === undefined || command === undefined) {
      waitedSince ??= Date.now(); // only the server can move now (a deadline): wait for it
      if (Date.now() - waitedSince > WAIT_MS) fail("the game is stuck", mine?.legal_commands);
      await new Promise((resolve) => setTimeout(resolve, 50));
      view = await currentView(public_, game_id);
      continue;
    }
    waitedSince = undefined;
    const params = { path: { game_id } };
    const answer = await player.POST("/games/{game_id}/commands", { params, body: command });
    if (answer.data) {
      view = answer.data.view;
      sent += 1;
    } else if (answer.error.status === 409) {
      view = await currentView(public_, game_id); // a deadline passed as we chose
    } else {
      fail(`${command.type} refused`, answer.error);
    }
  }
  return { view, sent };
}

async function events(api: Api, game_id: string): Promise<Schemas["EventOut"][]> {
  const found: Schemas["EventOut"][] = [];
  for (;;) {
    const query = { after: found.length, limit: 500 };
    const { data, error } = await api.GET("/games/{game_id}/events", { params: { path: { game_id }, query } });
    if (!data) fail("events", error);
    found.push(...data.events);
    if (data.next_after >= data.head_version) return found;
  }
}

async function main(): Promise<void> {
  const [base, variant, seed] = process.argv.slice(2);
  if (base === undefined || variant === undefined || seed === undefined) {
    fail("usage: node out/bot.js <base url> <variant> <seed>");
  }
  const rng = random(seed);
  const public_ = createClient<paths>({ baseUrl: base });
  const game = await creation(public_, variant);
  const players = await register(base, game.seats);
  const game_id = await start(players, game);
  const { view, sent } = await play(players, public_, game_id, rng);
  const board = await public_.GET("/games/{game_id}/scoreboard", { params: { path: { game_id } } });
  if (!board.data) fail("scoreboard", board.error);
  const log = await events(public_, game_id);
  const seatLog = players[0] ? await events(players[0], game_id) : [];
  let finished: Schemas["GameFinished"] | undefined;
  for (const event of log) {
    if (event.payload.type === "GameFinished") finished = event.payload;
  }
  const sealed = seatLog.flatMap((event) => (event.command?.value ? [event.command.value.type] : []));
  const sealedTypes = [...new Set(sealed)].sort();
  console.log(
    JSON.stringify({
      game,
      variant: view.variant,
      status: view.status,
      winners: view.winners,
      version: view.version,
      sent,
      table: tableFact(view),
      scoreboard_winners: board.data.winners,
      events: log.length,
      payload_types_match: log.every((event) => event.payload.type === event.type),
      finished_winners: finished?.winners ?? null,
      own_sealed_commands: sealed.length,
      own_sealed_command_types: sealedTypes,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
