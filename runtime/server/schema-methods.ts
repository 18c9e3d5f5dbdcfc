/**
 * Request methods the schema of a served revision defines, as
 * `setRequestHandler` serves them: their params and result types read from
 * the generated method maps (`RevisionMethodMaps`), their definitions from
 * the generated method tables. A method a new revision adds is typed and
 * served with no edit here.
 *
 * @module
 */
import type { RevisionMethodMaps } from "../../generated/revisions.js";
import type { ServedModernRevision } from "../protocol/revisions.js";
import { MODERN_VERSIONS } from "../protocol/revisions.js";
import type { InputRequiredResult } from "../protocol/types.js";
import { tablesOfRevision } from "../validate/revisions.js";
import type { ServerRequestContext } from "./context.js";
import type { HandlerResult, MaybePromise } from "./types.js";

/** The client request maps of every served modern revision, as a union. */
type ServedClientMaps = RevisionMethodMaps[ServedModernRevision]["client"];

/** Every key of a union of objects. */
type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/** A request method some served revision's schema defines for a client to send (`tools/call`, and any a newer revision adds). */
export type SchemaMethod = KeysOfUnion<ServedClientMaps> & string;

/** The method's entry in each served revision that defines it, as a union. */
type EntryOf<M extends string> = ServedClientMaps extends infer Map ? (Map extends unknown ? (M extends keyof Map ? Map[M] : never) : never) : never;

/** What the SDK keeps out of a handler's params: the envelope, which is in `ctx`. */
type Envelope = "_meta" | "inputResponses" | "requestState";

type Bare<T> = T extends unknown ? Omit<T, Envelope> : never;

type Finished<T> = T extends unknown ? HandlerResult<T> : never;

/** The params a schema method's handler gets: the method's params in the schema, without the `_meta` envelope (and the round-trip fields, which are in `ctx`). */
export type SchemaMethodParams<M extends SchemaMethod> = Bare<EntryOf<M>["params"]>;

/**
 * What a schema method's handler returns: the method's result without what
 * the SDK adds (`resultType`, `_meta`'s server info, default caching hints),
 * or, where the schema lets the method ask, an `InputRequiredResult`.
 */
export type SchemaMethodResult<M extends SchemaMethod> =
  | Finished<Exclude<EntryOf<M>["result"], InputRequiredResult>>
  | Extract<EntryOf<M>["result"], InputRequiredResult>;

/** A handler of a schema method: its params and the request's context in, its result (or an `InputRequiredResult` where the method may ask) out. */
export type SchemaRequestHandler<M extends SchemaMethod> = (params: SchemaMethodParams<M>, ctx: ServerRequestContext) => MaybePromise<SchemaMethodResult<M>>;

/** How a schema method is registered: the generated validators check it, so no schemas are given. */
export interface SchemaMethodOptions {
  /** Replace the server's own route of a method (required for one it has: `tools/call`, `tools/list`, …). */
  override?: boolean;
}

/** What the schemas of the served revisions say of one method. @internal */
export interface SchemaMethodFacts {
  /** The served modern revisions whose schema defines it. */
  readonly revisions: ReadonlySet<string>;
  /** Its complete result's definition, in the newest of them. */
  readonly result: string;
  /** Whether it may answer `input_required`. */
  readonly inputRequired: boolean;
  /** Whether its result requires caching hints, which the server then fills in as for `tools/list`. */
  readonly cacheable: boolean;
}

type ProbedValidator = ((value: unknown) => boolean) & { errors?: { keyword: string; instancePath: string; params: { missingProperty?: string } }[] | null };

/**
 * Whether a result definition requires `ttlMs` or `cacheScope`: the
 * validator is asked for its required members one by one (its first error,
 * a missing member, is filled in and asked again), since the runtime has the
 * validators but not the schema. Run once per registration.
 */
function requiresCachingHints(validator: ProbedValidator | undefined): boolean {
  const probe: Record<string, unknown> = { resultType: "complete" };
  for (let step = 0; validator !== undefined && step < 64; step++) {
    if (validator(probe)) return false;
    const first = validator.errors?.[0];
    const missing = first?.keyword === "required" && first.instancePath === "" ? first.params.missingProperty : undefined;
    if (missing === undefined) return false;
    if (missing === "ttlMs" || missing === "cacheScope") return true;
    probe[missing] = null;
  }
  return false;
}

/**
 * The facts of `method` when a served modern revision's schema defines it
 * as a request a client sends, else `undefined`.
 * @internal
 */
export function schemaMethodFacts(method: string): SchemaMethodFacts | undefined {
  const revisions = new Set<string>();
  let newest: { result: string; inputRequired?: boolean; directions?: readonly string[] } | undefined;
  let validator: ProbedValidator | undefined;
  for (const revision of MODERN_VERSIONS) {
    const table = tablesOfRevision(revision)?.methodTable;
    if (table === undefined || !Object.hasOwn(table, method)) continue;
    const entry = table[method] as unknown as { result: string; inputRequired?: boolean; directions?: readonly string[] };
    if (entry.directions !== undefined && !entry.directions.includes("client")) continue;
    revisions.add(revision);
    if (newest === undefined) validator = tablesOfRevision(revision)!.validators[entry.result] as ProbedValidator | undefined;
    newest ??= entry;
  }
  if (newest === undefined) return undefined;
  return { revisions, result: newest.result, inputRequired: newest.inputRequired === true, cacheable: requiresCachingHints(validator) };
}
