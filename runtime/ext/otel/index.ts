/**
 * `mcp-roundtrip/ext/otel`: OpenTelemetry spans for a server, one per request.
 * Needs the optional peer dependency `@opentelemetry/api`
 * (`npm install @opentelemetry/api`) and, to export anything, an
 * OpenTelemetry SDK the application configures. The core never imports
 * this: a server without `telemetry()` pays nothing for it.
 *
 * @packageDocumentation
 */
import type * as OtelApi from "@opentelemetry/api";
import { loadPeer } from "../../protocol/peer.js";
import { createTelemetry, type TelemetryOptions } from "./middleware.js";
import type { ServerMiddleware } from "../../server/types.js";

export type { TelemetryOptions } from "./middleware.js";
export { SpanAttribute } from "./attributes.js";

// Loaded with the subpath, so a missing peer is reported at import, naming what to install.
const api = await loadPeer<typeof OtelApi>("@opentelemetry/api", "mcp-roundtrip/ext/otel", "npm install @opentelemetry/api");

/**
 * A server middleware that records one span per request: the method, the
 * tool or prompt name or resource URI, the MRTR round, the result type, and
 * for a refused `requestState` the real rejection reason. Never a token, a
 * key, arguments or state. Install it outermost so it also sees requests
 * that the sealing boundary refuses.
 *
 * @param options - `tracer` (default: `trace.getTracer("mcp-roundtrip")` from the global provider).
 * @returns a middleware for `server.use(…, { outermost: true })`.
 * @example
 * ```ts
 * import { telemetry } from "mcp-roundtrip/ext/otel";
 * mcp.server.use(telemetry(), { outermost: true });
 * ```
 */
export function telemetry(options: TelemetryOptions = {}): ServerMiddleware {
  return createTelemetry(api, options);
}
