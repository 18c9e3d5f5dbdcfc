/**
 * A 2025 request that arrives outside any session: answered on its own, with
 * the version the transport saw (the HTTP header, else the 2025 transports
 * page's default) and no client capabilities, or refused under `legacy: "reject"`.
 *
 * @internal
 */
import { JsonRpcErrorCode } from "../../protocol/jsonrpc/errors.js";
import type { Answered } from "../../protocol/contracts.js";
import type { RequestContext } from "../../protocol/context.js";
import type { ClassifiedRequest } from "../../protocol/message.js";
import { LEGACY_VERSIONS } from "../../protocol/revisions.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";
import { answerRequest } from "../request.js";
import type { LegacyHost } from "./host.js";
import { declaredBy } from "./lifecycle.js";
import { LEGACY } from "./profile.js";

/** A stateless request is tracked nowhere: without a session nothing can cancel it but its own transport. */
const untracked = (): void => {};

/** Answers one 2025 request without a session: at once when nothing had to be waited for. Never rejects. @internal */
export function answerStateless(host: LegacyHost, request: ClassifiedRequest, context: RequestContext | undefined): Answered {
  const { id, method } = request;
  const header = context?.protocolVersionHeader;
  const declared = method === "initialize" ? declaredBy(request.params) : undefined;
  const requested = declared?.requested ?? header;
  if (host.mode === "reject" || (method !== "initialize" && header !== undefined && !LEGACY_VERSIONS.includes(header))) {
    const only = host.mode === "reject" ? ' only (2025-era clients are refused: legacy is "reject")' : "";
    return errorResponse(id, {
      code: JsonRpcErrorCode.UnsupportedProtocolVersion,
      message: `Unsupported protocol version${typeof requested === "string" ? ` ${requested}` : ""}: this server speaks ${host.versions.join(", ")}${only}`,
      data: requested === undefined ? { supported: [...host.versions] } : { supported: [...host.versions], requested },
    });
  }
  const scope = {
    protocolVersion: header,
    clientCapabilities: declared?.capabilities ?? {},
    clientInfo: declared?.clientInfo,
    logLevel: undefined,
    session: undefined,
    track: untracked,
    untrack: (ctx: { dispose(): void }) => ctx.dispose(),
  };
  return answerRequest(host, LEGACY, request, scope, context);
}
