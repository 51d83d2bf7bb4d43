import "server-only";

import { ACCOUNT_PAGE_DESCRIPTORS } from "@/lib/account/pages/registry";
import type { RunOperation } from "@/lib/account/pages/descriptor";
import { getConfig } from "@/lib/config";
import { RequestError } from "@/lib/http/request-errors";
import type { AccountPageData, AccountPageKey } from "@/lib/contract/account-pages";

import { runAccountOperation } from "./account-api";

/** `value` as an account page's key, or a RequestError "not_found". */
export function accountPageKeyOf(value: string): AccountPageKey {
  if (!Object.hasOwn(ACCOUNT_PAGE_DESCRIPTORS, value)) throw new RequestError("not_found", "There is no such account page.");
  return value as AccountPageKey;
}

/** Sends operations to the Account API with this access token: what a page descriptor reads the site with. */
export function operationRunner(accessToken: string): RunOperation {
  return (operation, variables) => runAccountOperation(accessToken, operation, variables);
}

/**
 * One page's data, read at the site by the page's descriptor (lib/account/pages/) and reshaped into the
 * UI's type. Used by the BFF data route and by the pages' server prefetch alike.
 */
export async function loadAccountPage<K extends AccountPageKey>(
  key: K,
  accessToken: string,
  after: string | null = null,
): Promise<AccountPageData[K]> {
  const { siteUrl, lectureUrlTemplate, courseUrlTemplate } = getConfig();
  const descriptor = ACCOUNT_PAGE_DESCRIPTORS[key];
  return descriptor.load({
    run: operationRunner(accessToken),
    after,
    resume: { siteUrl, lectureUrlTemplate, courseUrlTemplate },
    now: new Date(),
  });
}
