// The middle of the table for a variant this viewer has no module for: whose move it is, then
// every public fact of the view's `table` under its own name, so a new game reads before it
// gets a picture of its own. The seats around it (names, hand sizes, scores) are drawn as for
// any variant.

import { el } from "../shared/dom.js";
import { englishName } from "../shared/names.js";
import { spaced } from "../shared/words.js";
import { cardRow } from "./cards.js";
import { block, facts } from "./table-parts.js";

const CARD_CODE = /^(10|[2-9JQKA])[SHDC]$|^[BR]J$/;

function isCard(value) {
  return typeof value === "string" && CARD_CODE.test(value);
}

function plain(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

// A value of the table as the page can show it: cards as cards, lists and records spelled out.
function shown(value) {
  if (isCard(value)) return cardRow([value], { size: "tiny" });
  if (Array.isArray(value)) {
    if (!value.length) return "none";
    if (value.every(isCard)) return cardRow(value, { size: "tiny" });
    if (value.every((item) => item === null || typeof item !== "object")) return value.map(plain).join(", ");
    return el("ol", "", ...value.map((item) => el("li", "", shown(item))));
  }
  if (value !== null && typeof value === "object") return record(value);
  return plain(value);
}

function record(object) {
  return facts(Object.entries(object).map(([name, value]) => [spaced(name), shown(value)]));
}

export function center(view, ctx) {
  const awaited = view.to_act.length ? view.to_act.map(ctx.who).join(", ") : "nobody";
  return [
    block(englishName(view.variant), el("p", "phase", "This viewer has no picture of this game yet: here is what its table shows.")),
    facts([["to act", awaited]]),
    record(view.table),
  ];
}
