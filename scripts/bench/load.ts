/**
 * Concurrent load with autocannon: a fixed number of connections for a fixed time, every response's
 * latency recorded so that several short rounds of one side can be pooled into one distribution.
 */
import autocannon, { type AutocannonRequest } from "autocannon";

import type { Cookies } from "./members";

export interface LoadSpec {
  url: string;
  connections: number;
  durationSeconds: number;
  /** When set, the run stops after this many requests instead of after `durationSeconds`. */
  amount?: number;
  method?: "GET" | "POST";
  /** Paths on `url`'s origin that each connection asks for in turn, as a browser fetches a page's assets; else `url`'s own. */
  paths?: readonly string[];
  headers?: Record<string, string>;
  body?: string;
  /**
   * Signed-in sessions to spread the requests over, round robin; each keeps whatever cookies the
   * dashboard sets (a re-sealed session), as a browser would.
   */
  sessions?: readonly Cookies[];
}

export interface LoadSample {
  latenciesMs: number[];
  /** Responses that were not 2xx, plus connection errors and timeouts. */
  failures: number;
  durationMs: number;
  /** Bytes received, status lines, headers and bodies. */
  bytes: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadSample> {
  const { sessions, paths } = spec;
  let next = 0;
  const withSession: AutocannonRequest | undefined = sessions?.length
    ? {
        setupRequest: (request, context) => {
          const session = sessions[next++ % sessions.length]!;
          context.session = session;
          return { ...request, headers: { ...request.headers, cookie: session.header() } };
        },
        onResponse: (_status, _body, context, headers) => {
          const setCookie = headers["set-cookie"];
          if (setCookie) (context.session as Cookies).absorbLines(Array.isArray(setCookie) ? setCookie : [setCookie]);
        },
      }
    : undefined;
  const requests: AutocannonRequest[] | undefined = paths?.length
    ? paths.map((path) => ({ ...withSession, path }))
    : withSession && [withSession];
  const latenciesMs: number[] = [];
  let failures = 0;
  let bytes = 0;
  const started = performance.now();
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    amount: spec.amount,
    method: spec.method ?? "GET",
    headers: spec.headers,
    body: spec.body,
    requests,
  });
  instance.on("response", (_client: unknown, statusCode: number, responseBytes: number, responseTimeMs: number) => {
    bytes += responseBytes;
    if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTimeMs);
    else failures += 1;
  });
  const result = await instance;
  return { latenciesMs, failures: failures + result.errors + result.timeouts, durationMs: performance.now() - started, bytes };
}

/** Pools several rounds of one side into one distribution. */
export function pool(samples: readonly LoadSample[]): LoadSample {
  return {
    latenciesMs: samples.flatMap((sample) => sample.latenciesMs),
    failures: samples.reduce((sum, sample) => sum + sample.failures, 0),
    durationMs: samples.reduce((sum, sample) => sum + sample.durationMs, 0),
    bytes: samples.reduce((sum, sample) => sum + sample.bytes, 0),
  };
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function throughput(sample: LoadSample): number {
  return (sample.latenciesMs.length / sample.durationMs) * 1000;
}
