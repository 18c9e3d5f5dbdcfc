/**
 * The part of {@link Client} that reads the server's lists: one page of each
 * list method, every item across pages, any paginated method, and
 * completions. Typed by the revision the client speaks.
 *
 * @module
 */
import { collectAll, paginate, requestPage } from "./pagination.js";
import type { JsonObject } from "./protocol.js";
import type { HelperResult, ClientRevision, ListItems } from "./revision-types.js";
import type { ClientSession, RequestOptions } from "./session.js";

/**
 * The list and completion methods of a client speaking `Revision`, whose
 * result types they have. {@link Client} is one; this class is not made on
 * its own.
 */
export abstract class ClientLists<Revision extends ClientRevision> {
  /** One request per call, no automatic rounds; see {@link ClientSession}. */
  readonly session: ClientSession;

  /** @internal Made by `Client.connect`, through the client. */
  protected constructor(session: ClientSession) {
    this.session = session;
  }

  /** One page of `tools/list`. */
  listTools(cursor?: string, options?: RequestOptions): Promise<HelperResult<Revision, "tools/list">> {
    return requestPage(this.session, "tools/list", cursor, options) as Promise<never>;
  }
  /** One page of `prompts/list`. */
  listPrompts(cursor?: string, options?: RequestOptions): Promise<HelperResult<Revision, "prompts/list">> {
    return requestPage(this.session, "prompts/list", cursor, options) as Promise<never>;
  }
  /** One page of `resources/list`. */
  listResources(cursor?: string, options?: RequestOptions): Promise<HelperResult<Revision, "resources/list">> {
    return requestPage(this.session, "resources/list", cursor, options) as Promise<never>;
  }
  /** One page of `resources/templates/list`. */
  listResourceTemplates(cursor?: string, options?: RequestOptions): Promise<HelperResult<Revision, "resources/templates/list">> {
    return requestPage(this.session, "resources/templates/list", cursor, options) as Promise<never>;
  }

  /** Every tool, following `nextCursor` across pages. */
  listAllTools(options?: RequestOptions): Promise<ListItems<Revision, "tools/list", "tools">> {
    return collectAll(this.session, "tools/list", "tools", options) as Promise<never>;
  }
  /** Every prompt, across pages. */
  listAllPrompts(options?: RequestOptions): Promise<ListItems<Revision, "prompts/list", "prompts">> {
    return collectAll(this.session, "prompts/list", "prompts", options) as Promise<never>;
  }
  /** Every resource, across pages. */
  listAllResources(options?: RequestOptions): Promise<ListItems<Revision, "resources/list", "resources">> {
    return collectAll(this.session, "resources/list", "resources", options) as Promise<never>;
  }
  /** Every resource template, across pages. */
  listAllResourceTemplates(options?: RequestOptions): Promise<ListItems<Revision, "resources/templates/list", "resourceTemplates">> {
    return collectAll(this.session, "resources/templates/list", "resourceTemplates", options) as Promise<never>;
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
  complete(params: JsonObject, options?: RequestOptions): Promise<HelperResult<Revision, "completion/complete">> {
    return this.session.request("completion/complete", params, options) as Promise<never>;
  }
}
