import "server-only";

import type { GraphQLFormattedError } from "graphql";

import { processWide } from "@/lib/server/process-wide";
import { siteTimeLeftMs } from "@/lib/site/site-deadline";

import type { RawConnection } from "./fragments";

/**
 * Page sizes at the site. docs/architecture.md section 5: `first` is capped by the site and the cap is the site's to
 * choose, so the dashboard asks for modest pages, follows `pageInfo`, and when a site refuses a size it
 * learns the site's maximum once per process.
 */

/** The page size the dashboard asks for when it reads many items: modest, under any sensible cap. */
export const MODEST_PAGE_SIZE = 50;

/** The cap the site named, one for the process: what a page's render learned, its data route knows. */
const learned = processWide("page-cap", () => ({ cap: undefined as number | undefined }));

/** `requested`, lowered to the cap this process learned from the site (if it learned one). */
export function pageSizeWithinCap(requested: number): number {
  return learned.cap === undefined ? requested : Math.min(requested, learned.cap);
}

/** The cap learned from the site, if any. */
export function learnedPageCap(): number | undefined {
  return learned.cap;
}

/** Tests only: forget the learned cap. */
export function forgetPageCapForTests(): void {
  learned.cap = undefined;
}

/** Mentions the `first` argument as a word ("first must be between 1 and 100", "Argument first exceeds 25"). */
const FIRST_ARGUMENT = /(^|[^\w$])\$?first([^\w]|$)/i;

function maximumNamedIn(error: GraphQLFormattedError): number | undefined {
  const extensions = error.extensions ?? {};
  for (const key of ["maxPageSize", "maximum", "max", "limit"]) {
    const value = extensions[key];
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  }
  const numbers = (error.message.match(/\d+/g) ?? []).map(Number).filter((value) => Number.isInteger(value) && value > 0);
  return numbers.length > 0 ? Math.max(...numbers) : undefined;
}

/** A number as servers write it in a message, with or without thousands separators ("1,010,000"). */
const COUNT = String.raw`(\d[\d,]*)`;
const count = (text: string | undefined): number | undefined => {
  const value = Number(text?.replaceAll(",", ""));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

/**
 * How servers that price a query say it costs more than they allow, each with the cost and the limit when
 * it names them: graphql-ruby (`Query has complexity of 2274, which exceeds max complexity of 2000`),
 * graphql-java (`maximum query complexity exceeded 2024 > 2000`), Shopify (`Query cost is 1250, which
 * exceeds the single query max cost limit (1000).`), GitHub (`This query requests up to 1,010,000 possible
 * nodes which exceeds the maximum limit of 500,000.`), graphql-query-complexity and graphql-cost-analysis
 * on graphql-js (`The query exceeds the maximum complexity of 1000. Actual complexity is 1250`).
 */
const COST_MESSAGES: readonly { pattern: RegExp; costGroup: 1 | 2 }[] = [
  { pattern: new RegExp(`complexity of ${COUNT}, which exceeds max complexity of ${COUNT}`), costGroup: 1 },
  { pattern: new RegExp(`maximum query complexity exceeded ${COUNT} > ${COUNT}`), costGroup: 1 },
  { pattern: new RegExp(`Query cost is ${COUNT}, which exceeds the single query max cost limit \\(${COUNT}\\)`), costGroup: 1 },
  { pattern: new RegExp(`requests up to ${COUNT} possible nodes which exceeds the maximum limit of ${COUNT}`), costGroup: 1 },
  { pattern: new RegExp(`exceeds the maximum (?:complexity|cost) of ${COUNT}\\. Actual (?:complexity|cost) is ${COUNT}`), costGroup: 2 },
];

/** How much of the page size scaled by limit over cost is asked for (see learnPageCapFromRefusal). */
const COST_MARGIN = 0.9;

/** Codes by which servers refuse a query for its cost without words we read: Hot Chocolate's, Shopify's, GitHub's. */
const COST_CODES: ReadonlySet<unknown> = new Set(["HC0047", "MAX_COST_EXCEEDED", "MAX_NODE_LIMIT_EXCEEDED"]);

/**
 * A refusal of the whole query for what it would cost the site, as much as is known of it: the cost and
 * the limit (Hot Chocolate names them in `extensions`: `fieldCost` and `maxFieldCost`, or `typeCost` and
 * `maxTypeCost`), or neither.
 */
function costRefusalOf(error: GraphQLFormattedError): { cost?: number; limit?: number } | undefined {
  const extensions = (error.extensions ?? {}) as Record<string, unknown>;
  for (const [costKey, limitKey] of [
    ["fieldCost", "maxFieldCost"],
    ["typeCost", "maxTypeCost"],
  ] as const) {
    const cost = extensions[costKey];
    const limit = extensions[limitKey];
    if (typeof cost === "number" && typeof limit === "number") return { cost: count(String(cost)), limit: count(String(limit)) };
  }
  for (const { pattern, costGroup } of COST_MESSAGES) {
    const match = pattern.exec(error.message);
    if (match) return { cost: count(match[costGroup]), limit: count(match[costGroup === 1 ? 2 : 1]) };
  }
  const code = extensions.code ?? (error as { type?: unknown }).type;
  return COST_CODES.has(code) ? {} : undefined;
}

/**
 * When the site refused a page size, remembers for the process a cap the next attempt keeps within, and
 * returns true: the caller asks once more. Refused by `first` (a GraphQL error about it): the maximum it
 * names, or half of what was asked when it names none. Refused for the query's cost (a site that prices
 * queries, where cost grows with the page size): the size scaled down by the limit over the cost, or
 * half when they are not named. False when the errors are about something else, or when a smaller size
 * cannot help.
 */
export function learnPageCapFromRefusal(errors: readonly GraphQLFormattedError[], requested: number): boolean {
  const refusal = errors.find((error) => FIRST_ARGUMENT.test(error.message));
  const overCost = refusal ? undefined : errors.map(costRefusalOf).find((found) => found !== undefined);
  if (!refusal && !overCost) return false;
  const named = refusal
    ? maximumNamedIn(refusal)
    : overCost?.cost && overCost.limit && overCost.limit < overCost.cost
      ? // A query's cost is a fixed part and a part that grows with the page size: scaled by the limit over
        // the cost alone, it would still come out over the limit, so a tenth less than that.
        Math.floor((requested * overCost.limit * COST_MARGIN) / overCost.cost)
      : undefined;
  // A maximum at or above what was asked means the refusal is about something else: no retry.
  const cap = named ?? Math.floor(requested / 2);
  if (cap < 1 || cap >= requested) return false;
  learned.cap = Math.min(cap, learned.cap ?? cap);
  return true;
}

export interface CollectPagesOptions<TNode> {
  /**
   * Reads one page of `first` items after `after` (null: from the start). Pass the page size through
   * to the site as is: the remembered cap is applied by the Account API chokepoint.
   */
  fetchPage: (first: number, after: string | null) => Promise<RawConnection<TNode>>;
  /** The stated bound: at most this many items are read, however many the member has. */
  maxItems: number;
  /** The page size asked for (default MODEST_PAGE_SIZE). */
  pageSize?: number;
  /** Where to start (a cursor from an earlier call's `nextCursor`); null or absent: the start. */
  after?: string | null;
  /** The first page when the caller already has it (e.g. read in the same request as other data). */
  firstPage?: RawConnection<TNode>;
  /**
   * A node's identity: a node read before is skipped, as when a list moved between two of its pages on a
   * site that pages by position (a course bought meanwhile repeats the one at the seam).
   */
  keyOf: (node: TNode) => string;
}

export interface CollectedPages<TNode> {
  /** At most `maxItems` items, in the site's order. */
  nodes: TNode[];
  /** How many items the member has in all, when the site says (`totalCount`). */
  totalCount: number | null;
  /**
   * How many items lie past the bound and were not read ("and N more"): 0 when the site said there
   * is no next page, exact when reading from the start of a site that tells `totalCount`, else null.
   */
  moreCount: number | null;
  /** Where a later call continues (null when nothing is left or the site does not page). */
  nextCursor: string | null;
  /** Items the pages read listed but the site could not give (RawConnection's `itemsUnavailable`), in all. */
  itemsUnavailable: number;
}

/**
 * A next page is asked for only while the page view's deadline leaves this many times the slowest page
 * so far: on a slow site the member gets the items read in time, and the rest one "Show more" away,
 * rather than the whole view failing on the deadline.
 */
const PAGE_TIME_HEADROOM = 1.5;

/**
 * Reads a connection page by page, following `pageInfo`, until it ends or `maxItems` items were read.
 * Made for everything that needs all of a member's items (Overview, Events, a Courses filter) without
 * trusting any page size: each request asks for `pageSize` (modest, default 50) and the Account API
 * chokepoint lowers it to the cap the site named, once per process. A site without `pageInfo` gives
 * one page. Never more than `ceil(maxItems / pageSize)` requests when the site honours the size, and
 * never more than `maxItems` requests in any case. On a site too slow to read every page within the page
 * view's deadline, the read stops early as at the bound (PAGE_TIME_HEADROOM): `nextCursor` goes on.
 */
export async function collectPages<TNode>(options: CollectPagesOptions<TNode>): Promise<CollectedPages<TNode>> {
  const pageSize = options.pageSize ?? MODEST_PAGE_SIZE;
  const nodes: TNode[] = [];
  let after = options.after ?? null;
  let totalCount: number | null = null;
  let page = options.firstPage;
  let hasNextPage = true;
  // A site that repeats a cursor (or sends an empty page while claiming more) ends the read, not a loop.
  const seenCursors = new Set<string>();
  const seenNodes = new Set<string>();
  let slowestPageMs = 0;
  let itemsUnavailable = 0;
  for (let requests = 0; nodes.length < options.maxItems && requests < options.maxItems; requests += 1) {
    if (!page) {
      if (nodes.length > 0 && siteTimeLeftMs() < slowestPageMs * PAGE_TIME_HEADROOM) break;
      const started = performance.now();
      page = await options.fetchPage(Math.min(pageSize, options.maxItems - nodes.length), after);
      slowestPageMs = Math.max(slowestPageMs, performance.now() - started);
    }
    if (typeof page.totalCount === "number") totalCount = page.totalCount;
    const unavailable = page.itemsUnavailable ?? 0;
    itemsUnavailable += unavailable;
    for (const node of page.nodes) {
      const key = options.keyOf(node);
      if (nodes.length >= options.maxItems || seenNodes.has(key)) continue;
      seenNodes.add(key);
      nodes.push(node);
    }
    const info = page.pageInfo;
    // A page whose every item the site could not give is still a page: the list goes on after it.
    const listed = page.nodes.length + unavailable;
    hasNextPage = Boolean(info?.hasNextPage && info.endCursor && listed > 0 && !seenCursors.has(info.endCursor));
    if (info?.endCursor) seenCursors.add(info.endCursor);
    after = hasNextPage ? (info?.endCursor ?? null) : null;
    page = undefined;
    if (!hasNextPage) break;
  }
  let moreCount: number | null = null;
  if (!hasNextPage) moreCount = 0;
  // From the start, the total tells exactly how many lie past the bound; from a cursor it cannot.
  else if (totalCount !== null && !options.after) moreCount = Math.max(0, totalCount - nodes.length - itemsUnavailable);
  return { nodes, totalCount, moreCount, nextCursor: hasNextPage ? after : null, itemsUnavailable };
}

/** A connection read page by page: the items, the site's total when it tells, where to go on, and what the site could not give. */
export type CollectedConnection<TNode> = Pick<CollectedPages<TNode>, "nodes" | "totalCount" | "nextCursor"> &
  Partial<Pick<CollectedPages<TNode>, "itemsUnavailable">>;
