"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useRef, useState, type ComponentType, type ReactNode } from "react";

import { CoursesView } from "@/components/courses/courses-view";
import { EventsView } from "@/components/events/events-view";
import { OrdersView } from "@/components/orders/orders-view";
import { OverviewView } from "@/components/overview/overview-view";
import { SettingsView } from "@/components/settings/settings-view";
import { PageHeader } from "@/components/ui/page-header";
import { accountKeys } from "@/lib/client/keys";
import { useOnline } from "@/lib/client/use-online";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { formatTime } from "@/lib/format/datetime";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";

/**
 * Offline, Next.js cannot fetch a dynamic page for a link (it then falls back to loading the document,
 * and the browser shows its error page). So while the browser is offline, a tap on an in-app link is
 * answered here: a page seen before is shown again from the data React Query holds in memory, with the
 * time it was seen; a page not seen yet says so, with Retry. Nothing is written to storage. When the
 * connection returns, the page shown is loaded (or its data asked for) once.
 */
const OFFLINE_PAGES: Record<
  string,
  { navKey: "overview" | "courses" | "orders" | "events" | "settings"; queryKey: QueryKey; View: ComponentType }
> = {
  [PAGE_PATHS.overview]: { navKey: "overview", queryKey: accountKeys.page("overview"), View: OverviewView },
  [PAGE_PATHS.courses]: { navKey: "courses", queryKey: accountKeys.page("courses"), View: CoursesView },
  [PAGE_PATHS.orders]: { navKey: "orders", queryKey: accountKeys.page("orders"), View: OrdersView },
  [PAGE_PATHS.events]: { navKey: "events", queryKey: accountKeys.page("events"), View: EventsView },
  [PAGE_PATHS.settings]: { navKey: "settings", queryKey: accountKeys.session(), View: SettingsView },
};

interface OfflineTarget {
  pathname: string;
  href: string;
}

const OfflineTargetContext = createContext<OfflineTarget | null>(null);

/** The path of the page on screen: the one opened offline, else the router's. */
export function useShownPath(): string {
  const routerPath = usePathname();
  return useContext(OfflineTargetContext)?.pathname ?? routerPath;
}

/** The in-app address a plain click on a link goes to, or null (another origin, a new tab, a download, a same-page anchor). */
function inAppLinkTarget(event: MouseEvent): URL | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href);
  if (url.origin !== window.location.origin) return null;
  const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
  if (samePage && url.hash) return null;
  return url;
}

export function OfflineNavigation({ children }: { children: ReactNode }) {
  const router = useRouter();
  const routerPath = usePathname();
  const queryClient = useQueryClient();
  const online = useOnline();
  const [target, setTarget] = useState<OfflineTarget | null>(null);

  // The router reached a page (back online): the page opened offline gives way to it.
  const [seenRouterPath, setSeenRouterPath] = useState(routerPath);
  if (routerPath !== seenRouterPath) {
    setSeenRouterPath(routerPath);
    setTarget(null);
  }

  useEffect(() => {
    function answerOffline(event: MouseEvent) {
      if (navigator.onLine) return;
      const url = inAppLinkTarget(event);
      if (!url) return;
      // Next.js's Link then leaves the click alone (it checks defaultPrevented), while the link's own
      // onClick (closing the account menu) still runs.
      event.preventDefault();
      const href = `${url.pathname}${url.search}`;
      setTarget(url.pathname === window.location.pathname ? null : { pathname: url.pathname, href });
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

  return <OfflineTargetContext value={target}>{children}</OfflineTargetContext>;
}

/** Where the page renders: the page opened offline when there is one (the router's page stays mounted, hidden). */
export function OfflineOutlet({ children }: { children: ReactNode }) {
  const target = useContext(OfflineTargetContext);
  return (
    <>
      {target ? <OfflinePage key={target.href} target={target} /> : null}
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
  const state = page ? queryClient.getQueryState(page.queryKey) : undefined;
  if (!page || state?.data === undefined)
    return <OfflineUnseen target={target} title={page ? messages.nav[page.navKey] : messages.app.name} />;
  const seenAt = formatTime(state.dataUpdatedAt, { formatLocale, timeZone });
  const { View } = page;
  return (
    <>
      <p role="status" className="mb-4 rounded-lg bg-warning-bg px-3 py-2 text-sm text-warning-fg">
        {interpolate(messages.shell.offlineShowing, { time: seenAt })}
      </p>
      <View />
    </>
  );
}

function OfflineUnseen({ target, title }: { target: OfflineTarget; title: string }) {
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
        <p className="text-fg-muted">{messages.shell.offlineUnseenBody}</p>
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
