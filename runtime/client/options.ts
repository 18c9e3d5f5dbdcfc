import type { StandardSchemaV1 } from "@standard-schema/spec";
/**
 * The options of {@link Client.connect} and of its automatic calls.
 *
 * @module
 */
import type { JsonRpcNotification } from "../protocol/jsonrpc/messages.js";
import type { BackoffPolicy } from "./backoff.js";
import type { InputCallbacks } from "./callbacks.js";
import type { CallNotificationOptions } from "./call-notifications.js";
import type { NegotiatedOutcome } from "./outcomes.js";
import type { ClientCapabilities, Implementation, JsonObject, ModernProtocolVersion } from "./protocol.js";
import type { TaskHandle } from "./task-handle.js";
import type { TaskClientOptions } from "./tasks.js";
import type { TimeoutOptions } from "./deadline.js";

/**
 * Options of `Client.connect`. `timeoutMs` (default 60,000),
 * `resetTimeoutOnProgress` and `maxTotalTimeoutMs` bound every request of the
 * client, the handshake's included; a call's own options override them.
 */
export interface ClientOptions extends InputCallbacks, TimeoutOptions {
  /** Sent as `clientInfo` on every request; `false` to send none. Default `{ name: "mcp-roundtrip", version }`. */
  clientInfo?: Implementation | false;
  /**
   * Capabilities merged over those derived from the callbacks (e.g.
   * `{ elicitation: { form: {}, url: {} } }` when `onElicit` handles URL mode).
   */
  capabilities?: ClientCapabilities;
  /** Most `input_required` rounds one call may take before it throws. Default 10. */
  inputRequiredMaxRounds?: number;
  /** Delays between rounds that carry only `requestState`. Default 50 ms doubling to 250 ms. */
  stateOnlyBackoff?: Partial<BackoffPolicy>;
  /**
   * How long, in total, to keep sending a round again while the server
   * answers "temporarily unavailable" (`data.reason: "temporarily_unavailable"`,
   * e.g. its replay store is down), waiting what it asks between tries; the
   * same answers and `requestState` go each time, so the user is not asked
   * again. Then the error is thrown. Default 30,000 ms (a Redis restart,
   * or an outage of several seconds, with room to spare); `0` never retries.
   */
  unavailableRetryMs?: number;
  /**
   * `"auto"` (default) probes with `server/discover`, offering the newest
   * modern revision ({@link MODERN_PROTOCOL_VERSION}) and settling on the
   * newest modern revision both sides speak, and falls back to the 2025
   * `initialize` handshake for a server that speaks none; or a version to
   * pin, with no fallback.
   */
  mode?: "auto" | ModernProtocolVersion | "2025-11-25" | "2025-06-18" | "2025-03-26";
  /**
   * How long the `server/discover` probe may go unanswered before the server
   * is taken as handshake-era; also bounds the `initialize` of a session
   * started afresh after an HTTP server lost the old one. Default 10 s.
   */
  probeTimeoutMs?: number;
  /**
   * What an earlier connection to the same server settled on
   * (`client.negotiated`, stored by the application), so `mode: "auto"` can
   * skip the probe for a handshake-era server. If the server no longer
   * answers that way, the client probes again. Ignored with a pinned `mode`.
   * Without it, outcomes are remembered per server URL or command line for
   * the life of the process.
   */
  negotiated?: NegotiatedOutcome;
  /**
   * Receives the notifications the server sends (list changed, progress, log messages), each once:
   * a call's progress or log message that the call's own `onProgress` or `onLog` received does not come here too.
   */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Aborts the connection attempt. */
  signal?: AbortSignal;
  /**
   * Declares the tasks extension (`io.modelcontextprotocol/tasks`), so a
   * server may answer a `tools/call` with a task: `callTool` then follows it
   * to its result (polling, answering its questions with the callbacks
   * above). `true`, or polling bounds. Default off.
   */
  tasks?: boolean | TaskClientOptions;
  /**
   * Check each `callTool` result's `structuredContent` against the tool's
   * `outputSchema`, from the last `tools/list` the client saw (all pages,
   * fetched once when it has none, and again after
   * `notifications/tools/list_changed`); a misfit throws `ToolOutputInvalid`.
   * Results with `isError: true` are not checked. Default `true` (only
   * `false` turns it off); a call's `checkOutput` overrides it.
   */
  checkToolOutputs?: boolean;
}

/**
 * Options of an automatic call (`callTool`, `getPrompt`, `readResource`, `resume`),
 * including its per-call `onProgress` and (deprecated) `onLog`.
 */
export interface CallOptions extends CallNotificationOptions, TimeoutOptions {
  /**
   * Bounds the whole call, every round and every callback included. Aborting
   * it cancels the request in flight the way the wire defines (stdio and
   * 2025 HTTP sessions: `notifications/cancelled` with its id; 2026-07-28
   * over HTTP: its response stream closed) and stops waiting. The deadline
   * (`timeoutMs`, …) applies to each request of the call (each round) apart.
   */
  signal?: AbortSignal;
  /** Extra `_meta` keys for each request of the call (`progressToken`, …). */
  meta?: JsonObject;
}

/** Options of {@link Client.request}: a call's options, and the schema its result must fit. */
export interface CustomCallOptions extends CallOptions {
  /**
   * The result's JSON Schema, or a Standard Schema (zod, valibot, arktype…):
   * a result that does not fit rejects with `InvalidServerResult` naming the
   * path (a Standard Schema's output is what resolves).
   */
  result?: Record<string, unknown> | StandardSchemaV1;
}

/** Options of {@link Client.callTool}. */
export interface ToolCallOptions extends CallOptions {
  /**
   * What to do when the server answers with a task: `"follow"` (default)
   * waits for its result; `"handle"` returns the {@link TaskHandle} at once
   * (a server that answers synchronously still gets you the result).
   * Aborting `signal` while following sends `tasks/cancel`.
   */
  task?: "follow" | "handle";
  /** Check this result against the tool's `outputSchema` (see `checkToolOutputs`); default: the client's setting. */
  checkOutput?: boolean;
}
