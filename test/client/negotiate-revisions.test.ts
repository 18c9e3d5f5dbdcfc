// A client of a release that serves two modern revisions, against servers of
// the release before (which take only the older one): it speaks the newest
// modern revision both sides share, never falling back to the 2025 handshake
// while a modern one is shared. The runtime's list of served revisions
// (generated/revisions.ts) is replaced here by one with a newer revision in
// front, as `npm run codegen -- --add-revision` would write it;
// test/codegen/add-revision.test.ts does the same with a real generated one.
import { describe, expect, it, vi } from "vitest";
import { Client, MODERN_PROTOCOL_VERSION, type ModernProtocolVersion, ProtocolVersionUnsupported } from "mcp-roundtrip/client";
import { LEGACY_VERSIONS, MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";
import { fakeServer, text } from "./fake-server.js";

vi.mock("../../generated/revisions.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../generated/revisions.js")>();
  return { ...actual, SERVED_MODERN_REVISIONS: Object.freeze(["2999-01-01", ...actual.SERVED_MODERN_REVISIONS]) };
});

/** The revision this test adds in front, and the newest one the package really serves (what a server of the release before takes). */
const NEWER = "2999-01-01" as ModernProtocolVersion;
const OLDER = MODERN_VERSIONS[1] as ModernProtocolVersion;

const versionOf = (request: { params?: Record<string, unknown> }) => (request.params!._meta as Record<string, unknown>)["io.modelcontextprotocol/protocolVersion"];
const unsupported = (supported: string[], requested: unknown) => ({
  error: { code: -32022, message: "Unsupported protocol version", data: { supported, requested } },
});

/** A server of the release before: it takes only `OLDER` (and the 2025 handshake), as this package's server does. */
function olderServer(options: { lists?: string[] } = {}) {
  return fakeServer(() => text("ok"), {
    discover: (request) =>
      versionOf(request) === OLDER || options.lists !== undefined
        ? { resultType: "complete", supportedVersions: options.lists ?? [OLDER, "2025-11-25"], capabilities: { tools: {} } }
        : unsupported([OLDER, "2025-11-25"], versionOf(request)),
  });
}

describe("a client that serves a newer modern revision", () => {
  it("offers the newest first", () => {
    expect(MODERN_PROTOCOL_VERSION).toBe(NEWER);
  });

  it("speaks the older modern revision to a server that refuses the newer one with -32022", async () => {
    const server = olderServer();
    const client = await Client.connect(server);
    expect(client.protocolVersion).toBe(OLDER);
    expect(client.era).toBe("modern");
    expect(server.received.map(versionOf)).toEqual([NEWER, OLDER]);
    await client.callTool("t");
    expect(versionOf(server.calls[0]!)).toBe(OLDER);
    // Each request a new id, numbering on after the refused probe.
    expect(server.received.map((request) => request.id)).toEqual([1, 2, 3]);
  });

  it("speaks the older one to a server whose DiscoverResult lists only it", async () => {
    const server = olderServer({ lists: [OLDER] });
    const client = await Client.connect(server);
    expect(client.protocolVersion).toBe(OLDER);
    expect(client.serverCapabilities).toEqual({ tools: {} });
    // Probed again under the version it will speak, so what the server describes is what that version serves.
    expect(server.received.map(versionOf)).toEqual([NEWER, OLDER]);
  });

  it("speaks the newest to a server that takes both", async () => {
    const server = fakeServer(() => text("ok"), {
      discover: () => ({ resultType: "complete", supportedVersions: [NEWER, OLDER], capabilities: {} }),
    });
    expect((await Client.connect(server)).protocolVersion).toBe(NEWER);
    expect(server.received).toHaveLength(1);
  });

  it("takes either modern revision as a pinned mode, and never falls back from one", async () => {
    expect((await Client.connect(olderServer(), { mode: OLDER })).protocolVersion).toBe(OLDER);
    const pinned = olderServer();
    const error = (await Client.connect(pinned, { mode: NEWER }).catch((thrown: unknown) => thrown)) as ProtocolVersionUnsupported;
    expect(error).toBeInstanceOf(ProtocolVersionUnsupported);
    expect(error.message).toContain(`does not support protocol ${NEWER}; it supports ${OLDER}, 2025-11-25`);
    expect(pinned.received.map(versionOf)).toEqual([NEWER]);
    await expect(Client.connect(olderServer(), { mode: "2030-01-01" as never })).rejects.toThrow(
      `mode must be "auto" or one of ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(", ")}; got "2030-01-01".`,
    );
    expect(MODERN_VERSIONS[0]).toBe(NEWER);
  });

  it("only ever steps down, so a server that contradicts itself cannot keep the probe going", async () => {
    // It refuses the newer revision naming the older, and the older naming the newer.
    const server = fakeServer(() => text("ok"), {
      discover: (request) => unsupported(versionOf(request) === NEWER ? [OLDER] : [NEWER], versionOf(request)),
    });
    await expect(Client.connect(server)).rejects.toBeInstanceOf(ProtocolVersionUnsupported);
    expect(server.received.map(versionOf)).toEqual([NEWER, OLDER]);
  });

  it("fails, naming what the server takes, when no revision is shared", async () => {
    const server = fakeServer(() => text("ok"), { discover: (request) => unsupported(["2030-01-01"], versionOf(request)) });
    const error = (await Client.connect(server).catch((thrown: unknown) => thrown)) as ProtocolVersionUnsupported;
    expect(error).toBeInstanceOf(ProtocolVersionUnsupported);
    expect(error.supported).toEqual(["2030-01-01"]);
    expect(server.received).toHaveLength(1);
  });
});
