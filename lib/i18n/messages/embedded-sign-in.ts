import type { Locale } from "../locales";
import type { Widen } from "./types";

/**
 * The words of the panel's sign-in (components/layout/embedded-sign-in.tsx, on the signed-out landing, which
 * member pages load only on demand), kept apart from the dictionaries (lib/i18n/messages/en.ts): those
 * reach every route's first-load JavaScript, these only where the landing is shown (docs/performance.md,
 * "First-load JavaScript").
 */
const en = {
  signInHelp: "Sign-in opens in a small window from your site. Come back here when you are done.",
  waiting: "Finish signing in in the window that opened…",
  popupBlocked: "Your browser blocked the sign-in window. Allow pop-ups for this site, or open the dashboard in a new tab.",
  failed: "Signing in did not complete. Please try again.",
  needsAccess: "Your browser asks before this panel may remember you on this site.",
  continue: "Continue signing in",
  cookiesBlocked: "Your browser does not let this panel remember you inside the site. Open the dashboard in a new tab instead.",
};

/** The shape of each language's words: exactly the English keys. */
export type EmbeddedSignInWords = Widen<typeof en>;

const zhTW: EmbeddedSignInWords = {
  signInHelp: "登入會在網站的小視窗中開啟，完成後請回到這裡。",
  waiting: "請在開啟的視窗中完成登入…",
  popupBlocked: "瀏覽器封鎖了登入視窗。請允許此網站開啟彈出式視窗，或在新分頁開啟儀表板。",
  failed: "登入沒有完成，請再試一次。",
  needsAccess: "瀏覽器需要你同意，這個面板才能在網站中記住你。",
  continue: "繼續登入",
  cookiesBlocked: "瀏覽器不允許這個面板在網站中記住你，請改在新分頁開啟儀表板。",
};

export const EMBEDDED_SIGN_IN_WORDS: Readonly<Record<Locale, EmbeddedSignInWords>> = { en, "zh-TW": zhTW };
