import { inputKindsOf, type InputKindEntry } from "./input-kinds.js";
import { isObject, refName, type SchemaDocument, type SchemaNode } from "./json.js";

/** Who sends a request: the client to the server, the server inside an InputRequiredResult, or the server over the 2025-era back-channel. */
type Direction = "client" | "input" | "server";

/** How one request method links to its definitions. */
export interface MethodEntry {
  method: string;
  direction: Direction;
  /** Definition of the whole request (`CallToolRequest`). */
  request: string;
  /** Definition of its params, or null when the schema declares them inline. */
  params: string | null;
  /** Definition of the complete result (`CallToolResult`). */
  result: string;
  /** Definition of the JSON-RPC success response (`CallToolResultResponse`), when the schema has one. */
  response: string | null;
  /** True when the response may carry an InputRequiredResult instead. */
  inputRequired: boolean;
}

/** How one notification method links to its definitions. */
export interface NotificationEntry {
  method: string;
  direction: "client" | "server";
  notification: string;
  params: string | null;
}

/** Everything methods.ts and the validators need, derived from one corrected schema. */
export interface ProtocolModel {
  revision: string;
  definitions: string[];
  methods: MethodEntry[];
  notifications: NotificationEntry[];
  errorCodes: Array<[name: string, code: number]>;
  /** Name of the InputRequiredResult definition, when the revision has one. */
  inputRequiredResult: string | null;
  /** The requests a user's callback answers (input requests, or the 2025 back-channel's), with the capability each needs. */
  inputKinds: InputKindEntry[];
}

const byMethod = <T extends { method: string }>(a: T, b: T) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0);

function methodOf(def: SchemaNode | undefined): string | undefined {
  const properties = def?.properties;
  if (!isObject(properties) || !isObject(properties.method)) return undefined;
  const constant = properties.method.const;
  return typeof constant === "string" ? constant : undefined;
}

/** Definitions a union definition lists (`anyOf` of `$ref`s), or the one message it is when upstream inlined a single member. */
function members(defs: Record<string, SchemaNode>, union: string): string[] {
  const def = defs[union];
  if (!def) return [];
  if (Array.isArray(def.anyOf)) return def.anyOf.map((branch) => refName(branch)).filter((name): name is string => !!name);
  const method = methodOf(def);
  if (!method) return [];
  // A one-member union that upstream inlined (2026-07-28's ClientNotification is a copy of
  // CancelledNotification): name the definition the member stands for, when exactly one has its method.
  const named = Object.keys(defs).filter((name) => name !== union && methodOf(defs[name]) === method);
  return [named.length === 1 ? named[0]! : union];
}

function resultOf(defs: Record<string, SchemaNode>, request: string, inputRequired: string | null) {
  const base = request.replace(/Request$/, "");
  const responseName = `${base}ResultResponse`;
  const response = defs[responseName];
  const resultProperty = isObject(response?.properties) ? response.properties.result : undefined;
  if (isObject(resultProperty)) {
    const branches = Array.isArray(resultProperty.anyOf) ? resultProperty.anyOf.map((b) => refName(b)) : [refName(resultProperty)];
    const complete = branches.filter((name) => name && name !== inputRequired);
    if (complete.length !== 1 || !complete[0]) {
      throw new Error(`codegen: ${responseName}.result should name one complete result, found ${JSON.stringify(branches)}`);
    }
    return { result: complete[0], response: responseName, inputRequired: branches.includes(inputRequired ?? undefined) };
  }
  // Older revisions have no XResultResponse: the result is XResult by naming
  // convention, or the shared EmptyResult for requests that answer nothing.
  const byName = `${base}Result`;
  if (defs[byName]) return { result: byName, response: null, inputRequired: false };
  if (defs.EmptyResult) return { result: "EmptyResult", response: null, inputRequired: false };
  throw new Error(`codegen: cannot find a result for ${request} (no ${responseName}, ${byName} or EmptyResult)`);
}

/** `ParseError` and `InternalError` keep their suffix (a lone word reads badly); `InvalidParamsError` becomes `InvalidParams`. */
export function errorCodeName(definition: string): string {
  const stem = definition.replace(/Error$/, "");
  return /^[A-Z][a-z0-9]*$/.test(stem) ? definition : stem;
}

function errorCodeOf(def: SchemaNode): number | undefined {
  const properties = isObject(def.properties) ? def.properties : {};
  const direct = isObject(properties.code) ? properties.code.const : undefined;
  if (typeof direct === "number") return direct;
  const error = properties.error;
  if (!isObject(error) || !Array.isArray(error.allOf)) return undefined;
  for (const part of error.allOf) {
    const code = isObject(part) && isObject(part.properties) && isObject(part.properties.code) ? part.properties.code.const : undefined;
    if (typeof code === "number") return code;
  }
  return undefined;
}

/**
 * Derives the request → result linkage the schema only implies: each request
 * definition's `method` constant, its params definition, and its result from
 * `XResultResponse` (or `XResult` / `EmptyResult` in older revisions).
 *
 * @throws Error when a method is defined twice with different definitions.
 */
export function buildModel(revision: string, schema: SchemaDocument, extraErrorCodes: Record<string, number>): ProtocolModel {
  const defs = schema.$defs;
  const inputRequiredResult = defs.InputRequiredResult ? "InputRequiredResult" : null;
  const methods = new Map<string, MethodEntry>();
  const groups: Array<[Direction, string]> = [
    ["client", "ClientRequest"],
    ["input", "InputRequest"],
    ["server", "ServerRequest"],
  ];
  const entries: MethodEntry[] = [];
  for (const [direction, union] of groups) {
    for (const request of members(defs, union)) {
      const def = defs[request]!;
      const method = methodOf(def)!;
      const params = isObject(def.properties) ? (refName(def.properties.params) ?? null) : null;
      entries.push({ method, direction, request, params, ...resultOf(defs, request, inputRequiredResult) });
    }
  }
  for (const entry of entries) {
    const known = methods.get(entry.method);
    if (known && (known.request !== entry.request || known.result !== entry.result)) {
      throw new Error(`codegen: ${entry.method} is defined by both ${known.request} and ${entry.request}`);
    }
    methods.set(entry.method, entry);
  }
  const notifications: NotificationEntry[] = [];
  for (const [direction, union] of [
    ["client", "ClientNotification"],
    ["server", "ServerNotification"],
  ] as const) {
    for (const notification of members(defs, union)) {
      const def = defs[notification]!;
      const params = isObject(def.properties) ? (refName(def.properties.params) ?? null) : null;
      notifications.push({ method: methodOf(def)!, direction, notification, params });
    }
  }
  const codes = new Map<string, number>(Object.entries(extraErrorCodes));
  for (const [name, def] of Object.entries(defs)) {
    const code = errorCodeOf(def);
    if (code !== undefined && name !== "Error") codes.set(errorCodeName(name), code);
  }
  entries.sort(byMethod);
  return {
    revision,
    definitions: Object.keys(defs).sort(),
    methods: entries,
    notifications: notifications.sort(byMethod),
    errorCodes: [...codes.entries()].sort((a, b) => b[1] - a[1]),
    inputRequiredResult,
    inputKinds: inputKindsOf(defs, entries, inputRequiredResult !== null),
  };
}
