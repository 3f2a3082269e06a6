// Calls to the service; a refusal becomes an error carrying the problem body.

import { serverDate } from "./dom.js";
import { capitalise } from "./words.js";

export class Refused extends Error {
  constructor(status, problem) {
    super((problem && problem.detail) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || { code: `http_${status}` };
  }
}

// A refusal in words: the service's own `detail` (every problem has one), else its code.
export function problemWords(problem) {
  if (!problem) return "Something went wrong.";
  if (!problem.detail) return `Refused (${problem.code}).`;
  const sentence = capitalise(problem.detail);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

function headers(token, extra = {}) {
  return token ? { ...extra, Authorization: "Bearer " + token } : extra;
}

async function answer(response) {
  serverDate(response.headers.get("date"));
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") ? await response.json() : null;
  if (!response.ok) throw new Refused(response.status, body);
  return body;
}

export async function getJSON(url, token) {
  return answer(await fetch(url, { headers: headers(token) }));
}

// A page of a list, and the URL of the next page (its Link rel="next"; null on the last page).
export async function getPage(url, token) {
  const response = await fetch(url, { headers: headers(token) });
  const body = await answer(response);
  const next = (response.headers.get("link") || "").match(/<([^>]*)>\s*;\s*rel="?next"?/);
  return { body, next: next ? next[1] : null };
}

export async function postJSON(url, body, token) {
  const init = { method: "POST", headers: headers(token, { "Content-Type": "application/json" }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  return answer(await fetch(url, init));
}

export async function deleteJSON(url, token) {
  return answer(await fetch(url, { method: "DELETE", headers: headers(token) }));
}
