import "server-only";

import type { CollectedPages, CollectPagesOptions, SiteConnection } from "@/lib/site/paging";

import type { ResumeUrlConfig } from "../lecture-url";
import { optionalFields, type AccountOperation } from "../operations";

/** Sends one named operation to the Account API with the member's token (lib/site/account-api.ts) and answers its data. */
export type RunOperation = <TData>(operation: AccountOperation, variables: Record<string, unknown>) => Promise<TData>;

/** What a page's `load` is given: the only way it reaches the site, where to start, and what reshaping needs. */
export interface AccountPageContext {
  run: RunOperation;
  /** Where to go on (`?after=`, a cursor from an earlier answer's `nextCursor`); null: the start. */
  after: string | null;
  /** The URL templates Resume and course links are built from. */
  resume: ResumeUrlConfig;
  /** The moment "upcoming" and "ending soon" are measured from. */
  now: Date;
}

/**
 * One account page on the server: its named GraphQL operation, how one request's variables are built,
 * the page size it asks for, and how it reads (one request per call, or page by page up to its bound)
 * and reshapes into the UI type. lib/site/account-pages.ts loads any page through this alone.
 */
export interface AccountPageDescriptor<TData> {
  /** The page's own named query (the overview also reads on with the Courses and Events operations). */
  operation: AccountOperation;
  /** Items asked for per request: a modest page (the Account API chokepoint lowers it to the cap a site named). */
  pageSize: number;
  /** The variables of one request: `first` items after the cursor `after` (null: from the start). */
  variables(after: string | null, first: number): Record<string, unknown>;
  /** Reads the page and reshapes it into the UI type: called once per page view or data request. */
  load(context: AccountPageContext): Promise<TData>;
}

/** A `fetchPage` for collectPages: `first` items after a cursor, read with `page`'s operation, from the connection `connectionOf` picks. */
export function connectionReader<TResult, TNode>(
  page: Pick<AccountPageDescriptor<unknown>, "operation" | "variables">,
  run: RunOperation,
  connectionOf: (result: TResult) => SiteConnection<TNode>,
): CollectPagesOptions<TNode>["fetchPage"] {
  return async (first, after) => connectionOf(await run<TResult>(page.operation, page.variables(after, first)));
}

/**
 * The operation and variables of a page that reads one connection with `$first` and `$after`, and can do
 * without the fields every page can (lib/account/schema.ts).
 */
export function connectionQuery(document: string): Pick<AccountPageDescriptor<unknown>, "operation" | "variables"> {
  return {
    operation: { document, pageSizeVariables: ["first"], optionalFields: optionalFields() },
    variables: (after, first) => ({ first, after }),
  };
}

/** A connection read page by page (collectPages): the items, the site's total when it tells, and where to go on. */
export type CollectedConnection<TNode> = Pick<CollectedPages<TNode>, "nodes" | "totalCount" | "nextCursor">;
