/**
 * What `Client.connect` does before there is a client: checks the options,
 * opens the transport for the target, and settles the protocol version
 * with the server (closing the transport again when that fails).
 *
 * @internal
 * @module
 */
import { DEFAULT_TIMING, timingFor } from "./deadline.js";
import type { Connection } from "./connection.js";
import type { LoopSettings } from "./loop.js";
import { DEFAULT_CLIENT_INFO } from "./meta.js";
import { isKnownMode, negotiate, type ServerDescription } from "./negotiate.js";
import type { ClientOptions } from "./options.js";
import { MODERN_PROTOCOL_VERSION, SPOKEN } from "./protocol.js";
import { withTasksExtension, type TaskSettings } from "./tasks.js";
import { answerersOf, deriveCapabilities } from "./kinds.js";
import { negotiationKey } from "./targets.js";
import { openTransport } from "../connect/targets.js";
import type { ConnectTarget } from "../protocol/targets.js";
import type { CheckedConnectOptions, ConnectOptionsKit } from "./connect-options.js";
import type { ToolOutputState } from "./tool-output.js";

/** What `Client.connect` goes on with when none of the options below is given. */
const CONNECT_DEFAULTS: CheckedConnectOptions = Object.freeze({
  maxRounds: 10,
  unavailableRetryMs: 30_000,
  mode: "auto",
  probeTimeoutMs: 10_000,
  prior: undefined,
  // 50 ms, doubling, capped at 250 ms.
  backoff: Object.freeze({ initialMs: 50, maxMs: 250 }),
  tasks: undefined,
});

/**
 * The options `connect-options.ts` checks: a connect that names none of them
 * (the common case) never loads that module.
 */
const CHECKED_OPTIONS = [
  "inputRequiredMaxRounds",
  "unavailableRetryMs",
  "mode",
  "probeTimeoutMs",
  "onNotification",
  "negotiated",
  "stateOnlyBackoff",
  "tasks",
] as const satisfies readonly (keyof ClientOptions)[];

/** What the lazily loaded option checks borrow from the main modules. */
const CONNECT_OPTIONS_KIT: ConnectOptionsKit = Object.freeze({ isKnownMode, SPOKEN, defaults: CONNECT_DEFAULTS });

/** The options of `Client.connect`, checked (by their module, loaded only when one of them is given), with their defaults. */
async function checkedOptions(options: ClientOptions): Promise<CheckedConnectOptions> {
  if (!CHECKED_OPTIONS.some((name) => options[name] !== undefined)) return CONNECT_DEFAULTS;
  return (await import("./connect-options.js")).checkConnectOptions(options, CONNECT_OPTIONS_KIT);
}

/** A connection ready for a client, with the settings its calls run under. @internal */
export interface OpenedClient {
  readonly connection: Connection;
  readonly server: ServerDescription;
  readonly loop: LoopSettings;
  readonly tasks: TaskSettings | undefined;
  /** What `callTool`'s output check knows of the server's tools (./tool-output.ts). */
  readonly outputs: ToolOutputState;
}

/**
 * Opens and negotiates a connection for `Client.connect`.
 * @throws what `Client.connect` documents
 * @internal
 */
export async function openClient(target: ConnectTarget, options: ClientOptions): Promise<OpenedClient> {
  const { maxRounds, unavailableRetryMs, mode, probeTimeoutMs, prior, backoff, tasks } = await checkedOptions(options);
  const timing = await timingFor(options, DEFAULT_TIMING);
  const answerers = await answerersOf(options);
  const declared = deriveCapabilities(answerers, mode === "auto" ? MODERN_PROTOCOL_VERSION : mode, options.capabilities);
  // callTool's output check: a subscription's notifications/tools/list_changed forgets the list (Client.subscribe);
  // a list gone stale unheard is fetched again on a misfit (./tool-output.ts).
  const outputs: ToolOutputState = { enabled: options.checkToolOutputs !== false, catalog: undefined };
  const transport = await openTransport(target);
  try {
    const { connection, server } = await negotiate({
      transport,
      mode,
      capabilities: tasks === undefined ? declared : withTasksExtension(declared),
      clientInfo: options.clientInfo === undefined ? DEFAULT_CLIENT_INFO : options.clientInfo,
      answerers,
      probeTimeoutMs,
      renewTimeoutMs: probeTimeoutMs,
      // A signal even when the caller gave none: over HTTP only a request with one is closed when its deadline
      // passes (the transport gives fetch none of its own, see docs/client.md), and a silent server would
      // otherwise keep the timed-out initialize open. One or two handshake requests cost nothing per call.
      signal: options.signal ?? new AbortController().signal,
      onNotification: options.onNotification,
      cacheKey: mode === "auto" ? negotiationKey(transport) : undefined,
      prior,
      timing,
    });
    return { connection, server, loop: { answerers, maxRounds, backoff, unavailableRetryMs }, tasks, outputs };
  } catch (error) {
    if (transport !== target) await transport.close().catch(() => {});
    throw error;
  }
}
