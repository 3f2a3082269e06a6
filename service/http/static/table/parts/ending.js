// How a game ended, in words: the reasons every variant shares (a forfeit, a cancellation) here,
// a variant's own end (`end_reason` "complete") from its table module's `ending(view, ctx)`.

import { el } from "../../shared/dom.js";
import { capitalise, spaced, winnersText } from "../../shared/words.js";

const CANCELLED_BY = {
  creator: "by its creator before it started",
  vote: "by a vote of the players",
  admin: "by the operator",
};

// The GameCancelled event up to the version shown, if the page has read it.
function cancellation(ctx) {
  const events = ctx.events || [];
  return events.find((event) => event.type === "GameCancelled" && event.version <= (ctx.version ?? Infinity));
}

function cancelledWords(ctx) {
  const event = cancellation(ctx);
  const by = event ? CANCELLED_BY[event.payload.by] || `by ${spaced(event.payload.by)}` : "";
  return `The game was cancelled${by ? " " + by : ""}: it is void, nobody wins or ranks.`;
}

function forfeitWords(view, ctx) {
  if (!(view.winners || []).length) return "Every player left the table: nobody wins.";
  return `Fewer than two players were left at the table: ${winnersText(view.winners, ctx.who)} by forfeit.`;
}

// One sentence for a game that is over (null while it runs): why it ended and who won.
export function endingWords(view, ctx, variant) {
  if (view.status !== "finished" && view.status !== "cancelled") return null;
  if (view.status === "cancelled" || view.end_reason === "cancelled") return cancelledWords(ctx);
  if (view.end_reason === "forfeit") return forfeitWords(view, ctx);
  const why = view.end_reason === "complete" || !view.end_reason
    ? (variant.ending && view.table ? variant.ending(view, ctx) : "The game reached its end.")
    : `The game ended: ${spaced(view.end_reason)}.`;
  return `${why} ${capitalise(winnersText(view.winners, ctx.who))}.`;
}

export function endingBlock(view, ctx, variant) {
  const words = endingWords(view, ctx, variant);
  if (!words) return null;
  const node = el("p", `ending ${view.status}`, words);
  node.dataset.endReason = view.end_reason || "";
  return node;
}
