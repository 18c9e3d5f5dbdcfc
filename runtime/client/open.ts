/**
 * What `Client.connect` does before there is a client: checks the options,
 * opens the transport for the target, and settles the protocol version
 * with the server (closing the transport again when that fails).
 *
 * @internal
 * @module
 */
import { checkBackoff } from "./backoff.js";
import type { InputCallbacks } from "./callbacks.js";
import { checkConnectOptions } from "./connect-options.js";
import type { Connection } from "./connection.js";
import type { LoopSettings } from "./loop.js";
import { DEFAULT_CLIENT_INFO, deriveCapabilities } from "./meta.js";
import { negotiate, type ServerDescription } from "./negotiate.js";
import type { ClientOptions } from "./options.js";
import { taskSettingsOf, withTasksExtension, type TaskSettings } from "./tasks.js";
import { negotiationKey } from "./targets.js";
import { openTransport } from "../connect/targets.js";
import type { ConnectTarget } from "../protocol/targets.js";

/** A connection ready for a client, with the settings its calls run under. @internal */
export interface OpenedClient {
  readonly connection: Connection;
  readonly server: ServerDescription;
  readonly loop: LoopSettings;
  readonly tasks: TaskSettings | undefined;
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
  const callbacks: InputCallbacks = { onElicit: options.onElicit, onSample: options.onSample, onListRoots: options.onListRoots };
  const transport = await openTransport(target);
  try {
    const { connection, server } = await negotiate({
      transport,
      mode,
      capabilities:
        tasks === undefined ? deriveCapabilities(callbacks, options.capabilities) : withTasksExtension(deriveCapabilities(callbacks, options.capabilities)),
      clientInfo: options.clientInfo === undefined ? DEFAULT_CLIENT_INFO : options.clientInfo,
      callbacks,
      probeTimeoutMs,
      renewTimeoutMs: probeTimeoutMs,
      signal: options.signal,
      onNotification: options.onNotification,
      cacheKey: mode === "auto" ? negotiationKey(transport) : undefined,
      prior,
    });
    return { connection, server, loop: { callbacks, maxRounds, backoff, unavailableRetryMs }, tasks };
  } catch (error) {
    if (transport !== target) await transport.close().catch(() => {});
    throw error;
  }
}
