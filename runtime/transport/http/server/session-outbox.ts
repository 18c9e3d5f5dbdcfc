/**
 * A 2025 session's messages that belong to no request: written on its GET
 * stream, logged while that stream is down (a resume replays them), kept in
 * an outbox until one opens; and a server's withdrawal of a question it
 * asked on a POST's stream, written there.
 *
 * @module
 * @internal
 */
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from "../../../protocol/jsonrpc/messages.js";
import type { FlightTable } from "../../../protocol/flight-table.js";
import { isObject } from "../../../protocol/guards.js";
import type { HttpStream } from "./exchange.js";
import type { EventLog } from "./event-log.js";
import { OUTBOX_LIMIT } from "./session-types.js";

/** The parts of a session's traffic these functions use. @internal */
export interface StreamSlots {
  standalone: EventLog | undefined;
  outbox: JsonRpcMessage[] | undefined;
  /** The server's own requests written on a POST's stream still open, by id. */
  carried: FlightTable<EventLog> | undefined;
}

/**
 * Connects a new GET stream, on a log `open` makes; an older one still open
 * is ended (the newest GET wins). What never reached the client (kept while
 * no stream was open, or logged after the last one dropped) is delivered first.
 * @internal
 */
export function listenOn(work: StreamSlots, writer: HttpStream, open: () => EventLog): void {
  const previous = work.standalone;
  const waiting = [...(previous?.undelivered() ?? []), ...(work.outbox ?? [])];
  previous?.end();
  work.outbox = undefined;
  const log = (work.standalone = open());
  log.attach(writer);
  for (const message of waiting) log.append(message);
}

/**
 * Sends a message that belongs to no request: on the GET stream; into its
 * log while it is dropped; kept until one opens (the oldest dropped past
 * {@link OUTBOX_LIMIT}, told to `report`).
 * @internal
 */
export function sendOn(work: StreamSlots, message: JsonRpcRequest | JsonRpcNotification, report: (problem: string) => void): void {
  // The server withdrawing a question it asked on a POST's stream (that call was cancelled): on that stream, its last event.
  const carrier = "method" in message && message.method === "notifications/cancelled" ? carrierOf(work, message.params) : undefined;
  if (carrier !== undefined) {
    carrier.append(message);
    return;
  }
  if (work.standalone !== undefined && !work.standalone.ended) {
    work.standalone.append(message);
    return;
  }
  const outbox = (work.outbox ??= []);
  outbox.push(message);
  if (outbox.length > OUTBOX_LIMIT) {
    outbox.shift();
    report(`more than ${OUTBOX_LIMIT} messages waited for a GET stream; the oldest was dropped`);
  }
}

function carrierOf(work: StreamSlots, params: unknown): EventLog | undefined {
  const id = isObject(params) ? params.requestId : undefined;
  const log = typeof id === "string" || typeof id === "number" ? work.carried?.get(id) : undefined;
  return log?.ended === false ? log : undefined;
}
