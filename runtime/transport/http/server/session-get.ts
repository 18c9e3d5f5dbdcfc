/**
 * The 2025 session's other two methods on Streamable HTTP: a GET opens the
 * session's event stream (or resumes a dropped one from `Last-Event-ID`),
 * a DELETE ends the session. Its POSTs are `session-exchange.ts`'s.
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import { SESSION_HEADER } from "../../../protocol/names.js";
import type { AuthInfo } from "../../types.js";
import { refuse, type HttpReply, type IncomingHttp } from "./exchange.js";
import { notFound, openSse } from "./session-exchange.js";
import type { HttpSessions } from "./sessions.js";

/** GET with `Mcp-Session-Id`: the session's event stream, or the rest of a dropped one (`Last-Event-ID`). */
export function serveSessionGet(sessions: HttpSessions, request: IncomingHttp, reply: HttpReply, authInfo: AuthInfo | undefined): void {
  const sessionId = request.header(SESSION_HEADER);
  if (sessionId === null) {
    refuse(
      reply,
      400,
      JsonRpcErrorCode.InvalidRequest,
      "Bad Request: a GET opens the event stream of a 2025 session; send the Mcp-Session-Id that initialize returned.",
    );
    return;
  }
  if (!acceptsSse(request.header("accept"))) {
    refuse(reply, 406, JsonRpcErrorCode.InvalidRequest, "Not Acceptable: a GET stream needs an Accept header listing text/event-stream.");
    return;
  }
  const found = sessions.find(sessionId, authInfo);
  if (found === undefined || found === "expired") return notFound(reply, sessions, found);
  const lastEventId = request.header("last-event-id");
  if (lastEventId !== null) {
    const event = found.findEvent(lastEventId);
    if (event === undefined) {
      refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, `Bad Request: Last-Event-ID ${JSON.stringify(lastEventId)} names no stream this session still holds.`);
      return;
    }
    const log = event.log;
    if (!log.resumableFrom(event.seq)) {
      refuse(
        reply,
        400,
        JsonRpcErrorCode.InvalidRequest,
        `Bad Request: the last event of the stream Last-Event-ID ${JSON.stringify(lastEventId)} names is no longer kept (a stream keeps at most ` +
          "a quarter of maxStreamBufferBytes, never one event larger than that, and a session maxReplayBytesPerSession in all). Send the request again.",
      );
      return;
    }
    // The newest connection wins: the one the stream was on (a POST's answer, an older GET) is ended.
    log.resume(
      event.seq,
      openSse(request, reply, found.maxStreamBufferBytes, (writer) => log.detach(writer)),
    );
    return;
  }
  // Likewise a second GET: it takes the session's stream over, and the older connection is ended.
  found.listen(openSse(request, reply, found.maxStreamBufferBytes, (writer) => found.unlisten(writer)));
}

/** DELETE with `Mcp-Session-Id`: the client is done with the session. */
export function serveSessionDelete(sessions: HttpSessions, request: IncomingHttp, reply: HttpReply, authInfo: AuthInfo | undefined): void {
  const sessionId = request.header(SESSION_HEADER);
  if (sessionId === null) {
    refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, "Bad Request: DELETE ends a 2025 session; send its Mcp-Session-Id.");
    return;
  }
  const found = sessions.find(sessionId, authInfo);
  if (found === undefined || found === "expired") return notFound(reply, sessions, found);
  sessions.close(found, "The client ended the session (HTTP DELETE).");
  reply.send(200, {}, "");
}

function acceptsSse(accept: string | null): boolean {
  if (!accept) return false;
  return accept.split(",").some((part) => {
    const type = part.split(";")[0]!.trim().toLowerCase();
    return type === "text/event-stream" || type === "text/*" || type === "*/*";
  });
}
