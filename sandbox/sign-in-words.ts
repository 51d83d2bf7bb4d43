/**
 * The words of the sandbox's sign-in, consent and sign-out pages. With the `localizedSignIn` knob the site
 * lists the languages they speak (`ui_locales_supported`, RFC 8414 section 2) and shows them in the first
 * language of a request's `ui_locales` it speaks (OpenID Connect Core 3.1.2.1; RP-Initiated Logout 1.0
 * section 2); otherwise in English, as a site whose documentation names no `ui_locales` does.
 */
import { html, type SafeHtml } from "./html";
import type { DemoMember } from "./seed";

export const SIGN_IN_LANGUAGES = ["en", "zh-TW"] as const;
export type SignInLanguage = (typeof SIGN_IN_LANGUAGES)[number];

export interface SignInWords {
  signInTitle: string;
  /** After the application's name (and its note): what it wants. */
  wantsAccess: string;
  anApplication: string;
  demoAccounts: string;
  demoPassword: (password: SafeHtml) => SafeHtml;
  email: string;
  password: string;
  who: string;
  /** A demo account's line in the "Who" column: its name and what it is for. */
  demoMember: (member: DemoMember) => string;
  signIn: string;
  wrongPassword: string;
  sessionEnded: string;
  consentPageTitle: string;
  consentTitle: (client: string) => string;
  signedInAs: (name: string, email: string) => SafeHtml;
  onlyIfYouStartedIt: (client: string, note: string) => string;
  willBeAbleTo: (client: string) => string;
  untick: string;
  revokeAnyTime: string;
  allow: string;
  deny: string;
  notYou: (name: string) => string;
  signOut: string;
  loopbackNote: string;
  metadataDocumentNote: (host: string) => string;
  scopes: Record<"openid" | "profile" | "email" | "account:read" | "account:write", string>;
  siteResource: (words: string, access: "read" | "write") => string;
  signedOutTitle: string;
  signedOutHeading: string;
  goToSite: string;
  signOutQuestion: string;
  signOutAsks: (client: string, member: string) => string;
  signOutOfSite: string;
  staySignedIn: string;
}

const en: SignInWords = {
  signInTitle: "Sign in to Demo Academy",
  wantsAccess: "wants to access your Demo Academy account. Sign in to continue.",
  anApplication: "An application",
  demoAccounts: "Demo accounts",
  demoPassword: (password) => html`This is a sandbox site. Every demo account uses the password ${password}.`,
  email: "Email",
  password: "Password",
  who: "Who",
  demoMember: (member) => `${member.name}: ${member.description}`,
  signIn: "Sign in",
  wrongPassword: "That email and password do not match a demo account. Check both and try again.",
  sessionEnded: "Your session ended. Sign in again to continue.",
  consentPageTitle: "Allow access",
  consentTitle: (client) => `Allow ${client} to access your account?`,
  signedInAs: (name, email) => html`You are signed in as <strong>${name}</strong> (${email}).`,
  onlyIfYouStartedIt: (client, note) => `${client} is ${note}. Allow it only if you started it yourself.`,
  willBeAbleTo: (client) => `${client} will be able to:`,
  untick: "Untick what you do not want to share",
  revokeAnyTime: "You can revoke this access at any time from the application's settings.",
  allow: "Allow",
  deny: "Deny",
  notYou: (name) => `Not ${name}?`,
  signOut: "Sign out",
  loopbackNote: "an unverified application running on your own computer",
  metadataDocumentNote: (host) => `an unreviewed application published at ${host}`,
  scopes: {
    openid: "Confirm who you are on Demo Academy",
    profile: "See your name",
    email: "See your email address",
    "account:read": "See your enrolled courses, orders and event registrations",
    "account:write": "Make changes to your account, such as your course progress",
  },
  siteResource: (words, access) => (access === "write" ? `Create and change the site's ${words}` : `See the site's ${words}`),
  signedOutTitle: "Signed out",
  signedOutHeading: "You are signed out of Demo Academy",
  goToSite: "Go to Demo Academy",
  signOutQuestion: "Sign out of Demo Academy?",
  signOutAsks: (client, member) => `${client} asks to sign you (${member}) out of Demo Academy too.`,
  signOutOfSite: "Sign out of Demo Academy",
  staySignedIn: "Stay signed in",
};

/** The demo accounts' descriptions (sandbox/seed.ts) in 繁體中文, by member id. */
const DEMO_MEMBER_DESCRIPTIONS_ZH_TW: Readonly<Record<string, string>> = {
  member_7c1e90: "有課程、訂單與活動的學員",
  member_3b8d21: "有 130 門課程的學員",
  member_91f4a7: "尚無任何內容的新學員",
  member_0d5c62: "網站營運者（擁有者）",
};

const zhTW: SignInWords = {
  signInTitle: "登入 Demo Academy",
  wantsAccess: "想要存取你的 Demo Academy 帳號。請登入以繼續。",
  anApplication: "某個應用程式",
  demoAccounts: "示範帳號",
  demoPassword: (password) => html`這是沙盒網站。每個示範帳號的密碼都是 ${password}。`,
  email: "電子郵件",
  password: "密碼",
  who: "身分",
  demoMember: (member) => `${member.name}：${DEMO_MEMBER_DESCRIPTIONS_ZH_TW[member.id] ?? member.description}`,
  signIn: "登入",
  wrongPassword: "這組電子郵件和密碼不符合任何示範帳號。請檢查兩者後再試一次。",
  sessionEnded: "你的工作階段已結束。請重新登入以繼續。",
  consentPageTitle: "允許存取",
  consentTitle: (client) => `要允許 ${client} 存取你的帳號嗎？`,
  signedInAs: (name, email) => html`你目前以 <strong>${name}</strong>（${email}）登入。`,
  onlyIfYouStartedIt: (client, note) => `${client} 是${note}。只有在你自己啟動它時才允許。`,
  willBeAbleTo: (client) => `${client} 將能夠：`,
  untick: "取消勾選你不想分享的項目",
  revokeAnyTime: "你隨時可以在該應用程式的設定中撤銷這項存取權。",
  allow: "允許",
  deny: "拒絕",
  notYou: (name) => `不是 ${name}？`,
  signOut: "登出",
  loopbackNote: "在你自己電腦上執行、未經驗證的應用程式",
  metadataDocumentNote: (host) => `發布於 ${host}、未經審核的應用程式`,
  scopes: {
    openid: "確認你在 Demo Academy 的身分",
    profile: "查看你的姓名",
    email: "查看你的電子郵件地址",
    "account:read": "查看你報名的課程、訂單和活動報名",
    "account:write": "變更你的帳號，例如課程進度",
  },
  siteResource: (words, access) => (access === "write" ? `建立和變更網站的 ${words}` : `查看網站的 ${words}`),
  signedOutTitle: "已登出",
  signedOutHeading: "你已登出 Demo Academy",
  goToSite: "前往 Demo Academy",
  signOutQuestion: "要登出 Demo Academy 嗎？",
  signOutAsks: (client, member) => `${client} 請求將你（${member}）一併登出 Demo Academy。`,
  signOutOfSite: "登出 Demo Academy",
  staySignedIn: "保持登入",
};

export const SIGN_IN_WORDS: Readonly<Record<SignInLanguage, SignInWords>> = { en, "zh-TW": zhTW };

/**
 * The first language of `ui_locales` (space-separated BCP 47 tags, by preference) the pages speak: a tag
 * matches by its language and, for Chinese, its Traditional script or region (zh-TW, zh-Hant, zh-HK).
 */
export function signInLanguageOf(uiLocales: string | null | undefined): SignInLanguage {
  for (const tag of (uiLocales ?? "").split(" ")) {
    const [language, ...rest] = tag.toLowerCase().split("-");
    if (language === "en") return "en";
    if (language === "zh" && rest.some((part) => part === "tw" || part === "hant" || part === "hk")) return "zh-TW";
  }
  return "en";
}
