import { JsonRpcErrorCode, McpError } from "../../jsonrpc/errors.js";
import { removeEntry, setEntryEnabled } from "./toggle.js";
import type {
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  InputRequiredResult,
  ListPromptsResult,
  Prompt,
  PromptArgument,
  PromptMessage,
} from "../../../generated/2026-07-28/index.js";
import type { ServerRequestContext } from "../context.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import { checkCompleters, complete, type Completer } from "./completions.js";

/** How a prompt describes itself in `prompts/list`. */
export interface PromptConfig {
  /** A human-friendly name for clients to display; the registered name stays the identifier. */
  title?: string;
  /** What the prompt produces, shown to the user picking one. */
  description?: string;
  /** The prompt's arguments; those marked `required` are checked before the handler runs. */
  arguments?: PromptArgument[];
  /** Icons a client may show beside the prompt. */
  icons?: Prompt["icons"];
  /** Extra metadata for the prompt's `prompts/list` entry, passed through as given. */
  _meta?: Record<string, unknown>;
  /** Completion suggestions per argument name, served on `completion/complete`. */
  complete?: Record<string, Completer>;
}

/**
 * A prompt's body: receives the arguments and the request context; returns
 * the messages (alone or as a `GetPromptResult`), or an `InputRequiredResult`.
 */
export type PromptHandler = (
  args: Record<string, string>,
  ctx: ServerRequestContext,
) => MaybePromise<HandlerResult<GetPromptResult> | PromptMessage[] | InputRequiredResult>;

interface RegisteredPrompt {
  readonly definition: Prompt;
  readonly handler: PromptHandler;
  readonly required: readonly string[];
  readonly completers: Record<string, Completer>;
}

/** The prompts of an `McpServer`. @internal */
export class PromptRegistry {
  private readonly prompts = new Map<string, RegisteredPrompt>();
  /** Disabled prompts: registered, but neither listed nor callable. */
  private readonly parked = new Map<string, RegisteredPrompt>();

  get size(): number {
    return this.prompts.size;
  }

  get hasCompleters(): boolean {
    for (const prompt of this.prompts.values()) if (Object.keys(prompt.completers).length > 0) return true;
    return false;
  }

  register(name: string, config: PromptConfig, handler: PromptHandler): void {
    const label = `McpServer.prompt(${JSON.stringify(name)})`;
    if (typeof name !== "string" || name.length === 0) throw new TypeError("McpServer.prompt: the name must be a non-empty string");
    if (this.prompts.has(name) || this.parked.has(name)) throw new TypeError(`McpServer.prompt: a prompt named ${JSON.stringify(name)} is already registered`);
    if (typeof config !== "object" || config === null) throw new TypeError(`${label}: config must be an object`);
    if (typeof handler !== "function") throw new TypeError(`${label}: the handler must be a function`);
    const args = config.arguments ?? [];
    if (!Array.isArray(args) || args.some((arg) => typeof arg?.name !== "string")) {
      throw new TypeError(`${label}: arguments must be an array of { name, description?, required? }`);
    }
    const names = args.map((arg) => arg.name);
    const completers = checkCompleters(config.complete, label, names);
    const definition: Record<string, unknown> = { name };
    for (const key of ["title", "description", "icons", "_meta"] as const) {
      if (config[key] !== undefined) definition[key] = config[key];
    }
    if (args.length > 0) definition.arguments = args;
    const required = args.filter((arg) => arg.required === true).map((arg) => arg.name);
    this.prompts.set(name, { definition: definition as unknown as Prompt, handler, required, completers });
  }

  list(): HandlerResult<ListPromptsResult> {
    return { prompts: Array.from(this.prompts.values(), (prompt) => prompt.definition) };
  }

  async get(params: GetPromptRequestParams, ctx: ServerRequestContext): Promise<HandlerResult<GetPromptResult> | InputRequiredResult> {
    const prompt = this.prompts.get(params.name);
    if (prompt === undefined) throw new McpError(JsonRpcErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
    const args = params.arguments ?? {};
    const missing = prompt.required.filter((name) => args[name] === undefined);
    if (missing.length > 0) {
      throw new McpError(JsonRpcErrorCode.InvalidParams, `Missing required arguments for prompt ${params.name}: ${missing.join(", ")}`);
    }
    const result = await prompt.handler(args, ctx);
    return Array.isArray(result) ? { messages: result } : result;
  }

  complete(name: string, argument: string, value: string, context: Record<string, string> | undefined): Promise<HandlerResult<CompleteResult>> {
    const prompt = this.prompts.get(name);
    if (prompt === undefined) throw new McpError(JsonRpcErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return complete(prompt.completers[argument], value, context);
  }

  /** Removes a prompt. @returns whether it was registered */
  remove(name: string): boolean {
    return removeEntry({ live: this.prompts, parked: this.parked }, name);
  }

  /** Enables or disables a prompt. @returns whether anything changed @throws TypeError for an unknown name */
  setEnabled(name: string, enabled: boolean): boolean {
    return setEntryEnabled({ live: this.prompts, parked: this.parked }, name, enabled, "prompt");
  }
}
