import "server-only";

import type { Locale } from "../locales";
import { CRASH_WORDS } from "./crash";
import { en as enDictionary } from "./en";
import type { Widen } from "./types";
import { zhTW as zhTWDictionary } from "./zh-TW";

/**
 * The sign-in problem page's words (app/(member)/sign-in-problem), kept on the server: that page is
 * rendered there alone, and the dictionaries (lib/i18n/messages/en.ts) reach every route's first-load
 * JavaScript. The words for a failure with no known code are the dictionaries' `errors.unexpected`,
 * which the member pages' error boundary shows too.
 */
const en = {
  title: "Sign-in did not complete",
  tryAgain: "Try signing in again",
  home: CRASH_WORDS.en.home,
  unexpected: enDictionary.errors.unexpected,
  closeWindow: "Close this window",
  detail: "Reference: {code}",
  site_unavailable:
    "Sign-in is unavailable right now: the site did not answer in time or answered something unexpected. " +
    "Please try again in a few minutes.",
  site_misconfigured: "The dashboard is not configured correctly for this site. Please tell the site's operator.",
  login_expired: "This sign-in attempt expired or was started in another browser. Please start again.",
  login_state_mismatch: "The sign-in response did not match the sign-in you started, so it was refused for your safety.",
  callback_replayed: "This sign-in response was already used, so it was refused for your safety.",
  authorization_denied: "You chose not to allow the dashboard to see your account. Nothing was shared.",
  authorization_failed: "The site did not grant access to your account.",
  issuer_mismatch: "The sign-in response did not come from your site, so it was refused for your safety.",
  token_exchange_failed: "The site refused to complete the sign-in. Please start again.",
  id_token_invalid: "The site's proof of who you are could not be verified, so the sign-in was refused for your safety.",
  userinfo_mismatch: "The site's account details did not match its proof of who you are, so the sign-in was refused for your safety.",
  temporarily_unavailable: "Sign-in is temporarily unavailable on our side. Please try again in a moment.",
  scope_not_granted: "You did not allow a permission the dashboard needs, so it cannot show your account.",
  scopesNotGranted: "You did not allow permissions the dashboard needs, so it cannot show your account.",
  missingPermission: "Not allowed: “{permission}” ({scope}).",
  signInAgainAllowing: "Sign in again and allow it",
  signInAgainAllowingThem: "Sign in again and allow them",
  pushed_request_failed: "The site did not accept the sign-in request. Please try again in a few minutes.",
  sign_in_too_large: "Your sign-in was too large for the browser to keep. Please tell the site's operator.",
  rate_limited: "Too many sign-in attempts from here. Please wait a moment and try again.",
  rateLimitedFor: "Too many sign-in attempts from here. Please try again {when}.",
  siteBusy: "The site is busy right now and could not complete the sign-in. Please try again in a moment.",
  siteBusyFor: "The site is busy right now and could not complete the sign-in. Please try again {when}.",
  // A site down for a while that named when it is back (503 with Retry-After).
  siteDownFor: "The site is not available right now, so the sign-in could not complete. Please try again {when}.",
};

/** The shape of each language's words: exactly the English keys. */
export type SignInProblemWords = Widen<typeof en>;

const zhTW: SignInProblemWords = {
  title: "登入未完成",
  tryAgain: "重新登入",
  home: CRASH_WORDS["zh-TW"].home,
  unexpected: zhTWDictionary.errors.unexpected,
  closeWindow: "關閉這個視窗",
  detail: "參考代碼：{code}",
  site_unavailable: "目前無法登入：網站沒有及時回應，或回應了無法辨識的內容。請稍後再試。",
  site_misconfigured: "儀表板與此網站的設定不正確，請通知網站管理者。",
  login_expired: "這次登入已逾時，或是在另一個瀏覽器開始的。請重新開始。",
  login_state_mismatch: "登入回應與你開始的登入不符，為了你的安全已拒絕。",
  callback_replayed: "這個登入回應已經使用過，為了你的安全已拒絕。",
  authorization_denied: "你選擇不允許儀表板查看你的帳號，沒有分享任何資料。",
  authorization_failed: "網站沒有授予存取你帳號的權限。",
  issuer_mismatch: "登入回應不是來自你的網站，為了你的安全已拒絕。",
  token_exchange_failed: "網站拒絕完成登入，請重新開始。",
  id_token_invalid: "無法驗證網站提供的身分證明，為了你的安全已拒絕登入。",
  userinfo_mismatch: "網站提供的帳號資料與身分證明不符，為了你的安全已拒絕登入。",
  temporarily_unavailable: "我們這邊的登入服務暫時無法使用，請稍後再試。",
  scope_not_granted: "你沒有允許儀表板需要的權限，因此無法顯示你的帳號。",
  scopesNotGranted: "你沒有允許儀表板需要的幾項權限，因此無法顯示你的帳號。",
  missingPermission: "未允許：「{permission}」（{scope}）。",
  signInAgainAllowing: "重新登入並允許",
  signInAgainAllowingThem: "重新登入並允許這些權限",
  pushed_request_failed: "網站沒有接受這次登入請求，請幾分鐘後再試。",
  sign_in_too_large: "你的登入資料太大，瀏覽器無法保存。請告知網站管理者。",
  rate_limited: "這裡的登入嘗試次數過多，請稍候再試。",
  rateLimitedFor: "這裡的登入嘗試次數過多，請於 {when}再試。",
  siteBusy: "網站目前忙碌中，無法完成登入，請稍後再試。",
  siteBusyFor: "網站目前忙碌中，無法完成登入，請於 {when}再試。",
  siteDownFor: "網站目前無法使用，因此無法完成登入，請於 {when}再試。",
};

export const SIGN_IN_PROBLEM_WORDS: Readonly<Record<Locale, SignInProblemWords>> = { en, "zh-TW": zhTW };
