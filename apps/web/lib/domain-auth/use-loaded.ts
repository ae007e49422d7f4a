import { useEffect, useEffectEvent, useRef, useState } from "react";

/** What {@link useLoaded} holds: the last value loaded and the key it was loaded for. */
export interface Loaded<T> {
  /** The value of the last load that finished; `undefined` before the first. */
  readonly value: T | undefined;
  /** The key `value` was loaded for; `null` before the first load finished. */
  readonly key: string | null;
  /** A load for the current key is under way (`value`, if any, is for an earlier key). */
  readonly loading: boolean;
}

/**
 * Loads a value in an effect, once for each `key`: a string that changes whenever what is loaded
 * changes (a path, a page, a reload counter); `null` loads nothing. An answer that arrives after the
 * key changed or the component went away is dropped, and the last value stays on show while the
 * next one loads. `onLoad` runs with each value that is kept. A key is loaded once even when React
 * runs the effect twice (development): the second run waits for the first one's answer.
 */
export function useLoaded<T>(key: string | null, load: () => Promise<T>, onLoad?: (value: T) => void): Loaded<T> {
  const [loaded, setLoaded] = useState<{ readonly key: string; readonly value: T } | null>(null);
  const start = useEffectEvent(load);
  const kept = useEffectEvent((value: T) => onLoad?.(value));
  const started = useRef<{ readonly key: string; readonly answer: Promise<T> } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let current = true;
    if (started.current?.key !== key) started.current = { key, answer: start() };
    started.current.answer.then((value) => {
      if (!current) return;
      kept(value);
      setLoaded({ key, value });
    });
    return () => {
      current = false;
    };
  }, [key]);
  return { value: loaded?.value, key: loaded?.key ?? null, loading: key !== null && loaded?.key !== key };
}
