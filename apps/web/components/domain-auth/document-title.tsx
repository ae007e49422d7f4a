"use client";

import { useEffect } from "react";

/**
 * Keeps the tab's title at `title` while this page is on screen. For the pages that cannot be shown:
 * as Next.js streams a page's metadata to a browser, a 404 of the auth pages gets the title of the page
 * that was asked for ("Forgot password"), and React puts a prerendered title back as it hydrates it.
 * Never another page's: once the address changes, it lets the title be.
 */
export function DocumentTitle({ title }: { readonly title: string }) {
  useEffect(() => {
    const path = window.location.pathname;
    const keep = () => {
      if (window.location.pathname === path && document.title !== title) document.title = title;
    };
    keep();
    const observer = new MutationObserver(keep);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [title]);
  return null;
}
