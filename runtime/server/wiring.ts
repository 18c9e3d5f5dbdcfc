/**
 * How a `Server` is put together from its options: the one host object
 * both generations' requests are answered with, its task engine (whose
 * methods register like any custom method), its subscription hub and its
 * custom methods. `server.ts` keeps the public methods; this keeps the
 * wiring.
 *
 * @internal
 * @module
 */
import type { LegacyMode } from "../protocol/context.js";
import type { LevelledLogger } from "../protocol/logging.js";
import { LEGACY_VERSIONS, MODERN_VERSIONS } from "../protocol/revisions.js";
import { TASK_METHODS } from "../protocol/tasks-wire.js";
import type { Implementation, ServerCapabilities } from "../protocol/types.js";
import { LISTED_TOOL, type ListedTool } from "./adapt.js";
import { deriveCapabilities } from "./capabilities.js";
import type { RequestContextImpl } from "./context.js";
import { CustomMethods, runNotification } from "./custom.js";
import { resolveLegacyOptions, type LegacyHost } from "./legacy/host.js";
import type { SessionSet } from "./legacy/session-set.js";
import { InFlightRequests, MODERN, type ModernHost } from "./modern.js";
import { cacheHintsOf, legacyInputRequiredOf, legacyModeOf, nestingLimitOf, subscriptionOptionsOf, type ServerOptions } from "./options.js";
import { answerRequest } from "./request.js";
import { ResultFinisher } from "./results.js";
import type { SubscriptionHub } from "./subscriptions/hub.js";
import { createServerHub } from "./subscriptions/server-hub.js";
import { createTaskEngine, type TaskEngine } from "./tasks/setup.js";
import type { ServerHandlers, ServerMiddleware } from "./types.js";

/** What a `Server` is made of. @internal */
export interface ServerParts {
  readonly host: ModernHost & LegacyHost;
  readonly legacy: LegacyMode;
  readonly inFlight: InFlightRequests;
  readonly tasks: TaskEngine | undefined;
  readonly hub: SubscriptionHub;
  readonly custom: CustomMethods;
  readonly capabilities: () => ServerCapabilities;
}

/**
 * Builds the parts of a server. `middlewares` is the server's live list, so
 * `use` after construction still applies.
 * @throws TypeError or RangeError for an option out of its range, naming it
 * @internal
 */
export function wireServer(
  serverInfo: Readonly<Implementation>,
  handlers: ServerHandlers,
  options: ServerOptions,
  middlewares: ServerMiddleware[],
  logger: LevelledLogger,
  sessions: SessionSet,
): ServerParts {
  const finisher = new ResultFinisher(serverInfo, cacheHintsOf(options.cache), options.validateResults ?? true);
  const tasks = createTaskEngine(serverInfo, logger, finisher, options);
  const legacy = legacyModeOf(options.legacy);
  const versions = Object.freeze(legacy === "reject" ? [...MODERN_VERSIONS] : [...MODERN_VERSIONS, ...LEGACY_VERSIONS]);
  const custom = new CustomMethods(options.compileSchema, versions);
  // The tasks extension's methods go through the same public path as any method outside the schema.
  if (tasks !== undefined) {
    for (const method of TASK_METHODS) {
      custom.addRequest(method, { inputRequired: false }, (params, ctx) => tasks.answer(method, params, ctx as RequestContextImpl));
    }
  }
  const extra = options.capabilities;
  const fixed = typeof extra === "function" ? undefined : deriveCapabilities(handlers, extra);
  const capabilities = typeof extra === "function" ? extra : () => fixed!;
  const hub = createServerHub(subscriptionOptionsOf(options.subscriptions), logger, sessions);
  const inFlight = new InFlightRequests();
  const host: ModernHost & LegacyHost = {
    serverInfo,
    handlers: Object.freeze({ ...handlers }),
    middlewares,
    logger,
    finisher,
    tasks,
    taskSupport: tasks?.support,
    listedTool: (options as { [LISTED_TOOL]?: ListedTool })[LISTED_TOOL],
    custom: custom.requests,
    maxNestingDepth: nestingLimitOf(options.maxNestingDepth),
    validateResults: options.validateResults ?? true,
    versions,
    instructions: options.instructions,
    capabilities: () => capabilities(),
    listen: { hub, inFlight, finisher, logger, capabilities },
    mode: legacy,
    options: resolveLegacyOptions(options.legacySessions),
    inputRequired: legacyInputRequiredOf(options.legacyInputRequired),
    handleModern: (request, context) => answerRequest(host, MODERN, request, inFlight, context),
    sessionClosed: (session) => sessions.delete(session),
    onNotification: (method, params, context) => {
      const found = custom.notifications.get(method);
      if (found === undefined) return;
      runNotification(found, params ?? {}, context, (error) => logger.warn(`${method}: the notification's handler failed`, { error }));
    },
  };
  return { host, legacy, inFlight, tasks, hub, custom, capabilities };
}
