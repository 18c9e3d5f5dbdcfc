import type { RequestContext } from "../../protocol/context.js";
import type { CryptoBackendChoice } from "../primitives/backend.js";
import type { RequestStateCodec } from "../primitives/codec.js";
import type { RequestStateRejectionReason } from "../primitives/errors.js";
import type { RequestStateSecret } from "../primitives/keys.js";
import type { ReplayStore } from "./replay.js";

/** Where sealing keys come from: a key ring for the built-in codec, or your own codec. Exactly one. */
export type RequestStateKeySource =
  | {
      /** The key ring: the first key seals, every key opens, so a rotation adds the new key first. */
      keys: readonly RequestStateSecret[];
      /** Not with `keys`. */
      codec?: undefined;
    }
  | {
      /** Your own sealing (a KMS, another format); the SDK still adds and checks expiry and binding. */
      codec: RequestStateCodec;
      /** Not with `codec`. */
      keys?: undefined;
    };

/** Policy options of `RequestStateSecurity`. */
export interface RequestStateSecurityOptions {
  /** Seconds a sealed round stays valid (default 600). Each round is sealed afresh. */
  ttl?: number;
  /**
   * The audience claim sealed into every token and required of every
   * incoming one. Overrides the audience a caller passes to `mint`/`verify`.
   */
  audience?: string;
  /**
   * Supplies the principal from your own identity signal (a proxy header, a
   * session) when authentication happens outside the SDK. When set, it alone
   * decides the principal of a request context; returning `undefined` binds none.
   */
  bindPrincipal?: (context: RequestContext) => string | undefined | null;
  /** Incoming tokens longer than this many UTF-8 bytes are rejected before any crypto (default 65,536). */
  maxStateBytes?: number;
  /** A one-time-use store: a token accepted once is rejected afterwards. Off by default. */
  replay?: ReplayStore;
  /**
   * With `replay`, how long a token is held for the request that presented
   * it before the hold lapses unless the request produced a result (default
   * 30 seconds). A retry after a failed handler is accepted at once; one
   * after a crash, once the hold lapsed.
   */
  replayLeaseSeconds?: number;
  /**
   * Clock skew tolerated both ways between the instance that minted a token
   * and the one verifying it, in seconds (default 60): a token issued up to
   * this far in the future is accepted, and one is accepted this long past
   * its end. A token's end is `iat` plus the verifier's own `ttl` (or its
   * `exp`, if sooner), so lowering `ttl` shortens tokens already issued.
   */
  clockSkewSeconds?: number;
  /** Receives one warning per rejected token, with the real reason. Default: `console.warn`. */
  logger?: RequestStateLogger;
  /** The clock, in seconds since the epoch (default `Date.now() / 1000`). For tests. */
  now?: () => number;
  /**
   * Crypto implementation: `"auto"` (default), `"node"` or `"noble"`. `"auto"` uses node:crypto
   * where `process.getBuiltinModule` reaches it (Node ≥ 20.16, Bun, Deno) and `@noble/ciphers`
   * elsewhere; both produce and accept the same tokens.
   */
  crypto?: CryptoBackendChoice;
}

export type { RequestStateRejectionReason } from "../primitives/errors.js";

/** What the logger learns about a rejection (its structured fields). Holds no token, key, principal or arguments. */
export type RequestStateRejection = {
  /** Which check failed, as a stable code to count or alert on. */
  reason: RequestStateRejectionReason;
  /** The method of the request that carried the token. */
  method: string;
  /** Its tool or prompt name, or resource URI. */
  target: string;
  /** A human-readable explanation. */
  detail: string;
  /**
   * With `unknown_key`: the token's key id (8 hex digits). Not a secret (every
   * token carries it in the clear); during a rotation it names the key this instance lacks.
   */
  keyId?: string;
};

/** What the start-up log says about the key ring. Holds key ids, never keys. */
export type RequestStateRingInfo = {
  /** Every key id of the ring, the minting one first. */
  keyIds: string[];
  /** The key id new tokens are sealed under. */
  mintingKeyId: string;
  /** The audience every token must carry, or `undefined` when each caller passes its own. */
  audience: string | undefined;
  /** Seconds a sealed round stays valid. */
  ttl: number;
};

/**
 * Where rejections (and, when it has `info`, the key ring at start) are
 * reported, each as `(message, fields)`. A server's logger (`ServerLogger`),
 * `console` and a pino logger (recognised and called as `(fields, message)`)
 * all fit.
 */
export interface RequestStateLogger {
  /** One rejected token, with the structured reason; the client got only the generic -32602. */
  warn(message: string, rejection: RequestStateRejection): void;
  /**
   * Optional: receives one line at construction naming the ring's key ids
   * (which mints, which verify), so an operator can confirm each rotation
   * phase landed everywhere. Without it nothing is logged at start.
   */
  info?(message: string, ring: RequestStateRingInfo): void;
}

/** What binds a token to one request: the fields shared by `mint` and `verify`. */
export interface RequestBinding {
  /** The JSON-RPC method: `"tools/call"`, `"prompts/get"` or `"resources/read"`. */
  method: string;
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /** The request's arguments; absent counts as `{}`. */
  arguments?: unknown;
  /**
   * The principal to bind, e.g. `principalOf(authInfo)`. When absent and
   * `context` is given, it is derived from the context (see `principalFor`).
   */
  principal?: string;
  /** The request context, used to derive the principal when `principal` is absent. */
  context?: RequestContext;
  /** The audience, unless the security object has its own. */
  audience?: string;
  /** The current time in seconds since the epoch, overriding the clock. */
  now?: number;
}

/** What `mint` seals: the binding plus the handler's plaintext state. */
export interface MintInput extends RequestBinding {
  /** The handler's own state for the next round; the client cannot read or change it. */
  state: string;
}
