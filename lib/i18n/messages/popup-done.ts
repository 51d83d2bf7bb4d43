import type { Locale } from "../locales";
import type { Widen } from "./types";

/**
 * The words of the page that ends a sign-in made from the site's panel (components/layout/popup-done.tsx,
 * shown in the popup alone), kept apart from the dictionaries (lib/i18n/messages/en.ts): those reach every
 * route's first-load JavaScript, these only that page's (docs/performance.md, "First-load JavaScript").
 */
const en = {
  finishing: "Finishing your sign-in…",
  doneTitle: "You're signed in",
  doneBody: "You can close this window and go back to your site.",
  lostTitle: "Your sign-in could not reach the panel",
  lostBody:
    "The page that opened this window was closed or moved on. Sign in again from the panel on your site, or open the dashboard here.",
  openHere: "Open the dashboard here",
};

/** The shape of each language's words: exactly the English keys. */
export type PopupDoneWords = Widen<typeof en>;

const zhTW: PopupDoneWords = {
  finishing: "正在完成登入…",
  doneTitle: "你已登入",
  doneBody: "你可以關閉這個視窗，回到網站。",
  lostTitle: "登入無法傳回面板",
  lostBody: "開啟這個視窗的頁面已關閉或已離開。請從網站上的面板重新登入，或在這裡開啟儀表板。",
  openHere: "在這裡開啟儀表板",
};

export const POPUP_DONE_WORDS: Readonly<Record<Locale, PopupDoneWords>> = { en, "zh-TW": zhTW };
