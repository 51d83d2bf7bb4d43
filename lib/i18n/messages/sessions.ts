import type { Locale } from "../locales";
import type { Widen } from "./types";

/**
 * The words of Settings' "Where you're signed in" list (components/settings/signed-in-sessions.tsx), kept
 * apart from the dictionaries (lib/i18n/messages/en.ts): those reach every route's first-load JavaScript,
 * these only the Settings page's (docs/performance.md, "First-load JavaScript"). The section's title and
 * the panel's sign-out confirmation, which the account menu shows on every page, stay in the dictionaries;
 * so does the sentence for a press that came too soon, which this list shares with that confirmation.
 */
const en = {
  intro: "Your sign-ins to this dashboard. Sign out of any you do not recognise or no longer use.",
  thisDevice: "This device",
  embedded: "In the site's page",
  ownTab: "In its own tab",
  unknownBrowser: "Unknown browser",
  browserOn: "{browser} on {system}",
  signedInAt: "Signed in {time}",
  lastActive: "Last active {time}",
  justNow: "just now",
  signOutThere: "Sign out there",
  signOutThereLabel: "Sign out there: {device}, signed in {time}",
  signOutEverywhereElse: "Sign out everywhere else",
  onlyHere: "You're signed in only here.",
  ended: "Signed out there.",
  endedIncomplete: "Signed out there. The site did not confirm it: that sign-in may stay valid at the site until it expires.",
  failed: "That could not be done. {reason}",
  loading: "Finding where you're signed in…",
  error: "The list of your sign-ins could not be loaded.",
};

/** The shape of each language's words: exactly the English keys. */
export type SessionsWords = Widen<typeof en>;

const zhTW: SessionsWords = {
  intro: "這些是你在此儀表板的登入。若有不認得或不再使用的，請將其登出。",
  thisDevice: "這個裝置",
  embedded: "在網站頁面中",
  ownTab: "在獨立分頁中",
  unknownBrowser: "不明的瀏覽器",
  browserOn: "{system} 上的 {browser}",
  signedInAt: "{time}登入",
  lastActive: "最近使用：{time}",
  justNow: "剛剛",
  signOutThere: "在該處登出",
  signOutThereLabel: "在該處登出：{device}，{time}登入",
  signOutEverywhereElse: "登出其他所有裝置",
  onlyHere: "你只在這裡登入。",
  ended: "已在該處登出。",
  endedIncomplete: "已在該處登出，但網站未確認：該登入在網站上可能仍有效，直到過期為止。",
  failed: "無法完成這項操作。{reason}",
  loading: "正在尋找你的登入位置…",
  error: "無法載入你的登入清單。",
};

export const SESSIONS_WORDS: Readonly<Record<Locale, SessionsWords>> = { en, "zh-TW": zhTW };
