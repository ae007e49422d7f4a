"use client";

/** Shown when a page fails to render; the details stay in the server's log. */
export default function PageError({ reset }: { readonly error: Error; readonly reset: () => void }) {
  return (
    <section className="da-page-narrow" role="alert">
      <h1>Something went wrong</h1>
      <p>The page could not be shown. Try again in a moment.</p>
      <button type="button" className="da-button da-button-primary" onClick={reset}>
        Try again
      </button>
    </section>
  );
}
