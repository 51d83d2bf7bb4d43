/**
 * A TCP link for tests that delays what flows from the server to the client by `delayMs` (in order), and
 * drops what it still holds when the server dies: put between a replica and its primary, it is replication
 * lag that can be set at will, and a `kill -9` of the primary then really loses the writes the replica had
 * not received (a stopped replica would still read them from its socket buffer once resumed).
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

export class LaggingLink {
  delayMs = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<LaggingLink> {
    const holder: { link?: LaggingLink } = {};
    const server = createServer((client) => holder.link?.connect(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (typeof address !== "object" || !address) throw new Error("the link is not listening");
    holder.link = new LaggingLink(server, address.port);
    return holder.link;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private connect(client: Socket, targetPort: number): void {
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    this.sockets.add(client).add(upstream);
    const queue: { at: number; chunk: Buffer }[] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      while (queue.length > 0 && queue[0]!.at <= Date.now()) client.write(queue.shift()!.chunk);
      if (queue.length > 0) timer = setTimeout(flush, queue[0]!.at - Date.now());
    };
    upstream.on("data", (chunk: Buffer) => {
      queue.push({ at: Date.now() + this.delayMs, chunk });
      if (!timer) flush();
    });
    client.on("data", (chunk: Buffer) => upstream.write(chunk));
    // Either side gone: both are destroyed at once, and what the link still held is lost.
    const cut = () => {
      clearTimeout(timer);
      queue.length = 0;
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on("close", cut);
      socket.on("error", cut);
    }
  }
}
