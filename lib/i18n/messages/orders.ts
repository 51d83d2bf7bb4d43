import type { Locale } from "../locales";
import type { Widen } from "./types";

/**
 * The words of the Orders page (components/orders/, lib/format/order-states.ts), kept apart from the
 * dictionaries (lib/i18n/messages/en.ts): those reach every route's first-load JavaScript, these only the
 * Orders page's (docs/performance.md, "First-load JavaScript"). The page's title stays in the dictionaries,
 * for the skeleton shown while any page is on its way.
 */
const en = {
  empty: "You have no orders yet",
  emptyBody: "Purchases you make on the site will appear here.",
  tradeNo: "Order {tradeNo}",
  placedOn: "Placed {date}",
  paidOn: "Paid {date}",
  items: "Items",
  total: "Total",
  showMore: "Show more",
  state: {
    paid: "Paid",
    not_paid: "Awaiting payment",
    refunded: "Refunded",
    failed: "Payment failed",
    expired: "Expired",
    manual_enrolled: "Enrolled by the school",
  },
  itemType: {
    CurriculumPlan: "Course",
    MembershipPlan: "Membership",
    Ticket: "Event ticket",
    DigitalProduct: "Digital product",
  },
  completePayment: "Complete payment",
  payOnSite: "To pay for this order, go to {site}.",
  unavailableOne: "1\u00a0order could not be loaded from the site.",
  unavailable: "{count}\u00a0orders could not be loaded from the site.",
};

/** The shape of each language's words: exactly the English keys. */
export type OrdersWords = Widen<typeof en>;

const zhTW: OrdersWords = {
  empty: "你還沒有任何訂單",
  emptyBody: "你在網站上的購買紀錄會顯示在這裡。",
  tradeNo: "訂單 {tradeNo}",
  placedOn: "{date}建立",
  paidOn: "{date}付款",
  items: "品項",
  total: "總計",
  showMore: "顯示更多",
  state: {
    paid: "已付款",
    not_paid: "等待付款",
    refunded: "已退款",
    failed: "付款失敗",
    expired: "已失效",
    manual_enrolled: "由學校開通",
  },
  itemType: {
    CurriculumPlan: "課程",
    MembershipPlan: "會員方案",
    Ticket: "活動票券",
    DigitalProduct: "數位商品",
  },
  completePayment: "完成付款",
  payOnSite: "請前往{site}為這筆訂單付款。",
  unavailableOne: "有 1\u00a0筆訂單無法從網站載入。",
  unavailable: "有 {count}\u00a0筆訂單無法從網站載入。",
};

export const ORDERS_WORDS: Readonly<Record<Locale, OrdersWords>> = { en, "zh-TW": zhTW };
