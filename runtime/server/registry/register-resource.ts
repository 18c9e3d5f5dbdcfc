/**
 * `McpServer.resource`'s registration: a static resource (a fixed URI) or a
 * resource template (a `UriTemplate`, or a string with `{…}` expressions),
 * whose declared `needs` turn the handler into one that asks first.
 *
 * @module
 */
import type { ServerRequestContext } from "../context.js";
import { withDependencies } from "../dependencies/tool.js";
import type { DependentTemplateResourceHandler, ResourceNeeds } from "../dependencies/handlers.js";
import { UriTemplate, type UriTemplateVariables } from "../uri-template.js";
import type { ResourceConfig, ResourceRegistry, StaticResourceHandler, TemplateResourceHandler } from "./resources.js";

/**
 * Registers a static resource or a resource template in `resources` (see `McpServer.resource`).
 *
 * @throws TypeError on a malformed config, handler or template, or `needs` on a static resource
 * @internal
 */
export function registerResource(
  resources: ResourceRegistry,
  uriOrTemplate: string | UriTemplate,
  config: ResourceConfig & { needs?: ResourceNeeds<any, any> },
  handler: StaticResourceHandler | TemplateResourceHandler | DependentTemplateResourceHandler<any>,
): void {
  if (typeof config !== "object" || config === null) throw new TypeError("McpServer.resource: config must be an object");
  if (typeof handler !== "function") throw new TypeError("McpServer.resource: the handler must be a function");
  let template: UriTemplate | undefined;
  if (uriOrTemplate instanceof UriTemplate) template = uriOrTemplate;
  else if (typeof uriOrTemplate === "string" && UriTemplate.isTemplate(uriOrTemplate)) template = new UriTemplate(uriOrTemplate);
  else if (typeof uriOrTemplate !== "string") throw new TypeError("McpServer.resource: the first argument must be a URI string or a UriTemplate");
  const needs = config.needs;
  if (template === undefined) {
    if (needs !== undefined) {
      throw new TypeError(
        `McpServer.resource(${JSON.stringify(uriOrTemplate)}): a static resource cannot declare needs, because it receives no ` +
          "round-trip context to ask with; register a resource template instead (a URI with a {variable}, or new UriTemplate(...))",
      );
    }
    resources.registerStatic(uriOrTemplate as string, config, handler as StaticResourceHandler);
    return;
  }
  const body =
    needs === undefined
      ? (handler as TemplateResourceHandler)
      : (withDependencies<Record<string, unknown>, object, ServerRequestContext, unknown, [string, UriTemplateVariables]>(
          { kind: "resource", name: template.template },
          needs,
          handler as DependentTemplateResourceHandler<object>,
          (_uri, variables) => variables,
        ) as TemplateResourceHandler);
  resources.registerTemplate(template, config, body);
}
