/**
 * Paginated list methods (`tools/list` and the like): one page, or every
 * page. Walking all pages is loaded on first use (./page-walk.ts), so a
 * client that never calls `listAll*` or `paginate` does not carry it.
 *
 * @internal
 * @module
 */
import type { JsonObject } from "./protocol.js";
import type { ClientSession, RequestOptions } from "./session.js";

/** One page of `method`, from `cursor` (the first page without one). @internal */
export function requestPage(session: ClientSession, method: string, cursor: string | undefined, options: RequestOptions | undefined): Promise<JsonObject> {
  return session.request(method, cursor === undefined ? {} : { cursor }, options);
}

/** The items under `itemsKey` of every page of `method`, page by page (see ./page-walk.ts). @internal */
export async function* paginate<T>(
  session: ClientSession,
  method: string,
  itemsKey: string,
  options: RequestOptions | undefined,
): AsyncGenerator<T, void, undefined> {
  yield* (await import("./page-walk.js")).walkPages<T>(session, method, itemsKey, options);
}

/** Every item of every page, in one array. @internal */
export async function collectAll<T>(session: ClientSession, method: string, itemsKey: string, options: RequestOptions | undefined): Promise<T[]> {
  const all: T[] = [];
  for await (const item of paginate<T>(session, method, itemsKey, options)) all.push(item);
  return all;
}
