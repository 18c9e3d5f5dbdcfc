/**
 * McpServer's sealing policy: which security seals `requestState`, and under
 * which audience, with the checks that keep a shared key from accepting
 * another service's tokens.
 *
 * @internal
 */
import type { RequestContext } from "../protocol/context.js";
import { principalOf, RequestStateSecurity, type MintInput, type RequestBinding, type RequestStateUse } from "../state/index.js";
import { MINT_NOW, VERIFY_ONCE_NOW } from "../state/token/security.js";
import { REPORTS_OWN_REJECTIONS, requestStateBoundary, type RequestStateSealer } from "./state-boundary.js";
import type { ServerLogger, ServerMiddleware } from "./types.js";

/**
 * The default per-process key of an McpServer, made on first use: a server
 * whose tools never seal nor receive state never loads a crypto backend
 * (node:crypto alone is ~4 ms of a cold start). Behaves as
 * `RequestStateSecurity.ephemeral()` does, which it creates then.
 */
class DeferredEphemeralSecurity implements RequestStateSealer {
  readonly [REPORTS_OWN_REJECTIONS] = true;
  readonly #logger: ServerLogger | undefined;
  #security: RequestStateSecurity | undefined;

  constructor(logger: ServerLogger | undefined) {
    this.#logger = logger;
  }

  #made(): RequestStateSecurity {
    this.#security ??= RequestStateSecurity.ephemeral(this.#logger === undefined ? {} : { logger: this.#logger });
    return this.#security;
  }

  mint(input: MintInput): string | Promise<string> {
    return this.#made().mint(input);
  }

  verify(token: string, binding: RequestBinding): string | Promise<string> {
    return this.#made().verify(token, binding);
  }

  verifyOnce(token: string, binding: RequestBinding): Promise<RequestStateUse> {
    return this.#made().verifyOnce(token, binding);
  }

  [MINT_NOW](input: MintInput): string | Promise<string> {
    return this.#made()[MINT_NOW](input);
  }

  [VERIFY_ONCE_NOW](token: string, binding: RequestBinding): RequestStateUse | Promise<RequestStateUse> {
    return this.#made()[VERIFY_ONCE_NOW](token, binding);
  }

  /** An ephemeral security binds no `bindPrincipal`: the principal is the transport's authenticated caller, if any. */
  principalFor(context: RequestContext | undefined): string | undefined {
    return context?.authInfo ? principalOf(context.authInfo) : undefined;
  }
}

// Names too common to tell one service from another: as an audience they would let a
// token minted by some other "mcp-server" sharing the key verify here.
const GENERIC_NAMES: ReadonlySet<string> = new Set([
  "",
  "mcp",
  "server",
  "mcpserver",
  "mcpservice",
  "service",
  "app",
  "default",
  "unnamed",
  "untitled",
  "test",
  "example",
  "demo",
  "myserver",
  "myapp",
  "localhost",
  "fastmcp",
  "mcpserverapp",
]);

/**
 * True for a server name distinctive enough to serve as the audience of
 * sealed request state.
 * @internal
 */
function isDistinctiveName(name: string): boolean {
  return !GENERIC_NAMES.has(name.toLowerCase().replace(/[^a-z0-9]/g, ""));
}

function audienceOf(security: RequestStateSealer): string | undefined {
  const audience = (security as { audience?: unknown }).audience;
  return typeof audience === "string" && audience.length > 0 ? audience : undefined;
}

/**
 * The request-state boundary McpServer installs: `requestStateSecurity`
 * when given (checked), else a per-process ephemeral key.
 *
 * @throws TypeError for a malformed security, an explicit one without a
 *   distinctive name or audience, or an audience that contradicts the security's own
 * @internal
 */
export function sealingBoundary(
  requestStateSecurity: RequestStateSealer | undefined,
  audience: string | undefined,
  name: string,
  logger: ServerLogger | undefined,
): ServerMiddleware {
  if (
    requestStateSecurity !== undefined &&
    (typeof requestStateSecurity !== "object" ||
      requestStateSecurity === null ||
      typeof requestStateSecurity.mint !== "function" ||
      typeof requestStateSecurity.verify !== "function")
  ) {
    throw new TypeError(
      "McpServer: requestStateSecurity must be a RequestStateSecurity (or an object with mint and verify), " +
        "e.g. new RequestStateSecurity({ keys: [secret] }); omit it for a per-process key",
    );
  }
  let security = requestStateSecurity;
  if (security === undefined) {
    // Rejections are reported where the rest of this server's diagnostics go.
    security = new DeferredEphemeralSecurity(logger);
  } else if (audience === undefined && audienceOf(security) === undefined && !isDistinctiveName(name)) {
    throw new TypeError(
      `McpServer: an explicit requestStateSecurity needs a distinctive server name or an audience, and ${JSON.stringify(name)} is neither. ` +
        "Sealed state is bound to that audience so that another service sharing your key cannot replay its tokens here: " +
        'name the server (new McpServer({ name: "billing-api", version }) ) or set an audience (in RequestStateSecurity({ ..., audience }) or McpServer options).',
    );
  }
  const ownAudience = audienceOf(security);
  if (audience !== undefined && ownAudience !== undefined && audience !== ownAudience) {
    // The security's audience always wins inside verify/mint, so the option would be silently ignored.
    throw new TypeError(
      `McpServer: audience ${JSON.stringify(audience)} contradicts the requestStateSecurity's own audience ${JSON.stringify(ownAudience)}; ` +
        "set it in one place only (or make them equal)",
    );
  }
  const boundAudience = audience ?? (audienceOf(security) === undefined && name.length > 0 ? name : undefined);
  return requestStateBoundary(security, boundAudience === undefined ? {} : { audience: boundAudience });
}
