// The Node loopback redirect listener: the redirect it receives, and how it
// ends when no redirect comes.
import { afterEach, describe, expect, it } from "vitest";
import { OAuthError } from "mcp-roundtrip/ext/oauth";
import { loopbackAuthorization, type LoopbackAuthorization } from "mcp-roundtrip/ext/oauth/node";

let loopback: LoopbackAuthorization | undefined;
afterEach(async () => {
  await loopback?.close();
  loopback = undefined;
});

describe("loopbackAuthorization", () => {
  it("hands back the redirect the browser brings to 127.0.0.1", async () => {
    let shown: URL | undefined;
    loopback = await loopbackAuthorization({
      // Stands in for the browser: it "logs in" and follows the redirect to the callback.
      open: async (url) => {
        shown = url;
        const stray = await fetch(new URL("/favicon.ico", loopback!.redirectUrl));
        expect(stray.status).toBe(404);
        const page = await fetch(`${loopback!.redirectUrl}?code=abc&state=xyz`);
        expect(await page.text()).toContain("Authorization complete");
      },
    });
    expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const returned = await loopback.authorize(new URL("https://as.example/authorize?client_id=c"));
    expect(shown?.href).toBe("https://as.example/authorize?client_id=c");
    expect(returned.searchParams.get("code")).toBe("abc");
    expect(returned.searchParams.get("state")).toBe("xyz");
  });

  it("gives up after the timeout, and on close", async () => {
    loopback = await loopbackAuthorization({ timeoutMs: 50, open: () => {} });
    await expect(loopback.authorize(new URL("https://as.example/authorize"))).rejects.toThrow(/No authorization arrived/);
    const pending = loopback.authorize(new URL("https://as.example/authorize"));
    await loopback.close();
    await expect(pending).rejects.toBeInstanceOf(OAuthError);
  });

  it("rejects a bad port or path", async () => {
    await expect(loopbackAuthorization({ port: 70000 })).rejects.toThrow(RangeError);
    await expect(loopbackAuthorization({ path: "callback" })).rejects.toThrow(/start with/);
  });
});
