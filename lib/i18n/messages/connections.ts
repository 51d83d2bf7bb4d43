import type { Locale } from "../locales";
import type { Widen } from "./types";

/**
 * The words of Settings' AI assistants panel (components/settings/connections-panel.tsx), kept apart from
 * the dictionaries (lib/i18n/messages/en.ts): those reach every route's first-load JavaScript, these only
 * the Settings page's (docs/performance.md, "First-load JavaScript").
 */
const en = {
  title: "AI assistants",
  intro:
    "You can connect an AI assistant that supports MCP (the Model Context Protocol) to this site. " +
    "It can then use the site's tools to answer your questions.",
  loading: "Checking what an assistant can do…",
  error: "The AI assistant connection could not be checked.",
  server: "Server:",
  serverVersion: "{name}, version {version}",
  forYou: "For you",
  forYouHelp: "Once you approve access, the assistant can look up your own information:",
  catalog: "From the catalog",
  catalogHelp: "Any assistant can use these, without signing in:",
  noTools: "The site's MCP server offers no tools right now.",
  url: "MCP URL",
  urlHelp: "Paste this address into your assistant where it asks for an MCP server or connector URL.",
  copy: "Copy",
  copyLabel: "Copy MCP URL",
  copied: "Copied. Paste it into your assistant.",
  /** What to do with the selected address, for a keyboard or for a finger (a device whose main pointer is coarse). */
  copyFallback: {
    keyboard: "Your browser did not allow copying. The address is selected: press Ctrl+C (⌘C on a Mac).",
    touch:
      "Your browser did not allow copying. The address is selected: choose Copy in the menu that appears. " +
      "If no menu appears, touch and hold the address, then choose Copy.",
  },
  howTo: "How to connect",
  howToAdd: "In your AI assistant, add an MCP server (sometimes called a connector) and paste the MCP URL.",
  howToSignIn: "The assistant will ask you to sign in to {site} and approve access. Approve only an assistant you trust.",
  howToSeparate:
    "The assistant gets its own access, apart from this dashboard's: " +
    "revoking this dashboard's access below does not disconnect the assistant.",
  unavailableTitle: "AI assistants cannot connect to this site yet",
  /** For a failure that may pass (busy, not answering): not "yet", which says the site has not turned it on. */
  unavailableNowTitle: "AI assistants cannot connect to this site right now",
  unavailable: {
    not_offered: "This site does not offer an MCP server, so there is nothing to connect an assistant to.",
    incompatible: "Something answers at the site's MCP address, but not as an MCP server this dashboard understands.",
    unreachable: "The site's MCP server did not answer. Please try again in a moment.",
    busy: "The site's MCP server is busy right now. Please try again in a moment.",
    too_large: "The site's MCP server answered with more than this dashboard reads.",
    refused:
      "The site's MCP server did not accept this dashboard's sign-in, so it cannot show what an assistant could do. " +
      "The rest of your dashboard works as usual.",
  },
  /** "busy" with the wait the server named; {when}: "in 30 seconds". */
  busyFor: "The site's MCP server is busy right now. Please try again {when}.",
};

/** The shape of each language's words: exactly the English keys. */
export type ConnectionsWords = Widen<typeof en>;

const zhTW: ConnectionsWords = {
  title: "AI 助理",
  intro: "你可以將支援 MCP（模型上下文協定）的 AI 助理連接到此網站，助理就能使用網站的工具回答你的問題。",
  loading: "正在確認助理可以做的事…",
  error: "無法確認 AI 助理連線。",
  server: "伺服器：",
  serverVersion: "{name}，版本 {version}",
  forYou: "你的資料",
  forYouHelp: "在你核准存取後，助理可以查詢你自己的資料：",
  catalog: "課程目錄",
  catalogHelp: "任何助理都能使用，不需要登入：",
  noTools: "網站的 MCP 伺服器目前沒有提供任何工具。",
  url: "MCP 網址",
  urlHelp: "在助理要求輸入 MCP 伺服器或連接器網址的地方貼上此網址。",
  copy: "複製",
  copyLabel: "複製 MCP 網址",
  copied: "已複製，請貼到你的助理中。",
  copyFallback: {
    keyboard: "你的瀏覽器不允許複製。網址已選取，請按 Ctrl+C（Mac 請按 ⌘C）複製。",
    // An iPhone's menu says 拷貝 where Android's says 複製.
    touch: "你的瀏覽器不允許複製。網址已選取，請在出現的選單中點選「複製」（iPhone 為「拷貝」）；沒有看到選單時，請長按網址。",
  },
  howTo: "如何連接",
  howToAdd: "在你的 AI 助理中新增 MCP 伺服器（有時稱為連接器），並貼上 MCP 網址。",
  howToSignIn: "助理會請你登入{site}並核准存取。請只核准你信任的助理。",
  howToSeparate: "助理會取得自己的存取權，與此儀表板分開：在下方撤銷此儀表板的存取權，並不會中斷助理的連線。",
  unavailableTitle: "AI 助理目前還無法連接此網站",
  unavailableNowTitle: "AI 助理此刻無法連接此網站",
  unavailable: {
    not_offered: "此網站沒有提供 MCP 伺服器，因此沒有可連接助理的對象。",
    incompatible: "網站的 MCP 位址有回應，但不是此儀表板能理解的 MCP 伺服器。",
    unreachable: "網站的 MCP 伺服器沒有回應，請稍後再試。",
    busy: "網站的 MCP 伺服器目前忙碌中，請稍後再試。",
    too_large: "網站的 MCP 伺服器回應過大，超出此儀表板讀取的範圍。",
    refused: "網站的 MCP 伺服器不接受此儀表板的登入，因此無法顯示助理能做的事。儀表板的其他功能不受影響。",
  },
  busyFor: "網站的 MCP 伺服器目前忙碌中，請於 {when}再試。",
};

export const CONNECTIONS_WORDS: Readonly<Record<Locale, ConnectionsWords>> = { en, "zh-TW": zhTW };
