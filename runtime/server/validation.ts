import { checkDefinition, checkNotification as checkNotificationWith } from "../validate/core.js";
import { tablesFor } from "../validate/revisions.js";
import { isObject } from "../protocol/guards.js";
import { MetaKey } from "../protocol/names.js";
import { internalError } from "./errors.js";

/**
 * Checks a notification against its generated definition, in the revision its
 * `_meta` names (2026-07-28's when it names none this server has tables for);
 * `message` says what is wrong.
 * @internal
 */
export function checkNotification(method: string, message: Record<string, unknown>): { ok: true } | { ok: false; message: string } {
  const meta = isObject(message.params) ? message.params._meta : undefined;
  const version = isObject(meta) ? meta[MetaKey.protocolVersion] : undefined;
  const outcome = checkNotificationWith(tablesFor(typeof version === "string" ? version : undefined), method, message);
  return outcome.ok ? { ok: true } : { ok: false, message: outcome.message };
}

/**
 * Checks what a handler produced against the schema definition of its
 * result, in the revision the request speaks, so a server bug surfaces as a
 * clear -32603 here rather than as a confusing failure in the client.
 * @param version - the request's protocol version (`ctx.protocolVersion`); without one, 2026-07-28's schema.
 * @throws McpError -32603 naming the method, the definition and the bad field
 * @internal
 */
export function assertValidResult(method: string, definition: string, result: unknown, version?: string): void {
  const outcome = checkDefinition(tablesFor(version), definition, result);
  if (!outcome.ok) {
    throw internalError(`Internal error: the ${method} handler returned an invalid result. ${outcome.message}`);
  }
}
