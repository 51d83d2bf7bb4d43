import http from "node:http";
import { connect, type AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type * as MethodPolicy from "@/lib/http/method-policy";

/**
 * The method guard under `next dev` (`npm run dev` loads it, scripts/start.ts): the route files change while
 * the server runs, so the table is derived from them for each API request, and Next.js's own development
 * endpoints are left to it. The rest is as in production (tests/unit/http/method-guard.test.ts).
 */
const derivations = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/http/method-policy", async (importOriginal) => {
  const policy = await importOriginal<typeof MethodPolicy>();
  return {
    ...policy,
    routeMethodsOf: (root: string) => {
      derivations.count += 1;
      return policy.routeMethodsOf(root);
    },
  };
});

let server: http.Server;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  vi.stubEnv("NODE_ENV", "development");
  await import("@/scripts/method-guard");
  server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "content-type": "text/plain", "content-length": "7" }).end("next.js");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
  vi.unstubAllEnvs();
});

/** The status line of one request written byte for byte. */
function statusOf(method: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`),
    );
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("end", () => resolve(answer.slice(0, answer.indexOf("\r\n"))));
    socket.on("error", reject);
  });
}

describe("the method guard under next dev", () => {
  it("derives the route table from the route files again for each API request, and not for a page", async () => {
    derivations.count = 0;
    expect(await statusOf("POST", "/api/account/courses")).toBe("HTTP/1.1 405 Method Not Allowed");
    expect(await statusOf("GET", "/api/session")).toBe("HTTP/1.1 200 OK");
    expect(derivations.count).toBe(2);
    expect(await statusOf("GET", "/courses")).toBe("HTTP/1.1 200 OK");
    expect(derivations.count).toBe(2);
  });

  it.each(["/__nextjs_original-stack-frames", "/_next/mcp"])("hands Next.js's development endpoint %s its POST", async (endpoint) => {
    seen.length = 0;
    expect(await statusOf("POST", endpoint)).toBe("HTTP/1.1 200 OK");
    expect(seen).toEqual([`POST ${endpoint}`]);
  });

  it("still refuses there what Next.js cannot represent, and a page's POST", async () => {
    seen.length = 0;
    expect(await statusOf("TRACE", "/__nextjs_source-map")).toBe("HTTP/1.1 405 Method Not Allowed");
    expect(await statusOf("POST", "/courses")).toBe("HTTP/1.1 405 Method Not Allowed");
    expect(seen).toEqual([]);
  });
});
