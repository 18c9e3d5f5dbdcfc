import type { InputKindEntry } from "./input-kinds.js";
import type { MethodEntry, NotificationEntry, ProtocolModel } from "./model.js";

const quote = (text: string) => JSON.stringify(text);

function paramsType(entry: { params: string | null }, owner: string): string {
  return entry.params ?? `NonNullable<${owner}["params"]>`;
}

function resultType(entry: MethodEntry, model: ProtocolModel): string {
  return entry.inputRequired && model.inputRequiredResult ? `${entry.result} | ${model.inputRequiredResult}` : entry.result;
}

function requestMap(name: string, doc: string, entries: MethodEntry[], model: ProtocolModel): string {
  const lines = entries.map(
    (entry) => `  ${quote(entry.method)}: { request: ${entry.request}; params: ${paramsType(entry, entry.request)}; result: ${resultType(entry, model)} };`,
  );
  return `/** ${doc} */\nexport interface ${name} {\n${lines.join("\n")}\n}\n`;
}

function notificationMap(name: string, doc: string, entries: NotificationEntry[]): string {
  const lines = entries.map((entry) => `  ${quote(entry.method)}: ${paramsType(entry, entry.notification)};`);
  return `/** ${doc} */\nexport interface ${name} {\n${lines.join("\n")}\n}\n`;
}

function uniqueByMethod<T extends { method: string }>(entries: T[]): T[] {
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.method) && seen.add(entry.method));
}

/** A JSON value as a TypeScript literal, object keys unquoted (every key here is an identifier). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const fields = Object.entries(value).map(([key, item]) => `${key}: ${literal(item)}`);
    return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** The input kinds as a type map (their data is kinds.ts, {@link emitInputKindTable}). */
function inputKinds(kinds: InputKindEntry[]): string {
  const out: string[] = [];
  out.push("/**");
  out.push(" * The requests a client's callbacks answer (a server asks them inside an InputRequiredResult, or over the");
  out.push(" * 2025-era back-channel): method → request, params and the client's result.");
  out.push(" */");
  out.push("export interface InputKindMap {");
  for (const kind of kinds) out.push(`  ${quote(kind.method)}: { request: ${kind.request}; params: ${paramsType(kind, kind.request)}; result: ${kind.result} };`);
  out.push("}\n");
  out.push("/** A kind of input request of this revision. */\nexport type InputKindMethod = keyof InputKindMap;\n");
  return out.join("\n");
}

/** Every definition name methods.ts refers to, for its import line. */
function referencedTypes(model: ProtocolModel): string[] {
  const names = new Set<string>();
  for (const entry of model.methods) {
    names.add(entry.request).add(entry.result);
    if (entry.params) names.add(entry.params);
  }
  for (const entry of model.notifications) names.add(entry.params ?? entry.notification);
  for (const kind of model.inputKinds) names.add(kind.request).add(kind.result);
  if (model.inputRequiredResult) names.add(model.inputRequiredResult);
  for (const name of ["InputRequest", "InputResponse"]) if (model.definitions.includes(name)) names.add(name);
  return [...names].sort();
}

/**
 * Emits methods.ts: the request/notification maps, the method table as data,
 * the error codes and the protocol version of one revision.
 */
export function emitMethods(header: string, model: ProtocolModel): string {
  const client = model.methods.filter((entry) => entry.direction === "client");
  const input = model.methods.filter((entry) => entry.direction === "input");
  const server = model.methods.filter((entry) => entry.direction === "server");
  const inputRequired = uniqueByMethod(client.filter((entry) => entry.inputRequired)).map((entry) => entry.method);
  const out: string[] = [header, ""];
  out.push(`import type { ${referencedTypes(model).join(", ")} } from "./types.js";\n`);
  out.push(`/** The protocol revision these declarations were generated from. */`);
  out.push(`export const PROTOCOL_VERSION = ${quote(model.revision)} as const;\n`);
  out.push(requestMap("ClientRequestMap", "Requests a client sends to a server: method → request, params and result.", client, model));
  out.push(`/** A method a client may call. */\nexport type ClientRequestMethod = keyof ClientRequestMap;\n`);
  if (model.inputRequiredResult) {
    out.push(requestMap("InputRequestMap", "Requests a server embeds in an InputRequiredResult: method → request, params and the client's result.", input, model));
    out.push(`/** A method a server may ask the client to fulfil inside an InputRequiredResult. */\nexport type InputRequestMethod = keyof InputRequestMap;\n`);
    out.push(`export type { InputRequest, InputResponse } from "./types.js";\n`);
  }
  if (server.length > 0) {
    out.push(requestMap("ServerRequestMap", "Requests a server sends to a client over the back-channel: method → request, params and result.", server, model));
    out.push(`/** A method a server may call on a client. */\nexport type ServerRequestMethod = keyof ServerRequestMap;\n`);
  }
  out.push(inputKinds(model.inputKinds));
  out.push(`/** Methods whose result may be an InputRequiredResult (sorted). */`);
  out.push(`export const INPUT_REQUIRED_METHODS = [${inputRequired.map(quote).join(", ")}] as const;\n`);
  out.push(`/** A method whose result may be an InputRequiredResult. */`);
  out.push(`export type InputRequiredMethod = (typeof INPUT_REQUIRED_METHODS)[number];\n`);
  out.push(
    notificationMap(
      "ClientNotificationMap",
      "Notifications a client sends: method → params.",
      model.notifications.filter((e) => e.direction === "client"),
    ),
  );
  out.push(
    notificationMap(
      "ServerNotificationMap",
      "Notifications a server sends: method → params.",
      model.notifications.filter((e) => e.direction === "server"),
    ),
  );
  out.push(`/** JSON-RPC and MCP error codes of this revision. */\nexport const ErrorCode = {`);
  for (const [name, code] of model.errorCodes) out.push(`  ${name}: ${code},`);
  out.push(`} as const;\n`);
  out.push(`/** One of the codes in {@link ErrorCode}. */\nexport type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];\n`);
  out.push(`/** Definition names behind one request method, so the runtime picks validators without hard-coding names. */`);
  out.push(`export interface MethodDefinitions {`);
  out.push(`  /** Who sends it: the client, the server inside an InputRequiredResult ("input"), or the server over the back-channel. */`);
  out.push(`  readonly directions: readonly ("client" | "input" | "server")[];`);
  out.push(
    `  readonly request: string;\n  readonly params: string | null;\n  readonly result: string;\n  readonly response: string | null;\n  readonly inputRequired: boolean;\n}\n`,
  );
  out.push(`/** Request method → definition names (data, derived from the schema's method constants and result responses). */`);
  out.push(`export const METHOD_TABLE = {`);
  for (const entry of uniqueByMethod(model.methods)) {
    const fields = [
      `directions: [${model.methods
        .filter((e) => e.method === entry.method)
        .map((e) => quote(e.direction))
        .join(", ")}]`,
      `request: ${quote(entry.request)}`,
      `params: ${entry.params ? quote(entry.params) : "null"}`,
      `result: ${quote(entry.result)}`,
      `response: ${entry.response ? quote(entry.response) : "null"}`,
      `inputRequired: ${entry.inputRequired}`,
    ];
    out.push(`  ${quote(entry.method)}: { ${fields.join(", ")} },`);
  }
  out.push(`} as const satisfies Record<string, MethodDefinitions>;\n`);
  out.push(`/** Notification method → definition names. */`);
  out.push(`export const NOTIFICATION_TABLE = {`);
  for (const entry of uniqueByMethod(model.notifications)) {
    out.push(`  ${quote(entry.method)}: { notification: ${quote(entry.notification)}, params: ${entry.params ? quote(entry.params) : "null"} },`);
  }
  out.push(`} as const;`);
  return `${out.join("\n")}\n`;
}

/**
 * Emits answers.ts: the validators of the results a client answers this
 * revision's input kinds with, imported by name (see answer-validators.ts).
 */
export function emitAnswerValidators(header: string, model: ProtocolModel): string {
  const results = [...new Set(model.inputKinds.map((kind) => kind.result))].sort();
  const out = [header, ""];
  if (results.length > 0) out.push(`import { ${results.join(", ")} } from "./validators.js";\n`);
  out.push("/** Input kind → the validator of the result a client's callback answers it with. */");
  out.push("export const ANSWER_VALIDATORS = {");
  for (const kind of model.inputKinds) out.push(`  ${quote(kind.method)}: ${kind.result},`);
  out.push("} as const;");
  return `${out.join("\n")}\n`;
}

/**
 * Emits kinds.ts: the input kinds as data (the capability each needs, the
 * rules for its sub-capabilities), in a module of its own so a client that
 * reads it at connect loads no method table with it.
 */
export function emitInputKindTable(header: string, model: ProtocolModel): string {
  const out: string[] = [header, ""];
  out.push("/**");
  out.push(" * Input kind → its definitions, the `ClientCapabilities` member a client declares to be asked it, and the");
  out.push(" * rules that name a sub-capability one request needs (data, derived from the schema).");
  out.push(" */");
  out.push("export const INPUT_KINDS = {");
  for (const kind of model.inputKinds) {
    const fields = [
      `request: ${quote(kind.request)}`,
      `params: ${kind.params ? quote(kind.params) : "null"}`,
      `result: ${quote(kind.result)}`,
      `capability: ${quote(kind.capability)}`,
      `rules: ${literal(kind.rules)}`,
    ];
    out.push(`  ${quote(kind.method)}: { ${fields.join(", ")} },`);
  }
  out.push("} as const;");
  return `${out.join("\n")}\n`;
}
