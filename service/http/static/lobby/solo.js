// Playing alone from the lobby: a game of any variant with a bot in every seat but the person's
// (seat 0), created in one request; then the game's page, where the person plays.

import { postJSON, problemWords } from "../shared/api.js";
import { clear, el } from "../shared/dom.js";
import { variantTitle } from "../shared/names.js";
import { spaced } from "../shared/words.js";

const $ = (id) => document.getElementById(id);
export const TOKEN_KEY = "cardledger-token"; // the game's page sits down with it (watch.js)
const PLAYER_KEY = "cardledger-solo-player"; // {name, token}: the same name plays as the same player
// What each level does (docs/bots.md).
const LEVEL_WORDS = { 1: "random moves", 2: "rules of thumb" };
const SEARCH_WORDS = "searches ahead";

// The level offered first: the strongest that still plays at once (below the searching levels).
export function defaultLevel(levels) {
  const gentle = levels.filter((level) => level < 3);
  return gentle.length ? Math.max(...gentle) : Math.min(...levels);
}

// The variant's options as the schema of GET /variants gives them: a choice of the values it
// lists, else a number within its bounds (left empty where the option may be null).
function optionFields(variant) {
  const schema = variant.options_schema;
  const body = schema.$ref ? schema.$defs[schema.$ref.split("/").pop()] : schema;
  return Object.entries(body.properties || {}).map(([name, spec]) => {
    const shown = variant.options[name];
    let input;
    if (spec.enum) {
      input = el("select");
      for (const value of spec.enum) {
        const option = el("option", "", String(value));
        option.value = JSON.stringify(value);
        option.selected = value === shown;
        input.append(option);
      }
    } else {
      const number = spec.type === "integer" ? spec : (spec.anyOf || []).find((s) => s.type === "integer") || {};
      input = el("input");
      input.type = "number";
      if (number.minimum !== undefined) input.min = number.minimum;
      if (number.maximum !== undefined) input.max = number.maximum;
      input.required = spec.type === "integer";
      input.placeholder = "default";
      input.value = shown ?? "";
    }
    input.dataset.option = name;
    return el("label", "", `${spaced(name)} `, input);
  });
}

// The options that differ from the variant's defaults.
function chosenOptions(variant) {
  const options = {};
  for (const input of $("solo-options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const value = input.tagName === "SELECT" ? JSON.parse(input.value) : input.value === "" ? null : Number(input.value);
    if (value !== variant.options[name]) options[name] = value;
  }
  return options;
}

function showVariant(variant) {
  const seats = $("solo-seats");
  seats.min = variant.min_players;
  seats.max = variant.max_players;
  const wanted = Number(seats.value);
  if (!(wanted >= variant.min_players && wanted <= variant.max_players)) seats.value = variant.min_players;
  const levels = variant.bot_levels;
  const choice = defaultLevel(levels);
  clear(
    $("solo-level"),
    ...levels.map((level) => {
      const option = el("option", "", `level ${level} · ${LEVEL_WORDS[level] || SEARCH_WORDS}`);
      option.value = level;
      option.selected = level === choice;
      return option;
    }),
  );
  clear($("solo-options"), ...optionFields(variant));
}

// A token the service no longer knows (its store was reset): the next try registers anew.
export function forgetStalePlayer(error) {
  if (error.problem && error.problem.code === "unauthorized") sessionStorage.removeItem(PLAYER_KEY);
}

// The player this tab plays as: the one it registered under this name, else a new one.
export async function player(name) {
  const known = JSON.parse(sessionStorage.getItem(PLAYER_KEY) || "null");
  if (known && known.name === name) return known.token;
  const registered = await postJSON("/players", { name });
  sessionStorage.setItem(PLAYER_KEY, JSON.stringify({ name: registered.name, token: registered.token }));
  return registered.token;
}

async function sitDown(variant) {
  const seats = Number($("solo-seats").value);
  const level = Number($("solo-level").value);
  const body = {
    variant: variant.id,
    seats,
    options: chosenOptions(variant),
    bots: Array.from({ length: seats - 1 }, () => ({ level })),
  };
  const token = await player($("solo-name").value.trim());
  const created = await postJSON("/games", body, token);
  sessionStorage.setItem(TOKEN_KEY, token);
  location.assign(`/games/${created.game_id}/watch`);
}

// A lobby form's choice of variant and its name field (the name this tab played under); the
// variants by id, or null (the form's button disabled) when the service hosts none.
export function chooseFrom(variants, chooser, name, button) {
  for (const variant of variants) {
    const option = el("option", "", variantTitle(variant.id));
    option.value = variant.id;
    chooser.append(option);
  }
  const known = JSON.parse(sessionStorage.getItem(PLAYER_KEY) || "null");
  if (known) name.value = known.name;
  button.disabled = !variants.length;
  return variants.length ? new Map(variants.map((variant) => [variant.id, variant])) : null;
}

export function startSolo(variants) {
  const form = $("solo");
  const chooser = $("solo-variant");
  const byId = chooseFrom(variants, chooser, $("solo-name"), $("solo-start"));
  if (!byId) return;
  showVariant(byId.get(chooser.value));
  chooser.onchange = () => showVariant(byId.get(chooser.value));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const message = $("solo-message");
    $("solo-start").disabled = true;
    message.className = "message";
    message.textContent = "Setting up the table…";
    try {
      await sitDown(byId.get(chooser.value));
    } catch (error) {
      forgetStalePlayer(error);
      message.className = "message error";
      message.textContent = problemWords(error.problem);
      $("solo-start").disabled = false;
    }
  };
}
