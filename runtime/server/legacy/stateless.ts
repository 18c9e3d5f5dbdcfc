/**
 * A 2025 request that arrives outside any session: answered on its own, with
 * the version the transport saw (the HTTP header, else the 2025 transports
 * page's default) and no client capabilities, or refused under `legacy: "reject"`.
 *
 * @internal
 */
import { JsonRpcErrorCode } from "../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import { LEGACY_DEFAULT_VERSION, LEGACY_VERSIONS } from "../../protocol/era.js";
import type { RequestContext } from "../../protocol/context.js";
import { answerLegacyRequest } from "./dispatch.js";
import type { LegacyHost } from "./host.js";
import { declaredBy } from "./lifecycle.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";

/**
 * Answers one sessionless 2025 request. `versions` is every version the
 * server answers, listed in a `-32022`.
 * @internal
 */
export function answerStateless(
  host: LegacyHost,
  versions: readonly string[],
  id: JsonRpcId,
  method: string,
  message: Record<string, unknown>,
  context: RequestContext | undefined,
): Promise<JsonRpcResponse | undefined> {
  const header = context?.protocolVersionHeader;
  const declared = method === "initialize" ? declaredBy(message.params) : undefined;
  const requested = declared?.requested ?? header;
  if (host.mode === "reject" || (method !== "initialize" && header !== undefined && !LEGACY_VERSIONS.includes(header))) {
    const only = host.mode === "reject" ? ' only (2025-era clients are refused: legacy is "reject")' : "";
    return Promise.resolve(
      errorResponse(id, {
        code: JsonRpcErrorCode.UnsupportedProtocolVersion,
        message: `Unsupported protocol version${typeof requested === "string" ? ` ${requested}` : ""}: this server speaks ${versions.join(", ")}${only}`,
        data: requested === undefined ? { supported: [...versions] } : { supported: [...versions], requested },
      }),
    );
  }
  return answerLegacyRequest(
    host,
    id,
    method,
    message,
    {
      protocolVersion: header ?? LEGACY_DEFAULT_VERSION,
      clientCapabilities: declared?.capabilities ?? {},
      clientInfo: declared?.clientInfo,
      logLevel: undefined,
      session: undefined,
    },
    context,
  );
}
