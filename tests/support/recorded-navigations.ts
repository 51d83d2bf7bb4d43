import { vi } from "vitest";

/** One navigation the page asked for: `assign`, `replace`, or a `reload` (its url "reload"). */
export interface RecordedNavigation {
  how: "assign" | "replace" | "reload";
  url: string;
}

/**
 * Stands in for `window.location` (happy-dom) at `pathname` on http://localhost:3000, recording every
 * navigation instead of making it. Undone by `vi.restoreAllMocks()`.
 */
export function recordNavigations(pathname: string): RecordedNavigation[] {
  const navigations: RecordedNavigation[] = [];
  vi.spyOn(window, "location", "get").mockReturnValue({
    origin: "http://localhost:3000",
    pathname,
    search: "",
    assign: (url: string) => navigations.push({ how: "assign", url }),
    replace: (url: string) => navigations.push({ how: "replace", url }),
    reload: () => navigations.push({ how: "reload", url: "reload" }),
  } as unknown as Location);
  return navigations;
}
