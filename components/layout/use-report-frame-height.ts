"use client";

import { useEffect, type RefObject } from "react";

import { panelHeightMessage, pickParentOrigin } from "@/lib/contract/panel-height";

/**
 * In the companion panel, tells the framing page the height of `content` whenever it changes
 * (lib/contract/panel-height.ts), so the site sizes the frame to it. Sent only to a configured origin.
 */
export function useReportFrameHeight(content: RefObject<HTMLElement | null>, parentOrigins: readonly string[]): void {
  useEffect(() => {
    const element = content.current;
    if (!element || window.parent === window) return;
    const target = pickParentOrigin(parentOrigins, {
      ancestorOrigin: window.location.ancestorOrigins?.[0] ?? null,
      referrer: document.referrer,
    });
    if (!target) return;
    let last = -1;
    const report = () => {
      const message = panelHeightMessage(element.getBoundingClientRect().height);
      if (message.height === last) return;
      last = message.height;
      window.parent.postMessage(message, target);
    };
    const observer = new ResizeObserver(report);
    observer.observe(element);
    report();
    return () => observer.disconnect();
  }, [content, parentOrigins]);
}
