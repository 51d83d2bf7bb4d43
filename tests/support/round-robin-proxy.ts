/**
 * A load balancer for tests: node:http, round robin over the upstreams, no stickiness (every request may
 * reach another instance, as an embedded frame and its sign-in popup would). Headers and bodies pass
 * through unchanged; it counts what each upstream served.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export class RoundRobinProxy {
  readonly served: number[];
  private next = 0;
  private readonly server: Server;

  private constructor(private readonly upstreams: () => number[]) {
    this.served = [];
    this.server = createServer((incoming, outgoing) => this.forward(incoming, outgoing));
  }

  /** Listens on a free loopback port; `upstreams` is read per request, so instances may be added later. */
  static async start(upstreams: () => number[]): Promise<RoundRobinProxy> {
    const proxy = new RoundRobinProxy(upstreams);
    await new Promise<void>((resolve) => proxy.server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    if (typeof address !== "object" || !address) throw new Error("the proxy is not listening");
    return address.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  resetCounts(): void {
    this.served.length = 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private forward(incoming: IncomingMessage, outgoing: ServerResponse): void {
    const ports = this.upstreams();
    if (ports.length === 0) {
      outgoing.writeHead(502).end();
      return;
    }
    const index = this.next % ports.length;
    this.next += 1;
    this.served[index] = (this.served[index] ?? 0) + 1;
    const upstream = request(
      { host: "127.0.0.1", port: ports[index], method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  }
}
