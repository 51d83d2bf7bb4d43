import type { Locale } from "../locales";
import type { Widen } from "./types";

/**
 * The words of the Settings page and its Revoke access confirmation (components/settings/), kept apart
 * from the dictionaries (lib/i18n/messages/en.ts): those reach every route's first-load JavaScript, these
 * only the Settings pages' (docs/performance.md, "First-load JavaScript"). What the account menu shows on
 * every page (Sign out, its confirmation in the panel) stays in the dictionaries.
 */
const en = {
  name: "Name",
  email: "Email",
  site: "Site",
  permissions: "What this app may do",
  grantedAt: "Access granted",
  language: "Language",
  languageHelp: "Dates, numbers and texts follow this language.",
  languageNames: { en: "English", "zh-TW": "繁體中文" },
  revokeTitle: "Revoke access",
  revokeBody: "Revoke access withdraws this app's access to your account at the site, then signs you out here.",
  revoke: "Revoke access",
  revokeConfirmTitle: "Revoke this app's access?",
  revokeConfirmBody: "The site will stop granting this app access to your account. You can sign in again later to grant it anew.",
  revokeConfirm: "Yes, revoke",
  revokeCancel: "Cancel",
  revokeTooSoon: "That press came just as the page appeared, so nothing was revoked. If you meant it, press “Yes, revoke” again.",
  revoking: "Revoking…",
  revokeFailed: "Access could not be revoked. {reason}",
  revokeInWindow: "The confirmation opens in a small window, outside your site's page.",
  revokePopupBlocked:
    "Your browser blocked the confirmation window. Allow pop-ups for this site, or revoke access in the dashboard in a new tab.",
  revokePressAgain: "The page has loaded. Press Revoke access again to open the confirmation.",
  revokeNoOpener: "Open Settings in the dashboard to revoke access.",
  signedInAs: "Signed in",
  details: "Details",
  permissionCodes: "Permission codes the site granted",
  connectAssistant: "Connect an AI assistant (beta)",
  timeInZone: "{time} ({zone})",
};

/** The shape of each language's words: exactly the English keys. */
export type SettingsWords = Widen<typeof en>;

const zhTW: SettingsWords = {
  name: "姓名",
  email: "電子郵件",
  site: "網站",
  permissions: "此應用程式可以做的事",
  grantedAt: "授權時間",
  language: "語言",
  languageHelp: "日期、數字與文字會依此語言顯示。",
  languageNames: { en: "English", "zh-TW": "繁體中文" },
  revokeTitle: "撤銷存取權",
  revokeBody: "撤銷存取權會在網站上收回此應用程式存取你帳號的權限，並在這裡將你登出。",
  revoke: "撤銷存取權",
  revokeConfirmTitle: "要撤銷此應用程式的存取權嗎？",
  revokeConfirmBody: "網站將不再授予此應用程式存取你帳號的權限。之後你可以再次登入並重新授權。",
  revokeConfirm: "確定撤銷",
  revokeCancel: "取消",
  revokeTooSoon: "這次按下時頁面才剛出現，因此沒有撤銷任何權限。若確定要撤銷，請再按一次「確定撤銷」。",
  revoking: "正在撤銷…",
  revokeFailed: "無法撤銷存取權。{reason}",
  revokeInWindow: "確認畫面會在網站頁面之外的小視窗中開啟。",
  revokePopupBlocked: "瀏覽器封鎖了確認視窗。請允許此網站開啟彈出式視窗，或在新分頁開啟儀表板後撤銷存取權。",
  revokePressAgain: "頁面已載入。請再按一次「撤銷存取權」以開啟確認視窗。",
  revokeNoOpener: "請在儀表板的設定中撤銷存取權。",
  signedInAs: "登入身分",
  details: "詳細資料",
  permissionCodes: "網站授予的權限代碼",
  connectAssistant: "連接 AI 助理（測試版）",
  timeInZone: "{time}（{zone}）",
};

export const SETTINGS_WORDS: Readonly<Record<Locale, SettingsWords>> = { en, "zh-TW": zhTW };
