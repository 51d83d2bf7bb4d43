"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from "react";

import { PageHeader } from "@/components/ui/page-header";
import { accountKeys } from "@/lib/client/keys";
import { linkOfPlainClick } from "@/lib/client/plain-link-click";
import { useOnline } from "@/lib/client/use-online";
import { whenIdle } from "@/lib/client/when-idle";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { formatTime } from "@/lib/format/datetime";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";

import { usePendingPath } from "./pending-page";

/**
 * Offline, Next.js cannot fetch a dynamic page for a link (it then falls back to loading the document,
 * and the browser shows its error page). So while the browser is offline, a tap on an in-app link is
 * answered here: a page seen before is shown again from the data React Query holds in memory, with the
 * time it was seen; a page not seen yet says so, with Retry. Nothing is written to storage. When the
 * connection returns, the page shown is loaded (or its data asked for) once.
 *
 * The link's URL stays the one truth of what a page shows (Courses keeps its choice in the query): a link
 * to the router's own page with another query changes the browser's URL (as it does online); a page opened
 * over it reads the query of the link that opened it (usePageUrl), and a choice made there changes that
 * link's URL, the one the router opens when the connection returns.
 */
const OFFLINE_PAGES: Record<
  string,
  { navKey: "overview" | "courses" | "orders" | "events" | "settings"; queryKey: QueryKey; loadView: () => Promise<ComponentType> }
> = {
  [PAGE_PATHS.overview]: {
    navKey: "overview",
    queryKey: accountKeys.page("overview"),
    loadView: () => import("@/components/overview/overview-view").then((module) => module.OverviewView),
  },
  [PAGE_PATHS.courses]: {
    navKey: "courses",
    queryKey: accountKeys.page("courses"),
    loadView: () => import("@/components/courses/courses-view").then((module) => module.CoursesView),
  },
  [PAGE_PATHS.orders]: {
    navKey: "orders",
    queryKey: accountKeys.page("orders"),
    loadView: () => import("@/components/orders/orders-view").then((module) => module.OrdersView),
  },
  [PAGE_PATHS.events]: {
    navKey: "events",
    queryKey: accountKeys.page("events"),
    loadView: () => import("@/components/events/events-view").then((module) => module.EventsView),
  },
  [PAGE_PATHS.settings]: {
    navKey: "settings",
    queryKey: accountKeys.session(),
    loadView: () => import("@/components/settings/settings-view").then((module) => module.SettingsView),
  },
};

/**
 * The views of the pages that can be opened offline are not part of any page's first load (every page
 * would otherwise carry all five: issue 26, first-load JavaScript). They are fetched once the page is
 * idle (preloadOfflineViews) and kept here, so a tap made offline later renders at once, without the network.
 */
const loadedViews = new Map<string, ComponentType>();

/** The view of `pathname`, loaded once; null when it cannot be loaded (offline before it was fetched). */
function loadOfflineView(pathname: string): Promise<ComponentType | null> {
  const page = OFFLINE_PAGES[pathname];
  const loaded = loadedViews.get(pathname);
  if (!page || loaded) return Promise.resolve(loaded ?? null);
  return page.loadView().then(
    (View) => {
      loadedViews.set(pathname, View);
      return View;
    },
    () => null,
  );
}

/** Fetches every offline view when the browser is idle after the page loaded. */
function preloadOfflineViews(): () => void {
  return whenIdle(() => {
    for (const pathname of Object.keys(OFFLINE_PAGES)) void loadOfflineView(pathname);
  });
}

interface OfflineTarget {
  pathname: string;
  href: string;
}

interface OfflineState {
  target: OfflineTarget | null;
  /** Replaces the query of the page opened offline (`query`: "" or "?…"). */
  replaceTargetQuery: (query: string) => void;
}

const OfflineStateContext = createContext<OfflineState | null>(null);

/** The path of the page on screen: the one opened offline, else the one on its way (its skeleton), else the router's. */
export function useShownPath(): string {
  const routerPath = usePathname();
  const pendingPath = usePendingPath();
  return useContext(OfflineStateContext)?.target?.pathname ?? pendingPath ?? routerPath;
}

interface PageUrl {
  searchParams: URLSearchParams;
  /** Replaces the page's query (`query`: "" or "?…") without a new history entry. */
  replaceQuery: (query: string) => void;
}

/** The URL of a page opened offline, for the page itself (usePageUrl); null around the router's page. */
const OfflinePageUrlContext = createContext<PageUrl | null>(null);

function replaceRouterQuery(query: string): void {
  window.history.replaceState(null, "", `${window.location.pathname}${query}${window.location.hash}`);
}

/**
 * The query of the URL a page renders: the router's (kept by Next.js, replaced state included), or, for a
 * page opened offline, that of the link that opened it. A page keeps a choice in the URL through this.
 */
export function usePageUrl(): PageUrl {
  const routerSearchParams = useSearchParams();
  const offlinePageUrl = useContext(OfflinePageUrlContext);
  return useMemo(
    () => offlinePageUrl ?? { searchParams: routerSearchParams, replaceQuery: replaceRouterQuery },
    [offlinePageUrl, routerSearchParams],
  );
}

/** The in-app address a plain click on a link goes to, or null (another origin, a new tab, a download, a same-page anchor). */
function inAppLinkTarget(event: MouseEvent): URL | null {
  const anchor = linkOfPlainClick(event);
  if (!anchor) return null;
  const url = new URL(anchor.href);
  if (url.origin !== window.location.origin) return null;
  const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
  if (samePage && url.hash) return null;
  return url;
}

/** `preloadViews`: fetch the offline views once idle (signed in; a signed-out page has no tabs to open offline). */
export function OfflineNavigation({ children, preloadViews = true }: { children: ReactNode; preloadViews?: boolean }) {
  const router = useRouter();
  const routerPath = usePathname();
  const queryClient = useQueryClient();
  const online = useOnline();
  const [target, setTarget] = useState<OfflineTarget | null>(null);
  const replaceTargetQuery = useCallback((query: string) => {
    setTarget((opened) => (opened ? { pathname: opened.pathname, href: `${opened.pathname}${query}` } : null));
  }, []);

  // The router reached a page (back online): the page opened offline gives way to it.
  const [seenRouterPath, setSeenRouterPath] = useState(routerPath);
  if (routerPath !== seenRouterPath) {
    setSeenRouterPath(routerPath);
    setTarget(null);
  }

  useEffect(() => (preloadViews ? preloadOfflineViews() : undefined), [preloadViews]);

  useEffect(() => {
    function answerOffline(event: MouseEvent) {
      if (navigator.onLine) return;
      const url = inAppLinkTarget(event);
      if (!url) return;
      // Next.js's Link then leaves the click alone (it checks defaultPrevented), while the link's own
      // onClick (closing the account menu) still runs.
      event.preventDefault();
      const href = `${url.pathname}${url.search}`;
      if (url.pathname !== window.location.pathname) setTarget({ pathname: url.pathname, href });
      else {
        // The router's own page, maybe with another query ("See all" from a filtered Courses): the URL
        // changes as a link changes it online, and the page follows the URL.
        setTarget(null);
        if (href !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", href);
      }
      window.scrollTo(0, 0);
    }
    window.addEventListener("click", answerOffline, { capture: true });
    return () => window.removeEventListener("click", answerOffline, { capture: true });
  }, []);

  const wasOnline = useRef(online);
  useEffect(() => {
    const reconnected = online && !wasOnline.current;
    wasOnline.current = online;
    if (!reconnected) return;
    if (target) openOnline(router, target.href);
    else void queryClient.invalidateQueries({ refetchType: "active" });
  }, [online, target, router, queryClient]);

  const state = useMemo(() => ({ target, replaceTargetQuery }), [target, replaceTargetQuery]);
  return <OfflineStateContext value={state}>{children}</OfflineStateContext>;
}

/** Where the page renders: the page opened offline when there is one (the router's page stays mounted, hidden). */
export function OfflineOutlet({ children }: { children: ReactNode }) {
  const state = useContext(OfflineStateContext);
  const target = state?.target ?? null;
  const replaceQuery = state?.replaceTargetQuery;
  const href = target?.href;
  const pageUrl = useMemo(
    () =>
      href === undefined || replaceQuery === undefined
        ? null
        : { searchParams: new URLSearchParams(href.split("?")[1] ?? ""), replaceQuery },
    [href, replaceQuery],
  );
  return (
    <>
      {target ? (
        <OfflinePageUrlContext key={target.pathname} value={pageUrl}>
          <OfflinePage target={target} />
        </OfflinePageUrlContext>
      ) : null}
      <div hidden={target !== null} className="contents">
        {children}
      </div>
    </>
  );
}

function openOnline(router: ReturnType<typeof useRouter>, href: string): void {
  const pathname = href.split("?")[0] ?? href;
  if (pathname in OFFLINE_PAGES) router.push(href);
  else window.location.assign(href);
}

/** A page opened offline: seen before, from memory with the time it was seen; otherwise an offline state with Retry. */
function OfflinePage({ target }: { target: OfflineTarget }) {
  const { messages, formatLocale, timeZone } = useI18n();
  const queryClient = useQueryClient();
  const page = OFFLINE_PAGES[target.pathname];
  // undefined while its view loads (it was not preloaded yet), null when it cannot be loaded offline.
  const [View, setView] = useState<ComponentType | null | undefined>(() => loadedViews.get(target.pathname));
  useEffect(() => {
    if (View === undefined) void loadOfflineView(target.pathname).then((loaded) => setView(() => loaded));
  }, [View, target.pathname]);
  const state = page ? queryClient.getQueryState(page.queryKey) : undefined;
  if (!page || state?.data === undefined || View === null)
    return (
      <OfflineUnseen
        target={target}
        title={page ? messages.nav[page.navKey] : messages.app.name}
        body={page && state?.data !== undefined ? messages.shell.offlineNotReadyBody : messages.shell.offlineUnseenBody}
      />
    );
  if (View === undefined) return null;
  const seenAt = formatTime(state.dataUpdatedAt, { formatLocale, timeZone });
  return (
    <>
      <p role="status" className="mb-4 rounded-lg bg-warning-bg px-3 py-2 text-sm text-warning-fg">
        {interpolate(messages.shell.offlineShowing, { time: seenAt })}
      </p>
      <View />
    </>
  );
}

function OfflineUnseen({ target, title, body }: { target: OfflineTarget; title: string; body: string }) {
  const { messages } = useI18n();
  const router = useRouter();
  const [stillOffline, setStillOffline] = useState(false);
  return (
    <div>
      <PageHeader title={title} />
      <section aria-labelledby="offline-unseen" className="card flex flex-col items-start gap-3 p-4 sm:p-6">
        <h2 id="offline-unseen" className="text-lg font-semibold text-fg">
          {messages.shell.offlineUnseenTitle}
        </h2>
        <p className="text-fg-muted">{body}</p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            if (navigator.onLine) openOnline(router, target.href);
            else setStillOffline(true);
          }}
        >
          {messages.shell.retry}
        </button>
        <p role="status" className="text-sm text-fg">
          {stillOffline ? messages.shell.stillOffline : null}
        </p>
      </section>
    </div>
  );
}
