"use strict";

function gameRow(entry) {
  const row = document.createElement("tr");
  row.dataset.gameId = entry.game_id;
  const players = entry.seats.map((s) => s.name + (s.left ? " (left)" : "")).join(", ");
  const scores = entry.scores ? entry.scores.join(" / ") : "";
  const winners = entry.winners ? entry.winners.map((w) => entry.seats[w].name).join(", ") : "";
  const cells = [entry.variant, `${entry.seats.length}/${entry.seat_count}: ${players}`, scores, winners];
  for (const text of cells) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.appendChild(cell);
  }
  const link = document.createElement("td");
  const anchor = document.createElement("a");
  anchor.href = `/games/${entry.game_id}/watch`;
  anchor.textContent = entry.status === "active" ? "watch live" : "replay";
  link.appendChild(anchor);
  row.appendChild(link);
  return row;
}

function listTable(headers, rows) {
  if (!rows.length) {
    const empty = document.createElement("p");
    empty.className = "empty";
    empty.textContent = "none";
    return empty;
  }
  const table = document.createElement("table");
  table.className = "list";
  const head = table.createTHead().insertRow();
  for (const text of headers) {
    const th = document.createElement("th");
    th.textContent = text;
    head.appendChild(th);
  }
  const body = table.createTBody();
  rows.forEach((row) => body.appendChild(row));
  return table;
}

async function showLobby() {
  const games = await getJSON("/games");
  for (const status of ["waiting", "active", "finished", "cancelled"]) {
    const rows = games.filter((g) => g.status === status).map(gameRow);
    const place = document.getElementById(status);
    place.replaceChildren(listTable(["variant", "players", "scores", "winners", ""], rows));
  }
  const boards = await getJSON("/leaderboard");
  const place = document.getElementById("leaderboard");
  place.replaceChildren();
  for (const board of boards.filter((b) => b.rows.length)) {
    const title = document.createElement("h3");
    title.textContent = board.variant;
    const rows = board.rows.map((r) => {
      const tr = document.createElement("tr");
      for (const text of [r.rank, r.name, r.games, r.wins, r.points]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      return tr;
    });
    place.append(title, listTable(["#", "player", "games", "wins", "points"], rows));
  }
}

showLobby();
setInterval(showLobby, 5000);
