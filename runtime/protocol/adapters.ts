/**
 * The adapters of the served revisions that have one, by revision: the
 * generated index (generated/adapters.ts, which follows the files in
 * runtime/adapters/) read with one constant-time check, so a request of a
 * revision without an adapter (every one today) pays nothing more.
 *
 * @internal
 * @module
 */
import { ADAPTERS } from "../../generated/adapters.js";
import type { RevisionAdapter } from "./adapter.js";

const TABLE: Readonly<Record<string, RevisionAdapter>> = ADAPTERS;
/**
 * False in a build with no adapter at all. Callers test it before calling
 * {@link adapterOf}, so a request pays one branch and runs no function of
 * this module (the request walk, test/architecture/request-walk.test.ts).
 * @internal
 */
export const ANY_ADAPTER: boolean = Object.keys(TABLE).length > 0;

/**
 * The adapter of a served modern revision.
 *
 * @param revision - a request's protocol version.
 * @returns its adapter, or `undefined` for a revision spoken in the model's own shapes.
 * @internal
 */
export function adapterOf(revision: string): RevisionAdapter | undefined {
  // Own keys only: "toString" names no revision.
  return Object.hasOwn(TABLE, revision) ? TABLE[revision] : undefined;
}
