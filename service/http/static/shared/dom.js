// Small helpers for building elements.

export function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function clear(node, ...children) {
  node.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// A list as a table with a header row, or words when it is empty.
export function listTable(headers, rows, emptyText) {
  if (!rows.length) return el("p", "empty", emptyText);
  const table = el("table", "list");
  const head = table.createTHead().insertRow();
  for (const text of headers) head.append(el("th", "", text));
  const body = table.createTBody();
  rows.forEach((row) => body.append(row));
  return el("div", "scroll", table);
}

// A deadline shown as a countdown; the page's clock ticks every element made here.
export function countdown(deadline, label = "") {
  const node = el("span", "countdown");
  node.dataset.deadline = deadline;
  node.dataset.label = label;
  tick(node);
  return node;
}

// How far the service's clock is ahead of this browser's (deadlines are the service's times).
export const clock = { offset: 0 };

export function serverDate(header) {
  const at = Date.parse(header || "");
  if (Number.isNaN(at)) return;
  const offset = at - Date.now();
  clock.offset = Math.abs(offset) > 2000 ? offset : 0; // the header has whole seconds only
}

export function tick(node) {
  const left = Math.ceil((Date.parse(node.dataset.deadline) - (Date.now() + clock.offset)) / 1000);
  const label = node.dataset.label ? node.dataset.label + " " : "";
  if (left <= 0) {
    node.textContent = `${label}time is up`;
    node.classList.add("over");
  } else {
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    node.textContent = `${label}${minutes}:${seconds}`;
    node.classList.toggle("urgent", left <= 3);
  }
}

setInterval(() => document.querySelectorAll(".countdown").forEach(tick), 250);
