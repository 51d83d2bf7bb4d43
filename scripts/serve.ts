/**
 * The dashboard's production server: Next.js behind one check that it cannot make itself. Next.js
 * turns every request into a Fetch `Request`, which cannot carry TRACE, TRACK or CONNECT, so those
 * answered 500; pages also rendered for DELETE or PROPFIND. Here every method a path does not answer
 * gets 405 with `Allow` (lib/http/method-policy.ts) before Next.js sees it. Started by scripts/start.ts
 * with the port and host as arguments: `serve.ts <port> <host>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";

import next from "next";

import { refuseMethod } from "../lib/http/method-policy";

const root = path.resolve(import.meta.dirname, "..");
const [port = "3000", hostname = "localhost"] = process.argv.slice(2);

function pathnameOf(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://dashboard.invalid").pathname;
  } catch {
    return "/";
  }
}

function refuse(response: ServerResponse, refusal: NonNullable<ReturnType<typeof refuseMethod>>): void {
  const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" };
  if (refusal.status === 405) headers.allow = refusal.allow;
  response.writeHead(refusal.status, headers).end(refusal.status === 405 ? "Method not allowed.\n" : "Not found.\n");
}

async function main(): Promise<void> {
  const app = next({ dev: false, dir: root, hostname, port: Number(port) });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const refusal = refuseMethod(request.method ?? "", pathnameOf(request.url));
    if (refusal) return refuse(response, refusal);
    void handle(request, response);
  });
  // CONNECT never reaches the request handler: Node.js hands it over as a tunnel, which we never open.
  server.on("connect", (request: IncomingMessage, socket: Duplex) => {
    const refusal = refuseMethod("CONNECT", pathnameOf(request.url)) ?? { status: 405, allow: "GET, HEAD" };
    const allow = refusal.status === 405 ? `Allow: ${refusal.allow}\r\n` : "";
    const status = refusal.status === 405 ? "405 Method Not Allowed" : "404 Not Found";
    socket.end(`HTTP/1.1 ${status}\r\n${allow}Content-Length: 0\r\nConnection: close\r\n\r\n`);
  });
  server.listen(Number(port), hostname, () => console.info(`Dashboard listening on ${hostname}:${port}`));
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
