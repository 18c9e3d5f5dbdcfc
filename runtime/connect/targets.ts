/**
 * The transport factory `Client.connect` reaches its transports through: one
 * table from a kind of target to the transport that serves it. It sits above
 * the transports and beside the client, so runtime/client/ imports no
 * transport (the `client-without-transport` layer rule) and the transports
 * import no side.
 *
 * @module
 */
import type { ClientTransport, MessageHandler } from "../protocol/contracts.js";
import type { CommandTarget, ConnectTarget } from "../protocol/targets.js";
import { StreamableHttpClientTransport } from "../transport/http/client/transport.js";

/** One row of the resolution table: recognises a kind of target and opens a transport for it. */
interface TargetKind {
  matches(target: unknown): boolean;
  open(target: never): ClientTransport | Promise<ClientTransport>;
}

const hasFunction = (value: unknown, name: string): boolean =>
  typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[name] === "function";

const isTransport = (value: unknown): value is ClientTransport => hasFunction(value, "request") && hasFunction(value, "notify") && hasFunction(value, "close");

/**
 * The table `Client.connect` consults, first match wins. A transport comes
 * first: an object that is both a transport and a handler is meant as the
 * transport. The URL and command rows are where the Streamable HTTP and
 * stdio client transports plug in; the loop never sees which row matched.
 * HTTP is imported as is (no `node:` builtin; a lazy import would split the
 * browser bundle's one 2026 chunk). Stdio is loaded only when its row
 * matches, through the package's `#stdio-spawn` import, which resolves to
 * the real spawner only under the `node` condition (Node, Deno, Bun), so a
 * browser or worker bundle never reaches `node:child_process`. What a target
 * that matches no row is told (each row described, in this order) is in
 * `target-error.ts`, loaded then.
 */
const TARGET_KINDS: readonly TargetKind[] = [
  { matches: isTransport, open: (target: ClientTransport) => target },
  {
    matches: (target) => hasFunction(target, "handle"),
    open: async (target: MessageHandler) => new (await import("../transport/memory.js")).InMemoryClientTransport(target),
  },
  {
    matches: (target) => target instanceof URL || (typeof target === "string" && /^https?:\/\//i.test(target)),
    // A token or a custom fetch needs options: construct StreamableHttpClientTransport and pass it instead.
    open: (target: string | URL) => new StreamableHttpClientTransport(target),
  },
  {
    matches: (target) => typeof target === "object" && target !== null && typeof (target as { command?: unknown }).command === "string",
    open: async (target: CommandTarget) => {
      const { spawnStdio } = await import("#stdio-spawn");
      // The child gets a short allow-list of this process's environment plus target.env, never all of it.
      return spawnStdio({
        command: target.command,
        args: target.args,
        env: target.env,
        inheritEnv: target.inheritEnv,
        cwd: target.cwd,
      });
    },
  },
];

/**
 * Opens the transport for `target`.
 *
 * @throws TypeError when `target` is none of the accepted kinds.
 */
export async function openTransport(target: ConnectTarget): Promise<ClientTransport> {
  for (const kind of TARGET_KINDS) {
    if (kind.matches(target)) return kind.open(target as never);
  }
  throw (await import("./target-error.js")).unknownTarget(target);
}
