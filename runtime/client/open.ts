/**
 * What `Client.connect` does before there is a client: checks the options,
 * opens the transport for the target, and settles the protocol version
 * with the server (closing the transport again when that fails).
 *
 * @internal
 * @module
 */
import { checkBackoff } from "./backoff.js";
import { checkConnectOptions } from "./connect-options.js";
import type { Connection } from "./connection.js";
import type { LoopSettings } from "./loop.js";
import { DEFAULT_CLIENT_INFO } from "./meta.js";
import { negotiate, type ServerDescription } from "./negotiate.js";
import type { ClientOptions } from "./options.js";
import { MODERN_PROTOCOL_VERSION } from "./protocol.js";
import { taskSettingsOf, withTasksExtension, type TaskSettings } from "./tasks.js";
import { answerersOf, deriveCapabilities } from "./kinds.js";
import { negotiationKey } from "./targets.js";
import { openTransport } from "../connect/targets.js";
import type { ConnectTarget } from "../protocol/targets.js";
import type { ToolOutputState } from "./tool-output.js";

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
  const { maxRounds, unavailableRetryMs, mode, probeTimeoutMs, prior } = checkConnectOptions(options);
  const backoff = checkBackoff(options.stateOnlyBackoff);
  const tasks = taskSettingsOf(options.tasks);
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
      signal: options.signal,
      onNotification: options.onNotification,
      cacheKey: mode === "auto" ? negotiationKey(transport) : undefined,
      prior,
    });
    return { connection, server, loop: { answerers, maxRounds, backoff, unavailableRetryMs }, tasks, outputs };
  } catch (error) {
    if (transport !== target) await transport.close().catch(() => {});
    throw error;
  }
}
