// The variants' names, as GET /variants gives them (`name`, and `native_name`, the game's own).

let catalog = null;
const byId = new Map();

// GET /variants once per page; the names below are known once it is answered.
export async function loadVariants() {
  if (!catalog) {
    catalog = fetch("/variants")
      .then((response) => (response.ok ? response.json() : []))
      .catch(() => []);
  }
  const list = await catalog;
  for (const item of list) byId.set(item.id, item);
  return list;
}

// A variant the service does not list (or before the list came) goes by its id.
export function nativeName(variant) {
  const item = byId.get(variant);
  return (item && item.native_name) || englishName(variant);
}

export function englishName(variant) {
  const item = byId.get(variant);
  return (item && item.name) || variant;
}

// "心跳 · Heartbeat", or one name when both are the same.
export function variantTitle(variant) {
  const native = nativeName(variant);
  const english = englishName(variant);
  return native === english ? english : `${native} · ${english}`;
}
