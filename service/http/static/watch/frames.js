// The replay's frames of one game in one perspective (a frame: an event and the view after it),
// fetched a page at a time around the event asked for and kept until the perspective changes.

import { getJSON } from "../shared/api.js";

const CHUNK = 40;

function ended(view) {
  return view.status === "finished" || view.status === "cancelled";
}

export class Frames {
  constructor(gameId, perspective) {
    this.gameId = gameId;
    this.perspective = perspective;
    this.byVersion = new Map();
  }

  // Another perspective (or another token): the frames kept are not its own.
  reset(perspective) {
    this.perspective = perspective;
    this.byVersion.clear();
  }

  set(version, item) {
    this.byVersion.set(version, item);
  }

  // The frame after event `version`; `backwards`: the page ending there is fetched (stepping
  // back), else the one starting there. Null when the perspective changed meanwhile.
  async get(version, { token, backwards }) {
    if (!this.byVersion.has(version)) {
      const perspective = this.perspective;
      const start = backwards ? Math.max(1, version - CHUNK + 1) : version;
      const page = await this.page(perspective, start, CHUNK, token);
      const items = [];
      for (const item of page) items.push(ended(item.view) && perspective !== "full" ? await this.handsShown(item, token) : item);
      if (perspective !== this.perspective) return null;
      for (const item of items) this.byVersion.set(item.version, item);
    }
    return this.byVersion.get(version);
  }

  async page(perspective, from, limit, token) {
    const query = `perspective=${encodeURIComponent(perspective)}&from=${from}&limit=${limit}`;
    return (await getJSON(`/games/${this.gameId}/replay?${query}`, token || undefined)).frames;
  }

  // Once a game is over every hand is public (anyone may open the full perspective): a frame
  // after the end shows them all, and the rest of the table, whichever perspective is chosen.
  async handsShown(item, token) {
    const full = (await this.page("full", item.version, 1, token)).find((other) => other.version === item.version);
    return full ? { ...item, view: { ...item.view, hands: full.view.hands, table: full.view.table } } : item;
  }
}
