import { createServer, type Server } from "node:net";

/** A free TCP port on 127.0.0.1, from the OS. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * `count` free TCP ports on 127.0.0.1, all different: each is held until all are found. Two `freePort()`
 * calls in a row may get the same port back, since the first is closed before the second asks.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", resolve);
      });
    }
    return servers.map((server) => {
      const address = server.address();
      if (typeof address !== "object" || !address) throw new Error("no port");
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
