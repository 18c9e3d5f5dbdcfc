/**
 * Removing and disabling registrations, shared by the tool and prompt
 * registries: a disabled entry is parked in a second map, so lists and
 * lookups need no per-entry check and re-enabling keeps its definition.
 *
 * @module
 */

/** An entry's live map and its parking place while disabled. @internal */
export interface Toggleable<T> {
  readonly live: Map<string, T>;
  readonly parked: Map<string, T>;
}

/** Removes `name`, enabled or not. @returns whether it was registered @internal */
export function removeEntry<T>(maps: Toggleable<T>, name: string): boolean {
  return maps.live.delete(name) || maps.parked.delete(name);
}

/**
 * Enables or disables `name`.
 * @returns whether anything changed (false when it already was so)
 * @throws TypeError when nothing named `name` is registered
 * @internal
 */
export function setEntryEnabled<T>(maps: Toggleable<T>, name: string, enabled: boolean, what: string): boolean {
  const [from, to] = enabled ? [maps.parked, maps.live] : [maps.live, maps.parked];
  const entry = from.get(name);
  if (entry === undefined) {
    if (to.has(name)) return false;
    throw new TypeError(`McpServer: no ${what} named ${JSON.stringify(name)} is registered; register it first`);
  }
  from.delete(name);
  to.set(name, entry);
  return true;
}
