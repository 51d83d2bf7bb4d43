"use client";

import { useEffect, useId, useRef, type MouseEvent, type ReactNode, type RefObject } from "react";

interface PressBeforeHydration {
  /** Spread on the button: before hydration a press opens the notice; after it, `press` runs instead. */
  button: {
    popoverTarget: string;
    popoverTargetAction: "show";
    onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  };
  /** Spread on PressedBeforeHydrationNotice. */
  notice: { id: string; noticeRef: RefObject<HTMLParagraphElement | null> };
}

/**
 * A button that must run the page's script (Sign out and Revoke access send requests with the custom header
 * DESIGN section 4 asks of state-changing routes, which no plain form can send; the calendar buttons make
 * their file in the browser) is on the screen, drawn by the server, before that script has run. Pressed
 * then (a phone still loading the scripts), it would do nothing, and the member would not know whether to
 * press again.
 *
 * So until hydration the button is the browser's own popover invoker (`popovertarget`): a press shows the
 * notice at once ("Signing out as soon as the page has loaded…"), without any script, and leaves a trace in
 * the page (the notice is open).
 * Once hydrated, the effect finds that trace, hides the notice and runs `press`, once. From then on a press
 * cancels the invoker's default action (a cancelled click runs no activation behaviour, HTML's popover
 * target attribute) and runs `press` directly.
 */
export function usePressBeforeHydration(press: () => void): PressBeforeHydration {
  const id = useId();
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const pressedEarly = useRef(press);
  useEffect(() => {
    const notice = noticeRef.current;
    if (!notice?.matches(":popover-open")) return;
    notice.hidePopover();
    pressedEarly.current();
  }, []);
  return {
    button: {
      popoverTarget: id,
      popoverTargetAction: "show",
      onClick: (event) => {
        event.preventDefault();
        press();
      },
    },
    notice: { id, noticeRef },
  };
}

/**
 * What a press before hydration shows until the page can act on it: a status line just below the button
 * (its invoker is the popover's implicit anchor, app/globals.css), in the top layer; a manual popover, so it
 * stays until the script hides it.
 */
export function PressedBeforeHydrationNotice({
  id,
  noticeRef,
  children,
}: {
  id: string;
  noticeRef: RefObject<HTMLParagraphElement | null>;
  children: ReactNode;
}) {
  return (
    <p ref={noticeRef} id={id} popover="manual" role="status" className="pressed-before-hydration card px-4 py-3 text-fg shadow-card">
      {children}
    </p>
  );
}
