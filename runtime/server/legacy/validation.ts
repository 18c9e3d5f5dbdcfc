/**
 * Checks of 2025-era messages against the 2025-11-25 schema. Its generated
 * validators load on the first 2025 message, never at import, so a server
 * that only meets 2026-07-28 clients never pays for them.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { checkRequest, checkResult, type RevisionTables } from "../../validate/core.js";
import { internalError } from "../errors.js";
import { assertNestingWithin } from "../nesting.js";

let tables: RevisionTables | undefined;
let loading: Promise<RevisionTables> | undefined;

/** The 2025-11-25 tables, loading them on first use. @internal */
function legacyTables(): RevisionTables | Promise<RevisionTables> {
  if (tables !== undefined) return tables;
  loading ??= import("../../validate/tables-2025.js").then((module) => (tables = module.TABLES_2025));
  return loading;
}

/**
 * Checks a 2025 request against its method's definition.
 * @throws McpError -32602 naming the offending field, with `data.issues`
 * @internal
 */
export async function assertValidLegacyRequest(method: string, message: unknown, maxNestingDepth: number): Promise<void> {
  assertNestingWithin((message as { params?: unknown }).params, maxNestingDepth);
  const outcome = checkRequest(await legacyTables(), method, message);
  if (!outcome.ok) throw new McpError(JsonRpcErrorCode.InvalidParams, outcome.message, { issues: outcome.issues });
}

/**
 * Checks what a handler produced for a 2025 client against the 2025 result definition.
 * @throws McpError -32603 naming the method and the bad field
 * @internal
 */
export async function assertValidLegacyResult(method: string, result: unknown): Promise<void> {
  const outcome = checkResult(await legacyTables(), method, result);
  if (!outcome.ok) throw internalError(`Internal error: the ${method} handler returned an invalid result for a 2025 client. ${outcome.message}`);
}
