// The game's events in words, each with its version, hash and previous hash on demand.

import { el } from "../shared/dom.js";
import { describe } from "./events.js";

function actorWords(actor, who) {
  if (actor && actor.startsWith("seat:")) return `${who(Number(actor.slice(5)))} (${actor})`;
  return actor || "server";
}

function entry(event, ctx) {
  const item = el("li", "event");
  item.dataset.version = event.version;
  const go = el("button", "goto", String(event.version));
  go.type = "button";
  go.title = `show the table after event ${event.version}`;
  go.onclick = () => ctx.goto(event.version);
  const details = el("details", "",
    el("summary", "", describe(event, ctx.who, ctx.variant)),
    el("dl", "chain",
      el("dt", "", "version"), el("dd", "", String(event.version)),
      el("dt", "", "type"), el("dd", "", event.type),
      el("dt", "", "by"), el("dd", "", actorWords(event.actor, ctx.who)),
      el("dt", "", "time"), el("dd", "", new Date(event.timestamp).toLocaleString()),
      el("dt", "", "hash"), el("dd", "", el("code", "hash", event.hash)),
      el("dt", "", "prev hash"), el("dd", "", el("code", "hash", event.prev_hash))));
  item.append(go, details);
  return item;
}

// Appends the events the list does not show yet; redraws all when names may have changed.
export function renderLog(list, events, ctx) {
  const shown = list.children.length;
  if (shown > events.length || ctx.redraw) list.replaceChildren();
  for (const event of events.slice(list.children.length)) list.append(entry(event, ctx));
}

export function markCurrent(list, version) {
  for (const node of list.querySelectorAll(".current")) node.classList.remove("current");
  const item = list.querySelector(`li[data-version="${version}"]`);
  if (!item) return;
  item.classList.add("current");
  const box = list.parentElement;
  const top = item.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - item.offsetHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}
