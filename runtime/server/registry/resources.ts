import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type {
  Annotations,
  CompleteResult,
  InputRequiredResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from "../../protocol/types.js";
import type { ServerRequestContext } from "../context.js";
import { internalError } from "../errors.js";
import { isInputRequired } from "../../protocol/input-required-guard.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import type { UriTemplate, UriTemplateVariables } from "../uri-template.js";
import { checkCompleters, complete, type Completer } from "./completions.js";

/** How a resource or resource template describes itself in the lists. */
export interface ResourceConfig {
  /** Defaults to the URI (or template). */
  name?: string;
  /** A human-friendly name for clients to display. */
  title?: string;
  /** What the resource holds, for the user or model deciding whether to read it. */
  description?: string;
  /** The MIME type listed, and given to contents returned as a plain string. */
  mimeType?: string;
  /** Audience, priority and last-modified hints for the client. */
  annotations?: Annotations;
  /** Icons a client may show beside the resource. */
  icons?: Resource["icons"];
  /** Size in bytes, static resources only. */
  size?: number;
  /** Extra metadata for the resource's list entry, passed through as given. */
  _meta?: Record<string, unknown>;
  /** Completion suggestions per template variable, served on `completion/complete` (templates only). */
  complete?: Record<string, Completer>;
}

/** What a resource handler may return: the result, its `contents` alone, or a string (text with the configured MIME type). */
export type ResourceContent = HandlerResult<ReadResourceResult> | ReadResourceResult["contents"] | string;

/**
 * The context a static resource receives: everything but the round-trip
 * fields, because a static resource cannot ask for input.
 */
export type StaticResourceContext = Omit<ServerRequestContext, "inputResponses" | "requestState">;

/** Reads a static resource. */
export type StaticResourceHandler = (uri: string, ctx: StaticResourceContext) => MaybePromise<ResourceContent>;

/**
 * Reads a templated resource; may return an `InputRequiredResult` to ask the client first.
 *
 * @typeParam V - the variables matched from the URI (typed from a template string literal by `McpServer.resource`)
 */
export type TemplateResourceHandler<V extends Record<string, unknown> = UriTemplateVariables> = (
  uri: string,
  variables: V,
  ctx: ServerRequestContext,
) => MaybePromise<ResourceContent | InputRequiredResult>;

interface StaticEntry {
  readonly definition: Resource;
  readonly handler: StaticResourceHandler;
}

interface TemplateEntry {
  readonly template: UriTemplate;
  readonly definition: ResourceTemplate;
  readonly handler: TemplateResourceHandler;
  readonly completers: Record<string, Completer>;
}

function describe(config: ResourceConfig, keys: readonly (keyof ResourceConfig)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (config[key] !== undefined) out[key] = config[key];
  return out;
}

/** The static resources and templates of an `McpServer`. @internal */
export class ResourceRegistry {
  private readonly statics = new Map<string, StaticEntry>();
  private readonly templates: TemplateEntry[] = [];

  get size(): number {
    return this.statics.size + this.templates.length;
  }

  get hasCompleters(): boolean {
    return this.templates.some((entry) => Object.keys(entry.completers).length > 0);
  }

  registerStatic(uri: string, config: ResourceConfig, handler: StaticResourceHandler): void {
    const label = `McpServer.resource(${JSON.stringify(uri)})`;
    if (this.statics.has(uri)) throw new TypeError(`${label}: this URI is already registered`);
    try {
      new URL(uri);
    } catch {
      throw new TypeError(`${label}: not an absolute URI; use a scheme such as file:// or config://`);
    }
    if (config.complete !== undefined) throw new TypeError(`${label}: complete applies to templates only`);
    const definition = { uri, name: config.name ?? uri, ...describe(config, ["title", "description", "mimeType", "annotations", "icons", "size", "_meta"]) };
    this.statics.set(uri, { definition: definition as Resource, handler });
  }

  registerTemplate(template: UriTemplate, config: ResourceConfig, handler: TemplateResourceHandler): void {
    const label = `McpServer.resource(${JSON.stringify(template.template)})`;
    if (this.templates.some((entry) => entry.template.template === template.template)) {
      throw new TypeError(`${label}: this template is already registered`);
    }
    if (config.size !== undefined) throw new TypeError(`${label}: size applies to static resources only`);
    const completers = checkCompleters(config.complete, label, template.variableNames);
    const definition = {
      uriTemplate: template.template,
      name: config.name ?? template.template,
      ...describe(config, ["title", "description", "mimeType", "annotations", "icons", "_meta"]),
    };
    this.templates.push({ template, definition: definition as ResourceTemplate, handler, completers });
  }

  list(): HandlerResult<ListResourcesResult> {
    return { resources: Array.from(this.statics.values(), (entry) => entry.definition) };
  }

  listTemplates(): HandlerResult<ListResourceTemplatesResult> {
    return { resourceTemplates: this.templates.map((entry) => entry.definition) };
  }

  async read(params: ReadResourceRequestParams, ctx: ServerRequestContext): Promise<HandlerResult<ReadResourceResult> | InputRequiredResult> {
    const uri = params.uri;
    const fixed = this.statics.get(uri);
    if (fixed !== undefined) {
      const content = await fixed.handler(uri, ctx);
      if (isInputRequired(content)) {
        throw internalError(`Internal error: static resource ${uri} returned an InputRequiredResult; only resource templates may ask for input`);
      }
      return normalise(content, uri, fixed.definition.mimeType);
    }
    for (const entry of this.templates) {
      const variables = entry.template.match(uri);
      if (variables === undefined) continue;
      const content = await entry.handler(uri, variables, ctx);
      if (isInputRequired(content)) return content;
      return normalise(content, uri, entry.definition.mimeType);
    }
    throw new McpError(JsonRpcErrorCode.InvalidParams, "Resource not found", { uri });
  }

  complete(uriTemplate: string, variable: string, value: string, context: Record<string, string> | undefined): Promise<HandlerResult<CompleteResult>> {
    const entry = this.templates.find((candidate) => candidate.template.template === uriTemplate);
    if (entry === undefined) throw new McpError(JsonRpcErrorCode.InvalidParams, `Unknown resource template: ${uriTemplate}`);
    return complete(entry.completers[variable], value, context);
  }

  /** Removes a static resource (by URI) or a template (by its template string). @returns whether one was registered */
  remove(uriOrTemplate: string): boolean {
    if (this.statics.delete(uriOrTemplate)) return true;
    const index = this.templates.findIndex((entry) => entry.template.template === uriOrTemplate);
    if (index < 0) return false;
    this.templates.splice(index, 1);
    return true;
  }
}

function normalise(content: ResourceContent, uri: string, mimeType: string | undefined): HandlerResult<ReadResourceResult> {
  if (typeof content === "string") {
    return { contents: [mimeType === undefined ? { uri, text: content } : { uri, mimeType, text: content }] };
  }
  if (Array.isArray(content)) return { contents: content };
  return content;
}
