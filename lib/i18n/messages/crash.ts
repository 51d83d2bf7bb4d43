import type { Locale } from "../locales";

/**
 * The crash page's words (components/layout/crash-page.tsx), in a module of their own. That page is the
 * root error boundary (app/global-error.tsx), whose scripts every route loads in a chunk of its own:
 * importing the whole dictionaries there put a second copy of them into every page's first-load
 * JavaScript. The dictionaries take the words they share with it from here, so each is written once.
 */
export const CRASH_WORDS = {
  en: {
    appName: "Member dashboard",
    title: "Something went wrong",
    body: "The dashboard hit a problem it could not recover from. Try again, or go back to the dashboard.",
    retry: "Try again",
    home: "Back to the dashboard",
  },
  "zh-TW": {
    appName: "學員儀表板",
    title: "發生錯誤",
    body: "儀表板遇到無法自行恢復的問題。請再試一次，或回到儀表板。",
    retry: "再試一次",
    home: "回到儀表板",
  },
} as const satisfies Record<Locale, Record<"appName" | "title" | "body" | "retry" | "home", string>>;
