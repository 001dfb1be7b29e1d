import { useEffect, useMemo, useState } from 'react';

/** The phone layout's width: under 640px (the breakpoint of styles.css). */
export const PHONE_QUERY = '(max-width: 639px)';

/** Whether the window is phone-sized now (follows resizes and rotation). */
export function useIsPhone(): boolean {
  const query = useMemo(
    () =>
      typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(PHONE_QUERY) : null,
    [],
  );
  const [phone, setPhone] = useState(() => query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const update = () => setPhone(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [query]);
  return phone;
}
