import { checkDefinition, checkNotification as checkNotificationWith } from "../validate/core.js";
import { TABLES_2026 } from "../validate/tables-2026.js";
import { internalError } from "./errors.js";

/** Checks a notification against its generated definition; `message` says what is wrong. @internal */
export function checkNotification(method: string, message: unknown): { ok: true } | { ok: false; message: string } {
  const outcome = checkNotificationWith(TABLES_2026, method, message);
  return outcome.ok ? { ok: true } : { ok: false, message: outcome.message };
}

/**
 * Checks what a handler produced against the schema definition of its
 * result, so a server bug surfaces as a clear -32603 here rather than as a
 * confusing failure in the client.
 * @throws McpError -32603 naming the method, the definition and the bad field
 * @internal
 */
export function assertValidResult(method: string, definition: string, result: unknown): void {
  const outcome = checkDefinition(TABLES_2026, definition, result);
  if (!outcome.ok) {
    throw internalError(`Internal error: the ${method} handler returned an invalid result. ${outcome.message}`);
  }
}
