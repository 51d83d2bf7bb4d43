import type { AccountPageKey } from "@/lib/contract/account-pages";
import type { Locale } from "@/lib/i18n/locales";

/** Hierarchical React Query keys: invalidate `accountKeys.all` to refetch every account page. */
export const accountKeys = {
  all: ["account"] as const,
  /** One account page's data (lib/contract/account-pages.ts): the same key on the server's prefetch and in the browser. */
  page: <K extends AccountPageKey>(key: K) => [...accountKeys.all, key] as const,
  /**
   * What an AI assistant connected to the site can do: fetched in the browser only, never prefetched; per
   * language, since the site may write its tools' texts in the member's.
   */
  connections: (locale: Locale) => [...accountKeys.all, "connections", locale] as const,
  session: () => ["session"] as const,
  /** "Where you're signed in": the member's sessions on this dashboard. */
  signedInSessions: () => ["session", "signed-in"] as const,
};
