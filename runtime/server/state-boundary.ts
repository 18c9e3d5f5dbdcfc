import type { McpError } from "../protocol/jsonrpc/errors.js";
import {
  InvalidRequestState,
  RequestStateUnavailable,
  invalidRequestStateError,
  RequestStateSecurity,
  type MintInput,
  type RequestBinding,
  type RequestStateUse,
} from "../state/index.js";
import type { RequestContext } from "../protocol/context.js";
import type { InputRequiredResult } from "../protocol/types.js";
import { RequestContextImpl, type ServerRequestContext } from "./context.js";
import { internalError } from "./errors.js";
import { nextTurn } from "../protocol/sleep.js";
import type { MiddlewareRequest, ServerLogger, ServerMiddleware } from "./types.js";
import { isThenable } from "../protocol/guards.js";
import { paramsWithoutEnvelope } from "../protocol/message.js";
import { MINT_NOW, VERIFY_ONCE_NOW } from "../state/token/security.js";
import { NO_USE } from "../state/policy/use.js";

/**
 * The part of `RequestStateSecurity` the boundary uses; either call may be
 * sync or async (a custom implementation may call a KMS). `verify` throws
 * `InvalidRequestState` for anything it rejects.
 */
export interface RequestStateSealer {
  /** Seals the state a handler returned into the opaque token sent as `requestState`, bound to this request. */
  mint(input: MintInput): string | Promise<string>;
  /**
   * Opens an echoed token and returns the state it sealed.
   *
   * @throws InvalidRequestState when the token is forged, expired, or was minted for another request, principal or audience.
   */
  verify(token: string, binding: RequestBinding): string | Promise<string>;
  /**
   * Optional: verify and hold a one-time token for the request, to be
   * committed once it produced a result or released when it failed (see
   * `RequestStateSecurity.verifyOnce`). Without it `verify` is used.
   */
  verifyOnce?(token: string, binding: RequestBinding): Promise<RequestStateUse>;
  /** Optional: the principal a request context binds to (see `RequestStateSecurity.principalFor`). */
  principalFor?(context: RequestContext | undefined): string | undefined;
}

/** What `RequestStateSecurity` offers the boundary besides {@link RequestStateSealer}: answers at once when it can. */
interface ImmediateSealer {
  [MINT_NOW](input: MintInput): string | Promise<string>;
  [VERIFY_ONCE_NOW](token: string, binding: RequestBinding): RequestStateUse | Promise<RequestStateUse>;
}

/** Options of {@link requestStateBoundary}. */
export interface RequestStateBoundaryOptions {
  /**
   * The audience claim sealed into every token and required on every echo.
   * Default: the server's name (`serverInfo.name`). The security object's own
   * `audience`, when set, takes precedence.
   */
  audience?: string;
  /**
   * The principal to bind tokens to. Default: what the security derives
   * from the transport's context (its `bindPrincipal`, else the verified
   * `authInfo`; nothing to bind when unauthenticated).
   */
  principal?: (ctx: ServerRequestContext) => string | undefined;
  /**
   * Receives the real reason a token was rejected (the wire only ever says
   * "Invalid or expired requestState"). Default: the server's logger.
   */
  logger?: ServerLogger;
}

const SEALED_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

const NO_CONTEXT: RequestContext = Object.freeze({});

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function bindingOf(
  request: MiddlewareRequest,
  audience: string | undefined,
  principalOf: ((ctx: ServerRequestContext) => string | undefined) | undefined,
): RequestBinding {
  const params = request.params;
  const builtIn = SEALED_METHODS.has(request.method);
  const binding: RequestBinding = {
    method: request.method,
    // A custom method has no name or URI of its own to bind: its params (the envelope's members aside) are its arguments.
    target: (builtIn ? (request.method === "resources/read" ? params.uri : params.name) : request.method) as string,
    arguments: builtIn ? (request.method === "resources/read" ? undefined : params.arguments) : paramsWithoutEnvelope(params),
    context: request.transport ?? NO_CONTEXT,
  };
  if (principalOf !== undefined) {
    const principal = principalOf(request.context);
    if (principal !== undefined) binding.principal = principal;
  }
  // Without an explicit audience the server's own name is the claim, so two services sharing a key
  // still refuse each other's tokens (the security object's own audience, when set, overrides both).
  binding.audience = audience ?? request.serverName;
  return binding;
}

/**
 * Marks a sealer that logs its own rejections with their real reason, as
 * `RequestStateSecurity` does (McpServer's deferred default key), so the
 * boundary does not log them twice.
 * @internal
 */
export const REPORTS_OWN_REJECTIONS: unique symbol = Symbol("mcp-roundtrip/reports-own-rejections");

/**
 * The request-state boundary: seals every outgoing `requestState` and
 * verifies every incoming one, so handlers only ever read and write
 * plaintext while the wire only ever carries an authenticated, encrypted
 * token bound to the method, the tool/prompt name or resource URI, the
 * arguments, the caller and the service.
 *
 * Every `requestState` arriving on `tools/call`, `prompts/get` or
 * `resources/read` is verified before any handler runs, including for
 * handlers that never mint state (JSON `null` counts as absent). A failed
 * check, whatever its cause, answers `-32602 "Invalid or expired
 * requestState"` with `data: { reason: "invalid_request_state" }`; the real
 * reason goes to the logger.
 *
 * @param security - a `RequestStateSecurity` (or anything with its `mint`/`verify`)
 * @param options - audience, principal resolver, logger
 * @returns a middleware for `server.use(...)`
 * @throws TypeError when `security` lacks `mint`/`verify` or `audience` is not a non-empty string
 * @example
 * ```ts
 * server.use(requestStateBoundary(new RequestStateSecurity({ keys: [secret] }), { audience: "provisioner" }));
 * ```
 */
export function requestStateBoundary(security: RequestStateSealer, options: RequestStateBoundaryOptions = {}): ServerMiddleware {
  if (typeof security !== "object" || security === null || typeof security.mint !== "function" || typeof security.verify !== "function") {
    throw new TypeError("requestStateBoundary: expected a RequestStateSecurity (an object with mint and verify)");
  }
  if (options.audience !== undefined && (typeof options.audience !== "string" || options.audience.length === 0)) {
    throw new TypeError("requestStateBoundary: audience must be a non-empty string, such as the server's name");
  }
  const audience = options.audience;
  const principalOf = options.principal;
  const logger = options.logger;
  // What ctx.principal shows is what tokens bind to: the resolver, else the security's own rule.
  const principalFor = typeof security.principalFor === "function" ? security.principalFor.bind(security) : undefined;
  const resolvePrincipal =
    principalOf !== undefined
      ? (request: MiddlewareRequest) => principalOf(request.context)
      : principalFor !== undefined
        ? (request: MiddlewareRequest) => principalFor(request.transport ?? NO_CONTEXT)
        : undefined;
  /** One-time tokens held for the request that presented them, until it settles. */
  const uses = new WeakMap<MiddlewareRequest, RequestStateUse>();
  // RequestStateSecurity (and McpServer's deferred key) answer at once when nothing has to be waited for:
  // a round that mints or verifies then costs its request no turn through a promise.
  const immediate = security as RequestStateSealer & Partial<ImmediateSealer>;
  const mint = typeof immediate[MINT_NOW] === "function" ? immediate[MINT_NOW].bind(security) : (input: MintInput) => security.mint(input);
  const verifyOnce =
    typeof immediate[VERIFY_ONCE_NOW] === "function"
      ? immediate[VERIFY_ONCE_NOW].bind(security)
      : typeof security.verifyOnce === "function"
        ? security.verifyOnce.bind(security)
        : undefined;

  // RequestStateSecurity reports its own rejections (with the real reason); anything else is reported here.
  const reportsItself = security instanceof RequestStateSecurity || (security as { [REPORTS_OWN_REJECTIONS]?: unknown })[REPORTS_OWN_REJECTIONS] === true;
  const reject = (request: MiddlewareRequest, cause: unknown): McpError => {
    // Not a verdict on the token: its replay store was unreachable. Answered as retryable (logged where it was thrown).
    if (cause instanceof RequestStateUnavailable) return cause;
    if (!(reportsItself && cause instanceof InvalidRequestState)) {
      const reason = cause instanceof InvalidRequestState ? (cause.detail ?? "rejected") : "verification threw; failing closed";
      (logger ?? request.logger).warn(`${request.method}: requestState rejected (${reason})`, { method: request.method, reason, cause });
    }
    // The cause rides along on this side only (telemetry reads its reason); the wire gets the fixed bytes.
    return invalidRequestStateError(cause);
  };

  /** A verified token's state handed to the handler; its use kept for onSettled when a replay store tracks it. */
  const useToken = (request: MiddlewareRequest, use: RequestStateUse): void => {
    if (typeof use?.state !== "string") {
      throw reject(request, new TypeError(`verifyOnce resolved ${describe(use)}, not { state: string }`));
    }
    // A use no replay store tracks has nothing to commit or release: onSettled need not find it.
    if (use.commit !== NO_USE.commit || use.release !== NO_USE.release) uses.set(request, use);
    request.params = { ...request.params, requestState: use.state };
  };

  return {
    screen(method: string, params: Readonly<Record<string, unknown>>, serverLogger: ServerLogger, mayAskInput?: boolean): void {
      // Before the schema check, so a requestState that is not even a string gets the same fixed
      // rejection as a forged one, not a schema error describing it.
      if (!(mayAskInput ?? SEALED_METHODS.has(method))) return;
      const token = params.requestState;
      if (token === undefined || token === null || typeof token === "string") return;
      (logger ?? serverLogger).warn(`${method}: requestState rejected (not a string: ${Array.isArray(token) ? "array" : typeof token})`, {
        method,
        reason: "not_a_string",
      });
      throw invalidRequestStateError();
    },

    onRequest(request: MiddlewareRequest): void | Promise<void> {
      if (resolvePrincipal !== undefined && request.context instanceof RequestContextImpl) {
        request.context.resolvePrincipalWith(() => resolvePrincipal(request));
      }
      if (!(request.mayAskInput ?? SEALED_METHODS.has(request.method))) return;
      const token = request.params.requestState;
      if (token === undefined || token === null) return;
      if (typeof token !== "string") throw reject(request, new TypeError("requestState is not a string"));
      if (verifyOnce !== undefined) {
        let pending: RequestStateUse | Promise<RequestStateUse>;
        try {
          pending = verifyOnce(token, bindingOf(request, audience, principalOf));
        } catch (error) {
          throw reject(request, error);
        }
        if (!isThenable<RequestStateUse>(pending)) return useToken(request, pending);
        return pending.then(
          (use) => useToken(request, use),
          (error: unknown) => {
            throw reject(request, error);
          },
        );
      }
      let plaintext: string | Promise<string>;
      try {
        plaintext = security.verify(token, bindingOf(request, audience, principalOf));
      } catch (error) {
        throw reject(request, error);
      }
      const accept = (state: string): void => {
        // A sealer that answers anything but a string has not vouched for the token: fail closed,
        // or the handler would read the retry as a first call (or crash on a non-string).
        if (typeof state !== "string") throw reject(request, new TypeError(`verify returned ${state === null ? "null" : typeof state}, not the plaintext string`));
        // A copy: the caller's message (in memory, the client's own object) must keep its token.
        request.params = { ...request.params, requestState: state };
      };
      if (!isThenable<string>(plaintext)) return accept(plaintext);
      return Promise.resolve(plaintext).then(accept, (error: unknown) => {
        throw reject(request, error);
      });
    },

    onSettled(request: MiddlewareRequest, produced: boolean): Promise<void> | void {
      const use = uses.get(request);
      if (use === undefined) return;
      uses.delete(request);
      // Nothing went out: a retry with the token must still work.
      if (!produced) return use.release();
      // A result is going out: the token is spent once it has left. An instance
      // that dies in between leaves an uncommitted lease, which lapses, so the
      // client's retry is accepted rather than refused with no answer sent.
      // Only the use waits for that turn, never the request or its result.
      nextTurn(() => void use.commit().catch((error: unknown) => request.logger.warn("requestState: a one-time token could not be committed", { error })));
    },

    onInputRequired(result: InputRequiredResult, request: MiddlewareRequest): InputRequiredResult | Promise<InputRequiredResult> {
      const state = result.requestState;
      if (state === undefined) return result;
      const seal = (token: string): InputRequiredResult => {
        // A non-string would leave the wire without the state the handler meant to carry.
        if (typeof token !== "string") fail(new TypeError(`mint returned ${token === null ? "null" : typeof token}, not a token string`));
        return { ...result, requestState: token };
      };
      // The server logs -32603 errors with their cause; the wire gets the fixed text.
      const fail = (error: unknown): never => {
        throw internalError("Internal error: could not seal requestState", error);
      };
      let token: string | Promise<string>;
      try {
        // Not { ...binding, state }: a spread copy that gains a member is a V8 slow path whose garbage
        // outlives young-generation collections (and so grows the heap); the binding is ours to extend.
        const input = bindingOf(request, audience, principalOf) as MintInput;
        input.state = state;
        token = mint(input);
      } catch (error) {
        return fail(error);
      }
      return isThenable<string>(token) ? Promise.resolve(token).then(seal, fail) : seal(token);
    },
  };
}

/**
 * A deep copy of a JSON value (objects, arrays, primitives): the request
 * path hands a handler this copy of the arguments the boundary binds what it
 * mints to, so the handler may change its copy without changing the binding.
 * Much cheaper than `structuredClone` for the small objects arguments usually
 * are; an own `"__proto__"` key stays an own key.
 * @internal
 */
export function snapshotJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = snapshotJson(value[i]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = snapshotJson((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
