import {
  InvalidRequestState,
  type MintInput,
  type RequestBinding,
  type RequestStateLogger,
  type RequestStateRejectionReason,
  type RequestStateSecurity,
} from "../../state/index.js";
import { withCallShape } from "../../protocol/logging.js";
import { captureHandler, capturedRequest, SEALED_METHODS } from "./capture.js";
import { principalOfOfficialAuthInfo } from "./principal.js";
import type { BoundRequest, OfficialRequestContext, SealedRequestStateCodec, SealedRequestStateCodecOptions } from "./types.js";

/** The part of `RequestStateSecurity` the codec uses. */
type Sealer = Pick<RequestStateSecurity, "mint" | "verify"> & { readonly audience?: string | undefined };

const consoleLogger: RequestStateLogger = { warn: (message) => console.warn(message) };

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/** A rejection the codec decides itself, before or after the security's checks. */
class Rejection {
  constructor(
    readonly reason: RequestStateRejectionReason,
    readonly detail: string,
  ) {}
}

/**
 * A drop-in for the official SDK's `createRequestStateCodec`: the same
 * `RequestStateCodec` seam (`mint(payload, ctx)` in the handler,
 * `verify` as `ServerOptions.requestState.verify`), sealing mcp-roundtrip v1
 * tokens instead: AES-256-GCM (the client cannot read the payload), a key
 * ring with rotation, bound to the method, the tool/prompt name or resource
 * URI, the argument digest, the principal and the audience, with the size cap
 * and the optional replay store of the `RequestStateSecurity` given.
 *
 * Their `ctx` names the method but not the tool or its arguments, so wrap the
 * HTTP handler with `codec.capture(...)`; where nothing can be captured
 * (stdio), `bindRequest` says what to bind, and without it mint refuses.
 *
 * `verify` throws `InvalidRequestState` on every failure, so their seam
 * answers its fixed `-32602 "Invalid or expired requestState"`; the reason goes
 * to the security's logger (or, for the codec's own checks, `options.logger`).
 * With a `replay` store a token is spent when `verify` accepts it (their seam
 * has no "handler finished" hook, so there is no lease to release).
 *
 * Nothing of `@modelcontextprotocol/server` is imported, at run time or in
 * the types: the result is structurally their `RequestStateCodec<T>`.
 *
 * @param security - the key ring and policy (`ttl`, `maxStateBytes`, `replay`, `logger`, `crypto`).
 *   Its `bindPrincipal` is not consulted (it reads mcp-roundtrip's context); use `options.bindPrincipal`.
 * @param options - `audience` (required unless the security has one), `bindPrincipal`, `bindRequest`, `payload`, `logger`.
 * @returns the codec; `mint` and `verify` need no `this`.
 * @throws {TypeError} when `security` lacks mint/verify, no audience is known, or an option has the wrong type.
 * @example
 * ```ts
 * const codec = createSealedRequestStateCodec(new RequestStateSecurity({ keys: [process.env.STATE_KEY!] }), { audience: "weather" });
 * const handler = codec.capture(createMcpHandler(() => {
 *   const server = new McpServer({ name: "weather", version: "1.0.0" }, { requestState: { verify: codec.verify } });
 *   server.registerTool("forecast", config, async (args, ctx) =>
 *     inputRequired({ inputRequests, requestState: await codec.mint({ step: 2 }, ctx) }));
 *   return server;
 * }));
 * ```
 */
export function createSealedRequestStateCodec<T = unknown>(
  security: RequestStateSecurity,
  options: SealedRequestStateCodecOptions = {},
): SealedRequestStateCodec<T> {
  const sealer = security as Sealer;
  if (typeof sealer !== "object" || sealer === null || typeof sealer.mint !== "function" || typeof sealer.verify !== "function") {
    throw new TypeError(
      `createSealedRequestStateCodec expected a RequestStateSecurity (e.g. new RequestStateSecurity({ keys: [secret] })), got ${describe(security)}`,
    );
  }
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`createSealedRequestStateCodec expected options to be an object, got ${describe(options)}`);
  }
  const own = typeof sealer.audience === "string" && sealer.audience !== "" ? sealer.audience : undefined;
  if (options.audience !== undefined && (typeof options.audience !== "string" || options.audience === "")) {
    throw new TypeError(`createSealedRequestStateCodec: "audience" expected a non-empty string, got ${describe(options.audience)}`);
  }
  if (options.audience !== undefined && own !== undefined && options.audience !== own) {
    throw new TypeError(
      `createSealedRequestStateCodec: audience ${JSON.stringify(options.audience)} contradicts the security's own audience ${JSON.stringify(own)}; give one of them`,
    );
  }
  const audience = options.audience ?? own;
  if (audience === undefined) {
    throw new TypeError(
      'createSealedRequestStateCodec needs an audience, e.g. { audience: "weather-api" } (your server\'s name): their ctx does not carry the ' +
        "server's name, and without an audience another service sharing your key could replay its tokens here",
    );
  }
  const bindPrincipal = optionalFunction("bindPrincipal", options.bindPrincipal);
  const bindRequest = optionalFunction("bindRequest", options.bindRequest);
  const payloadMode = options.payload ?? "json";
  if (payloadMode !== "json" && payloadMode !== "text") {
    throw new TypeError(`createSealedRequestStateCodec: "payload" expected "json" or "text", got ${JSON.stringify(payloadMode)}`);
  }
  if (options.logger !== undefined && typeof options.logger?.warn !== "function") {
    throw new TypeError('createSealedRequestStateCodec: "logger" expected an object with a warn() method');
  }
  const logger = options.logger === undefined ? consoleLogger : withCallShape(options.logger);

  /** The binding of the request `ctx` serves; a Rejection when it cannot be known. */
  const bindingOf = (ctx: OfficialRequestContext): RequestBinding | Rejection => {
    const method = ctx?.mcpReq?.method;
    if (typeof method !== "string" || !SEALED_METHODS.has(method)) {
      return new Rejection("method_mismatch", `requestState is only sealed on tools/call, prompts/get and resources/read, not ${JSON.stringify(method)}`);
    }
    let request: BoundRequest | undefined = capturedRequest(ctx);
    if (request === undefined && bindRequest !== undefined) {
      const bound = bindRequest(ctx);
      if (bound !== undefined) {
        if (typeof bound !== "object" || bound === null || typeof bound.target !== "string") {
          throw new TypeError(`bindRequest expected to return { target: string, arguments? } or undefined, got ${describe(bound)}`);
        }
        // Bound as mcp-roundtrip's own server binds: a resource read has no arguments.
        request = method === "resources/read" ? { target: bound.target } : { target: bound.target, arguments: bound.arguments };
      }
    }
    if (request === undefined) {
      return new Rejection(
        "internal_error",
        "the request's target and arguments are unknown: wrap the HTTP handler with codec.capture(createMcpHandler(...)), or give bindRequest",
      );
    }
    let principal: string | undefined;
    try {
      principal = principalOf(ctx);
    } catch (error) {
      return new Rejection("principal_unavailable", `could not determine the principal: ${(error as Error)?.message ?? String(error)}`);
    }
    const binding: RequestBinding = { method, target: request.target, arguments: request.arguments, audience };
    if (principal !== undefined) binding.principal = principal;
    return binding;
  };

  const principalOf = (ctx: OfficialRequestContext): string | undefined => {
    if (bindPrincipal !== undefined) {
      const principal = bindPrincipal(ctx);
      if (principal === undefined || principal === null) return undefined;
      if (typeof principal !== "string" || principal === "") {
        throw new TypeError(`bindPrincipal expected to return a non-empty string, undefined or null, got ${describe(principal)}`);
      }
      return principal;
    }
    const authInfo = ctx.http?.authInfo;
    return authInfo === undefined || authInfo === null ? undefined : principalOfOfficialAuthInfo(authInfo);
  };

  const reject = (rejection: Rejection, ctx: OfficialRequestContext | undefined): never => {
    const details = { reason: rejection.reason, method: String(ctx?.mcpReq?.method ?? ""), target: "", detail: rejection.detail };
    try {
      logger.warn(`requestState rejected (${details.reason}) on ${details.method}: ${details.detail}`, details);
    } catch {
      // A broken logger must not turn a clean rejection into a crash.
    }
    throw new InvalidRequestState(`${rejection.reason}: ${rejection.detail}`);
  };

  const mint = async (payload: T, ctx?: OfficialRequestContext): Promise<string> => {
    if (typeof ctx !== "object" || ctx === null) {
      throw new TypeError("mint needs the handler's ctx, which identifies the request: await codec.mint(payload, ctx)");
    }
    const binding = bindingOf(ctx);
    if (binding instanceof Rejection) throw new TypeError(`cannot seal requestState: ${binding.detail}`);
    const input = binding as MintInput;
    input.state = encode(payloadMode, payload);
    return sealer.mint(input);
  };

  const verify = async (state: string, ctx: OfficialRequestContext): Promise<T> => {
    if (typeof state !== "string") return reject(new Rejection("not_a_string", `requestState is ${describe(state)}, not a string`), ctx);
    let binding: RequestBinding | Rejection;
    try {
      binding = typeof ctx === "object" && ctx !== null ? bindingOf(ctx) : new Rejection("internal_error", "verify was called without a ctx");
    } catch (error) {
      binding = new Rejection("internal_error", `binding the request threw ${(error as Error)?.message ?? String(error)}; failing closed`);
    }
    if (binding instanceof Rejection) return reject(binding, ctx);
    let plaintext: string;
    try {
      plaintext = await sealer.verify(state, binding);
    } catch (error) {
      if (error instanceof InvalidRequestState) throw error; // the security logged the real reason
      return reject(new Rejection("internal_error", `verify threw ${(error as Error)?.name ?? "a non-error"}; failing closed`), ctx);
    }
    if (typeof plaintext !== "string") return reject(new Rejection("codec_error", `verify returned ${describe(plaintext)}, not a string`), ctx);
    if (payloadMode === "text") return plaintext as T;
    try {
      return JSON.parse(plaintext) as T;
    } catch {
      // Sealed under this key and binding, but not by a JSON-mode codec (an mcp-roundtrip handler's plain text, say).
      return reject(new Rejection("malformed_envelope", 'the sealed state is not JSON (minted with payload: "text"?)'), ctx);
    }
  };

  return Object.freeze({
    mint,
    verify,
    capture: captureHandler,
    audience,
  });
}

function encode(mode: "json" | "text", payload: unknown): string {
  if (mode === "text") {
    if (typeof payload !== "string") throw new TypeError(`mint expected a string payload (payload: "text"), got ${describe(payload)}`);
    return payload;
  }
  const json = JSON.stringify(payload);
  if (typeof json !== "string") throw new TypeError(`mint expected a JSON-serialisable payload, got ${describe(payload)}`);
  return json;
}

function optionalFunction<F>(name: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw new TypeError(`createSealedRequestStateCodec: "${name}" expected a function, got ${describe(value)}`);
  }
  return value;
}
