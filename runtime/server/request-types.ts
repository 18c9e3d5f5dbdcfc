/**
 * The types the request path (`request.ts`) shares with the tasks
 * extension and the 2025 sessions.
 *
 * @internal
 * @module
 */
import type { RequestContextImpl } from "./context.js";
import type { TaskDeclaration } from "./tasks/types.js";
import type { MiddlewareRequest } from "./types.js";

/**
 * What the request path asks of the tasks extension (`TaskEngine`): whether
 * its methods are answered, its capability, its methods' answers, and a call
 * of a tool that declares `task` (the task route).
 * @internal
 */
export interface TaskRoutes {
  enabled(): boolean;
  advertise(capabilities: Record<string, unknown>): Record<string, unknown>;
  answer(method: string, params: unknown, ctx: RequestContextImpl): Promise<Record<string, unknown>>;
  callTool(declaration: TaskDeclaration, handler: AnyHandler, call: Record<string, unknown>, ctx: RequestContextImpl): Promise<Record<string, unknown>>;
}

/** Where a request is registered while it runs, so a cancellation can find it. @internal */
export interface RequestTracker {
  track(ctx: RequestContextImpl): void;
  untrack(ctx: RequestContextImpl): void;
}

/** A handler of some route, called with its params and context. @internal */
export type AnyHandler = (params: unknown, ctx: unknown) => unknown;

/** What one handler call produced, with the middleware view of the request it answered. @internal */
export interface Invocation {
  /** The handler's return value, checked to be an object. */
  raw: Record<string, unknown>;
  /** The params the handler received (after the middlewares). */
  params: Record<string, unknown>;
  /** The middleware view of the request; `undefined` when no middleware is installed. */
  request: MiddlewareRequest | undefined;
}
