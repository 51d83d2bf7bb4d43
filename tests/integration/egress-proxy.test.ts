import { spawn } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * An operator whose servers reach the internet only through an egress proxy runs Node with
 * NODE_USE_ENV_PROXY=1 and HTTPS_PROXY / HTTP_PROXY. Every call to the site goes through it then: the
 * node:http transport (OAuth, key sets, GraphQL) as well as fetch (MCP), never one way for some calls and
 * another for the rest. Without NODE_USE_ENV_PROXY, Node uses no proxy, and neither do they.
 */
let site: Server;
let proxy: Server;
let siteUrl: string;
let proxyUrl: string;
/** What reached the proxy: `GET http://host/path` for a forwarded request, `CONNECT host:port` for a tunnel. */
const throughProxy: string[] = [];

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ answered: "site" }));
  });
  siteUrl = await listen(site);
  // A forward proxy: absolute-form requests are sent on, CONNECT opens a tunnel (RFC 9110 section 9.3.6).
  proxy = createServer((request, response) => {
    throughProxy.push(`${request.method} ${request.url}`);
    const onward = httpRequest(request.url!, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(onward);
  });
  proxy.on("connect", (request, client, head) => {
    throughProxy.push(`CONNECT ${request.url}`);
    const [host, port] = request.url!.split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
  });
  proxyUrl = await listen(proxy);
});
afterAll(async () => {
  for (const server of [site, proxy]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Both transports' answers from a dashboard process started with `env`. */
function callsFromProcessWith(env: Record<string, string>): Promise<{ graphql: unknown; mcp: unknown }> {
  const childEnv: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?|no)_proxy$|^NODE_USE_ENV_PROXY$/i.test(name))),
    ...env,
    NODE_ENV: process.env.NODE_ENV,
  };
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "tests/support/site-fetch-child.ts", `${siteUrl}/answer`],
    {
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`exit ${code}: ${errors}`));
      resolve(JSON.parse(output.trim().split("\n").at(-1)!) as { graphql: unknown; mcp: unknown });
    });
  });
}

describe("calls to the site and an egress proxy", () => {
  it("with NODE_USE_ENV_PROXY=1, both transports go through HTTP_PROXY", async () => {
    throughProxy.length = 0;
    const answers = await callsFromProcessWith({ NODE_USE_ENV_PROXY: "1", HTTP_PROXY: proxyUrl });
    expect(answers).toEqual({ graphql: { answered: "site" }, mcp: { answered: "site" } });
    const siteHost = new URL(siteUrl).host;
    // node:http sends the request on in absolute form; fetch may tunnel: one of each, both to the site.
    expect(throughProxy).toHaveLength(2);
    expect(throughProxy.every((line) => line.includes(siteHost))).toBe(true);
    expect(throughProxy).toContain(`POST ${siteUrl}/answer`);
  });

  it("without it, neither does: HTTP_PROXY alone is not Node's setting", async () => {
    throughProxy.length = 0;
    const answers = await callsFromProcessWith({ HTTP_PROXY: proxyUrl });
    expect(answers).toEqual({ graphql: { answered: "site" }, mcp: { answered: "site" } });
    expect(throughProxy).toEqual([]);
  });
});
