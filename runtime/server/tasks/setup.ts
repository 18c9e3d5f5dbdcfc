/**
 * How a `Server` gets its tasks extension: the engine for its options and
 * the hooks McpServer passes. (Its routes are the 2026 profile's: the task
 * methods, and a `tools/call` whose tool declares `task`.)
 *
 * @internal
 */
import type { InputRequiredResult } from "../../protocol/types.js";
import { handlerRevisionOf } from "../adapt.js";
import { assertClientCanAnswer } from "../capabilities.js";
import type { ResultFinisher } from "../results.js";
import { ROUTES } from "../routes.js";
import type { ServerLogger } from "../types.js";
import { TaskEngine } from "./engine.js";
import { TASK_HOOKS, type TaskHooks, type TaskHost, type TasksOptions } from "./options.js";

export { TaskEngine } from "./engine.js";
export type { TaskStatusListener } from "./options.js";

/**
 * The engine of a server with the `tasks` option (or McpServer's hooks); `undefined` without.
 * @internal
 */
export function createTaskEngine(
  serverInfo: unknown,
  logger: ServerLogger,
  finisher: ResultFinisher,
  options: { tasks?: TasksOptions; [TASK_HOOKS]?: TaskHooks },
): TaskEngine | undefined {
  const hooks = options[TASK_HOOKS];
  if (options.tasks === undefined && hooks === undefined) return undefined;
  const route = ROUTES.get("tools/call")!;
  const host: TaskHost = {
    serverInfo,
    logger,
    finishComplete: (raw, ctx) => finisher.complete(route, "tools/call", raw, handlerRevisionOf(ctx)),
    finishInput: (raw, ctx) => {
      // Before the result check, as for a plain call: a kind the peer's revision lacks is a -32021.
      assertClientCanAnswer((raw as { inputRequests?: Record<string, unknown> }).inputRequests, ctx.clientCapabilities, ctx.protocolVersion);
      const result = finisher.inputRequired(route, "tools/call", raw as unknown as InputRequiredResult, handlerRevisionOf(ctx));
      return result;
    },
  };
  return new TaskEngine(host, options.tasks ?? {}, hooks);
}
