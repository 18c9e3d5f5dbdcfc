/**
 * Walking a paginated list method across its pages, bounded against servers
 * whose cursors never end or repeat. Loaded on the first `listAll*` or
 * `paginate` call. It asks for pages itself rather than through
 * ./pagination.ts: a module shared with the entry chunk would be split off
 * into a chunk of its own.
 *
 * @internal
 * @module
 */
import type { ClientSession, RequestOptions } from "./session.js";

/** Upper bound on pages fetched, against servers whose cursors never end. */
const MAX_PAGES = 10_000;

/**
 * The items under `itemsKey` of every page of `method`, following
 * `nextCursor` until the server stops giving one.
 *
 * @throws Error when the server repeats a cursor (it would loop forever), or gives more than 10,000 pages
 */
export async function* walkPages<T>(
  session: ClientSession,
  method: string,
  itemsKey: string,
  options: RequestOptions | undefined,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await session.request(method, cursor === undefined ? {} : { cursor }, options);
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
