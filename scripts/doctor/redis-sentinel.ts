/**
 * The doctor's look at Redis behind Sentinel (`--redis-sentinels`, `--redis-sentinel-name`), as the dashboard
 * will use it (lib/session/redis-shared-state.ts): the Sentinels answer and agree on the primary, the primary
 * answers as a primary, and it has a replica for WAIT to wait for (docs/architecture.md section 8).
 * Read-only commands, with the official client; no credentials (a Sentinel or primary that asks for one says so).
 */
import { createClient } from "redis";

import type { RedisNodeAddress } from "../../lib/config/env-schema";

import type { CheckResult } from "./checks";

export interface SentinelAnswer {
  address: string;
  /** `host:port` of the primary this Sentinel names, when it answered. */
  primary?: string;
  problem?: string;
}

export interface SentinelSnapshot {
  name: string;
  sentinels: SentinelAnswer[];
  /** INFO replication of the primary most Sentinels name, or why it could not be read. */
  primary?: { address: string; role?: string; connectedReplicas?: number; problem?: string };
}

const describe = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : "no answer");

async function ask(node: RedisNodeAddress, args: string[], timeoutMs: number): Promise<unknown> {
  const client = createClient({ socket: { host: node.host, port: node.port, connectTimeout: timeoutMs, reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer in time")), timeoutMs)));
    try {
      return await Promise.race([client.sendCommand(args), timeout]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    client.destroy();
  }
}

export async function probeSentinels(sentinels: RedisNodeAddress[], name: string, timeoutMs: number): Promise<SentinelSnapshot> {
  const answers = await Promise.all(
    sentinels.map(async (node): Promise<SentinelAnswer> => {
      const address = `${node.host}:${node.port}`;
      try {
        const reply = (await ask(node, ["SENTINEL", "GET-MASTER-ADDR-BY-NAME", name], timeoutMs)) as string[] | null;
        return reply ? { address, primary: `${reply[0]}:${reply[1]}` } : { address, problem: `does not monitor "${name}"` };
      } catch (error) {
        return { address, problem: describe(error) };
      }
    }),
  );
  const named = answers.flatMap((answer) => (answer.primary ? [answer.primary] : []));
  const mostNamed = [...new Set(named)].sort((a, b) => named.filter((x) => x === b).length - named.filter((x) => x === a).length)[0];
  const snapshot: SentinelSnapshot = { name, sentinels: answers };
  if (!mostNamed) return snapshot;
  const separator = mostNamed.lastIndexOf(":");
  const primaryNode = { host: mostNamed.slice(0, separator), port: Number(mostNamed.slice(separator + 1)) };
  try {
    const replication = String(await ask(primaryNode, ["INFO", "replication"], timeoutMs));
    const field = (key: string) => new RegExp(`^${key}:(.*)$`, "m").exec(replication)?.[1]?.trim();
    snapshot.primary = { address: mostNamed, role: field("role"), connectedReplicas: Number(field("connected_slaves") ?? 0) };
  } catch (error) {
    snapshot.primary = { address: mostNamed, problem: describe(error) };
  }
  return snapshot;
}

/** PASS: three or more Sentinels agree on a primary that answers as one and has a replica. */
export function checkSentinels(snapshot: SentinelSnapshot): CheckResult {
  const id = "redis-sentinel";
  const title = "Redis with Sentinel";
  const result = (status: CheckResult["status"], detail: string): CheckResult => ({ id, status, title, detail });
  const answering = snapshot.sentinels.filter((answer) => answer.primary);
  if (answering.length === 0) {
    const reasons = snapshot.sentinels.map((answer) => `${answer.address}: ${answer.problem ?? "no answer"}`).join("; ");
    return result("FAIL", `no Sentinel names a primary for "${snapshot.name}" (${reasons})`);
  }
  const primaries = new Set(answering.map((answer) => answer.primary));
  if (primaries.size > 1) return result("FAIL", `the Sentinels disagree on the primary: ${[...primaries].join(", ")}`);
  const primary = snapshot.primary!;
  if (primary.problem) return result("FAIL", `the primary ${primary.address} does not answer: ${primary.problem}`);
  if (primary.role !== "master") return result("FAIL", `${primary.address}, named primary, answers as "${primary.role ?? "unknown"}"`);
  const silent = snapshot.sentinels.filter((answer) => !answer.primary);
  if (silent.length > 0) {
    return result(
      "WARN",
      `${silent.map((answer) => `${answer.address}: ${answer.problem ?? "no answer"}`).join("; ")}; a failover needs a majority`,
    );
  }
  if (answering.length < 3)
    return result("WARN", `only ${answering.length} Sentinel(s): three or more keep a failover possible when one is lost`);
  if (!primary.connectedReplicas) {
    return result(
      "WARN",
      `the primary ${primary.address} has no replica connected: nothing to promote, and every sign-out waits for WAIT's bound`,
    );
  }
  const replicas = `${primary.connectedReplicas} replica(s) connected`;
  return result("PASS", `${answering.length} Sentinels name ${primary.address} primary of "${snapshot.name}", with ${replicas}`);
}
