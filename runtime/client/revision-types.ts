/**
 * The types of a client by the revision it speaks, read from the generated
 * method maps (`RevisionMethodMaps`): what `Client<Revision>`'s helpers
 * resolve with and what `client.request` takes and returns for a method the
 * schema defines. Types only: nothing here reaches a bundle, and a revision
 * added to schema/sources.json is typed with no edit here.
 *
 * @module
 */
import type { RevisionMethodMaps } from "../../generated/revisions.js";
import type { CallOptions } from "./options.js";
import type { JsonObject, LEGACY_PROTOCOL_VERSIONS, ModernProtocolVersion } from "./protocol.js";

/** A revision whose types a client can have: each served modern one, and the handshake era's schema (2025-11-25). */
export type ClientRevision = keyof RevisionMethodMaps;

/** `true` when date-like string `A` sorts before `B` (same length, digit by digit). */
type Before<A extends string, B extends string> = A extends `${infer a}${infer restA}`
  ? B extends `${infer b}${infer restB}`
    ? a extends b
      ? Before<restA, restB>
      : "-0123456789" extends `${string}${a}${string}${b}${string}`
        ? true
        : false
    : false
  : false;

/** The newest of a union of revision dates: the member every other member sorts before. */
type Newest<Union extends string> = {
  [Candidate in Union]: false extends (
    Exclude<Union, Candidate> extends infer Other extends string
      ? Other extends unknown
        ? Before<Other, Candidate>
        : never
      : never
  )
    ? never
    : Candidate;
}[Union];

/**
 * The newest modern revision this package serves, as a type: the revision
 * whose types a client has when it does not pin one (`mode: "auto"`).
 */
export type NewestRevision = Newest<ModernProtocolVersion>;

/** A value of the `mode` option of `Client.connect`. */
export type ClientMode = "auto" | ModernProtocolVersion | (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/**
 * The revision whose types a client connected with `mode` has: a pinned
 * modern revision's own; for a handshake-era version, 2025-11-25 (the one
 * handshake-era schema); for `"auto"`, the newest served revision's.
 */
export type RevisionOfMode<Mode> = Mode extends ModernProtocolVersion
  ? Mode
  : Mode extends (typeof LEGACY_PROTOCOL_VERSIONS)[number]
    ? Exclude<ClientRevision, ModernProtocolVersion>
    : NewestRevision;

/** The client request map of `Revision`: method → `{ request, params, result }`. */
type ClientMap<Revision extends ClientRevision> = RevisionMethodMaps[Revision]["client"];

/** A method `Revision`'s schema defines for a client to send. */
export type SchemaMethod<Revision extends ClientRevision> = keyof ClientMap<Revision> & string;

/** A result without its `input_required` form: what the automatic rounds resolve with. */
type Complete<Result> = Exclude<Result, { resultType: "input_required" }>;

/**
 * The complete result of `method` in `Revision`'s schema: what
 * `client.request(method, …)` resolves with (the rounds of an
 * `input_required` answer are run for you).
 */
export type SchemaResult<Revision extends ClientRevision, Method extends string> = Method extends keyof ClientMap<Revision>
  ? ClientMap<Revision>[Method] extends {
      /** The method's result in the schema (complete, or `input_required` where the method may ask). */
      result: infer Result;
    }
    ? Complete<Result>
    : never
  : never;

/** A type without its `_meta` member (kept apart from `Omit`, which would drop the named members of a type with an index signature). */
type WithoutMeta<Params> = { [Key in keyof Params as Key extends "_meta" ? never : Key]: Params[Key] };

/**
 * The params of `method` in `Revision`'s schema as `client.request` takes
 * them: the per-request envelope (`_meta`) is the client's to add, so
 * `_meta` is optional and holds only extra keys (`progressToken`, …).
 */
export type SchemaParams<Revision extends ClientRevision, Method extends SchemaMethod<Revision>> = (ClientMap<Revision>[Method] extends {
  /** The method's params in the schema, envelope included. */
  params: infer Params;
}
  ? WithoutMeta<NonNullable<Params>>
  : JsonObject) & {
  /** Extra `_meta` keys (`progressToken`, …), sent beside the client's own envelope, which wins. */
  _meta?: JsonObject;
};

/** `client.request`'s arguments after the method: params may be left out when none is required. */
export type SchemaRequestArgs<Revision extends ClientRevision, Method extends SchemaMethod<Revision>> =
  Record<never, never> extends SchemaParams<Revision, Method>
    ? [params?: SchemaParams<Revision, Method>, options?: CallOptions]
    : [params: SchemaParams<Revision, Method>, options?: CallOptions];

/**
 * The revision whose result types a `Client<Revision>`'s helpers
 * (`callTool`, `listTools`, …) have: a modern revision's own; a 2025
 * session's results are stamped to read as the newest revision's (their
 * `resultType` is `"complete"`), so they keep those types.
 */
type HelperRevision<Revision extends ClientRevision> = Revision extends ModernProtocolVersion ? Revision : NewestRevision;

/** The complete result of `method` as a `Client<Revision>`'s helper resolves it. */
export type HelperResult<Revision extends ClientRevision, Method extends string> = SchemaResult<HelperRevision<Revision>, Method>;

/** The items of a paginated list method's result (`tools` of `tools/list`), as `listAll…` resolves them. */
export type ListItems<Revision extends ClientRevision, Method extends string, Key extends string> =
  HelperResult<Revision, Method> extends infer Result ? (Key extends keyof Result ? NonNullable<Result[Key]> : never) : never;
