// The audit at hand: the service's report, the seed checked in this browser, receipts, export.

import { getJSON } from "../shared/api.js";
import { clear, el } from "../shared/dom.js";

const $ = (id) => document.getElementById(id);

async function sha256Hex(hex) {
  if (!(globalThis.crypto && crypto.subtle)) return null; // only in a secure context
  const bytes = new Uint8Array(hex.match(/../g).map((pair) => parseInt(pair, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function showReport(gameId) {
  const report = await getJSON(`/games/${gameId}/audit`);
  const verdict = $("verdict");
  verdict.textContent = report.verdict;
  $("audit-as-of").textContent = `as of event ${report.head_version}`;
  verdict.className = `verdict ${report.verdict === "valid" ? "pass" : report.verdict === "invalid" ? "fail" : "pending"}`;
  clear($("checks"), ...report.checks.map((check) => {
    const item = el("li", check.status, el("b", "", check.status === "pass" ? "✓" : check.status === "fail" ? "✗" : "…"), ` ${check.name.replaceAll("_", " ")}: ${check.detail}`);
    item.dataset.check = check.name;
    return item;
  }));
  return report;
}

// The commitment from the first event; once revealed, the seed hashed here and compared.
export async function showSeed(events, over, gameId) {
  const created = events.find((e) => e.type === "GameCreated");
  const place = $("seed");
  if (!created) return;
  const commitment = created.payload.seed_commitment;
  const parts = [el("div", "", "Seed commitment (event 1): ", el("code", "hash", commitment))];
  const ending = events.find((e) => (e.type === "GameFinished" || e.type === "GameCancelled") && e.payload.seed);
  const link = $("export");
  link.hidden = !over;
  link.href = `/games/${gameId}/export`;
  link.download = `cardledger-${gameId}.json`;
  if (ending) {
    const seed = ending.payload.seed;
    const digest = await sha256Hex(seed);
    parts.push(el("div", "", `Revealed seed (event ${ending.version}): `, el("code", "hash", seed)));
    if (digest === null) {
      parts.push(el("div", "pending", "This browser offers SHA-256 only on https or localhost: rely on the service's check above."));
    } else {
      const good = digest === commitment;
      const line = el("div", good ? "pass" : "fail", good ? "✓ SHA-256 of the seed, computed in your browser, equals the commitment." : `✗ SHA-256 of the seed is ${digest}: it does not match the commitment!`);
      line.id = "seed-check";
      line.dataset.match = String(good);
      parts.push(line);
    }
  } else {
    parts.push(el("div", "pending", "The seed stays secret until the game ends; then this page checks it against the commitment."));
  }
  clear(place, ...parts);
}

// Every prev_hash equals the hash of the event before it, in the events this page holds.
export function showLinks(events) {
  let broken = null;
  for (let i = 1; i < events.length; i++) {
    if (events[i].prev_hash !== events[i - 1].hash || events[i].version !== events[i - 1].version + 1) {
      broken = events[i].version;
      break;
    }
  }
  const line = $("links");
  line.className = broken ? "fail" : "pass";
  line.textContent = !events.length ? "" : broken
    ? `✗ event ${broken} does not link to the one before it.`
    : `✓ Checked in your browser: events 1 to ${events.length}, each prev hash is the hash before it.`;
}

// A receipt VERSION:HEAD from a command's answer: does this log hold it?
export function checkReceipt(text, events, head) {
  const match = /^\s*(\d+)\s*:\s*([0-9a-f]{64})\s*$/i.exec(text);
  if (!match) return ["fail", "That is not a receipt: write VERSION:HEAD, e.g. 12:3fa4… (64 hex digits)."];
  const version = Number(match[1]);
  const hash = match[2].toLowerCase();
  if (version < 1 || version > head) return ["fail", `The log has events 1 to ${head}: it holds no event ${version}.`];
  const event = events.find((e) => e.version === version);
  if (!event) return ["pending", `Event ${version} is not loaded yet; try again in a moment.`];
  if (event.hash === hash) return ["pass", `✓ The log holds this receipt: event ${version} has exactly this hash, and every later event is chained to it.`];
  return ["fail", `✗ The log does not hold this receipt: event ${version}'s hash is ${event.hash}.`];
}
