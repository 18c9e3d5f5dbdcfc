/**
 * Walking a paginated list method (`tools/list` and the like) across its
 * pages, bounded against servers whose cursors never end or repeat.
 *
 * @internal
 * @module
 */
import type { JsonObject } from "./protocol.js";
import type { ClientSession, RequestOptions } from "./session.js";

/** Upper bound on pages fetched by the `listAll*` helpers, against servers whose cursors never end. */
const MAX_PAGES = 10_000;

/** One page of `method`, from `cursor` (the first page without one). @internal */
export function requestPage(session: ClientSession, method: string, cursor: string | undefined, options: RequestOptions | undefined): Promise<JsonObject> {
  return session.request(method, cursor === undefined ? {} : { cursor }, options);
}

/**
 * The items under `itemsKey` of every page of `method`, following
 * `nextCursor` until the server stops giving one.
 *
 * @throws Error when the server repeats a cursor (it would loop forever), or gives more than 10,000 pages
 * @internal
 */
export async function* paginate<T>(session: ClientSession, method: string, itemsKey: string, options: RequestOptions | undefined): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await requestPage(session, method, cursor, options);
    const items = page[itemsKey];
    if (Array.isArray(items)) yield* items as T[];
    const next = page.nextCursor;
    if (typeof next !== "string") return;
    if (seen.has(next)) throw new Error(`${method}: the server returned cursor ${JSON.stringify(next)} twice; stopping instead of looping.`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`${method}: more than ${MAX_PAGES} pages; stopping.`);
}

/** Every item of every page, in one array. @internal */
export async function collectAll<T>(session: ClientSession, method: string, itemsKey: string, options: RequestOptions | undefined): Promise<T[]> {
  const all: T[] = [];
  for await (const item of paginate<T>(session, method, itemsKey, options)) all.push(item);
  return all;
}
