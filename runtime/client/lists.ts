/**
 * The listing half of {@link Client}: one page of each list method, every
 * item across pages, any paginated method, and completions. `Client`
 * extends it with the calls and their rounds.
 *
 * @module
 */
import { collectAll, paginate, requestPage } from "./pagination.js";
import type {
  CompleteResult,
  JsonObject,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListToolsResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from "./protocol.js";
import type { ClientSession, RequestOptions } from "./session.js";

/** What a {@link Client} lists and pages through; not constructed on its own (`Client.connect` gives a client). */
export class ClientLists {
  /** One request per call, no automatic rounds; see {@link ClientSession}. */
  readonly session: ClientSession;

  /** @internal */
  protected constructor(session: ClientSession) {
    this.session = session;
  }

  /** One page of `tools/list`. */
  listTools(cursor?: string, options?: RequestOptions): Promise<ListToolsResult> {
    return requestPage(this.session, "tools/list", cursor, options) as unknown as Promise<ListToolsResult>;
  }
  /** One page of `prompts/list`. */
  listPrompts(cursor?: string, options?: RequestOptions): Promise<ListPromptsResult> {
    return requestPage(this.session, "prompts/list", cursor, options) as unknown as Promise<ListPromptsResult>;
  }
  /** One page of `resources/list`. */
  listResources(cursor?: string, options?: RequestOptions): Promise<ListResourcesResult> {
    return requestPage(this.session, "resources/list", cursor, options) as unknown as Promise<ListResourcesResult>;
  }
  /** One page of `resources/templates/list`. */
  listResourceTemplates(cursor?: string, options?: RequestOptions): Promise<ListResourceTemplatesResult> {
    return requestPage(this.session, "resources/templates/list", cursor, options) as unknown as Promise<ListResourceTemplatesResult>;
  }

  /** Every tool, following `nextCursor` across pages. */
  listAllTools(options?: RequestOptions): Promise<Tool[]> {
    return collectAll<Tool>(this.session, "tools/list", "tools", options);
  }
  /** Every prompt, across pages. */
  listAllPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return collectAll<Prompt>(this.session, "prompts/list", "prompts", options);
  }
  /** Every resource, across pages. */
  listAllResources(options?: RequestOptions): Promise<Resource[]> {
    return collectAll<Resource>(this.session, "resources/list", "resources", options);
  }
  /** Every resource template, across pages. */
  listAllResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return collectAll<ResourceTemplate>(this.session, "resources/templates/list", "resourceTemplates", options);
  }

  /**
   * Iterates the items of a paginated list method page by page, following
   * `nextCursor` until the server stops giving one.
   *
   * @throws Error when the server repeats a cursor (it would loop forever).
   */
  paginate<T = JsonObject>(method: string, itemsKey: string, options?: RequestOptions): AsyncGenerator<T, void, undefined> {
    return paginate<T>(this.session, method, itemsKey, options);
  }

  /** Asks for completions of a prompt or resource-template argument (`completion/complete`). */
  complete(params: JsonObject, options?: RequestOptions): Promise<CompleteResult> {
    return this.session.request("completion/complete", params, options) as unknown as Promise<CompleteResult>;
  }
}
