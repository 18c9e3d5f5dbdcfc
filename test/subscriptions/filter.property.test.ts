// Property: whatever a client asks for and whatever a server honours, the acknowledgement is
// exactly their intersection, and a listener receives exactly the events its acknowledged filter
// names, in order, each with its subscription id, never one it did not ask for.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Server, SUBSCRIPTION_TYPES, type SubscriptionEvent, type SubscriptionType, type JsonRpcNotification } from "mcp-roundtrip/server";
import { meta } from "../server/helpers.js";

const URIS = ["file:///a", "file:///b", "config://c", "mem://d?x=1"];
const LISTS = ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const;
const METHOD: Record<string, string> = {
  toolsListChanged: "notifications/tools/list_changed",
  promptsListChanged: "notifications/prompts/list_changed",
  resourcesListChanged: "notifications/resources/list_changed",
  resourceUpdated: "notifications/resources/updated",
};

const filterArb = fc.record(
  {
    toolsListChanged: fc.boolean(),
    promptsListChanged: fc.boolean(),
    resourcesListChanged: fc.boolean(),
    resourceSubscriptions: fc.uniqueArray(fc.constantFrom(...URIS), { maxLength: URIS.length }),
  },
  { requiredKeys: [] },
);
const eventArb: fc.Arbitrary<SubscriptionEvent> = fc.oneof(
  fc.constantFrom(...LISTS).map((type) => ({ type })),
  fc.constantFrom(...URIS, "file:///unlisted").map((uri) => ({ type: "resourceUpdated" as const, uri })),
);

describe("subscription filters", () => {
  it("acknowledge the intersection and deliver exactly what it names", async () => {
    await fc.assert(
      fc.asyncProperty(
        filterArb,
        fc.subarray([...SUBSCRIPTION_TYPES]),
        fc.array(eventArb, { maxLength: 12 }),
        fc.oneof(fc.nat(), fc.string({ minLength: 1 })),
        async (filter, honour, events, id) => {
          const server = new Server({ name: "prop", version: "1" }, {}, { subscriptions: { honour: honour as SubscriptionType[] } });
          const received: JsonRpcNotification[] = [];
          const abort = new AbortController();
          const answer = server.handle(
            { jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: meta(), notifications: filter } },
            { signal: abort.signal, sendNotification: (notification) => void received.push(notification) },
          );
          await new Promise((resolve) => setImmediate(resolve));
          const want: Record<string, unknown> = {};
          for (const type of LISTS) if (filter[type] === true && honour.includes(type)) want[type] = true;
          if ((filter.resourceSubscriptions?.length ?? 0) > 0 && honour.includes("resourceSubscriptions")) want.resourceSubscriptions = filter.resourceSubscriptions;
          expect(received).toEqual([
            {
              jsonrpc: "2.0",
              method: "notifications/subscriptions/acknowledged",
              params: { _meta: { "io.modelcontextprotocol/subscriptionId": id }, notifications: want },
            },
          ]);
          for (const event of events) {
            if (event.type === "resourceUpdated") server.sendResourceUpdated(event.uri);
            else server.sendListChanged(event.type.replace("ListChanged", "") as "tools");
          }
          const expected = events.filter((event) =>
            event.type === "resourceUpdated" ? ((want.resourceSubscriptions as string[] | undefined) ?? []).includes(event.uri) : want[event.type] === true,
          );
          expect(
            received
              .slice(1)
              .map((n) => [n.method, n.params?.uri, (n.params?._meta as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/subscriptionId"]]),
          ).toEqual(expected.map((event) => [METHOD[event.type], event.type === "resourceUpdated" ? event.uri : undefined, id]));
          abort.abort();
          expect(await answer).toBeUndefined();
          expect(server.openSubscriptions).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
