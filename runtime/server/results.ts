import type { Implementation, InputRequiredResult } from "../protocol/types.js";
import { copyToExtend } from "../protocol/copy.js";
import { internalError } from "./errors.js";
import { MetaKey } from "./meta.js";
import type { Route } from "./routes.js";
import type { CacheHint } from "./types.js";
import { assertValidResult } from "./validation.js";
import { isObject } from "../protocol/guards.js";

const PRIVATE_NOW: CacheHint = Object.freeze({ ttlMs: 0, cacheScope: "private" });
const PUBLIC_NOW: CacheHint = Object.freeze({ ttlMs: 0, cacheScope: "public" });

/**
 * Turns what a handler returned into what goes on the wire: `resultType`,
 * `serverInfo` in `_meta`, caching hints on cacheable complete results, and
 * a schema check so a server bug is reported as such.
 * @internal
 */
export class ResultFinisher {
  private readonly serverInfo: Readonly<Implementation>;
  private readonly cacheHints: ReadonlyMap<string, CacheHint>;
  private readonly validate: boolean;

  constructor(serverInfo: Readonly<Implementation>, cacheHints: ReadonlyMap<string, CacheHint>, validate: boolean) {
    this.serverInfo = serverInfo;
    this.cacheHints = cacheHints;
    this.validate = validate;
  }

  /**
   * Finishes a complete result. `result` must be the server's own copy: it is completed in place.
   * @param version - the request's protocol version, whose schema checks the result (2026-07-28's without one).
   * @throws McpError -32603 when the result does not match the method's schema
   */
  complete(route: Route, method: string, result: Record<string, unknown>, version?: string): Record<string, unknown> {
    result.resultType = "complete";
    result._meta = this.meta(result._meta);
    if (route.cacheable) {
      const hint = this.cacheHints.get(method) ?? (method === "server/discover" ? PUBLIC_NOW : PRIVATE_NOW);
      if (result.ttlMs === undefined) result.ttlMs = hint.ttlMs;
      if (result.cacheScope === undefined) result.cacheScope = hint.cacheScope;
    }
    // A custom method's result has no definition in the schema: its own check ran before (route.checkResult).
    if (this.validate && route.result !== "") assertValidResult(method, route.result, result, version);
    return result;
  }

  /**
   * Finishes an `InputRequiredResult`, without caching hints: interim results are never cacheable.
   * @throws McpError -32603 when the method may not ask for input, when the
   *   result has neither `inputRequests` nor `requestState`, or does not match the schema
   *   (of `version`, the request's protocol version; 2026-07-28's without one)
   */
  inputRequired(route: Route, method: string, raw: InputRequiredResult, version?: string): InputRequiredResult {
    if (!route.mayAskInput) {
      throw internalError(
        `Internal error: the ${method} handler returned an InputRequiredResult; only tools/call, prompts/get and resources/read may ask for input`,
      );
    }
    const inputRequests = raw.inputRequests;
    const hasRequests = isObject(inputRequests) && Object.keys(inputRequests).length > 0;
    if (!hasRequests && typeof raw.requestState !== "string") {
      throw internalError(`Internal error: the ${method} handler returned an InputRequiredResult with neither inputRequests nor requestState`);
    }
    const result = { resultType: "input_required", _meta: this.meta(raw._meta) } as InputRequiredResult;
    if (hasRequests) result.inputRequests = inputRequests;
    if (raw.requestState !== undefined) result.requestState = raw.requestState;
    if (this.validate) assertValidResult(method, "InputRequiredResult", result, version);
    return result;
  }

  private meta(own: unknown): Record<string, unknown> {
    if (!isObject(own)) return { [MetaKey.serverInfo]: this.serverInfo };
    const meta = copyToExtend(own);
    meta[MetaKey.serverInfo] = this.serverInfo;
    return meta;
  }
}
