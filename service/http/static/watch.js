"use strict";

const PAGE = 100;
const gameId = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
const state = { token: sessionStorage.getItem("cardledger-token") || "", perspective: "public",
  head: 0, version: 0, summary: null, pages: new Map(), stream: null };

function who(seat) {
  const seats = (state.summary && state.summary.seats) || [];
  return seats[seat] ? seats[seat].name : `seat ${seat}`;
}

function notice(text) {
  $("notice").hidden = !text;
  $("notice").textContent = text || "";
}

async function loadSummary() {
  state.summary = await getJSON(`/games/${gameId}`);
  state.head = state.summary.version;
  $("title").textContent = `${state.summary.variant} · ${state.summary.status} · game ${gameId.slice(0, 8)}`;
  $("head").textContent = state.head;
  $("slider").max = Math.max(1, state.head);
  const select = $("perspective");
  const wanted = ["public", ...state.summary.seats.map((s) => `seat:${s.seat}`), "full"];
  if (select.options.length !== wanted.length) {
    select.replaceChildren(...wanted.map((value) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value.startsWith("seat:") ? `${value} (${who(Number(value.slice(5)))})` : value;
      return option;
    }));
    select.value = state.perspective;
  }
}

async function frame(version) {
  const start = Math.floor((version - 1) / PAGE) * PAGE + 1;
  let frames = state.pages.get(start);
  if (!frames || version - start >= frames.length) {
    const query = `perspective=${encodeURIComponent(state.perspective)}&from=${start}&limit=${PAGE}`;
    const page = await getJSON(`/games/${gameId}/replay?${query}`, state.token);
    frames = page.frames;
    state.pages.set(start, frames);
  }
  return frames[version - start];
}

function handElement(cards, size) {
  const hand = document.createElement("div");
  hand.className = "hand";
  if (cards) {
    cards.forEach((code) => hand.appendChild(cardElement(code, true)));
  } else {
    for (let i = 0; i < Math.min(size, 12); i++) hand.appendChild(cardBack(true));
    if (size > 12) hand.append(` +${size - 12}`);
  }
  return hand;
}

// An array with one list per seat (hands played, cards taken...) is shown seat by seat.
function perSeat(value) {
  const seats = state.summary ? state.summary.seat_count : 0;
  return seats > 1 && value.length === seats && value.every(Array.isArray) && value.flat().some(isCard);
}

function valueElement(value) {
  const span = document.createElement("span");
  if (value === null || value === undefined) {
    span.textContent = "—";
  } else if (isCard(value)) {
    span.appendChild(cardElement(value, true));
  } else if (Array.isArray(value) && perSeat(value)) {
    value.forEach((item, seat) => {
      const part = document.createElement("div");
      part.append(`${who(seat)}: `);
      part.appendChild(valueElement(item));
      span.appendChild(part);
    });
  } else if (Array.isArray(value)) {
    if (!value.length) span.textContent = "—";
    value.forEach((item) => {
      const part = valueElement(item);
      part.style.marginRight = ".4em";
      span.appendChild(part);
    });
  } else if (typeof value === "object") {
    if ("owner" in value && "value" in value && "salt" in value) {
      span.appendChild(value.value == null ? cardBack(true) : valueElement(value.value));
    } else if ("seat" in value && Object.keys(value).length <= 3) {
      span.append(`${who(value.seat)}: `);
      for (const [key, item] of Object.entries(value)) if (key !== "seat") span.appendChild(valueElement(item));
    } else {
      span.append("{ ");
      for (const [key, item] of Object.entries(value)) {
        span.append(`${key}: `);
        span.appendChild(valueElement(item));
        span.append(" ");
      }
      span.append("}");
    }
  } else {
    span.textContent = String(value);
  }
  return span;
}

function renderTable(view) {
  const table = $("table");
  table.replaceChildren();
  const winners = view.winners || [];
  for (let seat = 0; seat < view.seat_count; seat++) {
    const info = view.seats[seat];
    const box = document.createElement("div");
    box.className = "seat";
    box.dataset.seat = seat;
    if (view.to_act.includes(seat)) box.classList.add("to-act");
    if (winners.includes(seat)) box.classList.add("winner");
    if (info && info.left) box.classList.add("left");
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = `${info ? info.name : "(empty)"} · seat ${seat}`;
    const meta = document.createElement("div");
    meta.className = "meta";
    const score = document.createElement("span");
    score.className = "score";
    score.dataset.score = view.scores[seat];
    score.textContent = `score ${view.scores[seat]}`;
    meta.append(score, ` · ${view.hand_sizes[seat] ?? 0} cards`);
    if (winners.includes(seat)) meta.append(" · winner");
    box.append(name, meta, handElement(view.hands && view.hands[seat], view.hand_sizes[seat] || 0));
    table.appendChild(box);
  }
  const center = document.createElement("div");
  center.className = "center";
  const list = document.createElement("dl");
  for (const [key, value] of Object.entries(view.table || {})) {
    if (key === "options") continue;
    const term = document.createElement("dt");
    term.textContent = key.replaceAll("_", " ");
    const detail = document.createElement("dd");
    detail.appendChild(valueElement(value));
    list.append(term, detail);
  }
  center.appendChild(list);
  table.appendChild(center);
  const acting = view.to_act.length ? ` · waiting for ${view.to_act.map(who).join(", ")}` : "";
  const deadline = view.deadline ? ` · deadline ${new Date(view.deadline).toLocaleTimeString()}` : "";
  $("status").textContent = `at this event: ${view.status}${acting}${deadline}`;
}

async function show(version) {
  if (state.head < 1) return;
  state.version = Math.min(Math.max(1, version), state.head);
  try {
    const current = await frame(state.version);
    notice("");
    $("version").textContent = state.version;
    $("slider").value = state.version;
    $("description").textContent = describe(current.event, who);
    renderTable(current.view);
    document.body.dataset.version = state.version;
  } catch (error) {
    if (error.problem && error.problem.code === "perspective_forbidden" && state.perspective !== "public") {
      await setPerspective("public");
    }
    notice(error.message);
  }
}

async function showAudit() {
  const report = await getJSON(`/games/${gameId}/audit`);
  $("verdict").textContent = `— ${report.verdict}`;
  $("verdict").className = report.verdict === "valid" ? "pass" : report.verdict === "invalid" ? "fail" : "pending";
  $("audit").replaceChildren(...report.checks.map((check) => {
    const item = document.createElement("li");
    item.className = check.status;
    item.dataset.check = check.name;
    item.textContent = `${check.status.toUpperCase()} ${check.name}: ${check.detail}`;
    return item;
  }));
}

async function setPerspective(value) {
  state.perspective = value;
  $("perspective").value = value;
  state.pages.clear();
  await show(state.version);
}

async function refresh(toLast) {
  const before = state.head;
  await loadSummary();
  for (const [start, frames] of state.pages) if (frames.length < PAGE) state.pages.delete(start);
  if (toLast || state.version === before) await show(state.head);
  if (state.summary.status !== "active") await showAudit();
}

async function follow(on) {
  if (state.stream) state.stream.close();
  state.stream = null;
  if (!on) return;
  let url = `/games/${gameId}/stream?after=${state.head}`;
  if (state.token) {
    const response = await fetch(`/games/${gameId}/stream-ticket`, {
      method: "POST", headers: { Authorization: "Bearer " + state.token } });
    if (response.ok) url += `&ticket=${encodeURIComponent((await response.json()).ticket)}`;
  }
  state.stream = new EventSource(url);
  state.stream.addEventListener("view", () => refresh(true));
  state.stream.addEventListener("end", () => { refresh(true); state.stream.close(); $("live").checked = false; });
}

$("first").onclick = () => show(1);
$("previous").onclick = () => show(state.version - 1);
$("next").onclick = () => show(state.version + 1);
$("last").onclick = () => show(state.head);
$("slider").oninput = (event) => show(Number(event.target.value));
$("perspective").onchange = (event) => setPerspective(event.target.value);
$("live").onchange = (event) => follow(event.target.checked);
$("token").value = state.token;
$("token").onchange = (event) => {
  state.token = event.target.value.trim();
  sessionStorage.setItem("cardledger-token", state.token);
  state.pages.clear();
  show(state.version);
};
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
  const moves = { ArrowLeft: state.version - 1, ArrowRight: state.version + 1, Home: 1, End: state.head };
  if (event.key in moves) {
    event.preventDefault();
    show(moves[event.key]);
  }
});

(async () => {
  await loadSummary();
  await show(state.head);
  await showAudit();
  if (state.summary.status === "active" || state.summary.status === "waiting") {
    $("live").checked = true;
    follow(true);
  }
})();
