import type { InputRequiredResult } from "./protocol.js";

/**
 * An input request of a round could not be answered: no callback was given
 * for its method, the method is unknown, or the callback threw. The round's
 * other callbacks are aborted through their `signal`.
 */
export class InputRequestFailed extends Error {
  /** Always `"InputRequestFailed"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "InputRequestFailed" as const;
  /** The server-assigned key of the request that failed; `undefined` over a 2025 server's back channel, which has no keys. */
  readonly key: string | undefined;
  /** The input request's method (`elicitation/create`, …). */
  readonly method: string;
  /**
   * 2025 servers only: the result the server ended the call with after the
   * client answered its question with an error (a tool's `isError` result,
   * say); `undefined` when it ended the call with a JSON-RPC error.
   */
  serverResult: Record<string, unknown> | undefined;

  constructor(key: string | undefined, method: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.key = key;
    this.method = method;
  }
}

/**
 * A hand-driven call (`client.session.*`) got an `InputRequiredResult` but
 * the caller did not opt in with `{ allowInputRequired: true }`.
 */
export class InputRequiredNotAllowed extends Error {
  /** Always `"InputRequiredNotAllowed"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "InputRequiredNotAllowed" as const;
  /** The `InputRequiredResult` the server answered with. */
  readonly result: InputRequiredResult;

  constructor(method: string, target: string, result: InputRequiredResult) {
    super(
      `${method} "${target}" answered input_required. Pass { allowInputRequired: true } to receive ` +
        `the InputRequiredResult and run the rounds yourself, or call client.${methodToClientCall(method)}(), ` +
        `which runs them with your onElicit/onSample/onListRoots callbacks.`,
    );
    this.result = result;
  }
}

function methodToClientCall(method: string): string {
  return method === "prompts/get" ? "getPrompt" : method === "resources/read" ? "readResource" : "callTool";
}

/**
 * The server's answer breaks the protocol in a way the client cannot work
 * with: an unknown `resultType`, an `input_required` answer on a method that
 * may not return one, or one carrying neither `inputRequests` nor
 * `requestState`. A local error, never a JSON-RPC error from the peer.
 */
export class InvalidServerResult extends Error {
  /** Always `"InvalidServerResult"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "InvalidServerResult" as const;
  /** The method whose answer was rejected. */
  readonly method: string;
  /** The offending result, as received. */
  readonly result: unknown;

  constructor(method: string, message: string, result: unknown) {
    super(`${method}: ${message}`);
    this.method = method;
    this.result = result;
  }
}

/**
 * The client and server share no protocol version, or the negotiation
 * failed. `supported` lists what the server offered, when it said.
 */
export class ProtocolVersionUnsupported extends Error {
  /** Always `"ProtocolVersionUnsupported"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "ProtocolVersionUnsupported" as const;
  /** Versions the server said it supports, if it said. */
  readonly supported: readonly string[];

  constructor(message: string, supported: readonly string[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.supported = supported;
  }
}

/** A request was made on a client after `close()`. */
export class ClientClosed extends Error {
  /** Always `"ClientClosed"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "ClientClosed" as const;
  constructor() {
    super("This client is closed. Connect a new one with Client.connect(target, options).");
  }
}

/**
 * A 2025-era HTTP server no longer knows this client's session (it answered
 * 404 to the `Mcp-Session-Id`), and the new session the client started in
 * its place failed too: the server lost it at once, or refused the new
 * `initialize`. The first loss is handled transparently; this error means
 * the server cannot keep a session right now.
 */
export class SessionExpired extends Error {
  /** Always `"SessionExpired"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "SessionExpired" as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A request got no answer in time: nothing within `timeoutMs` (reset by
 * progress with `resetTimeoutOnProgress`), or past `maxTotalTimeoutMs`. The
 * client cancelled it on the wire (`notifications/cancelled`, or the response
 * stream closed) and stopped waiting. It may be sent again (`retryable`),
 * e.g. with a longer `timeoutMs`.
 */
export class RequestTimeout extends Error {
  /** Always `"RequestTimeout"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "RequestTimeout" as const;
  /** True: the request may be sent again, e.g. with a longer `timeoutMs`. */
  readonly retryable = true as const;

  /**
   * @param method - the request's method (`tools/call`, `initialize`, …)
   * @param elapsedMs - milliseconds between sending the request and giving up on it
   */
  constructor(
    readonly method: string,
    readonly elapsedMs: number,
    message: string,
  ) {
    super(message);
  }
}
